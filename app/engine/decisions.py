"""A seat's decisions in a hand: the plays it made with a choice, each with
what the seat saw then (for the game review, :mod:`app.ai.review`, which
sees only the observations)."""

from __future__ import annotations

from dataclasses import dataclass

from .observation import Observation, observe
from .state import GameState


@dataclass(frozen=True)
class Decision:
    """One play of a seat that had a choice.

    Attributes:
        play: the play's index in the hand (0 to 47).
        state: the hand just before the play (the real one, every card:
            for showing the hidden cards after the game, never for a bot).
        observation: what the seat saw then.
        played: the card code it played.
    """

    play: int
    state: GameState
    observation: Observation
    played: str


def decisions(state: GameState, seat: int) -> list[Decision]:
    """Return ``seat``'s plays in ``state`` (a hand replayed from a record)
    that had a choice: every play made with two or more cards in hand, in
    order. A play from a single card is forced and left out.

    Raises:
        ValueError: ``seat`` is not a seat of the rule set.
    """
    if not 0 <= seat < state.rules.players:
        raise ValueError(f"seat {seat} is not a seat of this game")
    replay = GameState.deal(state.rules, state.deck)
    found = []
    for index, card in enumerate(state.plays):
        if replay.turn == seat and len(replay.hands[seat]) > 1:
            found.append(Decision(index, replay.copy(), observe(replay, seat), card))
        replay.play(card)
    return found
