"""Hints for the player's turn, from the Hard level's reasoning (seed 001:
"a short note points out a pişti chance, a jack worth saving or a risky
card"). Only the player's observation is used."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Observation

from .counting import count_cards
from .hard import evaluate, jack_keep, pile_worth, pisti_allowed

#: A lead is called risky when the next seat holds its rank at least this often.
RISKY = 0.35


@dataclass(frozen=True)
class Hint:
    """One note for the player.

    Attributes:
        kind: ``"pisti"`` (a pişti is on offer), ``"jack_pisti"``,
            ``"keep_jack"`` (the pile is too small for a Jack),
            ``"jack_worth"`` (a Jack would take a pile worth it),
            ``"risky_lead"`` (a lone card the next seat may well match),
            or ``"suggest"`` (the card the Hard level would play).
        card: the card the hint is about.
        number: a count (cards in the pile) or a percentage (0-100), by kind.
    """

    kind: str
    card: str
    number: int = 0


def hints_for(observation: Observation) -> list[Hint]:
    """Return the hints for the observing seat's turn (empty when it is not
    its turn or the hand is over)."""
    if observation.finished or observation.turn != observation.seat or not observation.hand:
        return []
    count = count_cards(observation)
    hand = observation.hand
    top = observation.pile_top
    hints: list[Hint] = []
    if top is not None and observation.pile_size == 1 and pisti_allowed(observation):
        for card in hand:
            if card[0] == top[0]:
                hints.append(Hint("jack_pisti" if card[0] == "J" else "pisti", card))
                break
    jacks = [card for card in hand if card[0] == "J"]
    if jacks and len(jacks) < len(hand) and top is not None and not hints:
        worth = pile_worth(observation, count, jacks[0])
        if worth < jack_keep(observation):
            hints.append(Hint("keep_jack", jacks[0], observation.pile_size))
        else:
            hints.append(Hint("jack_worth", jacks[0], observation.pile_size + 1))
    if top is None:
        for card in hand:
            chance = count.chance_next_holds(card[0])
            if chance >= RISKY and card[0] != "J":
                hints.append(Hint("risky_lead", card, round(chance * 100)))
                break
    best = max(hand, key=lambda card: evaluate(observation, count, card))
    hints.append(Hint("suggest", best))
    return hints
