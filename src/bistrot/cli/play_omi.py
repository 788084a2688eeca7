"""An Omi match in the terminal: you (seat 0) and a computer partner against two computers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console

from bistrot import bots
from bistrot.cards import SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, Card, parse_suit
from bistrot.errors import IllegalAction
from bistrot.omi import OmiGame, OmiRules

HUMAN = 0
RED_SUITS = "HD"
HELP = (
    "Type a card (TH, 10h, 10♥) or its number in your hand; when choosing trump, a suit "
    "(S H D C). Also: 'last' shows the last trick, 'help', 'quit'."
)


def seat_names(rules: OmiRules) -> list[str]:
    """What to call each seat from where you sit (play order runs to your right when
    counterclockwise).

    >>> seat_names(OmiRules())
    ['You', 'Right', 'Partner', 'Left']
    """
    names = ["You", "Right", "Left"] if rules.players == 3 else ["You", "Right", "Partner", "Left"]
    if rules.direction == "clockwise":
        names[1], names[-1] = names[-1], names[1]
    return names


def styled(card: str) -> str:
    """A card in rich markup, red for hearts and diamonds."""
    pretty = Card.parse(card).pretty
    return f"[red]{pretty}[/red]" if card[-1] in RED_SUITS else f"[bold]{pretty}[/bold]"


def side_label(rules: OmiRules, side: int, names: list[str]) -> str:
    """``You & Partner`` for team 0, a player's name with 3 players."""
    if rules.players == 3:
        return names[side]
    return "You & Partner" if side == 0 else "Right & Left"


class TerminalTable:
    """Draws the table and reads your moves; I/O is injected so tests can drive it."""

    def __init__(self, console: Console, ask: Callable[[str], str]) -> None:
        self.console = console
        self.ask = ask

    def show_status(self, game: OmiGame, names: list[str]) -> None:
        view = game.view(HUMAN)
        rules = game.rules
        trump = view["trump"]
        trump_text = "not chosen"
        if trump:
            suit = SUIT_LETTERS.index(trump)
            trump_text = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"
        sides = range(rules.sides)
        carry = f", {view['carry']} carried" if view["carry"] else ""
        self.console.print(
            f"Hand {view['hand_number']} · dealer {names[view['dealer']]} · trump {trump_text}\n"
            "Tricks " + ", ".join(f"{side_label(rules, s, names)} {view['tricks_won'][s]}" for s in sides)
            + " · Tokens " + ", ".join(f"{side_label(rules, s, names)} {view['tokens'][s]}" for s in sides)
            + f" (to {rules.target}{carry})"
        )

    def show_trick(self, view: Mapping[str, Any], names: list[str]) -> None:
        if view["trick"]:
            played = "  ".join(f"{names[t['seat']]}: {styled(t['card'])}" for t in view["trick"])
            self.console.print(f"Trick: {played}")

    def show_hand(self, view: Mapping[str, Any]) -> None:
        legal = {a[5:] for a in view["legal"] if a.startswith("play ")}
        shown = []
        for i, card in enumerate(view["hand"], 1):
            text = f"{i}:{styled(card)}"
            shown.append(text if not legal or card in legal else f"[dim]{i}:{Card.parse(card).pretty}[/dim]")
        self.console.print("Your hand: " + "  ".join(shown))

    def read_action(self, game: OmiGame, names: list[str]) -> str | None:
        """Ask until the answer is a legal action; None when you quit."""
        view = game.view(HUMAN)
        while True:
            prompt = "Choose trump (S H D C): " if view["phase"] == "trump" else "Your card: "
            if "kapothi" in view["legal"]:
                prompt = "Your card (or 'kapothi' to announce): "
            try:
                answer = self.ask(prompt).strip()
            except EOFError:
                return None
            if answer.lower() in ("q", "quit", "exit"):
                return None
            if answer.lower() in ("help", "?"):
                self.console.print(HELP)
                continue
            if answer.lower() == "last":
                last = view["last_trick"]
                if last:
                    leader = last["leader"]
                    seats = [(leader + i) % len(names) for i in range(len(last["cards"]))]
                    pairs = zip(seats, last["cards"], strict=True)
                    cards = "  ".join(f"{names[s]}: {styled(c)}" for s, c in pairs)
                    self.console.print(f"Last trick: {cards} (won by {names[last['winner']]})")
                else:
                    self.console.print("No trick has been played yet.")
                continue
            action = self._to_action(answer, view, game.rules)
            if action is None:
                continue
            try:
                game.apply(action, seat=HUMAN)
            except IllegalAction as err:
                self.console.print(f"[yellow]{err}[/yellow]")
                continue
            return action

    def _to_action(self, answer: str, view: Mapping[str, Any], rules: OmiRules) -> str | None:
        if view["phase"] == "trump":
            try:
                return f"trump {SUIT_LETTERS[parse_suit(answer.removeprefix('trump ').strip())]}"
            except ValueError as err:
                self.console.print(f"[yellow]{err}[/yellow]")
                return None
        if answer.lower() == "kapothi":
            return "kapothi"
        if answer.isdigit():
            index = int(answer)
            if not 1 <= index <= len(view["hand"]):
                self.console.print(f"[yellow]choose a number from 1 to {len(view['hand'])}[/yellow]")
                return None
            return "play " + str(view["hand"][index - 1])
        try:
            return "play " + str(Card.parse(answer.removeprefix("play ").strip(), rules.ranks))
        except ValueError as err:
            self.console.print(f"[yellow]{err}[/yellow]")
            return None


def play_omi(
    rules: OmiRules,
    seed: int | str | None = None,
    level: str = "easy",
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Play a whole match, or until you quit (leaving is no failure: status 0 either way)."""
    console = console or Console(highlight=False)
    screen = TerminalTable(console, ask or console.input)
    game = OmiGame.new(rules, seed)
    computers = {seat: bots.make_bot("omi", level, seed=game.seed + seat) for seat in range(1, rules.players)}
    names = seat_names(rules)
    console.print(f"[bold]Omi[/bold], to {rules.target} tokens. Deal code {game.deal_code}. {HELP}")
    hand_number, tricks_seen, results_seen = 0, 0, 0
    while not game.is_over:
        view = game.view(HUMAN)
        if view["hand_number"] != hand_number:
            hand_number, tricks_seen = view["hand_number"], 0
            console.rule(f"Hand {hand_number}")
            screen.show_status(game, names)
            chooser = view["chooser"]
            console.print(f"{names[chooser]} choose{'' if chooser == HUMAN else 's'} trump.")
        seat = game.to_move
        assert seat is not None  # a match is played in turn until it is over
        if seat == HUMAN:
            screen.show_trick(view, names)
            screen.show_hand(view)
            action = screen.read_action(game, names)
            if action is None:
                console.print(f"You left the match. Deal code {game.deal_code}.")
                return 0
        else:
            action = computers[seat].act(game.view(seat))
            game.apply(action, seat=seat)
        if action.startswith("trump"):
            suit = SUIT_LETTERS.index(action[-1])
            console.print(f"{names[seat]}: trump is {SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}.")
        elif action == "kapothi":
            console.print(f"[bold]{names[seat]} announce{'' if seat == HUMAN else 's'} kapothi![/bold]")
        else:
            console.print(f"{names[seat]} play{'' if seat == HUMAN else 's'} {styled(action[5:])}")
        after = game.view(HUMAN)
        if len(after["tricks"]) > tricks_seen or len(after["results"]) > results_seen:
            last = after["last_trick"]
            assert last is not None  # a trick was just completed
            tricks_seen = len(after["tricks"])
            verb = "win" if last["winner"] == HUMAN else "wins"
            console.print(f"  → {names[last['winner']]} {verb} the trick.")
        if len(after["results"]) > results_seen:
            results_seen = len(after["results"])
            _show_result(console, rules, after["results"][-1], after["tokens"], names)
    assert game.winner is not None
    winner = side_label(rules, game.winner, names)
    console.rule("Match over")
    verb = "wins" if rules.players == 3 and game.winner != HUMAN else "win"
    console.print(f"[bold]{winner} {verb} "
                  f"the match[/bold], tokens {'-'.join(map(str, game.tokens))}. Deal code {game.deal_code}.")
    return 0


def _show_result(console: Console, rules: OmiRules, result: Mapping[str, Any], tokens: list[int],
                 names: list[str]) -> None:
    tricks = " - ".join(str(t) for t in result["tricks"])
    if result["side"] is None:
        console.print(f"[bold]Tied {tricks}[/bold]: {result['carry']} token(s) carried to the next hand.")
    else:
        extra = " (kapothi!)" if result["kapothi"] else ""
        console.print(
            f"[bold]Tricks {tricks}: {result['tokens']} token(s) to "
            f"{side_label(rules, result['side'], names)}{extra}[/bold]. Tokens {'-'.join(map(str, tokens))}."
        )
