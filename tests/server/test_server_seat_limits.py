"""What one seat token may cost the others: its chat is counted per seat, whatever the number of
its connections (each message goes to every connection at the table), and it holds at most
``max_connections_per_seat`` connections at once; one more is refused ``too_many_connections``
and closed 4429.  The watch key, shared by every spectator, is not capped."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from server_harness import Client, ThreadServer, open_table, settle
from test_server_chat import chats, friends
from websockets.exceptions import ConnectionClosed

BURST, PER_S = 10, 1.0


def refusal(client: Client) -> tuple[list[tuple[str, str]], int | None, str | None]:
    """What a refused connection was sent, and its close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv()
    frame = closed.value.rcvd
    said = [(m["type"], m.get("code", "")) for m in client.messages]
    return said, None if frame is None else frame.code, None if frame is None else frame.reason


@pytest.mark.settings(chat_burst=BURST, chat_per_s=PER_S, max_connections_per_seat=30)
def test_thirty_connections_of_one_seat_share_its_chat_rate(server: ThreadServer) -> None:
    tid, tokens, _watch = friends(server.url)
    with contextlib.ExitStack() as stack:
        kasun = stack.enter_context(Client(server.url, tid, tokens[1]))
        ama = [stack.enter_context(Client(server.url, tid, tokens[0])) for _ in range(30)]
        for client in [kasun, *ama]:
            settle(client)
        started = time.monotonic()
        for round_ in range(3):
            for n, client in enumerate(ama):
                client.send({"type": "chat", "id": f"{n}-{round_}", "text": f"spam {n} {round_}"})
        for client in ama:
            settle(client)  # its three messages are answered (a chat to all, or a reject to it)
        settle(kasun)  # every chat stored has reached Kasun
        elapsed = time.monotonic() - started
        said = chats(kasun)
        refused: list[dict[str, Any]] = [m for c in ama for m in c.messages if m["type"] == "reject"]
        assert {m["code"] for m in refused} == {"rate_limited"}
        assert len(said) + len(refused) == 90
        # The seat's burst, then its rate: not 30 times it.
        assert BURST <= len(said) <= BURST + PER_S * elapsed + 1, (len(said), elapsed)
        assert {seat for _n, seat, _name, _text in said} == {0}
        assert [n for n, *_ in said] == list(range(1, len(said) + 1))  # nothing lost in between


def test_a_seat_token_holds_four_connections_and_the_next_is_refused(server: ThreadServer) -> None:
    table = open_table(server.url, level="easy")
    tid, token = table["table"], table["seats"][0]["token"]
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(Client(server.url, tid, token)) for _ in range(4)]
        for client in held:
            settle(client)
        for _ in range(26):  # 30 in all
            extra = Client(server.url, tid, token)
            assert refusal(extra) == ([("reject", "too_many_connections")], 4429, "too_many_connections")
        # The four are untouched, the seat still connected.
        for client in held:
            settle(client)
            client.send({"type": "sync"})
            state = client.wait_for(lambda m: m["type"] == "state")
            assert state["view"]["seats"][0]["connected"] is True
        # One closes: a new one is let in (once the server has seen the close), then the cap
        # holds again.
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:
            again = Client(server.url, tid, token)
            first = again.recv()
            if first["type"] == "state":
                break
            assert first["code"] == "too_many_connections" and time.monotonic() < deadline
            time.sleep(0.05)
        stack.enter_context(again)
        assert refusal(Client(server.url, tid, token))[1] == 4429
        # The watch key is every spectator's: not capped.
        watchers = [stack.enter_context(Client(server.url, tid, table["watch"])) for _ in range(6)]
        for client in watchers:
            settle(client)
