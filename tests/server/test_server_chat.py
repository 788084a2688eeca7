"""Chat at a friends table: real clients, messages in order to every seat and spectator, stored
with the table, refused with codes when they may not be sent, changing nothing else."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from server_harness import Client, ThreadServer, http, make_settings, open_table, settle

from bistrot.tablecore.chat import KEPT


def chats(client: Client) -> list[tuple[int, int, str | None, str]]:
    return [(m["n"], m["seat"], m["name"], m["text"]) for m in client.messages if m["type"] == "chat"]


def friends(url: str) -> tuple[str, list[str], str]:
    """A friends table with three people seated (so it waits for a fourth)."""
    table = open_table(url, mode="friends", name="Ama")
    tokens = [table["seats"][0]["token"]]
    with http(url) as client:
        for name in ("Kasun", "Nimal"):
            body = {"invite": table["invite"], "name": name}
            tokens.append(client.post(f"/api/tables/{table['table']}/join", json=body).json()["token"])
    return table["table"], tokens, table["watch"]


def test_messages_reach_every_seat_and_spectator_in_order_and_spectators_only_read(server):
    tid, tokens, watch = friends(server.url)
    people = [Client(server.url, tid, token) for token in tokens]
    spectator = Client(server.url, tid, watch)
    for client in [*people, spectator]:
        settle(client)
    seq = people[0].seq
    said = [(0, "hello"), (1, "  hi Ama \n"), (2, "ready?"), (1, "යමු! 🎴"), (0, "go")]
    for n, (seat, text) in enumerate(said, 1):
        people[seat].send({"type": "chat", "id": f"c{seat}", "text": text})
        people[seat].wait_for(lambda m, n=n: m["type"] == "chat" and m["n"] == n)
    expected = [
        (1, 0, "Ama", "hello"), (2, 1, "Kasun", "hi Ama"), (3, 2, "Nimal", "ready?"),
        (4, 1, "Kasun", "යමු! 🎴"), (5, 0, "Ama", "go"),
    ]  # fmt: skip
    for client in [*people, spectator]:
        while len(chats(client)) < len(expected):
            client.recv()
        assert chats(client) == expected
    spectator.send({"type": "chat", "id": "s1", "text": "let me play"})
    refused = spectator.wait_for(lambda m: m["type"] == "reject")
    assert (refused["id"], refused["code"]) == ("s1", "spectator")
    # Too long or empty: refused with its code to the sender alone; nothing else changes.
    people[2].send({"type": "chat", "id": "long", "text": "x" * 201})
    people[2].send({"type": "chat", "id": "empty", "text": " \n\t "})
    people[2].send({"type": "chat", "id": "typed", "text": 42})
    codes = [people[2].wait_for(lambda m: m["type"] == "reject")["code"] for _ in range(3)]
    assert codes == ["chat_too_long", "bad_chat", "bad_chat"]
    for client in [*people, spectator]:
        settle(client)
        assert client.seq == seq and len(chats(client)) == 5
    for client in [*people, spectator]:
        client.close()


def test_a_new_connection_gets_the_last_messages_even_after_a_restart(tmp_path: Path):
    settings = make_settings(tmp_path)
    with ThreadServer(settings) as server:
        tid, tokens, _watch = friends(server.url)
        with Client(server.url, tid, tokens[0]) as ama:
            for n in range(1, KEPT + 6):
                ama.send({"type": "chat", "id": n, "text": f"message {n}"})
            ama.wait_for(lambda m: m["type"] == "chat" and m["n"] == KEPT + 5)
    # Stored with the table, and no more than are ever read: the oldest rows are gone.
    with sqlite3.connect(settings.db) as conn:
        numbers = [n for (n,) in conn.execute("SELECT n FROM chat WHERE table_id = ? ORDER BY n", (tid,))]
    assert numbers == list(range(6, KEPT + 6))
    # The same database: stored, not only in memory.
    with ThreadServer(settings) as server, Client(server.url, tid, tokens[1]) as kasun:
        settle(kasun)
        kept = chats(kasun)
        assert [n for n, *_ in kept] == list(range(6, KEPT + 6))
        assert kept[-1] == (KEPT + 5, 0, "Ama", f"message {KEPT + 5}")
        kasun.send({"type": "chat", "id": "next", "text": "and on"})
        assert kasun.wait_for(lambda m: m["type"] == "chat" and m["n"] > KEPT + 5)["n"] == KEPT + 6


@pytest.mark.settings(rate_burst=5, rate_per_s=0.5)
def test_a_chat_flood_meets_the_connections_rate_limit(server):
    tid, tokens, _watch = friends(server.url)
    with Client(server.url, tid, tokens[0]) as ama:
        settle(ama)  # (its ping is one of the burst)
        for n in range(10):
            ama.send({"type": "chat", "id": n, "text": f"spam {n}"})
        answers = [ama.wait_for(lambda m: m["type"] in ("chat", "reject")) for _ in range(10)]
        assert [a["type"] for a in answers[:4]] == ["chat"] * 4
        assert {a["code"] for a in answers[4:]} == {"rate_limited"}


def test_a_game_against_the_computer_has_no_chat(server):
    table = open_table(server.url, level="easy")
    with Client(server.url, table["table"], table["seats"][0]["token"]) as me:
        settle(me)
        me.send({"type": "chat", "id": "c", "text": "hello?"})
        assert me.wait_for(lambda m: m["type"] == "reject")["code"] == "chat_closed"


#: Texts shown to others: (text, whether a name and a chat message may be it).  A lone
#: surrogate was refused as storage_error with a traceback; a direction override and zero-width
#: spaces alone were sent to everyone, though names refused them.
TEXTS = [
    ("\ud800", False),
    ("hi \udfff", False),
    ("\u202eyalp lliw I", False),
    ("evil\u2066", False),
    ("\u200b\u200b", False),
    ("\u2060", False),
    ("\u3164\u3164", False),
    ("ශ්‍රී ලංකා", True),  # a Sinhala conjunct is written with ZERO WIDTH JOINER
    ("Ama 🎴", True),
]


@pytest.mark.parametrize(("text", "shown"), TEXTS)
def test_names_and_chat_follow_one_rule(server, error_records, text, shown):
    with http(server.url) as client:
        body = json.dumps({"game": "omi", "mode": "friends", "name": text})  # ASCII: a lone surrogate too
        answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == (201 if shown else 422), answer.text
        if not shown:
            assert answer.json()["code"] == "bad_request"
            assert "a name" in answer.json()["message"]
    tid, tokens, _watch = friends(server.url)
    with Client(server.url, tid, tokens[0]) as ama:
        settle(ama)
        ama.send({"type": "chat", "id": "c", "text": text})
        answer = ama.wait_for(lambda m: m["type"] in ("chat", "reject"))
        if shown:
            assert (answer["type"], answer["text"]) == ("chat", text)
        else:
            assert (answer["type"], answer["id"], answer["code"]) == ("reject", "c", "bad_chat"), answer
            assert "a chat message" in answer["message"]
            assert chats(ama) == []
    assert error_records.records == []
