"""A challenge's results hand by hand (issue 13, item 12): ``GET /api/challenges/{id}`` gives
each finished game's public facts (Omi: who chose which trump, the tricks and tokens of every
hand; Oti: who went out when, cards left, turns), taken from the finished game, and never a card
of the deal, which whoever opens the link next still plays; a game in play shows only that.

Those facts go only to a caller who has finished a game on the deal (a finished table of the
challenge named with ``?table=`` and a token of it): before, they would spoil the challenge (the
trumps the computer players chose tell of the hands the caller is about to play against)."""

from __future__ import annotations

import json
import random
from typing import Any

from secrecy import cards_in
from server_harness import Client, bearer, drive, http, open_table, oti_policy, play_out

from bistrot.oti.view import TURN_ACTIONS
from bistrot.server import room as room_module
from bistrot.server.node_calls import NodeCall, decode


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


def info_of(base: str, challenge: str, table: str | None = None, token: str | None = None) -> dict[str, Any]:
    """The challenge's results, as a caller holding ``token`` of ``table`` is answered."""
    with http(base) as client:
        answer = client.get(f"/api/challenges/{challenge}", params={} if table is None else {"table": table},
                            headers={} if token is None else bearer(token))
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
    mine = (table["table"], table["seats"][0]["token"])  # the facts go to a player of the deal

    info = info_of(server.url, challenge, *mine)
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
        info = info_of(server.url, challenge, *mine)
        mid = info["results"][1]
        assert (mid["name"], mid["status"], mid["won"], mid["summary"], mid["facts"]) == (
            "Kasun", "playing", None, None, None)
        assert cards_in(scanned(info)) == set()
        play_out(player)
    # The same choices against the same computer players: the same hands, side by side.
    info = info_of(server.url, challenge, *mine)
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
        info = info_of(server.url, challenge, table["table"], table["seats"][0]["token"])

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


#: Keys only the hand-by-hand facts have (a summary says the tokens and how many hands, no more).
HAND_BY_HAND = ('"facts"', '"trump"', '"tricks"', '"chooser"', '"carry"', '"out"', '"turns"')


def assert_withheld(info: dict[str, Any]) -> None:
    """The answer of someone who has not finished a game on the deal: no fact of any game."""
    text = json.dumps(info)
    assert [key for key in HAND_BY_HAND if key in text] == []
    assert all("facts" not in result for result in info["results"])
    assert info["facts_shown"] is False


def without_facts(info: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: v for k, v in info.items() if k != "facts_shown"},
        "results": [{k: v for k, v in r.items() if k != "facts"} for r in info["results"]],
    }


def refusal(base: str, challenge: str, params: dict[str, str], headers: dict[str, str]) -> tuple[int, Any]:
    with http(base) as client:
        answer = client.get(f"/api/challenges/{challenge}", params=params, headers=headers)
    return answer.status_code, answer.json()


def test_the_facts_go_only_to_whoever_finished_a_game_on_the_deal(server):
    table = open_table(server.url, mode="computer", rules={"target": 1}, level="easy", name="Ama")
    source, token, watch = table["table"], table["seats"][0]["token"], table["watch"]
    with Client(server.url, source, token) as me:
        play_out(me)
        final = me.view
    challenge = challenge_of(server.url, source, token)

    # Whoever opens the link: the headline of each game, nothing hand by hand.
    public = info_of(server.url, challenge)
    assert_withheld(public)
    [original] = public["results"]
    assert (original["name"], original["status"]) == ("Ama", "over")
    assert original["summary"]["tokens"] == final["tokens"]
    assert original["won"] == (final["winner"] == 0)
    assert public["first_to_move"] == final["results"][0]["chooser"] == 0  # who sits down first
    assert info_of(server.url, challenge, token=token) == public  # a token alone names no table

    # The original's player (its seat token or its watch key): every hand, the rest alike.
    for key in (token, watch):
        shown = info_of(server.url, challenge, source, key)
        assert shown["facts_shown"] is True
        assert shown["results"][0]["facts"]["hands"] == final["results"]
        assert without_facts(shown) == without_facts(public)

    # A challenger: nothing hand by hand while their own game is being played.
    opened = play_challenge(server.url, challenge, "Kasun")
    attempt, mine = opened["table"], opened["seats"][0]["token"]
    other = open_table(server.url, mode="computer", rules={"target": 1}, level="easy")  # no challenge's
    with Client(server.url, attempt, mine) as player:
        player.act(player.wait_turn_or_end()["legal"][0])
        player.wait_turn_or_end()  # the computer players wait for Kasun: nothing moves meanwhile
        before = info_of(server.url, challenge)
        playing = info_of(server.url, challenge, attempt, mine)
        assert_withheld(playing)
        assert playing == before and playing["results"][1]["status"] == "playing"

        # Refused, each the same whatever else: a token of another table of this challenge, a
        # table named without a token, an empty table, a table not of this challenge (unknown, or
        # with a token valid there: the answer says nothing of it).
        wrong = {"code": "bad_token",
                 "message": "this token holds no seat at this table and is not its watch key"}
        assert refusal(server.url, challenge, {"table": source}, bearer(mine)) == (403, wrong)
        assert refusal(server.url, challenge, {"table": attempt}, bearer(token))[1]["code"] == "bad_token"
        assert refusal(server.url, challenge, {"table": source}, bearer("nonsense"))[1]["code"] == "bad_token"
        for headers in ({}, {"Authorization": f"Basic {token}"}, {"Authorization": "Bearer"}):
            status, body = refusal(server.url, challenge, {"table": source}, headers)
            assert (status, body["code"]) == (403, "missing_token"), headers
        status, body = refusal(server.url, challenge, {"table": ""}, bearer(token))
        assert (status, body["code"]) == (422, "bad_request")
        foreign = [
            refusal(server.url, challenge, {"table": table_id}, bearer(key))
            for table_id, key in (("no-such-table", token), ("no-such-table", "nonsense"),
                                  (other["table"], other["seats"][0]["token"]), (other["table"], "nonsense"),
                                  ("x" * 64, mine))
        ]
        assert foreign[0][0] == 403 and foreign[0][1]["code"] == "not_challenge_table"
        assert all(answer == foreign[0] for answer in foreign), foreign
        assert refusal(server.url, "no-such-challenge", {"table": source}, bearer(token))[0] == 404

        # Nothing changed: the same answers as before, Kasun's game going on.
        assert info_of(server.url, challenge) == before
        assert info_of(server.url, challenge, attempt, mine) == playing
        play_out(player)
        mine_final = player.view

    # Kasun has played the deal through: every game's facts, side by side.
    shown = info_of(server.url, challenge, attempt, mine)
    assert shown["facts_shown"] is True
    assert [r["facts"]["hands"] for r in shown["results"]] == [final["results"], mine_final["results"]]
    assert cards_in(scanned(shown)) == set()
    assert_withheld(info_of(server.url, challenge))  # and still nothing to anyone else

    # A challenge made from Kasun's game is another challenge: Ama's table is not one of its
    # tables, Kasun's is its original; Kasun's is still one of the first challenge's.
    second = challenge_of(server.url, attempt, mine)
    status, body = refusal(server.url, second, {"table": source}, bearer(token))
    assert (status, body["code"]) == (403, "not_challenge_table")
    assert info_of(server.url, second, attempt, mine)["facts_shown"] is True
    assert info_of(server.url, challenge, attempt, mine)["facts_shown"] is True


def test_a_challenge_asked_of_another_node_carries_the_table_and_token(server, monkeypatch):
    """A cluster node forwards ``GET /api/challenges/{id}`` to the node of the challenge's source
    table (room.py ``_at_owner``): the named table and its token go along, through the call's
    JSON, and the answer is that node's.  Here the room calls itself as the other node."""
    table = open_table(server.url, mode="computer", rules={"target": 1}, level="easy", name="Ama")
    source, token = table["table"], table["seats"][0]["token"]
    with Client(server.url, source, token) as me:
        play_out(me)
    challenge = challenge_of(server.url, source, token)
    room = server.room
    calls: list[dict[str, Any]] = []

    class Loopback:
        async def call(self, node: str, call: NodeCall[Any]) -> Any:
            sent = json.loads(json.dumps(call.encode()))
            calls.append(sent)
            return call.result(json.loads(json.dumps(await room.forwarded(decode(sent)))))

    async def elsewhere(challenge_id: str) -> str | None:
        return None if room_module._FORWARDED.get() else "node-b"  # the other node: its own

    monkeypatch.setattr(room, "cluster", Loopback())
    monkeypatch.setattr(room, "_challenge_owner", elsewhere)
    shown = info_of(server.url, challenge, source, token)
    assert shown["facts_shown"] is True and shown["results"][0]["facts"]["hands"]
    assert calls == [{"call": "challenge_info", "challenge_id": challenge, "table": source, "token": token}]
    assert_withheld(info_of(server.url, challenge, token=token))
    # A token alone is not sent.
    assert calls[-1] == {"call": "challenge_info", "challenge_id": challenge, "table": None, "token": None}
    status, body = refusal(server.url, challenge, {"table": source}, bearer("nonsense"))
    assert (status, body["code"]) == (403, "bad_token")  # the other node's refusal, as it made it
    monkeypatch.setattr(room, "cluster", None)  # (before the server stops)


def test_the_original_game_says_who_sat_where_a_friend_by_name(server):
    """The original game's result has its seats (kind, name, level): its other seats may have
    been people, where every attempt has the challenge's computers (which the answer lists)."""
    table = open_table(server.url, mode="friends", rules={"target": 1}, level="easy", name="Ama")
    tid, mine = table["table"], table["seats"][0]["token"]
    with http(server.url) as client:
        joined = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"], "name": "Kasun"})
        assert joined.status_code == 200, joined.text
        assert client.post(f"/api/tables/{tid}/start", json={"token": mine}).status_code == 200
    with Client(server.url, tid, mine) as me, Client(server.url, tid, joined.json()["token"]) as friend:
        drive([me, friend], random.Random(3))
    challenge = challenge_of(server.url, tid, mine)
    play_challenge(server.url, challenge, "Nimali")
    for info in (info_of(server.url, challenge), info_of(server.url, challenge, tid, mine)):
        original, attempt = info["results"]
        assert original["seats"] == [
            {"seat": 0, "kind": "human", "name": "Ama", "level": None},
            {"seat": 1, "kind": "human", "name": "Kasun", "level": None},
            {"seat": 2, "kind": "computer", "name": None, "level": "easy"},
            {"seat": 3, "kind": "computer", "name": None, "level": "easy"},
        ]
        assert "seats" not in attempt  # Nimali's: the challenge's computers, Kasun's seat a medium one
        assert info["computers"] == [{"seat": 1, "level": "medium"}, {"seat": 2, "level": "easy"},
                                     {"seat": 3, "level": "easy"}]
