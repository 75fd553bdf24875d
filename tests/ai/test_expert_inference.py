"""The Expert samples its worlds with the inference from the other seats'
plays (app/engine/worlds.py, ``inferred_voids``): in its playouts and in
its exactly solved last deal, a seat that left a five alone holds no five."""

import random

import pytest

from app.ai import expert
from app.ai.expert import ExpertBot
from app.engine import CARDEMS, FULL_DECK, GameState, observe
from app.engine.batch import RANK, Batch
from app.engine.cards import RANKS
from app.engine.worlds import sample_world

FIVE = RANKS.index("5")


def five_left_alone() -> GameState:
    """``cardems``: seat 0, holding no five, throws the King of spades onto
    the opening five of hearts; seat 1 to play."""
    hands = ["KS", "QS", "9D", "8D", "7S", "7D", "9S", "TS"]
    centre = ["3C", "4C", "6C", "5H"]
    rest = [card for card in FULL_DECK if card not in hands + centre]
    state = GameState.deal(CARDEMS, centre + hands + rest)
    state.play("KS")
    return state


@pytest.mark.parametrize("infer", [True, False])
def test_the_expert_s_playouts_give_no_five_to_the_seat_that_left_one(monkeypatch, infer):
    monkeypatch.setattr(expert, "INFER", infer)
    sampled: list[Batch] = []
    sample = Batch.sample

    def record(*args):
        batch = sample(*args)
        sampled.append(batch)
        return batch

    monkeypatch.setattr(expert.Batch, "sample", record)
    ExpertBot(random.Random(3), 60_000, max_worlds=400).choose(observe(five_left_alone(), 1))
    fives = sum(int((RANK[batch.hand(0)] == FIVE).sum()) for batch in sampled)
    assert (fives == 0) == infer


@pytest.mark.parametrize("infer", [True, False])
def test_the_expert_s_solved_worlds_give_no_five_to_the_seat_that_left_one(monkeypatch, infer):
    # Taken as solved from the first deal, with a stand-in solver: only the
    # worlds matter here.
    monkeypatch.setattr(expert, "INFER", infer)
    monkeypatch.setattr(expert, "_solves", lambda observation: True)
    monkeypatch.setattr(expert, "solve", lambda world, team: 0.0)
    hands = []

    def record(*args):
        world = sample_world(*args)
        hands.append(world.hands[0])
        return world

    monkeypatch.setattr(expert, "sample_world", record)
    ExpertBot(random.Random(3), 60_000, max_worlds=200).choose(observe(five_left_alone(), 1))
    assert len(hands) == 200
    assert (not any(card[0] == "5" for hand in hands for card in hand)) == infer
