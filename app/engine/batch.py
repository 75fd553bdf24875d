"""Many worlds of one hand played at once, with numpy: the search's engine.

A :class:`Batch` holds ``size`` hands of Pişti under one rule set, all at
the same play number (a deal's start, or the possible worlds behind one
observation, :meth:`Batch.sample`), and plays one card in each of them per
step, with the rules of :class:`~app.engine.state.GameState` (the reference:
the common rules of ``docs/record-format.md``, seeds 000, 001 and 003, and
every house-rule option of format 2). Because every world is at the same play
number, the seat to play, the hand sizes, the deals and the end of the hand
are the same in all of them; only the cards differ. ``tests/engine/
test_batch.py`` checks that the results (each team's captured cards, card
points, piştis and Jack piştis, who took the last cards, the points) are
exactly the scalar engine's on the same cards and choices.

What a world keeps is only what decides the rest of the hand and its score:
the hands, the stock, the pile's size, points and top rank, and each team's
captured cards and points. Cards are numbers: the index in
:data:`~app.engine.cards.FULL_DECK` (rank ``card % 13`` in ``RANKS`` order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from .cards import CARD_POINTS, FULL_DECK, RANKS
from .observation import Observation
from .rules import RuleSet
from .state import CENTRE, HAND_SIZE, PLAYS_PER_HAND, GameState
from .worlds import Voids

#: An array of integers (card numbers, counts, points, indexes).
Ints = npt.NDArray[np.int64]
#: An array of floats (margins).
Floats = npt.NDArray[np.float64]

#: A card's number: its index in :data:`FULL_DECK`.
CARD_NUMBER: dict[str, int] = {card: index for index, card in enumerate(FULL_DECK)}
#: Each card number's rank, 0 (Ace) to 12 (King) in ``RANKS`` order.
RANK = np.array([RANKS.index(card[0]) for card in FULL_DECK], dtype=np.int64)
#: Each card number's own points (Ace and Jack 1, 2♣ 2, 10♦ 3).
POINTS = np.array([CARD_POINTS[card] for card in FULL_DECK], dtype=np.int64)
#: The Jack's rank.
JACK = RANKS.index("J")
#: The pile's top rank when the table is empty: no card matches it.
NO_RANK = len(RANKS)

#: A playout policy: given the batch (the seat to play is
#: :attr:`Batch.turn`), return for every world the index of the card to play
#: in that seat's hand, an integer array of shape ``(size,)``.
Policy = Callable[["Batch"], Ints]


class Batch:
    """``size`` hands of Pişti at the same play number, played in step.

    Build one with :meth:`deal` (from a deal's start), :meth:`sample`
    (possible worlds behind an observation) or :meth:`from_states`; play
    with :meth:`play` or :meth:`playout`, score with :meth:`team_points`.

    Attributes (arrays are indexed by world last; read them, do not change
    them except through the methods):
        rules: the :class:`~app.engine.rules.RuleSet`.
        size: the number of worlds.
        played: plays made so far (0 to 48), the same in every world.
        hands: one ``(4, size)`` array of card numbers per seat; the first
            ``hand_sizes[seat]`` rows are the hand, in the order of
            ``GameState.hands`` (a play removes its card and closes the gap).
        hand_sizes: each seat's number of cards in hand.
        stock: ``(n, size)`` card numbers of the stock, top first, of which
            the rows from ``stock_used`` on are still to be dealt.
        pile_size, pile_points, top: ``(size,)``: the pile's cards, their
            points, and the top card's rank (:data:`NO_RANK` when empty).
        cards, card_points, pisti, jack_pisti: ``(teams, size)``: each
            team's captured cards, their points (stand-ins count 0, as in
            :func:`~app.engine.scoring.team_points`), piştis and Jack piştis.
        last_capturer: ``(size,)``: the team that captured last, or -1.
        swept_to: ``(size,)``: the team that took the cards left on the
            table at the end, or -1 (none left, or not over yet).
        seen: ``(size, 13)``: per rank, the cards the seat to play could
            have seen face up (the plays and the opening face-up cards); what
            a playout policy may count.
        seen_total: ``(size,)``: the sum of each row of ``seen``.
        rows: ``arange(size)``, for indexing one column per world;
            ``seen_rows`` the same times 13, the start of each row of ``seen``.
    """

    __slots__ = (
        "card_points",
        "cards",
        "hand_sizes",
        "hands",
        "jack_pisti",
        "last_capturer",
        "pile_points",
        "pile_size",
        "pisti",
        "played",
        "rows",
        "rules",
        "seen",
        "seen_rows",
        "seen_total",
        "size",
        "stock",
        "stock_used",
        "swept_to",
        "teams",
        "top",
    )

    def __init__(self, rules: RuleSet, size: int) -> None:
        """An empty batch; use :meth:`deal`, :meth:`sample` or
        :meth:`from_states`."""
        self.rules = rules
        self.size = size
        self.teams = tuple(rules.team_of(seat) for seat in range(rules.players))
        teams = rules.team_count
        self.played = 0
        self.hands = [np.zeros((HAND_SIZE, size), dtype=np.int64) for _ in self.teams]
        self.hand_sizes = [0] * rules.players
        self.stock: Ints = np.zeros((0, size), dtype=np.int64)
        self.stock_used = 0
        self.pile_size: Ints = np.zeros(size, dtype=np.int64)
        self.pile_points: Ints = np.zeros(size, dtype=np.int64)
        self.top: Ints = np.full(size, NO_RANK, dtype=np.int64)
        self.cards: Ints = np.zeros((teams, size), dtype=np.int64)
        self.card_points: Ints = np.zeros((teams, size), dtype=np.int64)
        self.pisti: Ints = np.zeros((teams, size), dtype=np.int64)
        self.jack_pisti: Ints = np.zeros((teams, size), dtype=np.int64)
        self.last_capturer: Ints = np.full(size, -1, dtype=np.int64)
        self.swept_to: Ints = np.full(size, -1, dtype=np.int64)
        self.seen: Ints = np.zeros((size, NO_RANK), dtype=np.int64)
        self.seen_total: Ints = np.zeros(size, dtype=np.int64)
        self.rows: Ints = np.arange(size)
        self.seen_rows: Ints = self.rows * NO_RANK

    # --- building ---------------------------------------------------------------

    @classmethod
    def deal(cls, rules: RuleSet, decks: Ints) -> Batch:
        """Start one hand per row of ``decks``, a ``(size, 52)`` array of card
        numbers, top of the stock first (as ``GameState.deck``), each a deck
        the rule set allows (see :meth:`RuleSet.deck_problem`; not checked).

        Deals whose fourth card is a Jack are laid out as the opening-Jack
        rule says (record-format.md, format 2): ``stay`` and ``swap``
        directly, ``pass`` and ``under`` (which reorder the centre or the
        stock) by :class:`GameState` itself, one deal at a time.
        """
        size = len(decks)
        batch = cls(rules, size)
        players = rules.players
        order = decks.copy()
        batch.pile_size[:] = CENTRE
        batch.pile_points = POINTS[decks[:, :CENTRE]].sum(axis=1)
        batch.top = RANK[decks[:, CENTRE - 1]]
        jack_up = batch.top == JACK
        if rules.opening_jack == "swap":
            # The Jack changes places with the face-down card nearest the top
            # that is not a Jack (none: four Jacks, played as they lie).
            not_jack = RANK[decks[:, : CENTRE - 1]] != JACK
            swapped = np.flatnonzero(jack_up & not_jack.any(axis=1))
            below = CENTRE - 2 - not_jack[swapped, ::-1].argmax(axis=1)
            batch.top[swapped] = RANK[decks[swapped, below]]
        batch.seen[batch.rows, batch.top] = 1
        # Passed over or put under the stock: as the scalar engine lays it out.
        opening = np.flatnonzero(jack_up) if rules.opening_jack in ("pass", "under") else ()
        for row in opening:
            state = GameState(rules, [FULL_DECK[card] for card in decks[row]])
            order[row] = card_numbers(state.order)
            batch.pile_points[row] = sum(CARD_POINTS[card] for card in state.pile)
            batch.top[row] = RANKS.index(state.pile[-1][0])
            batch.seen[row] = _rank_counts(state.face_up_at_start)
        batch.seen_total = batch.seen.sum(axis=1)
        for seat in range(players):
            start = CENTRE + HAND_SIZE * seat
            batch.hands[seat] = np.ascontiguousarray(order[:, start : start + HAND_SIZE].T)
            batch.hand_sizes[seat] = HAND_SIZE
        batch.stock = np.ascontiguousarray(order[:, CENTRE + HAND_SIZE * players :].T)
        return batch

    @classmethod
    def from_states(cls, states: Sequence[GameState]) -> Batch:
        """Load hands in progress (at least one), all under one rule set and
        at the same play number; nothing is shared with them. Captured
        stand-ins (``"?"``) count as cards worth 0 points.

        Raises:
            ValueError: no states, or states under different rule sets or at
                different play numbers.
        """
        if not states:
            raise ValueError("no states to load")
        rules, played = states[0].rules, len(states[0].plays)
        if any(state.rules != rules or len(state.plays) != played for state in states):
            raise ValueError("states under different rule sets or at different play numbers")
        batch = cls(rules, len(states))
        batch.played = played
        first = states[0]
        batch.hand_sizes = [len(hand) for hand in first.hands]
        for seat in range(rules.players):
            for row, state in enumerate(states):
                hand = [CARD_NUMBER[card] for card in state.hands[seat]]
                batch.hands[seat][: len(hand), row] = hand
        left = len(FULL_DECK) - first.next_card
        stock = [card_numbers(state.order[state.next_card :]) for state in states]
        batch.stock = np.array(stock, dtype=np.int64).reshape(len(states), left).T.copy()
        for row, state in enumerate(states):
            batch.pile_size[row] = len(state.pile)
            batch.pile_points[row] = sum(CARD_POINTS[card] for card in state.pile)
            batch.top[row] = RANKS.index(state.pile[-1][0]) if state.pile else NO_RANK
            for team, cards in enumerate(state.captured):
                batch.cards[team, row] = len(cards)
                batch.card_points[team, row] = sum(CARD_POINTS.get(card, 0) for card in cards)
                batch.pisti[team, row] = state.pisti[team]
                batch.jack_pisti[team, row] = state.jack_pisti[team]
            batch.last_capturer[row] = -1 if state.last_capturer is None else state.last_capturer
            batch.seen[row] = _rank_counts([*state.plays, *state.face_up_at_start])
        batch.seen_total = batch.seen.sum(axis=1)
        return batch

    @classmethod
    def sample(
        cls,
        observation: Observation,
        generator: np.random.Generator,
        size: int,
        voids: Voids | None = None,
    ) -> Batch:
        """Return ``size`` possible worlds behind ``observation``: the cards
        its seat has not seen dealt at random among the other hands, the
        face-down centre cards and the stock, as
        :func:`app.engine.worlds.sample_world` does one at a time (cards known
        at the bottom of the stock stay there, or in the hand they were dealt
        to; face-down cards captured unseen are a random few of the unseen
        cards, out of play). Built from the observation alone.

        With ``voids`` (per seat, the ranks it holds none of, see
        :func:`~app.engine.worlds.inferred_voids`) each other seat gets
        unseen cards of other ranks only, dealt as
        :func:`~app.engine.worlds.constrained_order` says (a world where they
        cannot all hold is dealt without them).

        World ``i`` depends only on ``generator``'s state and ``i``: it
        draws ``size`` rows of random keys, one per unseen card (a card's
        place in the deal is the order of its key), so two calls of ``a``
        and ``b`` worlds draw the same worlds as one of ``a + b``.
        """
        rules = observation.rules
        batch = cls(rules, size)
        players = rules.players
        seat = observation.seat
        mine = set(observation.hand)
        unseen = np.array(
            [
                CARD_NUMBER[card]
                for card in FULL_DECK
                if card not in observation.seen and card not in mine
            ],
            dtype=np.int64,
        )
        keys = generator.random((size, len(unseen)))
        order = np.argsort(keys, axis=1)
        tail = [CARD_NUMBER[card] for card in observation.stock_bottom]
        dealt_known: dict[int, list[int]] = {}
        if not observation.stock:
            played = set(observation.plays)
            for offset, card in enumerate(observation.stock_bottom):
                if card in played or card in mine:
                    continue
                place = len(FULL_DECK) - len(tail) + offset - CENTRE
                holder = place % (HAND_SIZE * players) // HAND_SIZE
                dealt_known.setdefault(holder, []).append(CARD_NUMBER[card])
        if voids is not None and any(voids):
            needs = [
                (other, hand_size - len(dealt_known.get(other, [])))
                for other, hand_size in enumerate(observation.hand_sizes)
                if other != seat
            ]
            order = _constrained_order(keys, order, RANK[unseen], needs, voids)
        shuffled = unseen[order.T]
        column = 0
        batch.hand_sizes = list(observation.hand_sizes)
        for other, hand_size in enumerate(observation.hand_sizes):
            if other == seat:
                cards = [CARD_NUMBER[card] for card in observation.hand]
                batch.hands[other][: len(cards)] = np.array(cards)[:, None]
                continue
            known = dealt_known.get(other, [])
            batch.hands[other][: len(known)] = np.array(known, dtype=np.int64)[:, None]
            batch.hands[other][len(known) : hand_size] = shuffled[
                column : column + hand_size - len(known)
            ]
            column += hand_size - len(known)
        face_down = shuffled[column : column + observation.face_down]
        column += observation.face_down
        if observation.stock:
            drawn = shuffled[column : column + observation.stock - len(tail)]
            known_tail = np.array(tail, dtype=np.int64).reshape(len(tail), 1)
            batch.stock = np.concatenate([drawn, known_tail.repeat(size, axis=1)])
        face_up = [CARD_NUMBER[card] for card in observation.pile_face_up]
        batch.pile_size[:] = observation.pile_size
        batch.pile_points[:] = POINTS[face_down].sum(axis=0) + sum(POINTS[face_up])
        batch.top[:] = RANK[face_up[-1]] if face_up else NO_RANK
        batch.cards[:] = np.array(observation.captured, dtype=np.int64)[:, None]
        batch.pisti[:] = np.array(observation.pisti, dtype=np.int64)[:, None]
        batch.jack_pisti[:] = np.array(observation.jack_pisti, dtype=np.int64)[:, None]
        batch.last_capturer[:] = (
            -1 if observation.last_capturer is None else observation.last_capturer
        )
        batch.played = len(observation.plays)
        shown = observation.seen.difference(
            observation.plays, observation.stock_bottom, observation.seen_face_down
        )
        batch.seen[:] = _rank_counts([*observation.plays, *shown])
        batch.seen_total[:] = len(observation.plays) + len(shown)
        return batch

    def tile(self, copies: int) -> Batch:
        """Return a batch of ``copies`` copies of every world, one block of
        all the worlds after another (world ``w`` of copy ``c`` is world
        ``c * size + w``), to try a different card in each block."""
        other = object.__new__(Batch)
        other.rules = self.rules
        other.size = self.size * copies
        other.teams = self.teams
        other.played = self.played
        other.hands = [np.tile(hand, (1, copies)) for hand in self.hands]
        other.hand_sizes = self.hand_sizes[:]
        other.stock = np.tile(self.stock, (1, copies))
        other.stock_used = self.stock_used
        other.pile_size = np.tile(self.pile_size, copies)
        other.pile_points = np.tile(self.pile_points, copies)
        other.top = np.tile(self.top, copies)
        other.cards = np.tile(self.cards, (1, copies))
        other.card_points = np.tile(self.card_points, (1, copies))
        other.pisti = np.tile(self.pisti, (1, copies))
        other.jack_pisti = np.tile(self.jack_pisti, (1, copies))
        other.last_capturer = np.tile(self.last_capturer, copies)
        other.swept_to = np.tile(self.swept_to, copies)
        other.seen = np.tile(self.seen, (copies, 1))
        other.seen_total = np.tile(self.seen_total, copies)
        other.rows = np.arange(other.size)
        other.seen_rows = other.rows * NO_RANK
        return other

    def take(self, rows: Ints) -> Batch:
        """Return a batch of the worlds ``rows`` (indexes, in that order)."""
        other = object.__new__(Batch)
        other.rules = self.rules
        other.size = len(rows)
        other.teams = self.teams
        other.played = self.played
        other.hands = [hand[:, rows] for hand in self.hands]
        other.hand_sizes = self.hand_sizes[:]
        other.stock = self.stock[:, rows]
        other.stock_used = self.stock_used
        other.pile_size = self.pile_size[rows]
        other.pile_points = self.pile_points[rows]
        other.top = self.top[rows]
        other.cards = self.cards[:, rows]
        other.card_points = self.card_points[:, rows]
        other.pisti = self.pisti[:, rows]
        other.jack_pisti = self.jack_pisti[:, rows]
        other.last_capturer = self.last_capturer[rows]
        other.swept_to = self.swept_to[rows]
        other.seen = self.seen[rows]
        other.seen_total = self.seen_total[rows]
        other.rows = np.arange(other.size)
        other.seen_rows = other.rows * NO_RANK
        return other

    # --- playing ----------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The seat to play (the same in every world)."""
        return self.played % self.rules.players

    @property
    def finished(self) -> bool:
        """Whether all 48 cards have been played."""
        return self.played == PLAYS_PER_HAND

    @property
    def stock_left(self) -> int:
        """Cards left in the stock (the same in every world)."""
        return len(self.stock) - self.stock_used

    def hand(self, seat: int) -> Ints:
        """The ``(hand size, size)`` cards in ``seat``'s hand (a view)."""
        return self.hands[seat][: self.hand_sizes[seat]]

    def play(self, choice: Ints) -> Ints:
        """Play, in every world, the card at ``choice[world]`` in the hand of
        the seat to play, with captures, piştis, the next deal and the final
        sweep as :meth:`GameState.play_index`; return the card numbers played.

        The caller guarantees the hand is not over and each index is within
        the hand (an ``IndexError`` or a wrong result otherwise).
        """
        seat = self.played % self.rules.players
        size = self.hand_sizes[seat]
        hand = self.hands[seat]
        card = hand.ravel().take(choice * self.size + self.rows)
        for slot in range(size - 1):
            np.copyto(hand[slot], hand[slot + 1], where=choice <= slot)
        self.hand_sizes[seat] = size - 1
        self.played += 1
        rank = RANK.take(card)
        points = POINTS.take(card)
        top = self.top
        pile_size = self.pile_size
        same = rank == top
        jack = rank == JACK
        capture = same | (jack & (pile_size > 0))
        team = self.teams[seat]
        if self.rules.pisti_counts(self.played):
            lone = same & (pile_size == 1)
            if lone.any():
                self.pisti[team] += lone & ~jack
                self.jack_pisti[team] += lone & jack
        kept = ~capture
        grown = pile_size + 1
        pile_points = self.pile_points + points
        self.cards[team] += capture * grown
        self.card_points[team] += capture * pile_points
        self.last_capturer[capture] = team
        self.pile_size = kept * grown
        self.pile_points = kept * pile_points
        self.top = np.where(capture, NO_RANK, rank)
        self.seen.ravel()[self.seen_rows + rank] += 1
        self.seen_total += 1
        if self.played % (HAND_SIZE * self.rules.players) == 0:
            if self.stock_used < len(self.stock):
                self._deal_round()
            else:
                self._sweep()
        return card

    def _deal_round(self) -> None:
        start = self.stock_used
        for seat, hand in enumerate(self.hands):
            hand[:] = self.stock[start + HAND_SIZE * seat : start + HAND_SIZE * (seat + 1)]
            self.hand_sizes[seat] = HAND_SIZE
        self.stock_used = start + HAND_SIZE * len(self.hands)

    def _sweep(self) -> None:
        """The cards left on the table go to the last capturer, or the rule
        set's team when nobody captured (see ``GameState._sweep_team``)."""
        rules = self.rules
        default = (
            self.teams[0] if rules.leftovers_when_no_capture == "first_seat" else self.teams[-1]
        )
        taker = np.where(self.last_capturer >= 0, self.last_capturer, default)
        left = self.pile_size > 0
        self.swept_to = np.where(left, taker, -1)
        for team in range(rules.team_count):
            took = self.swept_to == team
            self.cards[team] += took * self.pile_size
            self.card_points[team] += took * self.pile_points
        self.pile_size = np.zeros(self.size, dtype=np.int64)
        self.pile_points = np.zeros(self.size, dtype=np.int64)
        self.top = np.full(self.size, NO_RANK, dtype=np.int64)

    def playout(self, policy: Policy, record: bool = False) -> Ints | None:
        """Play every world to the end of the hand, each seat's card chosen
        by ``policy``. With ``record``, return the ``(plays left, size)``
        card numbers played, in order; else ``None``."""
        played = []
        while self.played < PLAYS_PER_HAND:
            card = self.play(policy(self))
            if record:
                played.append(card)
        if not record:
            return None
        return np.array(played, dtype=np.int64).reshape(len(played), self.size)

    # --- scoring ----------------------------------------------------------------

    def team_points(self) -> Ints:
        """Return ``(teams, size)``: each team's points so far in every world,
        as :func:`~app.engine.scoring.team_points`: card points of the
        captured cards, piştis, and once the hand is over the most-cards and
        last-sweep bonuses (``docs/record-format.md``, format 2)."""
        rules = self.rules
        points = (
            self.card_points
            + rules.pisti_points * self.pisti
            + rules.jack_pisti_points * self.jack_pisti
        )
        if not self.finished:
            return points
        cards = self.cards
        for team in range(rules.team_count):
            if rules.most_cards == "27_or_more":
                most = cards[team] >= 27
            else:
                others = np.delete(cards, team, axis=0).max(axis=0)
                most = cards[team] > others
            points[team] += rules.most_cards_points * most
            points[team] += rules.last_sweep_bonus * (self.swept_to == team)
        return points

    def margins(self, team: int) -> Floats:
        """Return ``(size,)``: ``team``'s points minus the other team's in
        every world, or with more than two teams minus the others' mean (the
        Expert's :func:`~app.ai.expert.margin`)."""
        points = self.team_points()
        mine = points[team]
        others = (points.sum(axis=0) - mine) / (len(points) - 1)
        margin: Floats = mine - others
        return margin


def random_policy(generator: np.random.Generator) -> Policy:
    """Return a policy that plays a uniformly random card of the hand in
    every world, drawing from ``generator``."""

    def choose(batch: Batch) -> Ints:
        size = batch.hand_sizes[batch.turn]
        return (generator.random(batch.size) * size).astype(np.int64)

    return choose


def _constrained_order(
    keys: Floats, order: Ints, ranks: Ints, needs: list[tuple[int, int]], voids: Voids
) -> Ints:
    """``(size, cards)``: each world's deal order of the unseen cards
    (``keys``, their random keys; ``order``, the keys' order; ``ranks``,
    the cards' ranks), rearranged as
    :func:`~app.engine.worlds.constrained_order` does: each ``(seat, count)``
    of ``needs`` in turn takes the ``count`` cards with the lowest keys
    among those not taken yet and of no rank in ``voids[seat]``, then the
    rest follow by key. Worlds where a seat cannot get enough keep
    ``order``."""
    size, cards = keys.shape
    rows = np.arange(size)[:, None]
    taken = np.zeros((size, cards), dtype=bool)
    parts = []
    fits = np.ones(size, dtype=bool)
    for seat, count in needs:
        void = np.isin(ranks, [RANKS.index(rank) for rank in voids[seat]])
        # Void ranks after every free card, taken cards after everything.
        picked = np.argsort(keys + 2.0 * void + 4.0 * taken, axis=1)[:, :count]
        fits &= ~void[picked].any(axis=1)
        taken[rows, picked] = True
        parts.append(picked)
    parts.append(np.argsort(keys + 4.0 * taken, axis=1)[:, : cards - int(taken[0].sum())])
    constrained: Ints = np.concatenate(parts, axis=1)
    return np.where(fits[:, None], constrained, order)


def card_numbers(cards: Sequence[str]) -> list[int]:
    """Return the card numbers of card codes (their index in ``FULL_DECK``)."""
    return [CARD_NUMBER[card] for card in cards]


def _rank_counts(cards: Sequence[str]) -> Ints:
    counts = np.zeros(NO_RANK, dtype=np.int64)
    for card in set(cards):
        counts[RANKS.index(card[0])] += 1
    return counts
