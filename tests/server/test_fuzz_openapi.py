"""Schemathesis against the HTTP API's OpenAPI schema, on a real server (uvicorn in a thread).

Every operation of ``/openapi.json`` is called with requests generated from the schema, valid
and invalid (schemathesis's coverage and fuzzing phases), and every answer must be documented:
no 5xx, a status code the schema lists for that operation, its content type, and a body that
matches the schema.  Random table and challenge ids only ever meet ``404``, so a drawn ``target``
points a request at a real table instead (a friends table still waiting, or a finished one with
its challenge) with that table's token and invite: the answers of tables that exist are checked
too.  Derandomized and bounded (``max_examples`` per operation): about 10 s here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from server_harness import Client, ThreadServer, make_settings, open_table, play_out

from bistrot.server import Settings, create_app

# The schema is the app's own, built without starting it (nothing is opened before start-up), so
# that pytest can list the operations; test_served_schema_is_the_one_fuzzed checks that the
# server serves this very schema.  (schemathesis.pytest.from_fixture, which would load it from
# the running server, fails under pytest 9: it sets a Node attribute pytest no longer has.)
SCHEMA = create_app(Settings(db="unused.db")).openapi()
# The live lobby answers an endless stream (a client calls it and reads events as they come):
# tests/server/test_lobby.py follows it, and fuzzes its one parameter.
schema = schemathesis.openapi.from_dict(SCHEMA).exclude(path="/api/lobby/events")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with ThreadServer(make_settings(tmp_path_factory.mktemp("openapi"))) as server:
        yield server


@pytest.fixture(scope="module")
def known(api: ThreadServer) -> dict[str, dict[str, Any]]:
    """Real ids and secrets to aim requests at: ``waiting`` (a friends table nobody joined yet)
    and ``over`` (a finished Omi match, and a challenge on its deal); ``tables``, for the
    history, names both."""
    friends = open_table(api.url, mode="friends")
    over = open_table(api.url, rules={"target": 1}, level="easy")
    token = over["seats"][0]["token"]
    with Client(api.url, over["table"], token) as client:
        play_out(client)
    with httpx.Client(base_url=api.url) as http:
        challenge = http.post(f"/api/tables/{over['table']}/challenge", json={"token": token})
    assert challenge.status_code == 200, challenge.text
    return {
        "waiting": {
            "table_id": friends["table"],
            "token": friends["seats"][0]["token"],
            "invite": friends["invite"],
        },
        "over": {
            "table_id": over["table"],
            "token": token,
            "challenge_id": challenge.json()["challenge"],
            "tables": [over["table"], friends["table"]],
        },
    }


def aim(case: Any, values: dict[str, Any]) -> None:
    """Put the real ids and secrets in the places the generated request has them."""
    for where in (case.path_parameters, case.body):
        if isinstance(where, dict):
            for key in where.keys() & values.keys():
                where[key] = values[key]
    if "token" in values and case.path.endswith(("/record", "/replay")):
        # The finished table's deal is a challenge's: its record and replay need its token
        # (their refusal without it is tests/server/test_history_replay.py's).
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {values['token']}"}
    if "challenge_id" in values and (case.query or {}).get("table") is not None:
        # A challenge's results with each game's facts: for the player of its finished table.
        case.query = {**case.query, "table": values["table_id"]}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {values['token']}"}


def test_served_schema_is_the_one_fuzzed(api: ThreadServer) -> None:
    with httpx.Client(base_url=api.url) as http:
        assert http.get("/openapi.json").json() == SCHEMA


@schema.parametrize()
@schema.given(target=st.sampled_from([None, "waiting", "over"]))
@settings(
    max_examples=30,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_answer_is_documented(
    case: Any, target: str | None, api: ThreadServer, known: dict[str, dict[str, Any]]
) -> None:
    if target is not None:
        aim(case, known[target])
    case.call_and_validate(base_url=api.url, checks=CHECKS)
