from __future__ import annotations

from server_harness import Client, http, open_table, play_out


def test_healthz_and_a_whole_omi_match_against_the_computer(server):
    with http(server.url) as client:
        assert client.get("/healthz").json() == {"ok": True, "tables": 0}
    table = open_table(server.url, mode="computer", level="easy", rules={"target": 3})
    [seat] = table["seats"]
    with Client(server.url, table["table"], seat["token"]) as me:
        played = play_out(me)
        assert me.view["is_over"]
    assert played
