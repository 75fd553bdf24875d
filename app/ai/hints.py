"""Hints for the player's turn, from the Hard level's reasoning (seed 001:
"a short note points out a pişti chance, a jack worth saving or a risky
card"). Only the player's observation is used.

The hints speak with one voice: one recommendation, the card the Hard level
would play (:class:`~app.ai.hard.HardBot`), with one reason (:data:`REASONS`)
that holds in the position, and at most two notes about the *other* cards
(a Jack to keep, a risky lead) that never advise against the recommended
card. The reasons are told from the facts the review's sentences of why are
told from (:mod:`app.ai.facts`), and never choose the card: the Hard level
does.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Observation, would_capture
from app.engine.cards import CARD_POINTS

from .counting import Count, count_cards
from .facts import held_elsewhere, makes_pisti, near_the_end, points_in_sight
from .hard import best_card

#: A lead is called risky when the next seat holds its rank at least this often.
RISKY = 0.35
#: Hint kinds that recommend a card to play; a turn gets exactly one of them.
RECOMMENDATIONS = frozenset({"pisti", "jack_pisti", "capture", "suggest"})
#: Hint kinds that advise keeping a card; never about the recommended card.
NOTES = frozenset({"keep_jack", "risky_lead"})
#: Why a recommended card is played, by its kind (``""``: no reason beyond
#: the kind's own; see :class:`Hint`).
REASONS = {
    "pisti": frozenset({""}),
    "jack_pisti": frozenset({""}),
    "capture": frozenset({"", "keep_jack", "last_capture"}),
    "suggest": frozenset({"", "all_seen", "fewest_unseen", "no_points", "no_value"}),
}


@dataclass(frozen=True)
class Hint:
    """One note for the player.

    Attributes:
        kind: a recommendation — ``"pisti"`` or ``"jack_pisti"`` (the card
            makes one, and it counts), ``"capture"`` (the card takes the
            pile), ``"suggest"`` (the card stays on the pile) — or a note
            about another card: ``"keep_jack"`` (the pile is too small for
            a Jack), ``"risky_lead"`` (the next seat may well match it).
        card: the card the hint is about (a card code).
        number: by kind: the pişti's points (``pisti``, ``jack_pisti``), the
            cards of the pile taken (``capture``, ``keep_jack``: the pile's
            size), the cards on the table the card is left on (``suggest``:
            0 for an empty table), or a percentage 0-100 (``risky_lead``).
        reason: why the recommended card, one of :data:`REASONS` for its
            kind: a capture that ``"keep_jack"`` (a card of the top's rank
            while the hand holds a Jack, kept for a bigger pile) or
            ``"last_capture"`` (in the last rounds: the cards left on the
            table at the end go to the last capture); a card left on the
            table whose rank has ``"all_seen"`` (no other card of it
            unseen nor known to be another seat's, so no other seat can
            match it) or ``"fewest_unseen"`` (fewer of it unseen than of
            any other rank in hand, none known to be another seat's), that
            is worth ``"no_points"`` while another card in hand scores, or
            of ``"no_value"`` (no card in hand scores, and no other rank in
            hand has fewer cards another seat may match with); ``""``: none
            of those.
        points: for a capture, the card points in sight on the pile (its
            face-up cards'); else 0.
        unseen: for ``"fewest_unseen"``, how many cards of the rank the
            seat has not seen; else 0.
    """

    kind: str
    card: str
    number: int = 0
    reason: str = ""
    points: int = 0
    unseen: int = 0

    @property
    def recommends(self) -> bool:
        """Whether the hint says to play its card."""
        return self.kind in RECOMMENDATIONS


def hints_for(observation: Observation) -> list[Hint]:
    """Return the hints for the observing seat's turn, the one
    recommendation first and the notes after it (empty when it is not its
    turn or the hand is over): on a phone's few lines the card to play is
    the one read whole.

    The recommendation is the Hard level's card. A pişti is named only when
    the rule set counts it on this play and it is worth points (house
    rules may make a pişti worth 0), and a risky lead only when a pişti on
    the next play would count and be worth points (seeds 003/004: none on
    the first or the dealer's last play). With three or four seats the
    next seat is the one after this seat in playing order.
    """
    if observation.finished or observation.turn != observation.seat or not observation.hand:
        return []
    count = count_cards(observation)
    hand = observation.hand
    top = observation.pile_top
    best = best_card(observation, count)
    hints = [_recommendation(observation, best, count)]
    if top is not None and not would_capture(best, top):
        jack = next((card for card in hand if card[0] == "J"), None)
        if jack is not None:
            hints.append(Hint("keep_jack", jack, observation.pile_size))
    next_play = len(observation.plays) + 2
    rules = observation.rules
    if (
        top is None
        and observation.plays_left > 1
        and rules.pisti_points > 0
        and rules.pisti_counts(next_play)
    ):
        for card in hand:
            chance = count.chance_next_holds(card[0])
            if card != best and card[0] != "J" and chance >= RISKY:
                hints.append(Hint("risky_lead", card, round(chance * 100)))
                break
    return hints


def _recommendation(observation: Observation, best: str, count: Count) -> Hint:
    """Return the hint that recommends ``best``, with its reason (the first
    of its kind's :data:`REASONS` that holds)."""
    top = observation.pile_top
    hand = observation.hand
    if top is None or not would_capture(best, top):
        reason = _why_leave(observation, best, count)
        unseen = count.unseen_by_rank.get(best[0], 0) if reason == "fewest_unseen" else 0
        return Hint("suggest", best, observation.pile_size, reason=reason, unseen=unseen)
    rules = observation.rules
    if makes_pisti(observation, best):
        if best[0] == "J" and rules.jack_pisti_points:
            return Hint("jack_pisti", best, rules.jack_pisti_points)
        if best[0] != "J" and rules.pisti_points:
            return Hint("pisti", best, rules.pisti_points)
    reason = ""
    if best[0] != "J" and any(card[0] == "J" for card in hand):
        reason = "keep_jack"
    elif near_the_end(observation):
        reason = "last_capture"
    points = points_in_sight(observation)
    return Hint("capture", best, observation.pile_size, reason=reason, points=points)


def _why_leave(observation: Observation, best: str, count: Count) -> str:
    """Why ``best``, a card that stays on the table: see :class:`Hint`'s
    ``reason``. Its rank's cards are counted as the Hard level counts them
    (those the seat has not seen: in other hands, the stock or face down);
    a rank of which the seat knows another player holds or will be dealt a
    card (the stock's bottom card, :func:`~app.ai.facts.held_elsewhere`)
    is never said to be seen or the hardest to match."""
    unseen = count.unseen_by_rank
    # The cards of each rank another player may match with: the unseen
    # ones and those known to be theirs.
    live = dict(unseen)
    for card in held_elsewhere(observation):
        live[card[0]] = live.get(card[0], 0) + 1
    rank = best[0]
    others = [card for card in observation.hand if card[0] != rank]
    if live.get(rank, 0) == 0:
        return "all_seen"
    if (
        live[rank] == unseen.get(rank, 0)
        and others
        and all(unseen[rank] < unseen.get(card[0], 0) for card in others)
    ):
        return "fewest_unseen"
    if CARD_POINTS[best] == 0 and any(CARD_POINTS[card] for card in observation.hand):
        return "no_points"
    if CARD_POINTS[best] == 0 and all(live[rank] <= live.get(card[0], 0) for card in others):
        return "no_value"
    return ""
