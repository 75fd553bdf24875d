"""Card counting from an observation: what is still unseen, and the odds
that the next seat holds a rank. Shared by the Hard and Expert levels and
the hints."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import FULL_DECK, Observation, card_points


@dataclass(frozen=True)
class Count:
    """What a seat can work out about the cards it cannot see.

    Attributes:
        unseen: cards whose place the seat does not know (other hands, the
            stock, face-down cards).
        unseen_by_rank: how many cards of each rank letter are unseen.
        unseen_points: the card points among the unseen cards.
        next_hand: how many cards the next seat holds.
    """

    unseen: frozenset[str]
    unseen_by_rank: dict[str, int]
    unseen_points: int
    next_hand: int

    def chance_next_holds(self, rank: str) -> float:
        """Return the chance that the next seat holds at least one card of
        ``rank``, its hand being a random draw from the unseen cards."""
        return self.chance_holds(self.unseen_by_rank.get(rank, 0))

    def chance_holds(self, count: int) -> float:
        """Return the chance the next seat holds one of ``count`` unseen cards."""
        total, hand = len(self.unseen), self.next_hand
        if count <= 0 or hand <= 0 or total <= 0:
            return 0.0
        none = 1.0
        for i in range(min(hand, total)):
            if total - count - i <= 0:
                return 1.0
            none *= (total - count - i) / (total - i)
        return 1.0 - none

    @property
    def mean_points(self) -> float:
        """Expected points of one unseen card (for face-down cards)."""
        return self.unseen_points / len(self.unseen) if self.unseen else 0.0


def count_cards(observation: Observation) -> Count:
    """Count what ``observation``'s seat has seen (seed 001: "Count the
    jacks"; seed 004: "Count the cards of each rank")."""
    known = observation.seen | set(observation.hand)
    unseen = frozenset(card for card in FULL_DECK if card not in known)
    by_rank: dict[str, int] = {}
    for card in unseen:
        by_rank[card[0]] = by_rank.get(card[0], 0) + 1
    next_seat = (observation.seat + 1) % len(observation.hand_sizes)
    return Count(
        unseen=unseen,
        unseen_by_rank=by_rank,
        unseen_points=sum(card_points(card) for card in unseen),
        next_hand=observation.hand_sizes[next_seat],
    )
