"""A third game registered through the registry alone (tests/toy_game.py, "High card") plays
through everything that hosts games: the engine contract, ``bistrot arena``, the table on the
player's device and a real server over WebSocket, with no other file of src/ knowing of it."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bistrot import analysis, bots, games
from bistrot.arena.rotation import run_arena
from bistrot.cli import main
from bistrot.engine import Game, GameBase
from bistrot.errors import IllegalAction
from bistrot.local import JsonRoom, LocalRoom
from bistrot.tablecore.errors import TableError
from tests.server.server_harness import (
    Client,
    ThreadServer,
    assert_gap_free,
    drive,
    http,
    log_of,
    make_settings,
    open_table,
    play_out,
    settle,
)
from toy_game import ENTRY, EasyToyBot, MediumToyBot, ToyGame, ToyRules, strength

RULES = [ToyRules(players=2, rounds=1), ToyRules(), ToyRules(players=4, rounds=9)]


@pytest.fixture
def toy() -> Iterator[games.GameEntry]:
    """The toy game registered for one test; the registry is as it was afterwards."""
    before = games.names()
    with games.registered(ENTRY) as entry:
        assert games.names() == [*before, "toy"]
        yield entry
    assert games.names() == before == ["omi", "oti"]


def random_game(rules: ToyRules, seed: int, steps: int | None = None) -> ToyGame:
    game = ToyGame.new(rules, seed)
    rng = random.Random(seed)
    while not game.is_over and (steps is None or len(game.actions) < steps):
        game.apply(rng.choice(game.legal_actions()), seat=rng.choice([None, game.to_move]))
    return game


def hidden_from(game: ToyGame, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see: every hand but its own."""
    return {card for other, hand in enumerate(game.hands) if other != seat for card in hand}


def shown(view: dict[str, Any]) -> set[str]:
    """Every card named anywhere in a view (or a message)."""
    text = json.dumps(view)
    return {name for name in (r + s for r in "23456789TJQKA" for s in "SHDC") if f'"{name}"' in text
            or f"play {name}" in text}


# ------------------------------------------------------------------ the engine contract


@pytest.mark.parametrize("rules", RULES, ids=["2x1", "3x3", "4x9"])
def test_the_toy_engine_keeps_the_game_contract(rules):
    game = ToyGame.new(rules, seed=5)
    assert isinstance(game, Game) and isinstance(game, GameBase)
    assert game.players == rules.players and game.rules == rules and game.seed == 5
    assert game.deal_code == ToyGame.new(rules, seed=game.deal_code).deal_code
    assert game.actors() == [game.to_move] == [0] and not game.is_over and game.winner is None
    assert ToyGame.new(rules, seed=5) == game and hash(ToyGame.new(rules, seed=5)) == hash(game)
    assert repr(game).startswith(f"<ToyGame {game.deal_code} ")
    assert len({c for hand in game.hands for c in hand}) == rules.players * rules.rounds
    # a refused action leaves the game as it was
    before = game.copy()
    other = game.hands[1][0]
    for action, seat, code in [
        ("play " + other, None, "not_held"), ("play " + game.hands[0][0], 1, "not_your_turn"),
        ("pass", None, "unknown_action"), ("play ZZ", 0, "unknown_action"), ("play AS", 9, "unknown_seat"),
    ]:
        with pytest.raises(IllegalAction) as err:
            game.apply(action, seat=seat)
        assert err.value.code == code and game == before
    game = random_game(rules, 8)
    assert game.is_over and game.actors() == [] and game.legal_actions() == []
    assert len(game.actions) == rules.players * rules.rounds and sum(game.points) == rules.rounds
    summary = game.summary()
    json.dumps(summary)
    assert summary == {"winner": game.winner, "points": game.points}
    assert game.view(None)["deal_code"] == game.deal_code
    with pytest.raises(IllegalAction) as err:
        game.apply("play AS")
    assert err.value.code == "game_over"


@pytest.mark.parametrize("seed", range(40))
def test_replays_records_copies_and_views_from_any_point(seed):
    rules = RULES[seed % len(RULES)]
    total = rules.players * rules.rounds
    game = random_game(rules, seed, steps=random.Random(-seed).randint(0, total))
    back = ToyGame.from_record(game.record())
    assert back == game and back.view(None) == game.view(None) and back.record() == game.record()
    assert ToyGame.replay(rules, game.deal_code, game.actions) == game
    assert ToyGame.replay(rules, game.seed, [text for _, text in game.actions]) == game
    copy = game.copy()
    assert copy == game and copy.actions is not game.actions and copy.hands is not game.hands
    for seat in [*range(game.players), None]:
        view = game.view(seat)
        assert not shown(view) & hidden_from(game, seat), f"seat {seat} sees a hidden card"
        assert view["hand"] == ([] if seat is None else game.hands[seat])
        assert view["counts"] == [len(h) for h in game.hands]
        assert ("deal_code" in view) == game.is_over
        assert view["legal"] == (game.legal_actions(seat) if seat is not None else [])


def test_the_winner_is_the_seat_with_most_points_and_a_shared_top_is_a_draw():
    outcomes = set()
    for seed in range(60):
        game = random_game(ToyRules(players=3, rounds=2), seed)
        top = max(game.points)
        leaders = [s for s, p in enumerate(game.points) if p == top]
        assert game.winner == (leaders[0] if len(leaders) == 1 else None)
        outcomes.add(game.winner is None)
    assert outcomes == {True, False}


def test_the_bots_are_made_from_the_registry_and_play_legal_cards(toy):
    assert bots.available("toy") == ["easy", "medium"] and toy.levels == ("easy", "medium")
    easy, medium = bots.make_bot("toy", "easy", seed=3), bots.make_bot("toy", "medium", seed=3)
    assert isinstance(easy, EasyToyBot) and isinstance(medium, MediumToyBot)
    game = ToyGame.new(ToyRules(players=3, rounds=5), seed=2)
    picks = []
    while not game.is_over:
        view = game.view(game.to_move)
        action = (medium if game.to_move == 0 else easy).act(view)
        assert action in view["legal"]
        if game.to_move == 0:
            picks.append((action, view["hand"], [card for _, card in view["played"]]))
        game.apply(action)
    # the medium bot leads its highest card, and beats the table with its cheapest winner if it can
    assert len(picks) == 5
    for action, hand, played in picks:
        ordered = sorted(hand, key=strength)
        best = max(map(strength, played), default=None)
        winners = [c for c in ordered if best is not None and strength(c) > best]
        expected = ordered[-1] if best is None else (winners or ordered)[0]
        assert action == f"play {expected}"
    with pytest.raises(ValueError, match="levels: easy, medium"):
        bots.make_bot("toy", "hard")


def test_the_toy_declares_what_it_provides_and_the_library_asks_it(toy):
    assert toy.capabilities == {
        "analysis": False, "hints": True, "terminal": False, "rated": False, "facts": False,
    }
    game = random_game(ToyRules(players=2, rounds=1), 3)
    with pytest.raises(ValueError, match="there is no analysis of Toy games"):
        analysis.analyze(game)
    with pytest.raises(ValueError, match="there is no analysis of Toy games"):
        analysis.analyze_record(game.record())
    with pytest.raises(ValueError, match="there is no analysis of Toy games"):
        analysis.default_samples("toy")
    assert games.entry_of(game) is toy
    with pytest.raises(ValueError, match="not a game of this card room"):
        games.entry_of("a text")


def test_bistrot_analyze_refuses_a_toy_record(toy, tmp_path, capsys):
    record = tmp_path / "toy.txt"
    record.write_text(random_game(ToyRules(players=2, rounds=1), 5).record())
    assert main(["analyze", str(record)]) == 2
    assert "there is no analysis of Toy games" in capsys.readouterr().err


PROTOCOL_CHECK = """
from bistrot.engine import Game
from toy_game import ToyGame, ToyRules

toy: type[Game[ToyRules]] = ToyGame
"""


@pytest.mark.slow
def test_the_toy_engine_satisfies_the_protocol_for_the_type_checker(tmp_path, monkeypatch):
    api = pytest.importorskip("mypy.api")
    source = tmp_path / "check.py"
    source.write_text(PROTOCOL_CHECK)
    monkeypatch.setenv("MYPYPATH", str(Path(__file__).parent))  # toy_game.py is checked too
    out, err, status = api.run(["--strict", "--no-incremental", str(source)])
    assert status == 0, out + err


SEAM_CHECK = """
from bistrot import games
from bistrot.analysis import omi, oti
from bistrot.bots import Bot
from bistrot.engine import Game
from bistrot.ruleset import Ruleset
from bistrot.tablecore.core import TableCore

analysers: list[games.Analyser] = [omi, oti]  # the analysis modules keep the registry's contract

def play(name: str, seed: int) -> str:
    entry = games.get(name)
    rules: Ruleset = entry.rules_from_dict({})
    game: Game[Ruleset] = entry.game_class().new(rules, seed)
    bot: Bot = entry.bot_class(entry.default_level)(seed=seed)
    while not game.is_over and game.to_move is not None:
        # (a view is JSON for the page, typed GameView with its free-form parts: not checked here)
        game.apply(game.legal_actions(game.to_move)[0], game.to_move)
    return f"{bot.level}: {game.record()}"

def core_game(core: TableCore) -> int | None:
    return core.game.to_move
"""


SEAM_FLAGS = ["--strict", "--disallow-any-expr", "--no-incremental", "--follow-imports=silent"]


@pytest.mark.slow
def test_no_any_crosses_the_registry_seam(tmp_path):
    """What the registry hands out (engine and rules classes, computer players, analysers) and
    the table core's game are typed: an expression of type Any anywhere in code that drives a
    game through them fails mypy's ``--disallow-any-expr``, and so does an analysis module
    that breaks the :class:`~bistrot.games.Analyser` contract."""
    api = pytest.importorskip("mypy.api")
    source = tmp_path / "seam.py"
    source.write_text(SEAM_CHECK)
    out, err, status = api.run([*SEAM_FLAGS, str(source)])
    assert status == 0, out + err
    # and the check can fail: an Any from the registry's loader is caught
    source.write_text(SEAM_CHECK + "\nloaded = games.load('bistrot.omi:OmiGame')\n")
    out, err, status = api.run([*SEAM_FLAGS, str(source)])
    assert status == 1 and 'Expression has type "Any"' in out, out + err


# ------------------------------------------------------------------ the arena


def test_bistrot_arena_toy_from_the_command_line(toy, capsys):
    # nine rounds, so that the better play shows over eight games (four deals, seats swapped)
    argv = ["arena", "toy", "--bots", "medium,easy", "--games", "8", "--rule", "rounds=9", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["bots"] == ["medium", "easy"] and result["games"] == 8 and result["players"] == 2
    wins = {name: round(rate["rate"] * 8) for name, rate in result["win_rate"].items()}
    assert wins["medium"] > wins["easy"] and wins["medium"] + wins["easy"] == 8  # 9 points: no draw
    assert all(low <= rate["rate"] <= high for rate in result["win_rate"].values()
               for low, high in [rate["ci95"]])
    assert result["seat_share"] == {"medium": 0.5, "easy": 0.5}
    assert result["end_reasons"] == {"over": 8}
    assert all(result["think_ms"][name]["max"] >= 0 for name in result["bots"])


def test_run_arena_on_the_toy_game_with_three_players(toy):
    result = run_arena(toy, ["medium", "easy"], 12, players=3, seed=4, rules=ToyRules(rounds=5))
    assert result["games"] == 12 and result["players"] == 3
    assert sum(result["wins"].values()) + result["draws"] == 12
    assert result["decisions"] == {"medium": 90, "easy": 90}  # 12 games x 3 seats x 5 rounds, shared
    assert result["wins"]["medium"] > result["wins"]["easy"]
    assert result["mean_actions"] == 15
    again = run_arena(toy, ["medium", "easy"], 12, players=3, seed=4, rules=ToyRules(rounds=5))
    assert again["wins"] == result["wins"]


def test_the_toy_arena_seats_its_two_levels_by_default(toy, capsys):
    assert main(["arena", "toy", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bots"] == ["medium", "easy"]  # the default pair


def test_no_arena_for_the_toy_once_unregistered(capsys):
    with pytest.raises(SystemExit):
        main(["arena", "toy", "--games", "2", "--json"])
    assert "invalid choice: 'toy'" in capsys.readouterr().err


# ------------------------------------------------------------------ the table on the device


def drive_bots(room: LocalRoom, table: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    while (turn := room.bot_turn(table)) is not None:
        out += room.bot_step(table, turn["seq"])
    return out


def test_a_toy_game_against_the_computer_on_this_device(toy):
    room = LocalRoom()
    made = room.create({"game": "toy", "mode": "computer", "level": "easy", "bot_delay_ms": 0,
                        "rules": {"players": 3}})
    table_id = made["table"]
    assert made["game"] == "toy" and made["seats"] == [{"seat": 0, "token": None}]
    table = room.tables[table_id]
    out = room.connect("me", table_id, 0) + room.connect("watch", table_id, None)
    n = 0
    while True:
        out += drive_bots(room, table_id)
        if table.game.is_over:
            break
        legal = table.game.legal_actions(0)
        n += 1
        answer = room.receive("me", json.dumps({"type": "act", "id": n, "action": legal[-1]}))
        assert answer[0] == ("me", {"type": "ack", "id": n, "seq": table.seq})
        out += answer
    assert n == 3 and table.seq == 9 and table.status == "over"
    assert table.record()["game"] == "toy" and room.dirty()[0]["summary"]["status"] == "over"
    for conn, seat in (("me", 0), ("watch", None)):
        states = [m for c, m in out if c == conn and m["type"] == "state"]
        assert [m["seq"] for m in states] == list(range(10))  # one state per seq, no gap
        for msg in states:
            game = table.rebuilt(msg["seq"])
            view = msg["view"]
            assert not shown(view) & hidden_from(game, seat), f"{conn} sees a hidden card at {msg['seq']}"
            assert view["hand"] == ([] if seat is None else game.hands[seat])
            assert view["game"] == "toy" and view["table"]["local"] is True
            assert view["legal"] == (game.legal_actions(0) if seat == 0 else [])
        final = states[-1]["view"]
        assert final["is_over"] and sum(final["points"]) == 3 and final["winner"] == table.game.winner
    # the saved game replays to the same game
    again = type(table).from_record(table.record())
    assert again.game == table.game and again.status == "over"
    # the device refuses its analysis as the server does, and the page's analysis worker too
    with pytest.raises(TableError) as refused:
        room.analyze(table_id)
    assert refused.value.code == "no_analysis" and room.analyses == {}
    answer = json.loads(JsonRoom.analyze_record(room.record_text(table_id)))
    assert answer["error"]["code"] == "no_analysis"


def test_a_hot_seat_toy_table_on_this_device(toy):
    room = LocalRoom()
    made = room.create({"game": "toy", "mode": "hotseat", "rules": {"players": 2, "rounds": 5},
                        "bots": {"1": "medium"}, "bot_delay_ms": 0, "seed": 77})
    table_id = made["table"]
    table = room.tables[table_id]
    room.connect("me", table_id, 0)
    for n in range(5):
        drive_bots(room, table_id)
        action = table.game.legal_actions(0)[0]
        answer = room.receive("me", json.dumps({"type": "act", "id": n, "action": action}))
        assert answer[0][1]["type"] == "ack"
    drive_bots(room, table_id)
    assert table.game.is_over and table.seq == 10
    assert [e.by for e in table.history].count("computer") == 5


# ------------------------------------------------------------------ a real server, over WebSocket


def stored_actions(db: str, table: str) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT seq, actor, action FROM events WHERE table_id = ? ORDER BY seq", (table,)
        ).fetchall()


def check_secrecy(client: Client, actions: list[tuple[int, int, str]], rules: ToyRules, seed: str,
                  seat: int | None) -> None:
    """Every state the client got names no card hidden from its seat at that seq."""
    for msg in client.messages:
        if msg["type"] != "state":
            continue
        game = ToyGame.replay(rules, seed, [(s, a) for _, s, a in actions[: msg["seq"]]])
        assert not shown(msg) & hidden_from(game, seat), f"seat {seat} sees a hidden card at {msg['seq']}"
        assert msg["view"]["hand"] == ([] if seat is None else game.hands[seat])


@pytest.mark.server
def test_a_toy_game_on_a_real_server_over_websocket(toy, tmp_path: Path):
    settings = make_settings(tmp_path)
    assert settings.bot_executor == "thread"  # the toy bots are imported in this process
    with ThreadServer(settings) as server:
        with http(server.url) as client:
            listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert list(listed) == ["omi", "oti", "toy"]
        described = listed["toy"]
        assert described["title"] == "Toy" and described["levels"] == ["easy", "medium"]
        assert described["default_level"] == "medium"
        assert described["modes"] == ["computer", "friends", "hotseat"]
        # what the toy entry declares, and nothing more: the page offers no analysis for it
        assert described["capabilities"] == {
            "analysis": False, "hints": True, "terminal": False, "rated": False, "facts": False,
        }
        assert listed["omi"]["capabilities"]["analysis"] and listed["oti"]["capabilities"]["rated"]
        assert [(o["name"], o["type"], o["default"], o["min"], o["max"], o["tag"])
                for o in described["options"]] == [
            ("players", "int", 3, 2, 4, "Players"), ("rounds", "int", 3, 1, 9, "Rounds"),
        ]

        table = open_table(server.url, game="toy", mode="computer", level="easy", rules={"players": 3})
        tid = table["table"]
        assert table["game"] == "toy" and table["status"] == "playing"
        [seat] = table["seats"]
        with (
            Client(server.url, tid, seat["token"]) as me,
            Client(server.url, tid, table["watch"]) as watcher,
        ):
            played = play_out(me, random.Random(1))
            view = me.view
            watcher.wait_for(lambda m: m["type"] == "state" and m["seq"] == me.seq)
            assert view["is_over"] and len(played) == 3 and me.seq == 9
            assert sum(view["points"]) == 3 and view["deal_code"]
            assert [s["kind"] for s in view["seats"]] == ["human", "computer", "computer"]
            assert {m["last"]["by"] for m in me.messages if m["type"] == "state" and m["last"]} == {
                "human", "computer",
            }
            acks = [m for m in me.messages if m["type"] == "ack"]
            assert len(acks) == 3 and all(m["type"] != "reject" for m in me.messages)
            assert_gap_free(me)
            assert_gap_free(watcher)
            rules = ToyRules(players=3)
            stored = stored_actions(settings.db, tid)
            assert stored == log_of(me) and [s for s, _, _ in stored] == list(range(1, 10))
            check_secrecy(me, stored, rules, view["deal_code"], 0)
            check_secrecy(watcher, stored, rules, view["deal_code"], None)
            # the stored events replay to the same game
            replayed = ToyGame.replay(rules, view["deal_code"], [(s, a) for _, s, a in stored])
            assert replayed.is_over and replayed.points == view["points"]
            assert replayed.winner == view["winner"]
            assert replayed.view(0)["last_round"] == view["last_round"]
        with http(server.url) as client:
            info = client.get(f"/api/tables/{tid}").json()
            assert info["status"] == "over" and info["game"] == "toy" and info["rules"] == rules.to_dict()
            # its replay and record are there, its analysis is refused with a reason (both ways)
            assert client.get(f"/api/tables/{tid}/replay").status_code == 200
            for method in ("GET", "POST"):
                refused = client.request(method, f"/api/tables/{tid}/analysis")
                assert refused.status_code == 409, refused.text
                assert refused.json()["code"] == "no_analysis"
                assert "Toy games have no analysis" in refused.json()["message"]


@pytest.mark.server
def test_toy_hot_seat_and_friends_tables_on_a_real_server(toy, tmp_path: Path):
    with ThreadServer(make_settings(tmp_path)) as server:
        hot = open_table(server.url, game="toy", mode="hotseat", rules={"players": 2, "rounds": 4})
        clients = [Client(server.url, hot["table"], s["token"]) for s in hot["seats"]]
        drive(clients, random.Random(4))
        logs = [log_of(c) for c in clients]
        assert logs[0] == logs[1] and len(logs[0]) == 8
        for c in clients:
            assert c.view["is_over"] and c.view["hand"] == []
            c.close()

        friends = open_table(server.url, game="toy", mode="friends", rules={"players": 3, "rounds": 2},
                             level="medium")
        tid = friends["table"]
        with http(server.url) as client:
            joined = client.post(f"/api/tables/{tid}/join", json={"invite": friends["invite"]}).json()
            assert joined["seat"] == 1 and joined["status"] == "waiting"
            started = client.post(f"/api/tables/{tid}/start", json={"token": friends["seats"][0]["token"]})
            assert started.status_code == 200, started.text
            assert [(s["kind"], s["level"]) for s in started.json()["seats"]] == [
                ("human", None), ("human", None), ("computer", "medium"),
            ]
        tokens = [friends["seats"][0]["token"], joined["token"]]
        clients = [Client(server.url, tid, token) for token in tokens]
        drive(clients, random.Random(5))
        settle(clients[0])
        assert clients[0].view["is_over"] and len(log_of(clients[0])) == 6
        for c in clients:
            c.close()


@pytest.mark.server
def test_a_toy_game_of_a_player_with_a_profile_ends_and_the_toy_has_no_daily_deal(toy, tmp_path: Path):
    """The end of a game against the computer is stored with its daily score only at a daily
    deal's table (the toy has no daily score: its end was never stored, retried forever); the
    daily deal is Omi's and Oti's, and the toy's is ``not_found``, not a server error."""
    with ThreadServer(make_settings(tmp_path)) as server, http(server.url) as client:
        assert client.post("/api/profiles", json={"name": "Ama"}).status_code == 201  # (its cookie)
        made = client.post("/api/tables", json={"game": "toy", "mode": "computer", "level": "easy"})
        assert made.status_code == 201, made.text
        table = made.json()
        with Client(server.url, table["table"], table["seats"][0]["token"]) as me:
            play_out(me, random.Random(2))
            assert me.view["is_over"] and me.view["seats"][0]["name"] == "Ama"
        info = client.get(f"/api/tables/{table['table']}").json()
        assert info["status"] == "over", info
        for method, path in [("GET", "/api/daily/toy"), ("POST", "/api/daily/toy"),
                             ("GET", "/api/daily/toy/2026-01-01")]:
            refused = client.request(method, path)
            assert refused.status_code == 404 and refused.json()["code"] == "not_found", refused.text
        assert client.get("/api/daily/oti").status_code == 200


@pytest.mark.server
def test_unknown_game_once_the_toy_is_unregistered(tmp_path: Path):
    with ThreadServer(make_settings(tmp_path)) as server, http(server.url) as client:
        assert [g["name"] for g in client.get("/api/games").json()["games"]] == ["omi", "oti"]
        answer = client.post("/api/tables", json={"game": "toy"})
        assert answer.status_code == 422 and "unknown game 'toy'" in answer.text


@pytest.mark.slow
def test_the_toy_computer_players_run_in_worker_processes_and_arena_workers(toy):
    """Spawned workers import bistrot afresh, with only omi and oti registered: they are handed
    the bot's class by name, so a game registered in the parent plays there too."""
    import asyncio

    from bistrot.server.botrunner import BotRunner

    game = ToyGame.new(ToyRules(players=2), seed=5)
    runner = BotRunner("process", workers=1)
    runner.start()
    try:
        action = asyncio.run(runner.choose("toy", "medium", 3, dict(game.view(game.to_move))))
    finally:
        runner.close()
    assert action == MediumToyBot(seed=3).act(game.view(game.to_move))
    result = run_arena(ENTRY, ["medium", "easy"], 4, 2, seed=1, workers=2)
    assert sum(result["wins"].values()) + result.get("draws", 0) == 4
