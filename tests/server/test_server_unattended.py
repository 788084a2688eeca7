"""Computer players never play on for ever at a table nobody is at (issue: runaway tables): they
pause once no seat has had a connection for ``unattended_pause_s``, and go on when someone
comes back."""

from __future__ import annotations

import time

from server_harness import Client, ThreadServer, http, make_settings, open_table


def seq_of(base: str, table: str) -> int:
    with http(base) as client:
        return int(client.get(f"/api/tables/{table}").json()["seq"])


def wait_until_still(base: str, table: str, quiet_s: float, timeout: float = 20.0) -> int:
    """The table's seq once it has not moved for ``quiet_s`` (computer moves here come every
    20 ms while they play, so a second without one means they stopped)."""
    deadline = time.monotonic() + timeout
    seq = seq_of(base, table)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = seq_of(base, table)
        if now == seq:
            return now
        seq = now
    raise AssertionError(f"the computer players never stopped (seq {seq})")


def test_computers_pause_at_a_table_nobody_is_at_and_go_on_when_someone_returns(tmp_path):
    settings = make_settings(tmp_path, grace_s=0.05, unattended_pause_s=0.5, bot_delay_ms=20)
    with ThreadServer(settings) as server:
        # A long match against the computer; its player never connects, so after the grace
        # period a computer plays their seat too: four computers, nobody watching.
        made = open_table(server.url, mode="computer", level="easy", rules={"target": 99})
        table, token = made["table"], made["seats"][0]["token"]
        paused = wait_until_still(server.url, table, quiet_s=1.0)
        with http(server.url) as client:
            assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
        # The player comes back: their seat is theirs again, and the computers go on around them.
        with Client(server.url, table, token) as me:
            def computer_moved() -> bool:
                return any(
                    m["type"] == "state" and m["seq"] > paused and (m["last"] or {}).get("by") == "computer"
                    for m in me.messages
                )

            for _ in range(40):  # the player may lead a few times before a computer is to play
                view = me.wait_turn_or_end()
                if computer_moved() or view["is_over"]:
                    break
                assert me.act(view["legal"][0])["type"] == "ack"
            assert computer_moved()
