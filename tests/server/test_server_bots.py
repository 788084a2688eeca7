"""Computer moves are computed away from the event loop."""

from __future__ import annotations

import dataclasses

from server_harness import BlockingBot, Client, ThreadServer, make_settings, open_table

from bistrot import games


def test_a_slow_computer_player_never_stalls_other_tables(tmp_path):
    omi = games.get("omi")
    slow_omi = dataclasses.replace(omi, bots={**omi.bots, "hard": "server_harness:BlockingBot"})
    with games.registered(slow_omi):
        a_slow_computer_player_never_stalls_other_tables(tmp_path)


def a_slow_computer_player_never_stalls_other_tables(tmp_path):
    BlockingBot.release.clear()
    BlockingBot.started.clear()
    with ThreadServer(make_settings(tmp_path, bot_workers=2)) as server:
        slow = open_table(server.url, mode="computer", level="hard", seed=42)
        other = open_table(server.url, mode="hotseat", seed=43)
        with (
            Client(server.url, slow["table"], slow["seats"][0]["token"]) as me,
            Client(server.url, other["table"], other["seats"][0]["token"]) as elsewhere,
        ):
            me.wait_turn_or_end()
            assert me.act(me.view["legal"][0])["type"] == "ack"  # trump chosen; seat 0 leads
            assert me.act(me.view["legal"][0])["type"] == "ack"  # now seat 1, the slow bot, thinks
            assert BlockingBot.started.wait(20)
            # Meanwhile another table is served at once: its ack and state arrive while the
            # slow computer player is still thinking.
            elsewhere.wait_for(lambda m: m["type"] == "state")
            assert elsewhere.act(elsewhere.view["legal"][0]) == {"type": "ack", "id": "m1", "seq": 1}
            assert not BlockingBot.release.is_set() and me.seq == 2
            BlockingBot.release.set()
            moved = me.wait_for(lambda m: m["type"] == "state" and m["seq"] == 3)
            assert moved["last"]["seat"] == 1 and moved["last"]["by"] == "computer"
