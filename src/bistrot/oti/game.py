"""An Oti game: the state, its legal actions, applying them, and what each seat sees.

Actions are texts: ``swap <hand card> <face-up card>`` and ``ready`` in the swap phase, where
every player acts independently (``to_move`` is None and the seat is named), then
``play <card> [<card> ...]`` (1, 2 or 4 cards of one value), ``pickup`` and ``flip`` (turn
the next face-down card, blind).

>>> game = OtiGame.new(OtiRules(players=2), seed=42)
>>> game.phase, game.to_move, game.legal_actions(1)[-1]
('swap', None, 'ready')
>>> game.view(1)["hand"], game.view(1)["face_up"][1], game.view(1)["face_down"]
(['2C', '8D', 'TD'], ['6H', 'QD', 'AH'], [3, 3])
>>> game.apply("swap 8D 2C", seat=1)
Traceback (most recent call last):
...
bistrot.errors.IllegalAction: 2C is not one of your face-up cards
>>> game.apply("swap 2C AH", seat=1)
>>> game.apply("ready", seat=0); game.apply("ready", seat=1)
>>> game.phase, game.to_move  # seat 1 holds the lowest card that counts (8; 2 and 10 do not)
('play', 1)
>>> game.apply("play 8D")
>>> game.view(0)["pile"], game.to_move
(['8D'], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from bistrot import dealcode
from bistrot.cards import CARD_NAMES, bits, mask_of
from bistrot.engine import ActionItem, GameBase
from bistrot.errors import IllegalAction
from bistrot.oti import record as oti_record
from bistrot.oti.actions import (
    FLIP,
    MOVE_FLIP,
    MOVE_PICKUP,
    MOVE_PLAY,
    MOVE_READY,
    MOVE_SWAP,
    PICKUP,
    READY,
    move_text,
    parse_action,
    play_text,
)
from bistrot.oti.position import Position, check_position, deal, split_cards, to_cards
from bistrot.oti.rules import HAND_SIZE, OtiRules
from bistrot.oti.values import (
    CLOSE,
    FULL_DECK,
    MAGIC,
    RANK_CARDS,
    RANK_OF,
    VALUE_NAMES,
    card_names,
    value_order,
)
from bistrot.oti.view import Event, OtiView
from bistrot.seeding import SeededRandom, derive

SWAP, PLAY, OVER = "swap", "play", "over"
HAND, FACE_UP, FACE_DOWN = "hand", "face_up", "face_down"
REPETITIONS = 3
"""A position (after a pickup) seen this many times stops the game: see docs/oti.md."""
MAX_PICKUPS = 500
"""A game's pickups after which it stops as a repetition does (docs/oti.md): loops that vary
escape the repetition rule for very long (random play: over 20,000 actions); games of the
computer players have a median of 5-40 and have reached 641 (easy, two players)."""

_SOURCE_NAMES = (HAND, FACE_UP, FACE_DOWN)
_SRC_HAND, _SRC_UP, _SRC_DOWN, _SRC_NONE = 0, 1, 2, 3


class OtiGame(GameBase[OtiRules], rules=OtiRules):
    """A whole Oti game, determined by rules, seed (or a given start) and actions.

    The state is public for bots and tools (read it; search changes it only through
    :meth:`apply_move` on a :meth:`copy`): ``hands`` and ``up`` (card sets by seat), ``down``
    (face-down cards by seat, next first), ``draw`` and ``draw_pos``, ``pile`` (bottom first),
    ``burnt``, ``known`` (the cards everybody saw go into each hand), ``ready``, ``out``.
    """

    def __init__(self, rules: OtiRules, seed: int, given: Position | None = None) -> None:
        super().__init__(rules, seed)
        self.given = given
        self.history: list[Event] | None = []
        self._setup(given or deal(rules, seed))

    def _setup(self, start: Position) -> None:
        n = self.rules.players
        self.hands = [mask_of(h) for h in start.hands]
        self.up = [mask_of(u) for u in start.face_up]
        self.down = [tuple(d) for d in start.face_down]
        self.draw = start.draw
        self.draw_pos = 0
        self.pile = list(start.pile)
        self.burnt = FULL_DECK & ~mask_of(start.cards())
        self.known = [0] * n
        self.ready = [start.to_move is not None] * n
        self.again = False
        self.out: list[int] = []
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.seen: dict[tuple[int | None, ...], int] = {}
        self.pickups = 0
        self.first_player: int | None = None
        if start.to_move is None:
            self.phase = SWAP
            self._to_move: int | None = None
        else:
            self.phase = PLAY
            self._to_move = start.to_move
            self.first_player = start.to_move
            self.out = [s for s in range(n) if not (self.hands[s] or self.up[s] or self.down[s])]
            self.winner = self.out[0] if self.out else None

    # ----------------------------------------------------------------- construction

    @classmethod
    def from_deal(
        cls,
        rules: OtiRules,
        hands: Sequence[str | Sequence[str | int]],
        face_up: Sequence[str | Sequence[str | int]],
        face_down: Sequence[str | Sequence[str | int]],
        draw: str | Sequence[str | int] | None = None,
        seed: int | str = 0,
    ) -> Self:
        """A game dealt as given, starting with the swap phase.

        ``draw`` is the draw pile, top card first; None puts every card not dealt there,
        shuffled from ``seed``.  Cards named nowhere are out of the game (shown as burnt).

        >>> g = OtiGame.from_deal(OtiRules(players=2), ["3S 4S 6S", "7S 8S 9S"],
        ...     ["AS KS QS", "AH KH QH"], ["2S 2H 2D", "5S 5H 5D"], draw=[])
        >>> g.view(0)["face_up"], g.view(1)["hand"]
        ([['QS', 'KS', 'AS'], ['QH', 'KH', 'AH']], ['7S', '8S', '9S'])
        """
        parsed = cls._parse_zones(rules, hands, face_up, face_down)
        seed_value = dealcode.seed_from(seed)
        if draw is None:
            rest = sorted(set(range(52)) - {c for zone in parsed for cards in zone for c in cards})
            SeededRandom(derive(seed_value, "oti", "draw")).shuffle(rest)
            draw_cards = tuple(rest)
        else:
            draw_cards = to_cards(split_cards(draw), "the draw pile")
        hands, face_up, face_down = parsed
        position = Position(hands, face_up, face_down, draw=draw_cards)
        check_position(rules, position)
        return cls(rules, seed_value, position)

    @classmethod
    def from_position(
        cls,
        rules: OtiRules,
        hands: Sequence[str | Sequence[str | int]],
        face_up: Sequence[str | Sequence[str | int]],
        face_down: Sequence[str | Sequence[str | int]],
        draw: str | Sequence[str | int] = (),
        pile: str | Sequence[str | int] = (),
        to_move: int = 0,
        seed: int | str = 0,
    ) -> Self:
        """A game set up in the middle of play (swap phase over), for puzzles and tests.

        ``pile`` is listed bottom first; cards named nowhere are out of the game (burnt).

        >>> g = OtiGame.from_position(OtiRules(players=2), ["7S 7H 3D", "9C"], ["", ""],
        ...     ["", ""], pile="7D 7C")
        >>> g.apply("play 7S 7H")  # closes the sevens: burnt, and seat 0 plays again
        >>> "7D" in g.view(1)["burnt"], g.view(1)["pile"], g.to_move
        (True, [], 0)
        """
        parsed = cls._parse_zones(rules, hands, face_up, face_down)
        if not isinstance(to_move, int) or not 0 <= to_move < rules.players:
            raise ValueError(f"to_move is a seat from 0 to {rules.players - 1}, not {to_move!r}")
        hands, face_up, face_down = parsed
        position = Position(
            hands, face_up, face_down, draw=to_cards(split_cards(draw), "the draw pile"),
            pile=to_cards(split_cards(pile), "the pile"), to_move=to_move,
        )
        check_position(rules, position)
        return cls(rules, dealcode.seed_from(seed), position)

    @staticmethod
    def _parse_zones(
        rules: OtiRules, *zones: Sequence[str | Sequence[str | int]]
    ) -> list[tuple[tuple[int, ...], ...]]:
        names = ("hands", "face_up", "face_down")
        parsed = []
        for name, zone in zip(names, zones, strict=True):
            if len(zone) != rules.players:
                raise ValueError(f"{name} needs one entry per player ({rules.players}), not {len(zone)}")
            parsed.append(
                tuple(to_cards(split_cards(cards), f"{name}[{seat}]") for seat, cards in enumerate(zone))
            )
        return parsed

    @classmethod
    def replay(
        cls,
        rules: OtiRules,
        seed: int | str,
        actions: Sequence[ActionItem],
        given: Position | None = None,
    ) -> Self:
        """Rebuild a game from rules, seed and actions (texts, or ``(seat, text)`` pairs),
        from a given start if any."""
        game = cls(rules, dealcode.seed_from(seed), given)
        game.apply_all(actions)
        return game

    @classmethod
    def from_guess(
        cls,
        rules: OtiRules,
        position: Position,
        *,
        known: Sequence[int],
        out: Sequence[int],
        again: bool,
        first_player: int | None,
    ) -> Self:
        """A game in the play phase from a search bot's guess at the hidden cards (see
        :func:`bistrot.oti.bots.sampling.determinize`), for search: no seed and no history,
        like ``copy(history=False)``.  ``position`` places every card not burnt and names the
        seat to move; ``known`` are the cards everybody saw go into each hand, ``out`` the
        seats out so far in order, ``again`` whether the seat to move plays again.

        >>> g = OtiGame.from_guess(OtiRules(players=2), Position(((1,), (2, 3)), ((), ()),
        ...     ((), ()), to_move=1), known=[0, 0], out=[], again=False, first_player=0)
        >>> g.phase, g.to_move, g.legal_actions(), g.history
        ('play', 1, ['play 4S', 'play 5S'], None)
        """
        if position.to_move is None:
            raise ValueError("a guess is of the play phase: the position names the seat to move")
        game = cls(rules, 0, position)
        game.given = None
        game.history = None
        game.known = list(known)
        game.out = list(out)
        game.winner = game.out[0] if game.out else None
        game.again = again
        game.first_player = first_player
        return game

    def restart(self) -> Self:
        """The game as it started: same rules, seed and start, no actions."""
        return type(self)(self.rules, self.seed, self.given)

    def copy(self, history: bool = True) -> Self:
        """An independent copy; ``history=False`` drops the public log (faster, for search)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.actions = list(self.actions)
        other.history = list(self.history) if history and self.history is not None else None
        other.hands = list(self.hands)
        other.up = list(self.up)
        other.down = list(self.down)
        other.pile = list(self.pile)
        other.known = list(self.known)
        other.ready = list(self.ready)
        other.out = list(self.out)
        other.seen = dict(self.seen)
        return other

    # ----------------------------------------------------------------- public state

    @property
    def to_move(self) -> int | None:
        """The seat to act; None in the swap phase (everyone acts) and once the game is over."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == OVER

    def actors(self) -> list[int]:
        """The seats that may act now: in the swap phase everyone not yet ready, then the seat
        to move; none once the game is over."""
        if self.phase == SWAP:
            return [seat for seat, ready in enumerate(self.ready) if not ready]
        return super().actors()

    def summary(self) -> dict[str, Any]:
        """The result the card room stores: the winner, the ranking, why the game ended."""
        return {"winner": self.winner, "ranking": list(self.ranking), "end_reason": self.end_reason}

    @property
    def draw_left(self) -> int:
        """Cards left in the draw pile."""
        return len(self.draw) - self.draw_pos

    def cards_left(self, seat: int) -> int:
        """All the cards ``seat`` still has: hand, face up and face down."""
        return self.hands[seat].bit_count() + self.up[seat].bit_count() + len(self.down[seat])

    def source(self, seat: int) -> str | None:
        """Where ``seat`` plays from now: ``hand``, ``face_up`` (:data:`FACE_UP`),
        ``face_down``, None when out."""
        src = self._source(seat)
        return None if src == _SRC_NONE else _SOURCE_NAMES[src]

    def _source(self, seat: int) -> int:
        if self.hands[seat]:
            return _SRC_HAND
        if self.up[seat]:
            return _SRC_UP
        if self.down[seat]:
            return _SRC_DOWN
        return _SRC_NONE

    def need(self) -> int:
        """The lowest value that goes on the pile: 0 when anything goes (empty pile, 2 or 5 on
        top); 2, 5 and 10 go on anything."""
        pile = self.pile
        if not pile:
            return 0
        rank = RANK_OF[pile[-1]]
        return 0 if rank == 2 or rank == 5 else rank

    def fits(self, card: int) -> bool:
        """Whether ``card`` may go on the pile now."""
        rank = RANK_OF[card]
        return MAGIC[rank] or rank >= self.need()

    def legal_moves(self, seat: int | None = None) -> list[tuple[int, int]]:
        """The legal actions as internal moves ``(kind, argument)``; see :func:`move_text`."""
        to_move = self._to_move
        if to_move is not None:
            if seat is not None and seat != to_move:
                return []
            return self._play_moves(to_move)
        if (
            self.phase == SWAP and seat is not None and 0 <= seat < self.rules.players
            and not self.ready[seat]
        ):
            moves = [
                (MOVE_SWAP, h << 6 | u)
                for h in sorted(bits(self.hands[seat]), key=value_order)
                for u in sorted(bits(self.up[seat]), key=value_order)
            ]
            moves.append((MOVE_READY, 0))
            return moves
        return []

    def _play_moves(self, seat: int) -> list[tuple[int, int]]:
        src = self._source(seat)
        moves: list[tuple[int, int]] = []
        if src == _SRC_DOWN:
            moves.append((MOVE_FLIP, 0))
        else:
            source = self.hands[seat] if src == _SRC_HAND else self.up[seat]
            need = self.need()
            for rank in range(2, 15):
                group = source & RANK_CARDS[rank]
                if not group or (rank < need and not MAGIC[rank]):
                    continue
                cards = [1 << c for c in bits(group)]
                moves.extend((MOVE_PLAY, c) for c in cards)
                for i in range(len(cards)):
                    for j in range(i + 1, len(cards)):
                        moves.append((MOVE_PLAY, cards[i] | cards[j]))
                if len(cards) == CLOSE:
                    moves.append((MOVE_PLAY, group))
        if self.pile and (not moves or self.rules.voluntary_pickup):
            moves.append((MOVE_PICKUP, 0))
        return moves

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """The actions ``seat`` may take now (in the swap phase a seat must be named); ``[]``
        when it is not that seat's turn."""
        return [move_text(m) for m in self.legal_moves(seat)]

    # ----------------------------------------------------------------- acting

    def apply(self, action: str, seat: int | None = None) -> None:
        """Play ``action`` for ``seat`` (in the swap phase) or for the seat to move.

        Raises :class:`IllegalAction` with the reason, leaving the game unchanged.
        """
        kind, arg = parse_action(action)
        if self.phase == OVER:
            raise IllegalAction("game_over", "the game is over")
        n = self.rules.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise IllegalAction("unknown_seat", f"seats are numbered 0 to {n - 1}, not {seat!r}")
        if self.phase == SWAP:
            if kind not in (MOVE_SWAP, MOVE_READY):
                raise IllegalAction(
                    "wrong_phase", "play starts when every player is ready: now 'swap' cards or say 'ready'"
                )
            if seat is None:
                raise IllegalAction(
                    "seat_required", "in the swap phase everyone acts at once: say which seat acts"
                )
            self._check_swap(seat, kind, arg)
        else:
            if kind in (MOVE_SWAP, MOVE_READY):
                raise IllegalAction("wrong_phase", "cards are swapped only before the first turn")
            if seat is not None and seat != self._to_move:
                raise IllegalAction("not_your_turn", f"it is seat {self._to_move}'s turn, not seat {seat}'s")
            seat = self._to_move
            assert seat is not None
            self._check_play(seat, kind, arg)
        self.actions.append((seat, move_text((kind, arg))))
        self._do(seat, kind, arg)

    def _check_swap(self, seat: int, kind: int, arg: int) -> None:
        if self.ready[seat]:
            raise IllegalAction("already_ready", "you are ready: your cards stay as they are")
        if kind == MOVE_READY:
            return
        h, u = arg >> 6, arg & 63
        hand, up = self.hands[seat], self.up[seat]
        if not hand >> h & 1:
            if up >> h & 1 and hand >> u & 1:
                raise IllegalAction("not_held", "name the hand card first, then the face-up card")
            raise IllegalAction("not_held", f"you do not hold {CARD_NAMES[h]} in your hand")
        if not up >> u & 1:
            raise IllegalAction("not_held", f"{CARD_NAMES[u]} is not one of your face-up cards")

    def _check_play(self, seat: int, kind: int, arg: int) -> None:
        src = self._source(seat)
        if kind == MOVE_FLIP:
            if src != _SRC_DOWN:
                raise IllegalAction(
                    "cannot_flip", "face-down cards are turned only once your hand and face-up cards are gone"
                )
            return
        if kind == MOVE_PICKUP:
            if not self.pile:
                raise IllegalAction("cannot_pickup", "the pile is empty: play any card")
            if not self.rules.voluntary_pickup and self._play_moves(seat)[0][0] != MOVE_PICKUP:
                raise IllegalAction(
                    "cannot_pickup", "you can play, so you may not pick up (the table plays without "
                    "voluntary_pickup)"
                )
            return
        if src == _SRC_DOWN:
            raise IllegalAction("must_flip", "your cards left are face down: turn one with 'flip'")
        source = self.hands[seat] if src == _SRC_HAND else self.up[seat]
        if arg & ~source:
            if src == _SRC_HAND and not arg & ~self.up[seat]:
                raise IllegalAction("face_up_later", "play from your hand first: face-up cards come after it")
            missing = min(bits(arg & ~source), key=value_order)
            where = "in your hand" if src == _SRC_HAND else "face up"
            raise IllegalAction("not_held", f"you do not hold {CARD_NAMES[missing]} {where}")
        ranks = {RANK_OF[c] for c in bits(arg)}
        if len(ranks) > 1:
            raise IllegalAction("mixed_values", "cards played together must have the same value")
        count = arg.bit_count()
        if count == 3:
            raise IllegalAction("three_cards", "never 3: play 1, 2 or 4 cards of one value")
        rank = ranks.pop()
        need = self.need()
        if rank < need and not MAGIC[rank]:
            raise IllegalAction(
                "too_low",
                f"{VALUE_NAMES[rank]} does not go on {CARD_NAMES[self.pile[-1]]}: play "
                f"{VALUE_NAMES[need]} or higher, or a 2, 5 or 10"
                + (" (or pick up the pile)" if self._play_moves(seat)[-1][0] == MOVE_PICKUP else ""),
            )

    def apply_move(self, move: tuple[int, int], seat: int | None = None) -> None:
        """Apply an internal move from :meth:`legal_moves` without checking it: the fast path
        for search (on a :meth:`copy`).  ``seat`` defaults to the seat to move (name it in the
        swap phase).

        The move is logged like any other, so records and replays still work.

        >>> from bistrot.oti.actions import MOVE_PLAY
        >>> g = OtiGame.from_position(OtiRules(players=2), ["7S 3D", "9C"], ["", ""], ["", ""])
        >>> g.apply_move((MOVE_PLAY, 1 << 5)); g.actions, g.to_move
        ([(0, 'play 7S')], 1)
        """
        kind, arg = move
        if seat is None:
            seat = self._to_move
        if seat is None:
            raise ValueError("name the seat: nobody is to move")
        self.actions.append((seat, move_text(move)))
        self._do(seat, kind, arg)

    def _do(self, seat: int, kind: int, arg: int) -> None:
        logging = self.history is not None
        event: Event | None
        if kind == MOVE_PLAY:
            src = _SRC_HAND if self.hands[seat] else _SRC_UP
            if src == _SRC_HAND:
                self.hands[seat] ^= arg
                self.known[seat] &= ~arg
            else:
                self.up[seat] ^= arg
            cards = list(bits(arg))
            self.pile.extend(cards)
            if src == _SRC_HAND and self.draw_pos < len(self.draw):
                self._draw(seat)
            event = {
                "seat": seat, "action": play_text(arg), "cards": [CARD_NAMES[c] for c in cards],
                "from": _SOURCE_NAMES[src],
            } if logging else None
            self._after_play(seat, RANK_OF[cards[0]], len(cards), event)
        elif kind == MOVE_PICKUP:
            event = {"seat": seat, "action": PICKUP, "cards": [CARD_NAMES[c] for c in self.pile]} \
                if logging else None
            self._pick_up(seat, 0, event)
        elif kind == MOVE_FLIP:
            card = self.down[seat][0]
            self.down[seat] = self.down[seat][1:]
            event = {"seat": seat, "action": FLIP, "cards": [CARD_NAMES[card]], "from": FACE_DOWN} \
                if logging else None
            if self.fits(card):
                self.pile.append(card)
                self._after_play(seat, RANK_OF[card], 1, event)
            else:
                if event is not None:
                    event["picked"] = [CARD_NAMES[c] for c in self.pile]
                self._pick_up(seat, 1 << card, event)
        elif kind == MOVE_SWAP:
            h, u = 1 << (arg >> 6), 1 << (arg & 63)
            self.hands[seat] ^= h | u
            self.up[seat] ^= h | u
            self.known[seat] = (self.known[seat] & ~h) | u
            self._log({"seat": seat, "action": move_text((kind, arg))})
        else:
            self.ready[seat] = True
            self._log({"seat": seat, "action": READY})
            if all(self.ready):
                self._start_play()

    def _log(self, event: Event | None) -> None:
        if self.history is not None and event is not None:
            self.history.append(event)

    def _draw(self, seat: int) -> None:
        hand = self.hands[seat]
        missing = HAND_SIZE - hand.bit_count()
        while missing > 0 and self.draw_pos < len(self.draw):
            hand |= 1 << self.draw[self.draw_pos]
            self.draw_pos += 1
            missing -= 1
        self.hands[seat] = hand

    def _after_play(self, seat: int, rank: int, count: int, event: Event | None) -> None:
        pile = self.pile
        effect: str | None
        if rank == 10:
            effect = "close" if count == CLOSE else "burn"
            again = count == CLOSE or self.rules.ten_plays_again
        elif len(pile) >= CLOSE and RANK_OF[pile[-2]] == rank and RANK_OF[pile[-3]] == rank \
                and RANK_OF[pile[-4]] == rank:
            effect, again = "close", True
        else:
            effect, again = ("again" if rank == 5 else None), rank == 5
        if effect in ("burn", "close"):
            self.burnt |= mask_of(pile)
            self.pile = []
        if effect and event is not None:
            event["effect"] = effect
        if not (self.hands[seat] or self.up[seat] or self.down[seat]):
            if event is not None:
                event["out"] = True
            self._log(event)
            self._finish(seat)
            return
        self._log(event)
        if again:
            self.again = True
        else:
            self._pass(seat)

    def _pick_up(self, seat: int, extra: int, event: Event | None) -> None:
        taken = mask_of(self.pile) | extra
        self.hands[seat] |= taken
        self.known[seat] |= taken
        self.pile = []
        self._log(event)
        self._pass(seat)
        key = (self._to_move, self.draw_pos, *self.hands, *self.up, *map(len, self.down))
        count = self.seen.get(key, 0) + 1
        self.seen[key] = count
        self.pickups += 1
        if count >= REPETITIONS or self.pickups >= MAX_PICKUPS:
            self._stop()

    def _pass(self, seat: int) -> None:
        self.again = False
        n = self.rules.players
        nxt = (seat + 1) % n
        if self.out:
            while nxt in self.out:
                nxt = (nxt + 1) % n
        self._to_move = nxt

    def _finish(self, seat: int) -> None:
        self.out.append(seat)
        if self.winner is None:
            self.winner = seat
        remaining = [s for s in range(self.rules.players) if s not in self.out]
        if not self.rules.play_to_last or len(remaining) == 1:
            if self.rules.play_to_last:
                self.out.extend(remaining)
            self._end("out")
        else:
            self._pass(seat)

    def _stop(self) -> None:
        """End a game that went round in circles: fewest cards left ranks first (see docs)."""
        remaining = sorted(
            (s for s in range(self.rules.players) if s not in self.out), key=lambda s: (self.cards_left(s), s)
        )
        self.out.extend(remaining if self.rules.play_to_last else remaining[:1])
        if self.winner is None:
            self.winner = self.out[0]
        self._log({"seat": None, "action": "stop", "reason": "repetition"})
        self._end("repetition")

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self._to_move = None
        self.again = False
        self.end_reason = reason

    def _start_play(self) -> None:
        best_rank, best_seat = 15, 0
        for seat, hand in enumerate(self.hands):
            for card in bits(hand):
                rank = RANK_OF[card]
                if not MAGIC[rank] and rank < best_rank:
                    best_rank, best_seat = rank, seat
        self.phase = PLAY
        self._to_move = best_seat
        self.first_player = best_seat

    # ----------------------------------------------------------------- views

    @property
    def ranking(self) -> list[int]:
        """Seats in the order they got rid of their cards (everyone with ``play_to_last``)."""
        return list(self.out)

    def view(self, seat: int | None) -> OtiView:
        """All that ``seat`` may know, as JSON-ready data; ``None`` gives a spectator's view.

        Face-down cards appear only as counts, to everybody including their owner; other hands
        as counts, plus the cards everybody saw go into them (``known_in_hand``: picked up,
        swapped).  The pile, face-up and burnt cards are public.  The seed (which would reveal
        every hidden card) is shown only once the game is over.
        """
        n = self.rules.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seats are numbered 0 to {n - 1}, not {seat!r}")
        need = self.need()
        top = self.pile[-1] if self.pile else None
        to_move = self._to_move
        view: OtiView = {
            "game": "oti",
            "seat": seat,
            "players": n,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "to_move": to_move,
            "legal": self.legal_actions(seat) if seat is not None else [],
            "hand": [] if seat is None else card_names(self.hands[seat]),
            "hand_counts": [h.bit_count() for h in self.hands],
            "known_in_hand": [card_names(k) for k in self.known],
            "face_up": [card_names(u) for u in self.up],
            "face_down": [len(d) for d in self.down],
            "draw_pile": self.draw_left,
            "pile": [CARD_NAMES[c] for c in self.pile],
            "pile_count": len(self.pile),
            "top": None if top is None else CARD_NAMES[top],
            "to_beat": None if need == 0 else VALUE_NAMES[need],
            "burnt": card_names(self.burnt),
            "ready": list(self.ready),
            "first_player": self.first_player,
            "play_again": self.again,
            "source": None if to_move is None else self.source(to_move),
            "history": [e.copy() for e in self.history or ()],
            "out": list(self.out),
            "is_over": self.is_over,
            "winner": self.winner,
            "end_reason": self.end_reason,
        }
        return self._revealed(view)

    # ----------------------------------------------------------------- records

    def _record_tags(self) -> list[tuple[str, str]]:
        ranking = self.ranking if self.is_over else None
        return oti_record.tags(self.given, ranking, self.winner, self.end_reason)

    def _record_body(self) -> list[str]:
        return oti_record.body(self.restart(), self.actions, self.winner, self.end_reason)

    @classmethod
    def _from_record(
        cls, rules: OtiRules, seed: int, tags: dict[str, str], words: list[str]
    ) -> tuple[Self, list[ActionItem]]:
        given = oti_record.read_position(rules, tags)
        return cls(rules, seed, given), list(oti_record.read_actions(rules, words))

    def _start(self) -> tuple[Any, ...]:
        return (self.given,)

    def _status(self) -> str:
        return f"{self.phase} {len(self.actions)} actions"
