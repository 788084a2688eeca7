"""Where an Omi bot's double-dummy loss comes from: tricks lost per card, by trick of the hand.

    nice python bench/omi_loss_by_trick.py --deals 60 --first 1000 [--bot hard] [--option budget=3]
        [--players 3] [--opponents easy]

Plays fresh hands ``first .. first + deals - 1`` (``OmiGame.new(rules, seed=i)``) with ``--bot`` in
seats 0 and 2 and medium in seats 1 and 3 (bot seeds ``10 i + seat``), and judges each card the
bot chose among two or more legal cards double dummy (:func:`bistrot.analysis.omi.judge_dd`, the
arena's own measure) by the trick it was played to.  It says whether a bot's mistakes are early
(what it cannot know yet) or late (the end game, where a search that assumes it will see every
card later errs: strategy fusion), which the arena's single mean does not.  The bot's options,
``--option NAME=VALUE``, numbers read as numbers.

``--players 3``: three-player hands (``OmiRules(players=3)``), the bot in seat 0 against medium
in seats 1 and 2, the first dealer seat ``(2 + i) % 3`` so that the bot chooses trump in a third
of the hands and plays second or third to the chooser in the others; each card judged as the
three-player solver sees it (the seat against the other two together: the tricks it can be sure
of). The same deals with two settings of the bot give a paired comparison far steadier than
whole three-player matches.

``--opponents LEVEL``: another level than medium in the opponents' seats, to see how hard reads
players who do not play by medium's rules (its model of the others is medium's).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from bistrot import dealcode
from bistrot.analysis.omi import judge_dd
from bistrot.bots import Bot, make_bot
from bistrot.cli.options import parse_bot_options
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position
from bistrot.omi.rules import HAND_SIZE
from bistrot.omi.view import OmiView


def bot_choices(bot: str, options: dict[str, object], first: int, deals: int,
                partner: str | None = None, players: int = 4,
                opponents: str = "medium") -> Iterator[tuple[OmiGame, Bot, OmiView, str]]:
    """Each card ``bot`` chooses among two or more legal cards on fresh hands ``first .. first +
    deals - 1`` (``OmiGame.new(rules, seed=i)``), ``bot`` in seats 0 and 2 and medium in seats 1 and
    3 (bot seeds ``10 i + seat``): the game before the card, the bot, its view and its action.
    With ``partner``, that level plays seat 2 and only seat 0's choices are given.  With three
    ``players``, ``bot`` plays seat 0 alone against medium in seats 1 and 2.  ``opponents``: the
    level in medium's seats."""
    for i in range(first, first + deals):
        game = OmiGame(OmiRules(players=players), dealcode.seed_from(i),
                       first_dealer=None if players == 4 else (2 + i) % players)
        seats = [make_bot("omi", bot, seed=10 * i + s, **options) if s % 2 == 0 and (players == 4 or s == 0)
                 else make_bot("omi", opponents, seed=10 * i + s) for s in range(players)]
        if partner is not None:
            seats[2] = make_bot("omi", partner, seed=10 * i + 2)
        judged = (0,) if partner is not None or players == 3 else (0, 2)
        while not game.results:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            action = seats[seat].act(view)
            if seat in judged and action.startswith("play ") and game.legal_cards().bit_count() >= 2:
                yield game, seats[seat], view, action
            game.apply(action, seat=seat)


def losses_by_trick(bot: str, options: dict[str, object], first: int, deals: int,
                    players: int = 4, opponents: str = "medium") -> list[list[int]]:
    """The tricks lost by each card ``bot`` chose with a choice, by trick index (0 to 7)."""
    found: list[list[int]] = [[] for _ in range(HAND_SIZE)]
    for game, _, view, action in bot_choices(bot, options, first, deals, players=players,
                                                  opponents=opponents):
        found[len(view["tricks"])].append(judge_dd(Position.from_game(game), action)[2])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first", type=int, default=1000, help="seed of the first deal")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for the bot")
    parser.add_argument("--players", type=int, choices=(4, 3), default=4, help="players a hand (default 4)")
    parser.add_argument("--opponents", default="medium", help="the opponents' level (default medium)")
    args = parser.parse_args(argv)
    options = parse_bot_options([f"{args.bot}.{o}" for o in args.option]).get(args.bot, {})
    found = losses_by_trick(args.bot, options, args.first, args.deals, args.players, args.opponents)
    rows = [{"trick": k + 1, "cards": len(lost), "lost": sum(lost),
             "per_card": round(sum(lost) / len(lost), 4) if lost else None} for k, lost in enumerate(found)]
    cards = sum(r["cards"] for r in rows)  # type: ignore[misc]
    lost = sum(r["lost"] for r in rows)  # type: ignore[misc]
    print(json.dumps({"bot": args.bot, "options": options, "players": args.players,
                      "opponents": args.opponents, "deals": args.deals,
                      "first": args.first,
                      "cards": cards, "lost": lost, "per_card": round(lost / max(cards, 1), 4),
                      "by_trick": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
