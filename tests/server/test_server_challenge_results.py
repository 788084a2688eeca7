"""A challenge's results hand by hand (issue 13, item 12): ``GET /api/challenges/{id}`` gives
each finished game's public facts (Omi: who chose which trump, the tricks and tokens of every
hand; Oti: who went out when, cards left, turns), taken from the finished game, and never a card
of the deal, which whoever opens the link next still plays; a game in play shows only that."""

from __future__ import annotations

import random
from typing import Any

from secrecy import cards_in
from server_harness import Client, http, open_table, oti_policy, play_out

from bistrot.oti.view import TURN_ACTIONS


def scanned(info: dict[str, Any]) -> dict[str, Any]:
    """The answer less its random ids (a table or challenge id could look like a card name)."""
    return {
        **{k: v for k, v in info.items() if k != "challenge"},
        "results": [{k: v for k, v in r.items() if k != "table"} for r in info["results"]],
    }


def challenge_of(base: str, table: str, token: str) -> str:
    with http(base) as client:
        answer = client.post(f"/api/tables/{table}/challenge", json={"token": token})
    assert answer.status_code == 200, answer.text
    challenge: str = answer.json()["challenge"]
    return challenge


def info_of(base: str, challenge: str) -> dict[str, Any]:
    with http(base) as client:
        answer = client.get(f"/api/challenges/{challenge}")
    assert answer.status_code == 200, answer.text
    info: dict[str, Any] = answer.json()
    return info


def play_challenge(base: str, challenge: str, name: str) -> dict[str, Any]:
    with http(base) as client:
        answer = client.post(f"/api/challenges/{challenge}/play", json={"name": name})
    assert answer.status_code == 201, answer.text
    opened: dict[str, Any] = answer.json()
    return opened


def test_omi_results_hand_by_hand_and_no_card_while_the_deal_can_be_played(server):
    table = open_table(server.url, mode="computer", rules={"target": 4}, level="easy", name="Ama")
    with Client(server.url, table["table"], table["seats"][0]["token"]) as me:
        play_out(me)
        final = me.view
    challenge = challenge_of(server.url, table["table"], table["seats"][0]["token"])

    info = info_of(server.url, challenge)
    [original] = info["results"]
    hands = original["facts"]["hands"]
    # Every hand as the finished game scored it: who chose which trump, tricks, tokens, carry.
    assert hands == final["results"] and len(hands) >= 2  # 3 tokens at most a hand
    assert {"chooser", "trump", "tricks", "side", "tokens", "carry", "kapothi"} <= set(hands[0])
    assert hands[0]["chooser"] == 0  # seat 0 chooses first: the seat wording says so
    assert original["summary"]["tokens"] == final["tokens"]
    assert cards_in(scanned(info)) == set(), "no card of the deal: anybody may still play it"
    assert final["deal_code"] not in str(info)

    # A challenger starts: their game shows only that it is being played, no fact of it yet.
    opened = play_challenge(server.url, challenge, "Kasun")
    with Client(server.url, opened["table"], opened["seats"][0]["token"]) as player:
        player.act(player.wait_turn_or_end()["legal"][0])  # the trump: the game is under way
        info = info_of(server.url, challenge)
        mid = info["results"][1]
        assert (mid["name"], mid["status"], mid["won"], mid["summary"], mid["facts"]) == (
            "Kasun", "playing", None, None, None)
        assert cards_in(scanned(info)) == set()
        play_out(player)
    # The same choices against the same computer players: the same hands, side by side.
    info = info_of(server.url, challenge)
    assert [r["status"] for r in info["results"]] == ["over", "over"]
    assert info["results"][1]["facts"]["hands"][0]["trump"] == player.view["results"][0]["trump"]
    assert info["results"][1]["facts"]["hands"] == player.view["results"]
    assert cards_in(scanned(info)) == set()


def test_oti_results_say_who_went_out_cards_left_and_turns(server):
    table = open_table(server.url, game="oti", mode="computer", rules={"players": 2}, level="easy",
                       name="Ama")
    with Client(server.url, table["table"], table["seats"][0]["token"]) as me:
        play_out(me, choose=oti_policy(random.Random(4)))
        final = me.view
    challenge = challenge_of(server.url, table["table"], table["seats"][0]["token"])
    opened = play_challenge(server.url, challenge, "Kasun")
    with Client(server.url, opened["table"], opened["seats"][0]["token"]) as player:
        player.wait_turn_or_end()
        info = info_of(server.url, challenge)

    original, attempt = info["results"]
    facts = original["facts"]
    assert facts["out"] == final["out"] and facts["out"][0] == final["winner"]
    assert facts["cards_left"] == [
        final["hand_counts"][s] + len(final["face_up"][s]) + final["face_down"][s] for s in (0, 1)
    ]
    if final["end_reason"] != "repetition":  # a game stopped going round in circles: fewest cards
        assert facts["cards_left"][final["winner"]] == 0
    turns = [sum(1 for e in final["history"] if e["seat"] == s and e["action"].split()[0] in TURN_ACTIONS)
             for s in (0, 1)]
    assert facts["turns"] == turns and all(turns)
    assert attempt["status"] == "playing" and attempt["facts"] is None
    # The finished game's face-up cards and history name cards: none of them is in the answer.
    assert cards_in(scanned(info)) == set()
    assert final["deal_code"] not in str(info)
