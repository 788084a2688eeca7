"""What a test needs, said with a marker, so that ``scripts/test --fast`` can leave it out.

Every marker is registered in pyproject.toml (``[tool.pytest.ini_options] markers``), where each
says what it means.  Tests that take the fixtures of a service are marked by
``tests/conftest.py`` from those fixtures; a test that starts a service itself says so with
``pytestmark`` or ``@pytest.mark.<marker>``.  Whatever the test forgot, the helpers that start a
service call :func:`starting`, which fails a test of the fast lane that starts one: the lane
then stays fast, and the failure names the marker to add.
"""

from __future__ import annotations

import os

import pytest

#: The environment variable scripts/test --fast sets.
LANE_VARIABLE = "BISTROT_TEST_LANE"

#: The markers the fast lane leaves out: tests that need a browser, a server (the card room's, in a
#: thread or a process, or a database's) or more than a few seconds.
SLOW_LANE = ("browser", "postgres", "redis", "nginx", "cluster", "server", "process", "install", "ray",
             "slow")
FAST_EXPRESSION = "not (" + " or ".join(SLOW_LANE) + ")"
"""The fast lane's ``pytest -m`` expression.

>>> FAST_EXPRESSION
'not (browser or postgres or redis or nginx or cluster or server or process or install or ray or slow)'
"""


def in_fast_lane() -> bool:
    return os.environ.get(LANE_VARIABLE) == "fast"


def starting(marker: str, what: str) -> None:
    """Called before ``what`` (a server process or a browser) starts: in the fast lane, the test
    that starts it lacks ``marker``."""
    assert marker in SLOW_LANE, marker
    if in_fast_lane():
        pytest.fail(
            f"this test starts {what} but is not marked @pytest.mark.{marker}: the fast lane"
            f" (scripts/test --fast) runs only tests that need no browser or server process",
            pytrace=False,
        )
