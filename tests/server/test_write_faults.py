"""What ``/healthz`` is told of a store's writes (storage.WriteFaults): a write refused by the
database holds the store unwritable until a write goes through; a write whose connection died
is an outage of reaching it (the health check's read tells that), and leaves no fault behind."""

from __future__ import annotations

import logging

from sqlalchemy import exc

from bistrot.server.storage import WriteFaults


def refused(message: str, *, lost: bool) -> exc.DBAPIError:
    return exc.OperationalError("UPDATE seats ...", {}, Exception(message), connection_invalidated=lost)


def test_a_write_on_a_connection_that_died_leaves_no_fault(caplog) -> None:
    faults = WriteFaults(logging.getLogger("test.faults"))
    cause = refused("terminating connection due to administrator command", lost=True)
    try:
        raise RuntimeError("the write failed") from cause
    except RuntimeError as wrapped:
        assert faults.failed_write(wrapped) is True
    assert faults.fault is None and faults.failed == 1
    assert "connection to the database was lost" in caplog.text


def test_a_write_the_database_refused_holds_the_fault_until_one_goes_through() -> None:
    faults = WriteFaults(logging.getLogger("test.faults"))
    assert faults.failed_write(refused("could not extend file: No space left on device", lost=False)) is True
    assert faults.fault == "could not extend file: No space left on device" and faults.failed == 1
    faults.wrote()
    assert faults.fault is None and faults.failed == 1


def test_a_write_refused_for_what_it_writes_is_no_fault_of_the_database() -> None:
    faults = WriteFaults(logging.getLogger("test.faults"))
    duplicate = exc.IntegrityError("INSERT", {}, Exception("duplicate key"))
    assert faults.failed_write(duplicate) is False
    assert faults.fault is None and faults.failed == 0
