"""Possible worlds behind an observation: the hidden cards dealt at random,
consistently with everything the seat has seen (determinization, as in
Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
2012), and optionally with what the other seats' plays say about their
hands (:func:`inferred_voids`). Built from the observation alone, so a
searching bot that uses them still never sees the real state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARD_POINTS, FULL_DECK, RANKS
from .observation import Observation
from .state import CENTRE, HAND_SIZE, PLAYS_PER_HAND, GameState

STAND_IN = "?"
#: A seat that left a pile holding at least this many card points on the
#: table, neither capturing it nor playing a Jack, is taken to hold no Jack.
JACK_VOID_POINTS = 2

#: Per seat, the ranks (``"A"`` .. ``"K"``) it is taken not to hold.
Voids = Sequence[frozenset[str]]


#: A possible world: a whole hand in progress, every card placed, which a
#: search may play out (a sampled world, never the real game).
World = GameState


@dataclass(frozen=True)
class DealPlay:
    """One play of the current deal and the table it was made on, as every
    seat saw it.

    Attributes:
        index: the play's number in the hand (0 to 47).
        seat: the seat that played.
        card: the card it played.
        in_hand: the cards in its hand before the play.
        top: the rank of the pile's top card, or ``None`` for an empty table.
        pile_size: the cards in the pile, face-down ones included.
        points: the card points of the pile's face-up cards.
        face_down: the face-down centre cards still in the pile.
        seen: per rank (``RANKS`` order), the cards seen face up before
            the play: the opening's face-up cards and the plays.
    """

    index: int
    seat: int
    card: str
    in_hand: int
    top: str | None
    pile_size: int
    points: int
    face_down: int
    seen: tuple[int, ...]


def deal_plays(observation: Observation) -> list[DealPlay]:
    """Return the plays of the current deal, each a :class:`DealPlay`,
    replayed from the observation's plays and the opening's face-up cards
    (captures by rank or by a Jack, as seeds 000 and 001 say)."""
    players = observation.rules.players
    plays = observation.plays
    deal_start = len(plays) - len(plays) % (HAND_SIZE * players)
    shown = observation.seen.difference(plays, observation.stock_bottom, observation.seen_face_down)
    # The opening top card: the face-up card that is not a Jack (Jacks
    # passed over lie under it), or a Jack left face up.
    opening = sorted(shown, key=lambda card: card[0] == "J")
    top = opening[0][0] if opening else None
    pile_size, face_down = CENTRE, CENTRE - len(shown)
    points = sum(CARD_POINTS[card] for card in shown)
    seen = [0] * len(RANKS)
    for card in shown:
        seen[RANKS.index(card[0])] += 1
    made = []
    for index, card in enumerate(plays):
        seat, rank = index % players, card[0]
        if index >= deal_start:
            in_hand = HAND_SIZE - (index - deal_start) // players
            made.append(
                DealPlay(index, seat, card, in_hand, top, pile_size, points, face_down, tuple(seen))
            )
        seen[RANKS.index(rank)] += 1
        if top is not None and rank in (top, "J"):
            top, pile_size, points, face_down = None, 0, 0, 0
        else:
            top, pile_size, points = rank, pile_size + 1, points + CARD_POINTS[card]
    return made


def inferred_voids(observation: Observation, jacks: bool = True) -> tuple[frozenset[str], ...]:
    """Return, per seat, the ranks it very probably does not hold now, read
    from the other seats' plays in the current deal (hands only shrink
    within a deal, so what a seat lacked at a play it still lacks):

    - a seat that played onto a pile whose top card is not a Jack without
      capturing it by its rank (a card left on the pile, or a Jack) holds
      no card of that rank: a capture by rank takes the pile and gives
      nothing away (seed 001: "only a card of the same rank or a jack
      captures"), and every level takes it (Hard, the reference of the
      search's playouts, always does);
    - with ``jacks``, a seat that left a pile holding at least
      :data:`JACK_VOID_POINTS` card points (of its face-up cards) without
      capturing it holds no Jack (seed 001, tip 2: "save your jack for a
      big pile ... when scoring cards ... have built up").

    The hand's last play says nothing (keeping the last capturer's sweep
    may beat a capture), nor does a play onto an empty table. The
    observing seat's own entry is empty. Any number of seats.
    """
    voids: list[set[str]] = [set() for _ in range(observation.rules.players)]
    for play in deal_plays(observation):
        top, rank = play.top, play.card[0]
        if (
            top is None
            or rank == top
            or play.seat == observation.seat
            or play.index == PLAYS_PER_HAND - 1
        ):
            continue
        if top != "J":
            voids[play.seat].add(top)
        if jacks and rank != "J" and play.points >= JACK_VOID_POINTS:
            voids[play.seat].add("J")
    return tuple(frozenset(ranks) for ranks in voids)


def constrained_order(
    pool: Sequence[str], needs: Sequence[tuple[int, int]], voids: Voids
) -> list[str] | None:
    """Return ``pool`` (cards in a random order) rearranged so that its
    front deals each ``(seat, count)`` of ``needs`` in turn ``count`` cards
    of no rank in ``voids[seat]``: each seat takes the first such cards not
    taken yet, then the rest follow in their order. ``None`` when some seat
    cannot get enough (then deal ``pool`` as it is: the inference does not
    hold in this world). The batched sampler
    (:meth:`app.engine.batch.Batch.sample`) deals the same way."""
    taken = [False] * len(pool)
    front: list[str] = []
    for seat, count in needs:
        void = voids[seat]
        picked = [i for i, card in enumerate(pool) if not taken[i] and card[0] not in void]
        if len(picked) < count:
            return None
        for i in picked[:count]:
            taken[i] = True
            front.append(pool[i])
    return front + [card for i, card in enumerate(pool) if not taken[i]]


def sample_world(
    observation: Observation, rng: random.Random, voids: Voids | None = None
) -> GameState:
    """Return a hand in progress that looks exactly like ``observation`` to
    its seat, with the unseen cards placed at random: the other seats'
    hands, the face-down centre cards and the stock. Cards everyone knows
    at the bottom of the stock (:attr:`Observation.stock_bottom`) stay
    there, or once dealt, in the hand they were dealt to. Captured cards are
    stand-ins; their points are already counted and cannot change. Any
    number of seats and teams.

    With ``voids`` (per seat, ranks it holds none of; see
    :func:`inferred_voids`), each other seat in seat order gets its unseen
    cards from those not of its void ranks, the rest going to the
    face-down cards and the stock (:func:`constrained_order`); when they
    cannot all hold, the world is dealt without them.
    """
    rules = observation.rules
    hand_sizes = observation.hand_sizes
    players = len(hand_sizes)
    mine = set(observation.hand)
    unseen = [card for card in FULL_DECK if card not in observation.seen and card not in mine]
    rng.shuffle(unseen)
    tail = observation.stock_bottom
    # Known cards at the bottom of the stock: all still in the stock, or all
    # dealt in the last deal, each to the seat its place deals it to.
    dealt_known: dict[int, list[str]] = {}
    if observation.stock:
        pending = len(tail)
    else:
        played = set(observation.plays)
        for offset, card in enumerate(tail):
            if card in played or card in mine:
                continue
            place = len(FULL_DECK) - len(tail) + offset - CENTRE
            dealt_known.setdefault(place % (HAND_SIZE * players) // HAND_SIZE, []).append(card)
        pending = sum(len(cards) for cards in dealt_known.values())
    # Face-down cards captured by others were never shown: a random few of
    # the unseen cards (those dealt last) are out of play already.
    in_play = (
        sum(hand_sizes) - len(observation.hand) + observation.face_down + observation.stock
    ) - pending
    needs = [
        (seat, size - len(dealt_known.get(seat, [])))
        for seat, size in enumerate(hand_sizes)
        if seat != observation.seat
    ]
    if voids is not None and any(voids):
        unseen = constrained_order(unseen, needs, voids) or unseen
    hands = [list(observation.hand) if seat == observation.seat else [] for seat in range(players)]
    dealt = 0
    for seat, count in needs:
        hands[seat] = dealt_known.get(seat, []) + unseen[dealt : dealt + count]
        dealt += count
    face_down = unseen[dealt : dealt + observation.face_down]
    stock = unseen[dealt + observation.face_down : in_play]
    if observation.stock:
        stock.extend(tail)
    shown = observation.seen.difference(observation.plays, tail, observation.seen_face_down)
    return GameState.from_position(
        rules,
        hands=hands,
        pile=face_down + list(observation.pile_face_up),
        face_down=observation.face_down,
        stock=stock,
        captured=[[STAND_IN] * count for count in observation.captured],
        pisti=list(observation.pisti),
        jack_pisti=list(observation.jack_pisti),
        plays=list(observation.plays),
        last_capturer=observation.last_capturer,
        stock_bottom=tail,
        face_up_at_start=tuple(sorted(shown)),
        face_down_taker=observation.team if observation.seen_face_down else None,
        face_down_cards=observation.seen_face_down or None,
    )
