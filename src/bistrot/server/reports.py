"""Reporting a player: a person at a table reports another person at it, with a reason, and the
report is stored for the card room's operator (``SELECT * FROM reports``: docs/server.md).

The reporter proves their seat with its token, checked against the stored hash, so a report
needs no trip to the table's owner node.  One report per reporter and reported seat at a table;
the reason follows the one rule of every text shown to people (:mod:`bistrot.tablecore.text`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import Connection, insert, select

from bistrot.server.players import Profiles
from bistrot.server.protocol import ApiError, ErrorBody
from bistrot.server.schema import reports, seats
from bistrot.tablecore import text as text_rule
from bistrot.tablecore.plan import HUMAN
from bistrot.tablecore.records import secret_hash

#: The longest reason.
MAX_REASON_CHARS = 500


def report_reason(text: str) -> str:
    """``text`` as a report's reason: the rule of every text shown to people, 1 to 500 characters.

    >>> report_reason("  rude in the chat ")
    'rude in the chat'
    """
    return text_rule.check(text.strip(), "a reason", MAX_REASON_CHARS)


class Report(BaseModel):
    """``POST /api/tables/{table}/report``."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=64, description="the reporter's seat token")
    seat: StrictInt = Field(ge=0, le=7, description="the seat of the player reported")
    reason: Annotated[str, AfterValidator(report_reason)] = Field(
        max_length=2000, description=f"what happened, 1 to {MAX_REASON_CHARS} characters"
    )


class Reported(BaseModel):
    reported: int


def add_reports(app: FastAPI, profiles: Profiles, clock: Callable[[], float] = time.time) -> None:
    """Register the report route on ``app`` (its store: the profiles')."""

    @app.post(
        "/api/tables/{table_id}/report",
        status_code=201,
        response_model=Reported,
        responses={code: {"model": ErrorBody} for code in (403, 409, 413, 422, 503)},
        tags=["players"],
    )
    async def report(table_id: str, body: Report) -> dict[str, Any]:
        """Report the player of ``seat`` at this table, for the operator to read."""
        reason = body.reason
        by_hash, at = secret_hash(body.token), clock()

        def write(conn: Connection) -> ApiError | None:
            # A refusal is returned, not raised: nothing is written, and the store takes an
            # exception for its own failure.
            people = {
                r.seat: r
                for r in conn.execute(
                    select(seats.c.seat, seats.c.token_hash, seats.c.profile, seats.c.name).where(
                        seats.c.table_id == table_id, seats.c.kind == HUMAN
                    )
                )
            }
            by = next((r for r in people.values() if r.token_hash == by_hash), None)
            if by is None:
                return ApiError(403, "bad_token", "this token holds no seat at this table")
            reported = people.get(body.seat)
            if reported is None or reported.seat == by.seat:
                return ApiError(422, "bad_seat", f"seat {body.seat} is not another person at this table")
            done = select(reports.c.at).where(
                reports.c.table_id == table_id, reports.c.by_seat == by.seat, reports.c.seat == body.seat
            )
            if conn.execute(done).first() is not None:
                return ApiError(409, "already_reported", "you reported this player at this table already")
            row = {
                "table_id": table_id, "by_seat": by.seat, "seat": body.seat, "by_profile": by.profile,
                "profile": reported.profile, "name": reported.name, "reason": reason, "at": at,
            }  # fmt: skip
            conn.execute(insert(reports), row)
            return None

        refused = await profiles.write(write)
        if refused is not None:
            raise refused
        return {"reported": body.seat}
