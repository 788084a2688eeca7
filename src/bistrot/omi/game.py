"""An Omi match: the state, its legal actions, applying them, and what each seat sees.

Seats are numbered in play order (partners 0 & 2 and 1 & 3).  Actions are texts:
``trump H``, ``play TH`` and ``kapothi`` (the announcement).

>>> game = OmiGame.new(OmiRules(target=5), seed=42)
>>> game.to_move, game.phase, game.legal_actions()
(0, 'trump', ['trump S', 'trump H', 'trump D', 'trump C'])
>>> len(game.view(0)["hand"])  # the chooser sees only the first four cards
4
>>> game.apply("trump H")
>>> game.apply("play 7S")
Traceback (most recent call last):
...
bistrot.errors.IllegalAction: you do not hold 7♠
>>> game.apply(game.legal_actions()[0])
>>> game.to_move
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from bistrot import dealcode
from bistrot.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    SUIT_BITS,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    CardSet,
    bits,
    parse_suit,
)
from bistrot.engine import ActionItem, GameBase
from bistrot.errors import IllegalAction
from bistrot.omi import record as omi_record
from bistrot.omi.rules import HAND_SIZE, OmiRules
from bistrot.omi.scoring import score_hand
from bistrot.omi.tricks import trick_winner
from bistrot.omi.view import HandResult, OmiView, Trick
from bistrot.seeding import SeededRandom, derive

TRUMP, PLAY, OVER = "trump", "play", "over"
KAPOTHI = "kapothi"
FIRST_BATCH = 4
MIN_TEAM_TRUMPS = 2

_PLAY, _CHOOSE, _ANNOUNCE = 0, 1, 2
PLAY_TEXT: tuple[str, ...] = tuple("play " + name for name in CARD_NAMES)
TRUMP_TEXT: tuple[str, ...] = tuple("trump " + letter for letter in SUIT_LETTERS)
_ACTIONS: dict[str, tuple[int, int]] = {
    **{text: (_PLAY, card) for card, text in enumerate(PLAY_TEXT)},
    **{text: (_CHOOSE, suit) for suit, text in enumerate(TRUMP_TEXT)},
    KAPOTHI: (_ANNOUNCE, 0),
}


def parse_action(text: object) -> tuple[int, int]:
    """Read an action text into ``(kind, argument)``, forgiving case, spacing and ``10H``."""
    if not isinstance(text, str):
        raise IllegalAction("unknown_action", f"an action is a text such as 'play TH', not {text!r}")
    known = _ACTIONS.get(text)
    if known is not None:
        return known
    words = text.lower().split()
    if words == [KAPOTHI]:
        return _ACTIONS[KAPOTHI]
    if len(words) == 2 and words[0] == "play":
        card = CARD_BY_NAME.get(words[1].upper())
        if card is not None:
            return _PLAY, card
        raise IllegalAction(
            "unknown_action",
            f"{words[1]!r} is not a card: write the rank (7-9, T, J, Q, K, A) then the suit "
            "(S, H, D, C), e.g. 'play TH'",
        )
    if len(words) == 2 and words[0] == "trump":
        try:
            return _CHOOSE, parse_suit(words[1])
        except ValueError as err:
            raise IllegalAction("unknown_action", str(err)) from None
    shown = text if len(text) <= 40 else text[:40] + "..."
    raise IllegalAction(
        "unknown_action",
        f"{shown!r} is not an Omi action: use 'trump <suit>', 'play <card>' or 'kapothi'",
    )


def deal_hands(rules: OmiRules, seed: int, hand_index: int, redeal: int, chooser: int) -> list[list[int]]:
    """The cards of each seat for one deal, in the order dealt (first batch of 4 first).

    The deck is shuffled by a generator seeded from (seed, hand, redeal); four cards go to each
    player from the chooser on, then four more.
    """
    deck = list(bits(rules.deck))
    SeededRandom(derive(seed, "omi", hand_index, redeal)).shuffle(deck)
    n = rules.players
    dealt: list[list[int]] = [[] for _ in range(n)]
    for batch in range(2):
        for i in range(n):
            start = batch * FIRST_BATCH * n + i * FIRST_BATCH
            dealt[(chooser + i) % n].extend(deck[start : start + FIRST_BATCH])
    return dealt


class OmiGame(GameBase[OmiRules], rules=OmiRules):
    """A whole Omi match, from the first deal to the target, determined by rules, seed, actions.

    The state of the hand in play is public for bots and tools (read it, do not change it):
    ``hands`` (card sets by seat), ``trick`` (``(seat, card)`` so far), ``trump``,
    ``completed`` tricks, ``tricks_won`` by side, ``tokens``, ``results`` of past hands.
    """

    # The hand in play, set by each deal.
    phase: str
    dealt: list[list[int]]
    hands: list[int]
    first_batch: list[int]
    trump: int | None
    trick: list[tuple[int, int]]
    completed: list[Trick]
    tricks_won: list[int]
    announced: int | None
    _to_move: int | None

    def __init__(
        self,
        rules: OmiRules,
        seed: int,
        given_deal: Sequence[Sequence[int]] | None = None,
        first_dealer: int | None = None,
    ) -> None:
        super().__init__(rules, seed)
        self.given_deal = None if given_deal is None else tuple(tuple(h) for h in given_deal)
        n = rules.players
        self.first_dealer = n - 1 if first_dealer is None else first_dealer
        if not 0 <= self.first_dealer < n:
            raise ValueError(f"the dealer is a seat from 0 to {n - 1}, not {first_dealer}")
        self.tokens = [0] * rules.sides
        self.carry = 0
        self.results: list[HandResult] = []
        self.winner: int | None = None
        self.hand_index = 0
        self.dealer = self.first_dealer
        self.redeals = 0
        self.last_trick: Trick | None = None
        self._deal()

    # ----------------------------------------------------------------- construction

    @classmethod
    def from_deal(
        cls,
        rules: OmiRules,
        hands: Sequence[Sequence[str | int]],
        dealer: int | None = None,
        seed: int | str = 0,
    ) -> Self:
        """A match whose first hand is dealt as given (later hands come from ``seed``).

        ``hands[seat]`` lists that seat's 8 cards; the first 4 are the first batch, which the
        chooser (the seat after ``dealer``, by default the last seat) sees before choosing.

        >>> g = OmiGame.from_deal(OmiRules(), ["AH JH 8H KC 7S 8S 9S TS".split(),
        ...     "7H 9H AC 8C JS QS KS AS".split(), "TH QH KH 7C 7D 8D 9D TD".split(),
        ...     "9C TC JC QC JD QD KD AD".split()])
        >>> g.view(0)["hand"]
        ['AH', 'JH', '8H', 'KC']
        """
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"a deal for {n} players has {n} hands, not {len(hands)}")
        parsed: list[list[int]] = []
        seen: set[int] = set()
        deck = rules.deck
        for seat, hand in enumerate(hands):
            cards = [int(Card.parse(c)) if isinstance(c, str) else int(c) for c in hand]
            if len(cards) != HAND_SIZE:
                raise ValueError(f"seat {seat} must get {HAND_SIZE} cards, not {len(cards)}")
            for card in cards:
                if not deck >> card & 1:
                    raise ValueError(f"{CARD_NAMES[card]} is not in the {rules.deck_size}-card deck")
                if card in seen:
                    raise ValueError(f"{CARD_NAMES[card]} is dealt twice")
                seen.add(card)
            parsed.append(cards)
        return cls(rules, dealcode.seed_from(seed), parsed, dealer)

    @classmethod
    def replay(
        cls,
        rules: OmiRules,
        seed: int | str,
        actions: Sequence[ActionItem],
        given_deal: Sequence[Sequence[int]] | None = None,
        first_dealer: int | None = None,
    ) -> Self:
        """Rebuild a match from its rules, seed and actions (texts, or ``(seat, text)`` pairs),
        for recovery and records; the first hand may have been dealt by hand."""
        game = cls(rules, dealcode.seed_from(seed), given_deal, first_dealer)
        game.apply_all(actions)
        return game

    def restart(self) -> Self:
        """The match as it started: same rules, seed and deal, no actions."""
        return type(self)(self.rules, self.seed, self.given_deal, self.first_dealer)

    def copy(self) -> Self:
        """An independent copy, for search."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name in ("actions", "tokens", "results", "hands", "first_batch", "dealt", "trick",
                     "tricks_won", "completed"):
            setattr(other, name, list(getattr(self, name)))
        return other

    # ----------------------------------------------------------------- public state

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return self._to_move

    def summary(self) -> dict[str, Any]:
        """The result the card room stores: winning side, tokens, hands played."""
        return {"winner": self.winner, "tokens": list(self.tokens), "hands": len(self.results)}

    @property
    def is_over(self) -> bool:
        """Whether the match is over: a side reached the target, or (``rules.hands``) the last
        hand is played; ``winner`` is then None for a drawn fixed-length match."""
        return self.phase == OVER

    @property
    def chooser(self) -> int:
        """The trump chooser of this hand: the seat after the dealer in play order."""
        return (self.dealer + 1) % self.rules.players

    @property
    def led_suit(self) -> int | None:
        """The suit led to the trick in progress, if any."""
        return self.trick[0][1] // SUIT_BITS if self.trick else None

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """The actions the seat to move may take (``[]`` for any other ``seat``)."""
        to_move = self._to_move
        if to_move is None or (seat is not None and seat != to_move):
            return []
        if self.phase == TRUMP:
            return list(TRUMP_TEXT)
        hand = self.hands[to_move]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0][1] // SUIT_BITS]
            if follow:
                hand = follow
        actions = []
        while hand:
            low = hand & -hand
            actions.append(PLAY_TEXT[low.bit_length() - 1])
            hand ^= low
        if self._may_announce():
            actions.append(KAPOTHI)
        return actions

    def legal_cards(self) -> int:
        """The cards the seat to move may play, as a card set (0 outside the play phase)."""
        if self.phase != PLAY or self._to_move is None:
            return 0
        hand = self.hands[self._to_move]
        if self.trick:
            return hand & SUIT_MASKS[self.trick[0][1] // SUIT_BITS] or hand
        return hand

    # ----------------------------------------------------------------- acting

    def apply(self, action: str, seat: int | None = None) -> None:
        """Play ``action`` for the seat to move (or check it is ``seat``'s turn first).

        Raises :class:`IllegalAction` with the reason, leaving the game unchanged.
        """
        kind, arg = parse_action(action)
        to_move = self._to_move
        if to_move is None:
            raise IllegalAction("game_over", "the match is over")
        if seat is not None and seat != to_move:
            raise IllegalAction("not_your_turn", f"it is seat {to_move}'s turn, not seat {seat}'s")
        if kind == _PLAY:
            if self.phase != PLAY:
                raise IllegalAction("wrong_phase", "the trump suit must be chosen before any card is played")
            self._play(to_move, arg)
            self.actions.append((to_move, PLAY_TEXT[arg]))
        elif kind == _CHOOSE:
            if self.phase != TRUMP:
                raise IllegalAction("wrong_phase", "trump is chosen once, before the first card, and stays")
            self.actions.append((to_move, TRUMP_TEXT[arg]))
            self._choose_trump(arg)
        else:
            if not self._may_announce():
                raise IllegalAction("wrong_phase", self._why_no_kapothi())
            self.announced = self.rules.side_of(to_move)
            self.actions.append((to_move, KAPOTHI))

    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        bit = 1 << card
        if not hand & bit:
            raise IllegalAction("not_held", f"you do not hold {Card.all()[card].pretty}")
        trick = self.trick
        if trick:
            led = trick[0][1] // SUIT_BITS
            if hand & SUIT_MASKS[led] and card // SUIT_BITS != led:
                raise IllegalAction(
                    "revoke", f"you must follow suit: {SUIT_NAMES[led]} were led and you hold some"
                )
        self.hands[seat] = hand ^ bit
        trick.append((seat, card))
        if len(trick) < self.rules.players:
            self._to_move = (seat + 1) % self.rules.players
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        trick = self.trick
        winner = trick_winner(trick, self.trump)[0]
        self.tricks_won[self.rules.side_of(winner)] += 1
        done: Trick = {
            "hand": self.hand_index + 1,
            "leader": trick[0][0],
            "cards": [CARD_NAMES[c] for _, c in trick],
            "winner": winner,
        }
        self.completed.append(done)
        self.last_trick = done
        self.trick = []
        self._to_move = winner
        if len(self.completed) == HAND_SIZE:
            self._end_hand()

    def _choose_trump(self, suit: int) -> None:
        self.trump = suit
        if self.rules.redeal_few_trumps and self._a_team_is_short_of(suit):
            self.redeals += 1
            self._deal()
            return
        self.phase = PLAY

    def _a_team_is_short_of(self, suit: int) -> bool:
        trumps = [(self.hands[s] & SUIT_MASKS[suit]).bit_count() for s in range(self.rules.players)]
        return min(trumps[0] + trumps[2], trumps[1] + trumps[3]) < MIN_TEAM_TRUMPS

    def _may_announce(self) -> bool:
        return (
            self.rules.kapothi == "announced"
            and self.phase == PLAY
            and self._to_move is not None
            and self.announced is None
            and not self.trick
            and len(self.completed) == HAND_SIZE - 2
            and self.tricks_won[self.rules.side_of(self._to_move)] == HAND_SIZE - 2
        )

    def _why_no_kapothi(self) -> str:
        if self.rules.kapothi != "announced":
            return "kapothi is announced only when the table plays the 'announced' kapothi rule"
        if self.announced is not None:
            return "kapothi has already been announced this hand"
        return "kapothi may be announced only by the leader to trick 7, whose team won the first 6 tricks"

    def _end_hand(self) -> None:
        rules = self.rules
        score = score_hand(rules, self.tricks_won, rules.side_of(self.chooser), self.announced, self.carry)
        assert self.trump is not None  # a hand is played with a trump
        self.results.append({
            "hand": self.hand_index + 1,
            "dealer": self.dealer,
            "chooser": self.chooser,
            "trump": SUIT_LETTERS[self.trump],
            "tricks": list(self.tricks_won),
            "announced": self.announced,
            "side": score.side,
            "tokens": score.tokens,
            "kapothi": score.kapothi,
            "carry": score.carry,
        })
        self.carry = score.carry
        if score.side is not None:
            self.tokens[score.side] += score.tokens
        if rules.hands:
            # A match of fixed length ends after its last hand, never before (a carry left
            # by a last 4 : 4 goes to nobody): most tokens win, equal tokens draw (no winner).
            if len(self.results) == rules.hands:
                most = max(self.tokens)
                self._end_match(self.tokens.index(most) if self.tokens.count(most) == 1 else None)
                return
        elif score.side is not None and (score.wins_match or self.tokens[score.side] >= rules.target):
            self._end_match(score.side)
            return
        self.dealer = (self.dealer + rules.deal_step) % rules.players
        self.hand_index += 1
        self.redeals = 0
        self._deal()

    def _end_match(self, winner: int | None) -> None:
        self.winner = winner
        self.phase = OVER
        self._to_move = None

    def _deal(self) -> None:
        if self.hand_index == 0 and self.redeals == 0 and self.given_deal is not None:
            dealt = [list(h) for h in self.given_deal]
        else:
            dealt = deal_hands(self.rules, self.seed, self.hand_index, self.redeals, self.chooser)
        self.dealt = dealt
        self.hands = [sum(1 << c for c in cards) for cards in dealt]
        self.first_batch = [sum(1 << c for c in cards[:FIRST_BATCH]) for cards in dealt]
        self.phase = TRUMP
        self.trump = None
        self.trick = []
        self.completed = []
        self.tricks_won = [0] * self.rules.sides
        self.announced = None
        self._to_move = self.chooser

    # ----------------------------------------------------------------- views

    def visible_hand(self, seat: int) -> int:
        """The cards ``seat`` holds and may see: only the first batch before trump is chosen."""
        if self.phase == TRUMP:
            return self.hands[seat] & self.first_batch[seat]
        return self.hands[seat]

    def view(self, seat: int | None) -> OmiView:
        """All that ``seat`` may know, as JSON-ready data; ``None`` gives a spectator's view.

        Other seats' cards appear only as counts.  The seed (which would reveal every hand) is
        shown only once the match is over.
        """
        n = self.rules.players
        counts = [self.visible_hand(s).bit_count() for s in range(n)]
        view: OmiView = {
            "game": "omi",
            "seat": seat,
            "players": n,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "hand_number": self.hand_index + 1,
            "redeals": self.redeals,
            "dealer": self.dealer,
            "chooser": self.chooser,
            "trump": None if self.trump is None or self.phase == TRUMP else SUIT_LETTERS[self.trump],
            "to_move": self._to_move,
            "legal": self.legal_actions(seat) if seat is not None else [],
            "hand": [] if seat is None else [str(c) for c in CardSet(self.visible_hand(seat))],
            "hand_counts": counts,
            "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in self.trick],
            "tricks": [t.copy() for t in self.completed],
            "last_trick": self.last_trick and self.last_trick.copy(),
            "tricks_won": list(self.tricks_won),
            "kapothi_announced": self.announced,
            "tokens": list(self.tokens),
            "carry": self.carry,
            "results": [r.copy() for r in self.results],
            "is_over": self.is_over,
            "winner": self.winner,
        }
        return self._revealed(view)

    # ----------------------------------------------------------------- records

    def _record_tags(self) -> list[tuple[str, str]]:
        return omi_record.tags(
            self.rules, self.first_dealer, self.given_deal, self.tokens, self.winner, self.is_over
        )

    def _record_body(self) -> list[str]:
        return omi_record.body(self.restart(), self.actions)

    @classmethod
    def _from_record(
        cls, rules: OmiRules, seed: int, tags: dict[str, str], words: list[str]
    ) -> tuple[Self, list[ActionItem]]:
        dealer, deal = omi_record.read_start(tags)
        actions: list[ActionItem] = list(omi_record.read_actions(words))
        if deal is not None:
            return cls.from_deal(rules, deal, dealer, seed=seed), actions
        return cls(rules, seed, None, dealer), actions

    def _start(self) -> tuple[Any, ...]:
        return (self.given_deal, self.first_dealer)

    def _status(self) -> str:
        return f"hand {self.hand_index + 1} {self.phase} tokens {'-'.join(map(str, self.tokens))}"
