"""Playing styles: the opponents of the story mode (Mansion Evenings, seed 001:
"a story mode with opponents who each have their own style").

One class, :class:`StyleBot`, plays any :class:`Style`; a style is data (a
few switches built from the strategy tips and common mistakes of seed 001),
so an opponent's character is what the switches say and nothing else. Like
every level, a style bot sees only its seat's observation.

The strongest two opponents are the product's own levels under a name: the
card counter plays the Hard level's reasoning, Mürüvvet Hanım is the Expert
(see ``app/story/cast.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from app.engine import Observation, card_points

from .counting import count_cards

JackUse = Literal["spend", "save", "hoard"]
Lead = Literal["random", "safe", "risky", "counted"]
Throw = Literal["random", "cheap", "diverse"]


@dataclass(frozen=True)
class Style:
    """How an opponent plays.

    Attributes:
        jacks: when a Jack takes a pile: ``"spend"`` on any pile (clears
            the table, so the other side has to lead a lone card),
            ``"save"`` for a pile worth it (Medium's rule: 4+ cards, 2+
            points, or the hand's last two cards; seed 001 tip 2), or
            ``"hoard"``: never while another card will do, so a Jack is
            the last card of its deal, and in the last deal it takes the
            table at the end (seed 001 tip 5).
        lead: the card put onto an empty table: ``"random"``, ``"safe"``
            (Medium's: no Jack or scoring card, a rank held twice first) or
            ``"risky"`` (a lone card whose mates are still unseen, the lead
            seed 001 warns against: a gamble that the other side cannot
            match it), or ``"counted"`` (no Jack or scoring card, the rank
            with the fewest cards unseen: seed 001 tip 3, "If three cards
            of that rank are already out, the chance of a pişti against
            you drops sharply").
        throw: the card left on a pile that cannot be taken: ``"random"``,
            ``"cheap"`` (the least valuable, Jacks kept) or ``"diverse"``
            (a second card of a rank first, keeping one of each rank ready
            to pişti a lead).
        guard: never leave a scoring card on the pile while another card
            will do (a Jack takes the pile rather than a scoring card be
            dropped on it), and take any pile with a scoring card in it
            (seed 001 tip 4: "Do not leave scoring cards on the pile").
        mercy: the chance (0 to 1) of playing a random card instead, as a
            kind teacher does against a beginner.
    """

    jacks: JackUse
    lead: Lead
    throw: Throw
    guard: bool = False
    mercy: float = 0.0


#: The style of each story opponent that is not one of the levels, by key.
STYLES: dict[str, Style] = {
    # Aunt Hayriye: takes what matches, otherwise plays gently at random.
    "hayriye": Style(jacks="spend", lead="random", throw="random", mercy=0.5),
    # The pişti hunter: clears every pile, keeps one of each rank, leads risky singles.
    "sevim": Style(jacks="spend", lead="risky", throw="diverse"),
    # The Jack hoarder: keeps every Jack for the last deal.
    "cevdet": Style(jacks="hoard", lead="safe", throw="cheap"),
    # The careful one: never leaves a scoring card on the pile.
    "nevin": Style(jacks="save", lead="counted", throw="cheap", guard=True),
}

#: Medium's thresholds for a pile worth a Jack (see :mod:`.medium`).
JACK_PILE_SIZE = 4
JACK_PILE_POINTS = 2


def _keep(card: str) -> int:
    """How much a careful player wants to keep ``card`` (higher = keep)."""
    return 10 * (card[0] == "J") + card_points(card)


class StyleBot:
    """Plays one :class:`Style`; ties go to the card earliest in the hand,
    and the random choices come from the injected ``rng``."""

    def __init__(self, rng: random.Random, style: Style) -> None:
        self.rng = rng
        self.style = style

    def choose(self, observation: Observation) -> str:
        """Return the card code to play from ``observation.hand``."""
        style, hand, top = self.style, list(observation.hand), observation.pile_top
        if style.mercy and self.rng.random() < style.mercy:
            return self.rng.choice(hand)
        if top is None:
            return self._lead(observation)
        same = [card for card in hand if card[0] == top[0]]
        if same:
            # A pişti or a plain capture with the same rank: every style takes it,
            # with its most valuable card of the rank (it comes home with the pile).
            return max(same, key=card_points)
        jacks = [card for card in hand if card[0] == "J"]
        if jacks and self._jack_takes(observation):
            return jacks[0]
        others = [card for card in hand if card[0] != "J"] or hand
        if style.guard:
            others = [card for card in others if not card_points(card)] or others
        if style.throw == "random":
            return self.rng.choice(hand)
        if style.throw == "diverse":
            held = {card[0]: sum(other[0] == card[0] for other in hand) for card in others}
            return min(others, key=lambda card: (held[card[0]] == 1, _keep(card)))
        return min(others, key=_keep)

    def _jack_takes(self, observation: Observation) -> bool:
        """Whether this style spends a Jack on the pile now."""
        style = self.style
        last_deal = observation.stock == 0
        if style.jacks == "spend":
            return True
        if style.jacks == "hoard":
            return False
        points = sum(card_points(card) for card in observation.pile_face_up)
        if style.guard and (points or all(card_points(card) for card in observation.hand)):
            # A pile with a point in it is taken; so is any pile when every
            # card left to drop on it would be a scoring card.
            return True
        return (
            observation.pile_size >= JACK_PILE_SIZE
            or points >= JACK_PILE_POINTS
            or (last_deal and len(observation.hand) <= 2)
        )

    def _lead(self, observation: Observation) -> str:
        """Choose the card to put onto an empty table."""
        style, hand = self.style, list(observation.hand)
        if style.lead == "random":
            return self.rng.choice(hand)
        held = {card[0]: sum(other[0] == card[0] for other in hand) for card in hand}
        plain = [card for card in hand if not _keep(card)] or hand
        if style.lead in ("risky", "counted"):
            unseen = count_cards(observation).unseen_by_rank
            if style.lead == "counted":
                return min(hand, key=lambda card: (_keep(card), unseen.get(card[0], 0)))
            # The lone rank with the most cards still unseen: the boldest lead.
            return max(plain, key=lambda card: (held[card[0]] == 1, unseen.get(card[0], 0)))
        return min(hand, key=lambda card: (_keep(card), -held[card[0]]))
