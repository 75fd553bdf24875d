"""Style statistics of a bot's plays, for the arena: what shows a playing
style in play (the strategy tips of seed 001 (CetinsGame guide) that the
Mansion Evenings styles follow: Jacks kept to the last deal, single cards
led onto an empty table, piştis, scoring cards left on the pile)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .ai.counting import count_cards
from .engine import Observation, PlayResult, card_points


@dataclass
class StyleStats:
    """Counts over one level's plays; every figure is per hand played.

    Attributes:
        hands: hands this level played (one seat each).
        jacks: Jacks it played; ``jacks_kept``: of those, kept to its last
            card of a deal (a hand holds four cards and is played out
            before the next deal, so a Jack can be kept no longer).
        leads: cards it led onto an empty table; ``risky_leads``: of those,
            a lone card whose three mates were all unseen (seed 001:
            "Playing a card onto an empty table when its matching cards are
            still unseen").
        pisti: its piştis and Jack piştis.
        scoring_left: its plays that did not capture and left a scoring
            card (Ace, Jack, 2♣, 10♦; its own or another) face up on the pile;
            ``scoring_passed``: of those, the plays made while a card in
            hand (same rank, or a Jack) could have taken that pile (seed 001
            tip 4, "Do not leave scoring cards on the pile").
    """

    hands: int = 0
    jacks: int = 0
    jacks_kept: int = 0
    leads: int = 0
    risky_leads: int = 0
    pisti: int = 0
    scoring_left: int = 0
    scoring_passed: int = 0

    def add_play(self, observation: Observation, result: PlayResult) -> None:
        """Count one play: ``result`` of playing from ``observation``."""
        card = result.card
        if card[0] == "J":
            self.jacks += 1
            self.jacks_kept += len(observation.hand) == 1
        if observation.pile_top is None:
            self.leads += 1
            self.risky_leads += count_cards(observation).unseen_by_rank.get(card[0], 0) == 3
        self.pisti += result.pisti or result.jack_pisti
        if not result.captured:
            pile = (*observation.pile_face_up, card)
            left = any(card_points(face) for face in pile)
            self.scoring_left += left
            top = observation.pile_top
            takeable = top is not None and any(
                held[0] in (top[0], "J") for held in observation.hand
            )
            self.scoring_passed += left and takeable

    def merge(self, other: StyleStats) -> None:
        """Add another run's counts to these."""
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    def describe(self) -> str:
        """Return the figures as one line of text."""
        hands = self.hands or 1
        return (
            f"{self.pisti / hands:.2f} piştis, "
            f"{self.leads / hands:.2f} leads onto an empty table "
            f"({self.risky_leads / max(1, self.leads):.0%} risky), "
            f"{self.scoring_left / hands:.2f} times a scoring card left on the pile per hand "
            f"({self.scoring_passed / hands:.2f} when it could take the pile); "
            f"{self.jacks_kept / max(1, self.jacks):.0%} of its Jacks "
            f"kept to its last card of a deal"
        )
