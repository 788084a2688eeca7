"""The built-in double-dummy solver, in pure Python (it also runs under Pyodide).

It answers "can the side to move take at least ``need`` of the remaining tricks?" by a
boolean alpha-beta search (a null-window search), and finds exact values with a few such
tests per card.  What makes it fast:

* **relative ranks**: cards are renumbered within each suit among the cards still out, so
  positions equal up to the removal of played cards are the same ints;
* **equal cards searched once**: two cards of one hand with no card of another hand between
  them are one move (``hand & ~(hand >> 1)`` picks the top of each run);
* a **transposition table** at trick boundaries, keyed on the relative-rank hands and the
  leader, holding a lower and an upper bound on the tricks of the maximising side;
* **sure-trick bounds** at every trick start: the leader's cashable top cards (after drawing
  trumps when they can), and the top trumps of the other side, which cut the search when
  they already decide the question;
* **move ordering**: cash winners first, win cheaply, do not overtake a partner, discard low.

>>> from bistrot.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("AS KH", "7S 8H", "QS QH", "8S 7H")]
>>> from bistrot.omi.dd.position import Position
>>> solve_python(Position(hands=tuple(hands), trump=1)) == {12: 2, 24: 2}
True
"""

from __future__ import annotations

from bistrot.cards import SUIT_BITS, SUIT_MASKS
from bistrot.omi.dd.position import Position

_SUIT_OF = tuple(c // SUIT_BITS for c in range(52))
#: Bits of the same suit strictly above each card.
_ABOVE = tuple(SUIT_MASKS[c // SUIT_BITS] & ~((2 << c) - 1) for c in range(52))
_NOT_ABOVE = tuple(~a for a in _ABOVE)
#: Clears the top bit of each suit field, so ``hand >> 1`` never links two suits.
_NOT_TOP = ~sum(1 << (SUIT_BITS * s + SUIT_BITS - 1) for s in range(4))


def _low_first(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Search:
    """One search: the relative-rank hands, the trump, the sides and the transposition table."""

    def __init__(self, hands: list[int], trump: int, sides: tuple[int, ...], max_side: int) -> None:
        self.hands = hands
        self.n = len(hands)
        self.trump = trump
        self.trump_mask = SUIT_MASKS[trump]
        self.is_max = tuple(side == max_side for side in sides)
        self.opponents = tuple(
            tuple(o for o in range(self.n) if sides[o] != sides[s]) for s in range(self.n)
        )
        self.partners = tuple(
            tuple(o for o in range(self.n) if sides[o] == sides[s]) for s in range(self.n)
        )
        self.trick = [0] * self.n
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0

    # ------------------------------------------------------------------ trick boundaries

    def at_trick_start(self, leader: int, need: int) -> bool:
        """Can the maximising side take ``need`` of the tricks left, ``leader`` to lead?"""
        hands = self.hands
        count = hands[leader].bit_count()
        if need <= 0:
            return True
        if need > count:
            return False
        if count == 1:
            return self._last_trick(leader) >= need
        key = (*hands, leader)
        bounds = self.table.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= need:
                return True
            if high < need:
                return False
        else:
            low, high = 0, count
        # sure tricks of the leader's side, then top trumps of the other side
        quick = self._quick_tricks(leader)
        if self.is_max[leader]:
            if quick >= need:
                self.table[key] = (need if need > low else low, high)
                return True
            sure_other = self._top_trumps(self.opponents[leader])
            if count - sure_other < need:
                self.table[key] = (low, need - 1 if need - 1 < high else high)
                return False
        else:
            if count - quick < need:
                self.table[key] = (low, need - 1 if need - 1 < high else high)
                return False
            if self._top_trumps(self.opponents[leader]) >= need:
                self.table[key] = (need if need > low else low, high)
                return True
        result = self.play(leader, 0, need, 0, 0, 0)
        if result:
            self.table[key] = (need if need > low else low, high)
        else:
            self.table[key] = (low, need - 1 if need - 1 < high else high)
        return result

    def _last_trick(self, leader: int) -> int:
        """Tricks (0 or 1) of the maximising side when each seat holds one card."""
        hands = self.hands
        best = hands[leader].bit_length() - 1
        winner = leader
        best_suit = _SUIT_OF[best]
        trump = self.trump
        n = self.n
        for i in range(1, n):
            seat = (leader + i) % n
            card = hands[seat].bit_length() - 1
            suit = _SUIT_OF[card]
            if (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                best, best_suit, winner = card, suit, seat
        return 1 if self.is_max[winner] else 0

    def _quick_tricks(self, leader: int) -> int:
        """Tricks the leader's side surely takes by cashing the leader's top cards."""
        hands = self.hands
        mine = hands[leader]
        alive = 0
        for h in hands:
            alive |= h
        tm = self.trump_mask
        runs = [0, 0, 0, 0]
        for suit in range(4):
            sm = SUIT_MASKS[suit]
            held = mine & sm
            if not held:
                continue
            others = alive & sm & ~held
            runs[suit] = (held >> others.bit_length()).bit_count() if others else held.bit_count()
        trump = self.trump
        top_trumps = runs[trump]
        opponents = self.opponents[leader]
        most = 0
        for o in opponents:
            t = (hands[o] & tm).bit_count()
            if t > most:
                most = t
        if top_trumps >= most:
            return runs[0] + runs[1] + runs[2] + runs[3]
        total = top_trumps
        for suit in range(4):
            run = runs[suit]
            if suit == trump or not run:
                continue
            sm = SUIT_MASKS[suit]
            for o in opponents:
                h = hands[o]
                if (h & tm).bit_count() > top_trumps:
                    length = (h & sm).bit_count()
                    if length < run:
                        run = length
            total += run
        return total

    def _top_trumps(self, seats: tuple[int, ...]) -> int:
        """Tricks ``seats`` surely take with the top trumps they hold (one a trick per hand)."""
        hands = self.hands
        tm = self.trump_mask
        ours = 0
        alive = 0
        for i, h in enumerate(hands):
            alive |= h
            if i in seats:
                ours |= h
        ours &= tm
        if not ours:
            return 0
        others = alive & tm & ~ours
        top = ours >> others.bit_length() << others.bit_length() if others else ours
        if not top:
            return 0
        best = 0
        for s in seats:
            c = (hands[s] & top).bit_count()
            if c > best:
                best = c
        return best

    # ------------------------------------------------------------------ inside a trick

    def moves(self, seat: int, k: int, led: int, best: int, winner: int) -> list[int]:
        """The cards worth trying for ``seat`` (one per run of equal cards), best guesses first."""
        hand = self.hands[seat]
        if k == 0:
            reps = hand & ~((hand >> 1) & _NOT_TOP)
            alive = 0
            for h in self.hands:
                alive |= h
            winners = []
            others = []
            while reps:
                top = reps.bit_length() - 1
                reps ^= 1 << top
                if alive & _ABOVE[top]:
                    others.append(top)
                else:
                    winners.append(top)
            others.reverse()
            return winners + others
        follow = hand & SUIT_MASKS[led]
        friendly = self.is_max[winner] == self.is_max[seat]
        if follow:
            reps = follow & ~((follow >> 1) & _NOT_TOP)
            if friendly or _SUIT_OF[best] != led:
                return _low_first(reps)
            beat = reps & _ABOVE[best]
            if not beat:
                return _low_first(reps)
            low = beat & -beat
            return [low.bit_length() - 1, *_low_first(reps ^ low)]
        reps = hand & ~((hand >> 1) & _NOT_TOP)
        tm = self.trump_mask
        trumps = reps & tm
        discards = _low_first(reps & ~tm)
        discards.sort(key=_rank_key)
        if friendly or not trumps:
            return discards + _low_first(trumps)
        if _SUIT_OF[best] == self.trump:
            over = trumps & _ABOVE[best]
            if not over:
                return discards + _low_first(trumps)
            low = over & -over
            return [low.bit_length() - 1, *discards, *_low_first(trumps ^ low)]
        return _low_first(trumps) + discards

    def play(self, seat: int, k: int, need: int, led: int, best: int, winner: int) -> bool:
        """``seat`` plays the ``k``-th card of the trick (``best`` by ``winner`` leads so far)."""
        self.nodes += 1
        hands = self.hands
        hand = hands[seat]
        want = self.is_max[seat]
        n = self.n
        last = k == n - 1
        trump = self.trump
        trick = self.trick
        for card in self.moves(seat, k, led, best, winner):
            hands[seat] = hand ^ (1 << card)
            trick[k] = card
            if k == 0:
                won = self._next(seat, 1, need, _SUIT_OF[card], card, seat)
            else:
                suit = _SUIT_OF[card]
                bsuit = _SUIT_OF[best]
                if (suit == bsuit and card > best) or (suit == trump and bsuit != trump):
                    nbest, nwinner = card, seat
                else:
                    nbest, nwinner = best, winner
                if last:
                    won = self._end_trick(nwinner, need)
                else:
                    won = self._next(seat, k + 1, need, led, nbest, nwinner)
            if won == want:
                hands[seat] = hand
                return want
        hands[seat] = hand
        return not want

    def _next(self, seat: int, k: int, need: int, led: int, best: int, winner: int) -> bool:
        return self.play((seat + 1) % self.n, k, need, led, best, winner)

    def _end_trick(self, winner: int, need: int) -> bool:
        """Remove the trick's cards, renumber ranks, and search on from the next lead."""
        hands = self.hands
        saved = hands[:]
        trick = self.trick[:]
        n = self.n
        for card in sorted(trick, reverse=True):
            above = _ABOVE[card]
            below = _NOT_ABOVE[card]
            for i in range(n):
                h = hands[i]
                hands[i] = (h & below) | ((h & above) >> 1)
        won = self.at_trick_start(winner, need - 1 if self.is_max[winner] else need)
        hands[:] = saved
        self.trick[:] = trick
        return won


def _rank_key(card: int) -> int:
    return card % SUIT_BITS


# ---------------------------------------------------------------------- public entry points


class _Root:
    """A position turned into relative ranks, with the way back to real cards."""

    def __init__(self, pos: Position) -> None:
        alive = 0
        for h in pos.hands:
            alive |= h
        for _, c in pos.trick:
            alive |= 1 << c
        to_compact: dict[int, int] = {}
        for suit in range(4):
            base = SUIT_BITS * suit
            rank = 0
            for c in range(base, base + SUIT_BITS):
                if alive >> c & 1:
                    to_compact[c] = base + rank
                    rank += 1
        self.to_compact = to_compact
        hands = []
        for h in pos.hands:
            m = 0
            for c, r in to_compact.items():
                if h >> c & 1:
                    m |= 1 << r
            hands.append(m)
        assert pos.sides is not None
        self.search = _Search(hands, pos.trump, pos.sides, pos.sides[pos.to_move])
        self.pos = pos
        trick = [to_compact[c] for _, c in pos.trick]
        self.k = len(trick)
        for i, c in enumerate(trick):
            self.search.trick[i] = c
        self.led = _SUIT_OF[trick[0]] if trick else 0
        best, winner = (trick[0], pos.trick[0][0]) if trick else (0, 0)
        for (seat, _), c in zip(pos.trick[1:], trick[1:], strict=True):
            suit, bsuit = _SUIT_OF[c], _SUIT_OF[best]
            if (suit == bsuit and c > best) or (suit == pos.trump and bsuit != pos.trump):
                best, winner = c, seat
        self.best, self.winner = best, winner

    def after(self, card: int, need: int) -> bool:
        """Can the side to move take ``need`` tricks after it plays the compact ``card``?"""
        s = self.search
        seat, k = self.pos.to_move, self.k
        hands = s.hands
        hand = hands[seat]
        hands[seat] = hand ^ (1 << card)
        s.trick[k] = card
        try:
            if k == 0:
                return s._next(seat, 1, need, _SUIT_OF[card], card, seat)
            best, winner = self.best, self.winner
            suit, bsuit = _SUIT_OF[card], _SUIT_OF[best]
            if (suit == bsuit and card > best) or (suit == s.trump and bsuit != s.trump):
                best, winner = card, seat
            if k == s.n - 1:
                return s._end_trick(winner, need)
            return s._next(seat, k + 1, need, self.led, best, winner)
        finally:
            hands[seat] = hand

    def groups(self) -> dict[int, list[int]]:
        """Each run of equal legal cards: compact representative -> the real cards."""
        pos = self.pos
        legal = pos.legal_cards()
        hand = self.search.hands[pos.to_move]
        compact_legal = 0
        back: dict[int, int] = {}
        for c, r in self.to_compact.items():
            if legal >> c & 1:
                compact_legal |= 1 << r
                back[r] = c
        out: dict[int, list[int]] = {}
        for r in sorted(back, reverse=True):
            top = r
            while (top + 1) % SUIT_BITS and hand >> (top + 1) & 1 and (top + 1) in back:
                top += 1
            out.setdefault(top, []).append(back[r])
        return out


def solve_python(pos: Position) -> dict[int, int]:
    """Tricks the side to move takes from now on after each legal card, by the built-in solver."""
    root = _Root(pos)
    count = pos.tricks_left
    values: dict[int, int] = {}
    guess = None
    for rep, cards in root.groups().items():
        value = _exact(root, rep, count, guess)
        guess = value
        for c in cards:
            values[c] = value
    return values


def _exact(root: _Root, card: int, count: int, guess: int | None) -> int:
    """The exact value of one card, by null-window tests around ``guess``."""
    low, high = 0, count
    if guess is None:
        guess = (count + 1) // 2
    while low < high:
        target = min(max(guess, low + 1), high)
        if root.after(card, target):
            low = target
            guess = target + 1
        else:
            high = target - 1
            guess = target - 1
    return low


def can_reach_python(pos: Position, tricks: int) -> bool:
    """Can the side to move take at least ``tricks`` from now on?"""
    if tricks <= 0:
        return True
    if tricks > pos.tricks_left:
        return False
    root = _Root(pos)
    return any(root.after(rep, tricks) for rep in root.groups())
