"""The built-in double-dummy solver, in pure Python (no third-party import: it runs under Pyodide).

The search answers one question, "can the maximising side take at least ``need`` of the
tricks left?", with a boolean alpha-beta search (a null-window test); :func:`solve_python`
finds each card's exact value with a few such tests (an MTD(f)-style driver that starts from
the previous card's value).  What makes it fast, after Haglund's DDS and Ginsberg's
partition search:

* **relative ranks**: at each trick boundary the cards are renumbered within each suit among
  the cards still out, so positions that differ only by which low cards were played are the
  same ints; all hands live in one int (52 bits a seat) passed by value, no undo;
* **equal cards searched once**: cards of one hand with no other card between them are one
  move (``hand & ~(hand >> 1)`` keeps the top of each run);
* a **transposition table at trick boundaries** keyed on the suit lengths and the leader,
  whose entries hold a lower and an upper bound and the *relevant* top cards of each suit
  (partition search, DDS's "winning ranks"): an entry serves every position with the same
  lengths and the same owners of those cards;
* **sure-trick bounds** at each trick start: the leader's top cards (after drawing trumps
  when it can, else cashed only while the trumping opponents follow), the partner's top
  cards when the leader can cross to them, a ruff by a void partner, and the top trumps of
  the other side; the second and third hands stop early when this trick alone decides and
  their side surely wins it;
* **move ordering**: the last lead that cut at this hand size, then cashing winners, leading
  toward the partner's top card, suits the opponents cannot ruff; follow by winning as
  cheaply as possible, low when the partner wins, ruff low, discard low.

>>> from bistrot.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("AS KH", "7S 8H", "QS QH", "8S 7H")]
>>> from bistrot.omi.dd.position import Position
>>> solve_python(Position(hands=tuple(hands), trump=1)) == {12: 2, 24: 2}
True
"""

from __future__ import annotations

from bistrot.cards import SUIT_BITS, SUIT_MASKS
from bistrot.omi.dd.position import Position
from bistrot.omi.tricks import BEATS

#: Bits a hand takes in the packed state (one suit field of 13 bits per suit).
_HAND_BITS = 52
_FULL = (1 << _HAND_BITS) - 1
_SUIT_OF = tuple(c // SUIT_BITS for c in range(52))
#: Bits of the same suit strictly above each card.
_ABOVE = tuple(SUIT_MASKS[c // SUIT_BITS] & ~((2 << c) - 1) for c in range(52))
#: The card and the bits of its suit above it, their complement; the bits of its suit below it.
_AT_LEAST = tuple(SUIT_MASKS[c // SUIT_BITS] & ~((1 << c) - 1) for c in range(52))
_NOT_AT_LEAST = tuple(~a for a in _AT_LEAST)
_BELOW = tuple(SUIT_MASKS[c // SUIT_BITS] & ((1 << c) - 1) for c in range(52))
#: Clears the top bit of each suit field, so ``hand >> 1`` never links two suits.
_NOT_TOP = ~sum(1 << (SUIT_BITS * s + SUIT_BITS - 1) for s in range(4))


def _smear_mask(k: int) -> int:
    """The bits of each suit field that ``>> k`` may fill from the same field."""
    return sum(((1 << (SUIT_BITS - k)) - 1) << (SUIT_BITS * s) for s in range(4))


#: With these, ``m |= (m >> k) & _SMEAR_k`` for k = 1, 2, 4, 8 fills each suit field of ``m``
#: from its highest card down: ``hand & ~filled`` is what ranks above every card of ``m``.
_SMEAR_1, _SMEAR_2, _SMEAR_4, _SMEAR_8 = (_smear_mask(k) for k in (1, 2, 4, 8))


def _length_unit(seat: int, suit: int) -> int:
    """One card of ``suit`` in ``seat``'s hand, in the packed suit lengths (4 bits a count)."""
    return 1 << (4 * (4 * seat + suit))


def packed_lengths(hands: list[int]) -> int:
    """The suit lengths of every hand, 4 bits each, in one int (part of the table's key)."""
    lens = 0
    for seat, h in enumerate(hands):
        for suit in range(4):
            lens += (h & SUIT_MASKS[suit]).bit_count() * _length_unit(seat, suit)
    return lens


def pack(hands: list[int]) -> int:
    """All hands in one int, seat ``i`` at bit ``52 * i``: the state the search passes on."""
    state = 0
    for seat, h in enumerate(hands):
        state |= h << (_HAND_BITS * seat)
    return state


def _pin_runs(hand: int, rel: int) -> int:
    """``rel`` grown so that every card the search skipped as equal to a tried one keeps its owner.

    A seat tries one card of each run of equal cards (``hand & ~(hand >> 1)``; ``hand`` is
    the cards it may play: those of the suit led when it follows).  When every
    move failed, the answer holds for the other positions of the partition only if each of
    their moves has a tried counterpart: a card of ``rel`` is itself, a low card (not in
    ``rel``) is any low card of that suit that was tried.  A run whose top is in ``rel`` but
    which goes on below it hides low cards: if that run holds all the seat's low cards of the
    suit, no low card of the suit was tried, yet elsewhere in the partition the same low
    cards need not be equal to the top (another seat may own one between them) and would be
    moves of their own.  Such a run then joins ``rel`` (closed upwards, as ``rel`` stays).
    """
    low = ((hand & rel) >> 1) & hand & ~rel & _NOT_TOP
    while low:
        first = low & -low
        low ^= first
        suit_mask = SUIT_MASKS[_SUIT_OF[first.bit_length() - 1]]
        run = step = first
        while step:
            step = (step >> 1) & hand & suit_mask
            run |= step
        if hand & suit_mask & ~rel == run:
            rel |= run
    return rel


class _Search:
    """One search: the trump, the sides, the transposition table.

    A position is one int holding every hand in relative ranks (:func:`pack`) plus the packed
    suit lengths.  Every search method returns a bool and leaves in ``self.rel`` the cards its
    answer rests on: in each suit, the top cards whose owners mattered (closed upwards).
    Lower cards count only by number, so the answer holds for every position with the same
    suit lengths and the same owners of those cards; the transposition table stores each
    answer with that set (Ginsberg's partition search; Haglund's "winning ranks").
    """

    def __init__(self, players: int, trump: int, sides: tuple[int, ...], max_side: int) -> None:
        n = players
        self.n = n
        self.trump = trump
        self.trump_mask = SUIT_MASKS[trump]
        self.beats = BEATS[trump]
        """Who takes a trick: ``beats[best][card]`` (:mod:`bistrot.omi.tricks`)."""
        self.is_max = tuple(side == max_side for side in sides)
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.shift = tuple(_HAND_BITS * s for s in range(n))
        self.opponents = tuple(tuple(o for o in range(n) if sides[o] != sides[s]) for s in range(n))
        self.partners = tuple(
            tuple(o for o in range(n) if sides[o] == sides[s] and o != s) for s in range(n)
        )
        self.units = tuple(_length_unit(seat, suit) for seat in range(n) for suit in range(4))
        repl = sum(1 << (_HAND_BITS * s) for s in range(n))
        self.repl = repl
        self.above_all = tuple(a * repl for a in _ABOVE)
        self.not_above_all = tuple(~(a * repl) for a in _ABOVE)
        self.table: dict[int, list[list[int]]] = {}
        self.rel = 0
        #: tricks searched card by card (not settled by the table or by sure tricks)
        self.nodes = 0
        #: the last lead that cut the search, by cards in hand and seat
        self.killers = [0] * (4 * 14)

    # ------------------------------------------------------------------ trick boundaries

    def at_trick_start(self, state: int, lens: int, leader: int, need: int) -> bool:
        """Can the maximising side take ``need`` of the tricks left, ``leader`` to lead?"""
        count = (state >> self.shift[leader] & _FULL).bit_count()
        if need <= 0:
            self.rel = 0
            return True
        if need > count:
            self.rel = 0
            return False
        if count == 1:
            return self._last_trick(state, leader)
        bucket_key = lens << 2 | leader
        bucket = self.table.get(bucket_key)
        if bucket is None:
            bucket = self.table[bucket_key] = []
        else:
            for entry in bucket:
                if state & entry[1] == entry[2]:
                    if entry[3] >= need:
                        self.rel = entry[0]
                        return True
                    if entry[4] < need:
                        self.rel = entry[0]
                        return False
        # sure tricks of the leader's side, then top trumps of the other side
        decided = None
        if self.is_max[leader]:
            if self._quick_tricks(state, leader, need) >= need:
                decided = True
            elif count - self._top_trumps(state, self.opponents[leader]) < need:
                decided = False
        else:
            if count - self._quick_tricks(state, leader, count - need + 1) < need:
                decided = False
            elif self._top_trumps(state, self.opponents[leader]) >= need:
                decided = True
        if decided is not None:
            rel = self.rel
            spread = rel * self.repl
            low, high = (need, count) if decided else (0, need - 1)
            bucket.append([rel, spread, state & spread, low, high])
            return decided
        self.nodes += 1
        result = self.play(state, lens, leader, 0, need, 0, 0, 0, 0)
        rel = self.rel
        spread = rel * self.repl
        pattern = state & spread
        for entry in bucket:
            if entry[1] == spread and entry[2] == pattern:
                if result:
                    if need > entry[3]:
                        entry[3] = need
                elif need - 1 < entry[4]:
                    entry[4] = need - 1
                break
        else:
            low, high = (need, count) if result else (0, need - 1)
            bucket.append([rel, spread, pattern, low, high])
        return result

    def _last_trick(self, state: int, leader: int) -> bool:
        """Each seat holds one card: does the maximising side win the trick?"""
        best = (state >> self.shift[leader] & _FULL).bit_length() - 1
        winner = leader
        beats = self.beats
        row = beats[best]
        seat = leader
        for _ in range(1, self.n):
            seat = self.next_seat[seat]
            card = (state >> self.shift[seat] & _FULL).bit_length() - 1
            if row[card]:
                best, winner, row = card, seat, beats[card]
        alive = state | state >> (2 * _HAND_BITS)
        alive = (alive | alive >> _HAND_BITS) & _FULL
        company = alive & SUIT_MASKS[_SUIT_OF[best]]
        self.rel = company if company != 1 << best else 0
        return self.is_max[winner]

    def _quick_tricks(self, state: int, leader: int, goal: int) -> int:
        """Tricks the leader's side surely takes from here, without giving up the lead.

        The best of: the leader cashing its top cards (after drawing trumps when it can);
        crossing to a partner's top card and the partner cashing; a ruff by a void partner.
        Counting stops at ``goal``; ``self.rel`` is set to the cards the count rests on (what
        the answer rests on when this cuts the search).
        """
        alive = state | state >> (2 * _HAND_BITS)
        alive = (alive | alive >> _HAND_BITS) & _FULL
        shift = self.shift
        mine = state >> shift[leader] & _FULL
        best = self._cash(state, alive, leader, mine, goal)
        partners = self.partners[leader]
        if best >= goal or len(partners) != 1:
            return best
        rel = self.rel
        partner = partners[0]
        theirs = state >> shift[partner] & _FULL
        opponents = self.opponents[leader]
        trump = self.trump
        # suits where the partner holds the top card and the leader a card to lead to it
        entries = alive & ~((alive >> 1) & _NOT_TOP) & theirs
        while entries:
            top = entries & -entries
            entries ^= top
            suit = _SUIT_OF[top.bit_length() - 1]
            sm = SUIT_MASKS[suit]
            if not mine & sm or (suit != trump and self._ruffable(state, opponents, sm)):
                continue
            crossed = self._cash(state, alive, partner, theirs, goal)
            if crossed > best:
                best = crossed
                rel = self.rel | top
            break
        if best == 0 and goal == 1 and theirs & self.trump_mask:
            # the partner ruffs a suit it lacks, if no opponent can over-ruff
            for suit in range(4):
                sm = SUIT_MASKS[suit]
                if suit == trump or not mine & sm or theirs & sm:
                    continue
                if not self._ruffable(state, opponents, sm):
                    self.rel = 0
                    return 1
        self.rel = rel
        return best

    def _ruffable(self, state: int, opponents: tuple[int, ...], suit_mask: int) -> bool:
        """Could an opponent ruff (or over-ruff) a lead of this suit?"""
        tm = self.trump_mask
        shift = self.shift
        for o in opponents:
            h = state >> shift[o]
            if not h & suit_mask and h & tm:
                return True
        return False

    def _cash(self, state: int, alive: int, leader: int, mine: int, goal: int) -> int:
        """Tricks ``leader`` takes in a row with its top cards, counted up to ``goal``.

        Sets ``self.rel`` to the top cards counted, no more than needed to reach ``goal``.
        """
        others = alive & ~mine
        others |= (others >> 1) & _SMEAR_1
        others |= (others >> 2) & _SMEAR_2
        others |= (others >> 4) & _SMEAR_4
        others |= (others >> 8) & _SMEAR_8
        tops = mine & ~others
        if not tops:
            self.rel = 0
            return 0
        tm = self.trump_mask
        trump_tops = tops & tm
        top_trumps = trump_tops.bit_count()
        shift = self.shift
        threats = []
        most = 0
        for o in self.opponents[leader]:
            t = (state >> shift[o] & tm).bit_count()
            if t > top_trumps:
                threats.append(state >> shift[o] & _FULL)
            elif t > most:
                most = t
        if threats:
            # trumps are not drawn: cash each side suit only while every threat follows
            total = top_trumps
            rel = trump_tops
        else:
            # draw the opponents' trumps with the top `most` trumps first
            rel = trump_tops
            for _ in range(top_trumps - most):
                rel &= rel - 1
            total = most
        trump = self.trump
        for suit in (trump, 0, 1, 2, 3):
            if total >= goal:
                break
            sm = SUIT_MASKS[suit]
            run_cards = tops & sm & ~rel
            if not run_cards:
                continue
            run = run_cards.bit_count()
            if suit != trump:
                for h in threats:
                    length = (h & sm).bit_count()
                    if length < run:
                        run = length
            if total + run > goal:
                run = goal - total
            for _ in range(run_cards.bit_count() - run):
                run_cards &= run_cards - 1
            total += run
            rel |= run_cards
        self.rel = rel
        return total

    def _top_trumps(self, state: int, seats: tuple[int, ...]) -> int:
        """Tricks ``seats`` surely take with the top trumps they hold (one a trick per hand).

        Sets ``self.rel`` to those top trumps.
        """
        tm = self.trump_mask
        shift = self.shift
        ours = 0
        for s in seats:
            ours |= state >> shift[s]
        ours &= tm
        self.rel = 0
        if not ours:
            return 0
        alive = state | state >> (2 * _HAND_BITS)
        alive = (alive | alive >> _HAND_BITS) & tm
        others = alive & ~ours
        if others:
            cut = others.bit_length()
            top = ours >> cut << cut
            if not top:
                return 0
        else:
            top = ours
        best = 0
        for s in seats:
            c = (state >> shift[s] & top).bit_count()
            if c > best:
                best = c
        self.rel = top
        return best

    # ------------------------------------------------------------------ inside a trick

    def play(
        self, state: int, lens: int, seat: int, k: int, need: int, led: int, best: int, winner: int,
        played: int,
    ) -> bool:
        """``seat`` plays the ``k``-th card of the trick; ``best`` by ``winner`` leads it so far.

        ``played`` holds the trick's cards so far.  Moves are tried in stages (masks), each
        stage low card first; one card per run of equal cards.
        """
        sh = self.shift[seat]
        hand = state >> sh & _FULL
        want = self.is_max[seat]
        units = self.units
        ubase = 4 * seat
        nxt = self.next_seat[seat]
        rel = 0
        if k == 0:
            killers = self.killers
            slot = hand.bit_count() << 2 | seat
            reps = hand & ~((hand >> 1) & _NOT_TOP)
            alive = state | state >> (2 * _HAND_BITS)
            alive = (alive | alive >> _HAND_BITS) & _FULL
            tops = alive & ~((alive >> 1) & _NOT_TOP)
            killer = killers[slot] & reps
            cash = reps & tops & ~killer
            rest = reps ^ cash ^ killer
            towards = 0
            for partner in self.partners[seat]:
                theirs = tops & (state >> self.shift[partner])
                while theirs:
                    top = theirs & -theirs
                    theirs ^= top
                    mine = rest & SUIT_MASKS[_SUIT_OF[top.bit_length() - 1]]
                    towards |= mine & -mine
            rest ^= towards
            # suits an opponent can ruff come last
            danger = 0
            tm = self.trump_mask
            for o in self.opponents[seat]:
                h = state >> self.shift[o] & _FULL
                if h & tm:
                    for suit in range(4):
                        if not h & SUIT_MASKS[suit]:
                            danger |= SUIT_MASKS[suit]
            danger &= ~tm & rest
            for m in (killer, cash, towards, rest ^ danger, danger):
                while m:
                    low = m & -m
                    m ^= low
                    card = low.bit_length() - 1
                    suit = _SUIT_OF[card]
                    if self.play(
                        state ^ (low << sh), lens - units[ubase + suit], nxt, 1, need, suit, card, seat, low
                    ) == want:
                        killers[slot] = low
                        return want
                    rel |= self.rel
            self.rel = _pin_runs(hand, rel)
            return not want
        if k < 3 and (need <= 1 if want else need >= hand.bit_count()) and self.n == 4:
            # this trick alone decides: does the seat's side surely win it?
            sure = self._sure_trick(state, seat, k, led, best, winner, played)
            if sure >= 0:
                self.rel = sure
                return want
        follow = hand & SUIT_MASKS[led]
        friendly = self.is_max[winner] == want
        trump = self.trump
        bsuit = _SUIT_OF[best]
        wins = self.beats[best]
        first = second = 0
        if follow:
            reps = follow & ~((follow >> 1) & _NOT_TOP)
            if friendly or bsuit != led:
                rest = reps
            else:
                beat = reps & _ABOVE[best]
                first = beat & -beat
                rest = reps ^ first
        else:
            reps = hand & ~((hand >> 1) & _NOT_TOP)
            trumps = reps & self.trump_mask
            discards = reps ^ trumps
            if friendly or not trumps:
                first, rest = discards, trumps
            elif bsuit == trump:
                over = trumps & _ABOVE[best]
                first = over & -over
                second, rest = discards, trumps ^ first
            else:
                first = trumps & -trumps
                second, rest = discards, trumps ^ first
        stages = (first, second, rest)
        if k < self.n - 1:
            for m in stages:
                while m:
                    low = m & -m
                    m ^= low
                    card = low.bit_length() - 1
                    suit = _SUIT_OF[card]
                    if wins[card]:
                        won = self.play(
                            state ^ (low << sh), lens - units[ubase + suit], nxt, k + 1, need, led, card,
                            seat, played | low,
                        )
                    else:
                        won = self.play(
                            state ^ (low << sh), lens - units[ubase + suit], nxt, k + 1, need, led, best,
                            winner, played | low,
                        )
                    if won == want:
                        return want
                    rel |= self.rel
            self.rel = _pin_runs(follow or hand, rel)
            return not want
        # the last card of the trick
        remaining = hand.bit_count() - 1
        alive = state | state >> (2 * _HAND_BITS)
        alive = ((alive | alive >> _HAND_BITS) & _FULL) | played
        is_max = self.is_max
        for m in stages:
            while m:
                low = m & -m
                m ^= low
                card = low.bit_length() - 1
                suit = _SUIT_OF[card]
                if wins[card]:
                    top, taker = card, seat
                else:
                    top, taker = best, winner
                cards = played | low
                won_rel = _AT_LEAST[top] & alive if cards & SUIT_MASKS[_SUIT_OF[top]] != 1 << top else 0
                left = need - 1 if is_max[taker] else need
                if left <= 0:
                    won = True
                elif left > remaining:
                    won = False
                else:
                    won = self.next_trick(state ^ (low << sh), lens - units[ubase + suit], cards, taker, left)
                    won_rel |= self.rel
                if won == want:
                    self.rel = won_rel
                    return want
                rel |= won_rel
        self.rel = _pin_runs(follow or hand, rel)
        return not want

    def _sure_trick(
        self, state: int, seat: int, k: int, led: int, best: int, winner: int, played: int
    ) -> int:
        """Does the side of ``seat`` (2nd or 3rd to play, four players) surely win this trick?

        -1 if not, else the cards that rests on (as ``self.rel`` would hold them).
        """
        shift = self.shift
        tm = self.trump_mask
        lm = SUIT_MASKS[led]
        mine = state >> shift[seat] & _FULL
        nxt = self.next_seat[seat]
        opp = state >> shift[nxt] & _FULL
        opp_ruffs = led != self.trump and not opp & lm and opp & tm
        alive = state | state >> (2 * _HAND_BITS)
        alive = ((alive | alive >> _HAND_BITS) & _FULL) | played
        if k == 1:
            # the leader's partner plays next, then ours
            partner = state >> shift[self.next_seat[nxt]] & _FULL
            if opp_ruffs:
                return -1
            if led != self.trump and (
                (not mine & lm and mine & tm) or (not partner & lm and partner & tm)
            ):
                return 0  # we ruff, they cannot over-ruff
            ours = (mine | partner) & lm
            if not ours:
                return -1
            top = ours.bit_length() - 1
            if top > best and not opp & _ABOVE[top] & lm:
                return _AT_LEAST[top] & alive
            return -1
        # third to play: only the last opponent is still to come
        bsuit = _SUIT_OF[best]
        if self.is_max[winner] == self.is_max[seat]:
            if bsuit == led:
                if not opp_ruffs and not opp & _ABOVE[best]:
                    return _AT_LEAST[best] & alive
            elif opp & lm or not opp & _ABOVE[best]:
                return _AT_LEAST[best] & alive  # partner ruffed; no over-ruff
        follow = mine & lm
        if follow:
            top = follow.bit_length() - 1
            if bsuit == led and top > best and not opp_ruffs and not opp & _ABOVE[top]:
                return _AT_LEAST[top] & alive
        elif led != self.trump and mine & tm:
            top = (mine & tm).bit_length() - 1
            if (bsuit != self.trump or top > best) and (opp & lm or not opp & _ABOVE[top]):
                return _AT_LEAST[top] & alive
        return -1

    def next_trick(self, state: int, lens: int, played: int, leader: int, need: int) -> bool:
        """Remove the trick's cards ``played``, renumber the ranks, search on from ``leader``."""
        above_all = self.above_all
        not_above_all = self.not_above_all
        m = played
        while m:
            card = m.bit_length() - 1
            m ^= 1 << card
            state = (state & not_above_all[card]) | ((state & above_all[card]) >> 1)
        won = self.at_trick_start(state, lens, leader, need)
        rel = self.rel
        if rel:
            m = played
            while m:
                low = m & -m
                m ^= low
                card = low.bit_length() - 1
                rel = (rel & _NOT_AT_LEAST[card]) | ((rel & _AT_LEAST[card]) << 1)
                if rel & _BELOW[card]:
                    rel |= low
            self.rel = rel
        return won

    def finish_trick(self, state: int, lens: int, played: int, winner: int, need: int) -> bool:
        """After the trick's last card, won by ``winner``: score it and search on (for the root)."""
        left = need - 1 if self.is_max[winner] else need
        if left <= 0:
            return True
        if left > (state >> self.shift[winner] & _FULL).bit_count():
            return False
        return self.next_trick(state, lens, played, winner, left)


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
        self.hands = hands
        assert pos.sides is not None
        self.search = _Search(pos.players, pos.trump, pos.sides, pos.sides[pos.to_move])
        self.state = pack(hands)
        self.lens = packed_lengths(hands)
        self.pos = pos
        trick = [to_compact[c] for _, c in pos.trick]
        self.k = len(trick)
        self.played = sum(1 << c for c in trick)
        self.led = _SUIT_OF[trick[0]] if trick else 0
        best, winner = (trick[0], pos.trick[0][0]) if trick else (0, 0)
        for (seat, _), c in zip(pos.trick[1:], trick[1:], strict=True):
            if self.search.beats[best][c]:
                best, winner = c, seat
        self.best, self.winner = best, winner

    def after(self, card: int, need: int) -> bool:
        """Can the side to move take ``need`` tricks after it plays the compact ``card``?"""
        s = self.search
        seat, k = self.pos.to_move, self.k
        state = self.state ^ (1 << (card + s.shift[seat]))
        lens = self.lens - s.units[4 * seat + _SUIT_OF[card]]
        played = self.played | 1 << card
        nxt = s.next_seat[seat]
        if k == 0:
            return s.play(state, lens, nxt, 1, need, _SUIT_OF[card], card, seat, played)
        best, winner = self.best, self.winner
        if s.beats[best][card]:
            best, winner = card, seat
        if k == s.n - 1:
            return s.finish_trick(state, lens, played, winner, need)
        return s.play(state, lens, nxt, k + 1, need, self.led, best, winner, played)

    def groups(self) -> dict[int, list[int]]:
        """Each run of equal legal cards: compact representative -> the real cards."""
        pos = self.pos
        legal = pos.legal_cards()
        hand = self.hands[pos.to_move]
        back: dict[int, int] = {}
        for c, r in self.to_compact.items():
            if legal >> c & 1:
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
