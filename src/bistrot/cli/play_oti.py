"""An Oti game in the terminal: you (seat 0) against 1 to 4 computer players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console

from bistrot import bots
from bistrot.cards import Card
from bistrot.errors import IllegalAction
from bistrot.oti import OtiGame, OtiRules

HUMAN = 0
RED_SUITS = "HD"
PILE_SHOWN = 6
HELP = (
    "Before play: 'swap <hand card> <face-up card>' (or two numbers: hand then face-up), then "
    "'ready'. In play: the card(s) to play, by name (7S 7H, 10h) or number in your hand "
    "(1 2); 'pickup' (p), 'flip' (f) for a face-down card. Also 'pile', 'burnt', 'help', 'quit'."
)
NAMES = {
    2: ["You", "Opposite"],
    3: ["You", "Left", "Right"],
    4: ["You", "Left", "Opposite", "Right"],
    5: ["You", "Left", "Far left", "Far right", "Right"],
}


def styled(card: str) -> str:
    """A card in rich markup, red for hearts and diamonds."""
    pretty = Card.parse(card).pretty
    return f"[red]{pretty}[/red]" if card[-1] in RED_SUITS else f"[bold]{pretty}[/bold]"


def styled_list(cards: list[str]) -> str:
    """Cards in rich markup, or a dash for none."""
    return " ".join(styled(c) for c in cards) or "-"


def describe(event: Mapping[str, Any], names: list[str]) -> str:
    """One public event of the game, in words.

    >>> describe({"seat": 1, "action": "play 7S 7H", "cards": ["7S", "7H"], "from": "hand",
    ...           "effect": "close"}, ["You", "Left"])
    'Left plays [bold]7♠[/bold] [red]7♥[/red]: four of a value, the pile burns and Left plays again'
    """
    seat = event["seat"]
    who = names[seat] if seat is not None else "The table"
    verb_s = "" if seat == HUMAN else "s"
    action = event["action"]
    if action == "stop":
        return "The same position came round a third time: the game stops (fewest cards left wins)."
    if action == "ready":
        return f"{who} {'are' if seat == HUMAN else 'is'} ready."
    if action.startswith("swap"):
        _, hand, up = action.split()
        return f"{who} swap{verb_s} {styled(hand)} into the face-up cards for {styled(up)}."
    if action == "pickup":
        return f"{who} pick{verb_s} up the pile ({len(event['cards'])} cards)."
    cards = styled_list(event["cards"])
    if action == "flip":
        text = f"{who} turn{verb_s} a face-down card: {cards}"
        if "picked" in event:
            return text + f", which does not go: {who} pick{verb_s} up the pile with it."
    else:
        where = " face up" if event.get("from") == "face_up" else ""
        text = f"{who} play{verb_s}{where} {cards}"
    effect = event.get("effect")
    if effect == "close":
        text += f": four of a value, the pile burns and {who} play{verb_s} again"
    elif effect == "burn":
        text += ": a 10 burns the pile"
    elif effect == "again":
        text += f": a 5, {who} play{verb_s} again"
    if event.get("out"):
        text += f". {who} {'have' if seat == HUMAN else 'has'} no cards left!"
    return text


class TerminalTable:
    """Draws the table and reads your moves; I/O is injected so tests can drive it."""

    def __init__(self, console: Console, ask: Callable[[str], str], names: list[str]) -> None:
        self.console = console
        self.ask = ask
        self.names = names

    def show_table(self, view: Mapping[str, Any]) -> None:
        for seat in range(1, view["players"]):
            status = " (out)" if seat in view["out"] else ""
            self.console.print(
                f"{self.names[seat]}{status}: {view['hand_counts'][seat]} in hand, face up "
                f"{styled_list(view['face_up'][seat])}, {view['face_down'][seat]} face down"
            )
        pile = view["pile"]
        shown = pile[-PILE_SHOWN:]
        more = f"… ({len(pile)} cards) " if len(pile) > len(shown) else ""
        beat = "anything goes" if view["to_beat"] is None else f"play {view['to_beat']} or higher"
        self.console.print(
            f"Pile: {more}{styled_list(shown)} · {beat} · draw pile {view['draw_pile']} · "
            f"burnt {len(view['burnt'])}"
        )
        self.console.print(
            f"You: face up {styled_list(view['face_up'][HUMAN])}, {view['face_down'][HUMAN]} face down"
        )
        self.console.print(
            "Your hand: " + "  ".join(f"{i}:{styled(c)}" for i, c in enumerate(view["hand"], 1))
        )

    def read_action(self, game: OtiGame) -> str | None:
        """Ask until the answer is a legal action, and apply it; None when you quit."""
        while True:
            view = game.view(HUMAN)
            prompt = "Swap or 'ready': " if view["phase"] == "swap" else "Your play: "
            try:
                answer = self.ask(prompt).strip()
            except EOFError:
                return None
            lowered = answer.lower()
            if lowered in ("q", "quit", "exit"):
                return None
            if lowered in ("h", "help", "?"):
                self.console.print(HELP)
                continue
            if lowered == "pile":
                self.console.print(f"Pile, bottom first: {styled_list(view['pile'])}")
                continue
            if lowered == "burnt":
                self.console.print(f"Burnt: {styled_list(view['burnt'])}")
                continue
            action = self._to_action(answer, view)
            if action is None:
                continue
            try:
                game.apply(action, seat=HUMAN)
            except IllegalAction as err:
                self.console.print(f"[yellow]{err}[/yellow]")
                continue
            return action

    def _to_action(self, answer: str, view: Mapping[str, Any]) -> str | None:
        lowered = answer.lower()
        shortcuts = {"p": "pickup", "f": "flip", "r": "ready"}
        if lowered in shortcuts:
            return shortcuts[lowered]
        words = answer.split()
        if not words:
            return None
        verb = words[0].lower()
        if verb in ("swap", "play", "pickup", "flip", "ready"):
            words = words[1:]
            if verb != "swap" and verb != "play":
                return verb
        else:
            verb = "swap" if view["phase"] == "swap" else "play"
        if verb == "swap" and len(words) == 2 and all(w.isdigit() for w in words):
            hand, up = int(words[0]), int(words[1])
            if not (1 <= hand <= len(view["hand"]) and 1 <= up <= len(view["face_up"][HUMAN])):
                self.console.print("[yellow]give the number of a hand card, then of a face-up card[/yellow]")
                return None
            return f"swap {view['hand'][hand - 1]} {view['face_up'][HUMAN][up - 1]}"
        cards = []
        for word in words:
            if word.isdigit():
                index = int(word)
                if not 1 <= index <= len(view["hand"]):
                    self.console.print(f"[yellow]choose numbers from 1 to {len(view['hand'])}[/yellow]")
                    return None
                cards.append(view["hand"][index - 1])
            else:
                cards.append(word)
        if not cards:
            self.console.print("[yellow]name the card(s)[/yellow]")
            return None
        return f"{verb} {' '.join(cards)}"


def play_oti(
    rules: OtiRules,
    seed: int | str | None = None,
    level: str = "easy",
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Play a whole game, or until you quit (leaving is no failure: status 0 either way)."""
    console = console or Console(highlight=False)
    names = NAMES[rules.players]
    screen = TerminalTable(console, ask or console.input, names)
    game = OtiGame.new(rules, seed)
    computers = {seat: bots.make_bot("oti", level, seed=game.seed + seat) for seat in range(1, rules.players)}
    console.print(f"[bold]Oti[/bold] for {rules.players}, computers at level {level}. "
                  f"Deal code {game.deal_code}. {HELP}")
    shown = 0

    def catch_up() -> None:
        nonlocal shown
        history = game.view(HUMAN)["history"]
        for event in history[shown:]:
            console.print(describe(event, names))
        shown = len(history)

    for seat, bot in computers.items():
        while not game.ready[seat]:
            game.apply(bot.act(game.view(seat)), seat=seat)
    catch_up()
    started = False
    while not game.is_over:
        mover = HUMAN if game.phase == "swap" else game.to_move
        assert mover is not None  # play goes in turn once the swaps are done
        seat = mover
        if seat == HUMAN:
            console.rule()
            screen.show_table(game.view(HUMAN))
            if screen.read_action(game) is None:
                console.print(f"You left the game. Deal code {game.deal_code}.")
                return 0
        else:
            game.apply(computers[seat].act(game.view(seat)), seat=seat)
        catch_up()
        if not started and game.phase != "swap":
            started = True
            first = game.first_player
            assert first is not None
            s = "" if first == HUMAN else "s"
            console.print(f"{names[first]} hold{s} the lowest card and start{s}.")
    console.rule("Game over")
    view = game.view(HUMAN)
    assert game.winner is not None
    winner = names[game.winner]
    console.print(f"[bold]{winner} {'win' if game.winner == HUMAN else 'wins'}![/bold]")
    if rules.play_to_last:
        console.print("Ranking: " + ", ".join(names[s] for s in view["out"]))
    console.print(f"Deal code {game.deal_code}.")
    return 0
