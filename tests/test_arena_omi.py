"""The duplicate Omi arena: scripted bots whose results are known, statistics, the command."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import pytest

from bistrot import games
from bistrot.arena import omi as arena
from bistrot.arena import rotation
from bistrot.arena.omi import (
    BotSpec,
    DealResult,
    HandResult,
    Tally,
    chain_matches,
    play_deal,
    play_match,
    play_out,
    summarise,
    trump_tricks,
)
from bistrot.cards import CARD_NAMES, SUIT_LETTERS
from bistrot.cli import main
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position, solve


class Conceder:
    """Always takes the first legal action: a scripted player for the arena's bookkeeping."""

    level = "conceder"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        pass

    def act(self, view: Mapping[str, Any]) -> str:
        return str(view["legal"][0])


class Scripted(Conceder):
    """Plays the given actions first, then the first legal action."""

    def __init__(self, *actions: str) -> None:
        self.actions = list(actions)

    def act(self, view: Mapping[str, Any]) -> str:
        return self.actions.pop(0) if self.actions else str(view["legal"][0])


class Oracle:
    """Sees the whole game (a test's cheat): names the suit that takes most tricks double dummy,
    then plays a double-dummy best card every time."""

    def __init__(self, game: OmiGame) -> None:
        self.game = game

    def act(self, view: Mapping[str, Any]) -> str:
        game = self.game
        if game.phase == "trump":  # the whole deal, each suit as trump, the chooser leading
            hands = tuple(game.hands)
            tricks = [max(solve(Position(hands=hands, trump=suit, to_move=game.chooser)).values())
                      for suit in range(4)]
            return "trump " + SUIT_LETTERS[tricks.index(max(tricks))]
        values = solve(Position.from_game(game))
        return "play " + CARD_NAMES[max(values, key=values.__getitem__)]


#: Each seat holds one whole suit: whatever the trump, its holder draws no card that matters.
ONE_SUIT_EACH = ["AS KS QS JS TS 9S 8S 7S".split(), "AH KH QH JH TH 9H 8H 7H".split(),
                 "AD KD QD JD TD 9D 8D 7D".split(), "AC KC QC JC TC 9C 8C 7C".split()]
#: Spades trump: seat 0 draws trumps first and takes all 8 tricks; a heart led first is ruffed by
#: seat 1 (void in hearts, TS 9S), which then can only lead diamonds for seat 0 to ruff: 7 tricks.
RUFF_DEAL = ["AS KS QS JS AH KH QH JH".split(), "TS 9S AD KD QD JD TD 9D".split(),
             "8S 7S TH 9H 8H 7H 8D 7D".split(), "AC KC QC JC TC 9C 8C 7C".split()]


def named(game: OmiGame, first: tuple[str, Any], others: Mapping[int, tuple[str, Any]] | None = None,
          ) -> dict[int, tuple[str, Any]]:
    """Seat 0 is ``first``; the other seats ``others`` or first-legal players named by seat."""
    players: dict[int, tuple[str, Any]] = {0: first}
    for seat in range(1, 4):
        players[seat] = (others or {}).get(seat, (f"seat{seat}", Conceder()))
    return players


def test_a_deterministic_bot_against_itself_scores_exactly_zero() -> None:
    # Medium is deterministic: both seatings replay the same hand, so every deal cancels.
    result = arena.run_arena(["medium", "medium"], deals=6, seed=3)
    assert result["bots"] == ["medium", "medium#2"]
    assert result["per_deal"] == [0] * 6
    assert result["token_diff"] == {"mean": 0.0, "ci95": [0.0, 0.0]}
    assert set(result["think_ms"]) == {"medium", "medium#2"}


def test_both_seatings_see_the_same_cards_and_rotate_the_chooser() -> None:
    seen = []

    def factory(game: str, level: str, seed: int, **options: Any) -> Conceder:
        bot = Conceder()
        original = bot.act

        def act(view: Mapping[str, Any]) -> str:
            if view["phase"] == "trump":
                seen.append((view["seat"], tuple(view["hand"])))
            return original(view)

        bot.act = act  # type: ignore[method-assign]
        return bot

    specs = [BotSpec("a", "a"), BotSpec("b", "b")]
    for index in range(4):
        seen.clear()
        play_deal(OmiRules(), 5, index, specs, bot_factory=factory)
        assert len(seen) == 2 and seen[0] == seen[1]
        assert seen[0][0] == index % 4  # the chooser turns round the table


def test_known_results_give_known_statistics() -> None:
    h = HandResult
    # Three deals: the first bot gains 2 then 1 (diff 3), loses 1 then gains 1 (0), ties twice (0).
    results = [
        DealResult(0, (h(2, 0), h(1, 0)), {"x": [0.001, 0.003], "y": [0.002]}),
        DealResult(1, (h(0, 1), h(1, 0)), {"x": [0.002], "y": [0.010]}),
        DealResult(2, (h(0, 0, tie=True), h(0, 0, tie=True)), {"x": [], "y": []}),
    ]
    report = summarise([BotSpec("x", "x"), BotSpec("y", "y")], results, target=3)
    assert report["per_deal"] == [3, 0, 0]
    assert report["token_diff"]["mean"] == pytest.approx(1.0)
    # t with 2 degrees of freedom: 4.303 * sd / sqrt(3), sd = sqrt(3)
    half = 4.303 * math.sqrt(3) / math.sqrt(3)
    assert report["token_diff"]["ci95"] == pytest.approx([1 - half, 1 + half])
    # Seating A: 2, then 0:1, then a tie; seating B: 1, 1, a tie.  Nobody reaches 3.
    assert report["matches"] == 0 and report["match_win_rate"] is None
    report = summarise([BotSpec("x", "x"), BotSpec("y", "y")], results, target=2)
    # Seating A: 2 -> match won; then 0:1, tie (unfinished).  Seating B: 1, 1 -> won.
    assert report["matches"] == 2 and report["match_win_rate"] == 1.0
    assert report["think_ms"]["x"] == {"median": pytest.approx(2.0), "max": pytest.approx(3.0)}
    assert report["think_ms"]["y"] == {"median": pytest.approx(6.0), "max": pytest.approx(10.0)}


def test_matches_carry_ties_and_stop_on_a_winning_kapothi() -> None:
    h = HandResult
    # tie, tie, then 1 token + 2 carried = 3 -> the first bot wins a match to 3.
    assert chain_matches([h(0, 0, True), h(0, 0, True), h(1, 0)], target=3) == [True]
    # A wins_match kapothi ends the match whatever the score.
    assert chain_matches([h(0, 2), h(3, 0, match_over=True)], target=10) == [True]
    assert chain_matches([h(0, 0, True)] * 5, target=1) == []


def test_workers_give_the_same_result_as_one_process() -> None:
    one = arena.run_arena(["medium", "easy"], deals=6, seed=9, workers=1)
    two = arena.run_arena(["medium", "easy"], deals=6, seed=9, workers=2)
    for key in ("per_deal", "token_diff", "match_win_rate", "matches"):
        assert one[key] == two[key]


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "omi", "--bots", "medium,easy", "--deals", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bots"] == ["medium", "easy"] and report["deals"] == 3
    assert set(report) >= {"token_diff", "match_win_rate", "think_ms"}
    assert set(report["think_ms"]["medium"]) == {"median", "max"}
    direct = arena.run_arena(["medium", "easy"], deals=3, seed=2)
    assert report["token_diff"] == direct["token_diff"]


def test_a_json_run_logged_to_a_file_says_how_far_it_is_on_standard_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Standard error is not a terminal here (as in `... --json > out 2> log`): a line a tenth of
    # the way, never anything but the report on standard output.
    assert main(["arena", "omi", "--bots", "medium,easy", "--deals", "4", "--seed", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["deals"] == 4
    lines = err.splitlines()
    assert [line.split(",")[0] for line in lines] == [
        f"medium vs easy: {done}/4 deals ({25 * done}%)" for done in range(1, 5)]
    assert all("elapsed, about" in line and line.endswith(" to go") for line in lines)


def test_the_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "omi", "--bots", "easy,medium", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "token difference per deal (easy)" in out and "think ms medium" in out


def test_the_command_refuses_unknown_levels() -> None:
    with pytest.raises(SystemExit, match="no Omi level 'grand'"):
        main(["arena", "omi", "--bots", "grand,easy", "--deals", "1"])


# ----------------------------------------------------------------------------- double-dummy loss


def test_a_trump_that_hands_every_trick_over_loses_eight() -> None:
    game = OmiGame.from_deal(OmiRules(), ONE_SUIT_EACH)  # seat 0 chooses and leads
    # Spades or diamonds (partner's suit): every trick; hearts or clubs: the first spade is
    # ruffed and the opponents then run their trumps.
    assert trump_tricks(game) == {"trump S": 8, "trump H": 0, "trump D": 8, "trump C": 0}
    tally = play_out(game, named(game, ("chooser", Scripted("trump H"))), lambda g: bool(g.results))
    assert tally.dd_trumps == {"chooser": [8], "seat1": [], "seat2": [], "seat3": []}
    # Each seat holds one suit, so no card choice matters; 7 tricks with a choice, 4 seats each.
    assert {name: losses for name, losses in tally.dd_cards.items()} == {
        "chooser": [0] * 7, "seat1": [0] * 7, "seat2": [0] * 7, "seat3": [0] * 7}
    assert game.results[0]["tricks"] == [0, 8]
    assert len(tally.think["chooser"]) == 9  # the trump choice and every card, forced ones included


def test_a_lead_that_lets_an_opponent_ruff_loses_one_trick() -> None:
    for lead, loss, tricks in (("play AH", 1, 7), ("play AS", 0, 8)):
        game = OmiGame.from_deal(OmiRules(), RUFF_DEAL)
        # seat 0 names spades and leads, then everybody plays double dummy
        oracle = Oracle(game)
        players = {0: ("lead", _then(Scripted("trump S", lead), oracle)), 1: ("right", oracle),
                   2: ("partner", oracle), 3: ("left", oracle)}
        tally = play_out(game, players, lambda g: bool(g.results))
        assert tally.dd_trumps["lead"] == [0]
        assert tally.dd_cards["lead"][0] == loss and sum(tally.dd_cards["lead"]) == loss
        assert sum(tally.dd_cards["right"] + tally.dd_cards["left"] + tally.dd_cards["partner"]) == 0
        assert game.results[0]["tricks"][0] == tricks


def _then(first: Scripted, then: Oracle) -> Any:
    """A player who plays ``first``'s script, then as ``then``."""

    class Both:
        def act(self, view: Mapping[str, Any]) -> str:
            return first.act(view) if first.actions else then.act(view)

    return Both()


def test_redealt_trumps_are_not_judged() -> None:
    # Under redeal_few_trumps every suit here leaves a team with no trump: the deal is dealt again.
    game = OmiGame.from_deal(OmiRules(redeal_few_trumps=True), ONE_SUIT_EACH)
    assert trump_tricks(game) == {}
    tally = play_out(game, named(game, ("chooser", Conceder())), lambda g: bool(g.results))
    assert game.redeals == 0 and len(game.results) == 1 and game.results[0]["hand"] == 1
    # only the choices of the hand actually played count: one, however many redeals came first
    assert len(tally.dd_trumps["chooser"]) == 1


def test_the_double_dummy_player_loses_nothing_the_first_card_player_does() -> None:
    total = Tally.of(["oracle", "first"])
    for seed in range(3):
        game = OmiGame(OmiRules(), seed, first_dealer=seed % 4)
        oracle = Oracle(game)
        players = {seat: ("oracle", oracle) if seat % 2 == 0 else ("first", Conceder()) for seat in range(4)}
        total.add(play_out(game, players, lambda g: bool(g.results)))
    assert total.dd_cards["oracle"] and set(total.dd_cards["oracle"]) == {0}
    assert len(total.dd_cards["first"]) > 10 and sum(total.dd_cards["first"]) > 0
    assert set(total.dd_trumps["oracle"]) <= {0}
    report = arena.dd_report(["oracle", "first"], total)
    assert report["dd_loss"]["oracle"] == 0.0 and report["dd_loss"]["first"] > 0
    assert report["dd_cards"]["first"] == len(total.dd_cards["first"])
    # the measure is optional: nothing judged, think times still kept
    game = OmiGame(OmiRules(), 0)
    quiet = play_out(game, {seat: ("first", Conceder()) for seat in range(4)}, lambda g: bool(g.results),
                     dd=False)
    assert quiet.dd_cards == {"first": []} and len(quiet.think["first"]) == 33


def test_the_arena_reports_each_bots_dd_loss_reproducibly() -> None:
    one = arena.run_arena(["medium", "easy"], deals=4, seed=5, dd=True)
    again = arena.run_arena(["medium", "easy"], deals=4, seed=5, dd=True)
    for key in ("per_deal", "dd_loss", "dd_cards", "trump_dd_loss", "dd_trumps"):
        assert one[key] == again[key]
    # every deal played twice: each bot chooses trump once per deal in total (2 choosers a play)
    assert one["dd_trumps"] == {"medium": 4, "easy": 4}
    assert one["dd_cards"]["medium"] > 4 * 2 * 8 and one["dd_cards"]["easy"] > 4 * 2 * 8
    assert all(0 <= one[key][name] <= 8 for key in ("dd_loss", "trump_dd_loss") for name in one["bots"])
    off = arena.run_arena(["medium", "easy"], deals=4, seed=5, dd=False)
    assert off["per_deal"] == one["per_deal"]
    assert off["dd_loss"] == {"medium": None, "easy": None} and off["dd_cards"] == {"medium": 0, "easy": 0}


def test_whole_matches_are_played_to_the_target_with_the_score_carried() -> None:
    seen: list[tuple[int, int, tuple[str, ...]]] = []  # the chooser's cards of each deal, in order

    def factory(game: str, level: str, seed: int, **options: Any) -> Any:
        class Recorder(Conceder):
            def act(self, view: Mapping[str, Any]) -> str:
                if view["phase"] == "trump":
                    seen.append((view["hand_number"], view["chooser"], tuple(view["hand"])))
                return super().act(view)

        return Recorder()

    specs = [BotSpec("a", "a"), BotSpec("b", "b")]
    result = play_match(OmiRules(), 3, 0, specs, bot_factory=factory, dd=False)
    for play in result.plays:
        assert play.deals > 1  # a 10-token match is several deals, tokens carried from one to the next
        assert max(play.first, play.second) >= 10 > min(play.first, play.second)
        assert play.first_won == (play.first > play.second)
    # a real match: the score, carry and kapothi are the engine's (the match's results)
    game = OmiGame(OmiRules(), arena.match_seed(3, 0), first_dealer=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert (result.plays[0].deals, result.plays[0].first, result.plays[0].second) == (
        len(game.results), game.tokens[0], game.tokens[1])
    # duplicate: seating B gets seating A's deals (the conceders play alike whatever the seat)
    deals = result.plays[0].deals
    assert result.plays[1].deals == deals and len(seen) == 2 * deals
    assert seen[:deals] == seen[deals:] and [hand for hand, _, _ in seen[:deals]] == list(range(1, deals + 1))


def test_the_matches_report() -> None:
    report = arena.run_matches(["medium", "easy"], matches=2, seed=4, rules=OmiRules(target=5), dd=True)
    assert report["mode"] == "matches" and report["matches"] == 4
    assert sum(report["match_wins"].values()) == 4
    assert report["match_win_rate"] == report["match_wins"]["medium"] / 4
    assert report["deals"] == sum(deals for _, deals in report["per_match"]) and report["deals"] > 4
    assert report["deals_per_match"] == report["deals"] / 4
    tokens = report["tokens_per_deal"]
    # per deal over both plays, as with fresh hands: twice the difference per deal played
    assert report["token_diff"]["mean"] == pytest.approx(2 * (tokens["medium"] - tokens["easy"]))
    assert sum(report["dd_trumps"].values()) == report["deals"]  # one trump choice a deal played
    assert report["dd_loss"]["medium"] is not None


@pytest.mark.slow
def test_workers_give_the_same_dd_losses_and_matches_as_one_process() -> None:
    one = arena.run_arena(["medium", "easy"], deals=3, seed=9, workers=1, dd=True)
    two = arena.run_arena(["medium", "easy"], deals=3, seed=9, workers=2, dd=True)
    for key in ("dd_loss", "dd_cards", "trump_dd_loss", "dd_trumps"):
        assert one[key] == two[key]
    rules = OmiRules(target=4)
    one = arena.run_matches(["medium", "easy"], matches=3, seed=9, workers=1, rules=rules, dd=True)
    two = arena.run_matches(["medium", "easy"], matches=3, seed=9, workers=2, rules=rules, dd=True)
    for key in ("per_match", "match_wins", "tokens_per_deal", "token_diff", "dd_loss", "trump_dd_loss"):
        assert one[key] == two[key]


def test_the_command_reports_dd_losses_and_plays_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "omi", "--bots", "medium,easy", "--deals", "2", "--seed", "2", "--json",
                 "--dd-loss"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "deals"
    for key in ("dd_loss", "trump_dd_loss", "dd_cards", "dd_trumps"):
        assert set(report[key]) == {"medium", "easy"}
    assert report["dd_trumps"] == {"medium": 2, "easy": 2}
    assert main(["arena", "omi", "--bots", "medium,easy", "--matches", "1", "--target", "3", "--seed", "2",
                 "--json", "--no-dd-loss"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "matches" and report["matches"] == 2
    assert set(report) >= {"match_wins", "tokens_per_deal", "deals_per_match", "token_diff", "dd_loss"}
    assert report["dd_cards"] == {"medium": 0, "easy": 0}
    direct = arena.run_matches(["medium", "easy"], 1, seed=2, rules=OmiRules(target=3), dd=False)
    assert report["match_wins"] == direct["match_wins"]
    assert main(["arena", "omi", "--bots", "easy,medium", "--matches", "1", "--target", "2",
                 "--dd-loss"]) == 0
    out = capsys.readouterr().out
    assert "double-dummy loss per card easy" in out and "tokens per deal medium" in out
    with pytest.raises(SystemExit, match="not both"):
        main(["arena", "omi", "--deals", "2", "--matches", "1"])


def test_three_players_play_whole_matches_with_the_seats_rotated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "omi", "--players", "3", "--bots", "medium,easy,easy", "--matches", "3",
                 "--target", "3", "--seed", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["players"] == 3 and report["games"] == 3 and report["bots"] == ["medium", "easy", "easy#2"]
    assert report["seat_share"] == {"medium": 1 / 3, "easy": 1 / 3, "easy#2": 1 / 3}
    # Every match has a winner: three matches, three wins among the bots.
    direct = rotation.run_arena(games.get("omi"), ["medium", "easy", "easy"], 3, 3, seed=4,
                                rules=OmiRules(players=3, target=3))
    assert report["win_rate"] == direct["win_rate"] and sum(direct["wins"].values()) == 3
    assert main(["arena", "omi", "--players", "3", "--bots", "medium,easy", "--matches", "2",
                 "--target", "2"]) == 0
    assert "Omi, 3 players: medium, easy, 2 matches, seats rotated" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="give --matches, not --deals"):
        main(["arena", "omi", "--players", "3", "--deals", "2"])
    with pytest.raises(SystemExit, match="4 players only"):
        main(["arena", "omi", "--players", "3", "--matches", "1", "--dd-loss"])
