"""The store's outages, said once each: one line when reads start failing, one when it answers
again, whatever the number of requests refused meanwhile.

While PostgreSQL is down every WebSocket connect to a table out of memory, every ``/healthz``
and every call about a table owned elsewhere fails the same way; a traceback for each made
hundreds of lines a second.  The first failure of an outage is logged (its error on one line,
the traceback at DEBUG level), the rest are counted, and the first success ends the outage.

>>> import logging
>>> logger = logging.getLogger("doctest.outage")
>>> logger.addHandler(logging.StreamHandler(__import__("sys").stdout)); logger.propagate = False
>>> logger.setLevel(logging.INFO)
>>> outage = Outage(logger)
>>> for _ in range(3):
...     outage.failed(OSError("connection refused\\n\\tIs the server running?"))
the store cannot be reached: OSError: connection refused (said once until it answers again)
>>> outage.down, outage.failures
(True, 3)
>>> outage.answered()  # doctest: +ELLIPSIS
the store answers again after ... s (3 failures meanwhile)
>>> outage.down, outage.failures
(False, 0)
"""

from __future__ import annotations

import logging
import time


def one_line(err: BaseException) -> str:
    """``err`` as one log line: its type and the first line of its message (a driver's error,
    such as SQLAlchemy's wrapping psycopg's, says the cause first and adds lines after).

    >>> one_line(ValueError("bad\\nmore"))
    'ValueError: bad'
    >>> one_line(TimeoutError())
    'TimeoutError'
    """
    first = " ".join(str(err).split("\n", 1)[0].split())
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


class Outage:
    """Whether the store is failing, as far as the reads of this node have seen; see the module
    docstring.  Not a lock nor a circuit breaker: every request still tries the store, so the
    first one after it comes back succeeds."""

    def __init__(self, log: logging.Logger) -> None:
        self.log = log
        #: When the current outage began (monotonic clock); None: the store answers.
        self.since: float | None = None
        #: Failures seen in the current outage.
        self.failures = 0

    @property
    def down(self) -> bool:
        """Whether the last read failed."""
        return self.since is not None

    def failed(self, err: BaseException) -> None:
        """A read of the store failed with ``err``: logged if it begins an outage."""
        self.failures += 1
        if self.since is not None:
            return
        self.since = time.monotonic()
        self.log.warning("the store cannot be reached: %s (said once until it answers again)", one_line(err))
        self.log.debug("the first failure of this outage", exc_info=err)

    def answered(self) -> None:
        """A read of the store succeeded: an outage, if any, is over (logged)."""
        if self.since is None:
            return
        lasted = time.monotonic() - self.since
        self.log.info("the store answers again after %.0f s (%d failures meanwhile)", lasted, self.failures)
        self.since, self.failures = None, 0
