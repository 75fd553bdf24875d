"""Hints for the player's turn, from the Hard level's reasoning (seed 001:
"a short note points out a pişti chance, a jack worth saving or a risky
card"). Only the player's observation is used.

The hints speak with one voice: one recommendation, the card the Hard level
would play (:class:`~app.ai.hard.HardBot`), with the reason when it takes
the pile, and at most two notes about the *other* cards (a Jack to keep, a
risky lead) that never advise against the recommended card.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Observation, would_capture

from .counting import count_cards
from .hard import best_card, pisti_allowed

#: A lead is called risky when the next seat holds its rank at least this often.
RISKY = 0.35
#: Hint kinds that recommend a card to play; a turn gets exactly one of them.
RECOMMENDATIONS = frozenset({"pisti", "jack_pisti", "capture", "suggest"})
#: Hint kinds that advise keeping a card; never about the recommended card.
NOTES = frozenset({"keep_jack", "risky_lead"})


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
            size), or a percentage 0-100 (``risky_lead``); else 0.
    """

    kind: str
    card: str
    number: int = 0

    @property
    def recommends(self) -> bool:
        """Whether the hint says to play its card."""
        return self.kind in RECOMMENDATIONS


def hints_for(observation: Observation) -> list[Hint]:
    """Return the hints for the observing seat's turn, notes first and the
    one recommendation last (empty when it is not its turn or the hand is
    over).

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
    hints: list[Hint] = []
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
    hints.append(_recommendation(observation, best))
    return hints


def _recommendation(observation: Observation, best: str) -> Hint:
    """Return the hint that recommends ``best``, with its reason."""
    top = observation.pile_top
    if top is None or not would_capture(best, top):
        return Hint("suggest", best)
    rules = observation.rules
    if observation.pile_size == 1 and best[0] == top[0] and pisti_allowed(observation):
        if best[0] == "J" and rules.jack_pisti_points:
            return Hint("jack_pisti", best, rules.jack_pisti_points)
        if best[0] != "J" and rules.pisti_points:
            return Hint("pisti", best, rules.pisti_points)
    return Hint("capture", best, observation.pile_size)
