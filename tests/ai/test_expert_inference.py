"""The Expert samples its worlds with the inference from the other seats'
plays: in its playouts and in its exactly solved last deal, a seat that
left a five alone holds no five (app/engine/worlds.py, ``inferred_voids``),
and worlds whose hands would not have led the playout policy to the plays
made are kept less often (opponent modelling, ``MODEL_MISS``)."""

import random

import numpy as np
import pytest

from app.ai import expert, make_bot
from app.ai.expert import ExpertBot, _history, _likelihood
from app.ai.hard import HardBot
from app.ai.review import evaluate
from app.engine import (
    CARDEMS,
    CLASSIC,
    FULL_DECK,
    GameState,
    Observation,
    observe,
    seeded_deck,
    with_options,
)
from app.engine.batch import CARD_NUMBER, RANK, Batch
from app.engine.cards import RANKS
from app.engine.worlds import inferred_voids, sample_world

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
    monkeypatch.setattr(expert, "solves_exactly", lambda observation: True)
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


def king_thrown_from(hand: list[str]) -> GameState:
    """``cardems``: seat 0, holding ``hand``, throws its King of spades onto
    the opening five of hearts; seat 1 (the same cards in every case) to
    play."""
    seat_1 = ["7S", "7D", "9S", "TS"]
    centre = ["3C", "4C", "6C", "5H"]
    rest = [card for card in FULL_DECK if card not in hand + seat_1 + centre]
    state = GameState.deal(CARDEMS, centre + hand + seat_1 + rest)
    state.play("KS")
    return state


def test_worlds_where_the_policy_would_have_thrown_another_card_are_kept_less(monkeypatch):
    # Holding two nines, the playout policy throws a nine (the next seat is
    # less likely to hold the rank); a seat that threw its King instead
    # very probably held no pair.
    monkeypatch.setattr(expert, "MODEL_MISS", 0.1)
    unpaired = king_thrown_from(["KS", "QS", "9D", "8D"])
    paired = king_thrown_from(["KS", "QS", "9D", "9C"])
    observation = observe(unpaired, 1)
    assert observation == observe(paired, 1)
    history = _history(observation)
    assert [(play.seat, play.cards.tolist()) for play in history] == [(0, [CARD_NUMBER["KS"]])]
    worlds = Batch.from_states([unpaired, paired])
    assert _likelihood(worlds, history).tolist() == [1.0, 0.1]


def test_the_true_hands_explain_hard_s_plays_nearly_always(monkeypatch):
    monkeypatch.setattr(expert, "MODEL_MISS", 0.0)
    explained = positions = 0
    for number in range(10):
        state = GameState(CARDEMS, seeded_deck(f"model-{number}", CARDEMS))
        while not state.finished:
            observation = observe(state, state.turn)
            history = _history(observation)
            if history:
                positions += 1
                explained += _likelihood(Batch.from_states([state]), history)[0] == 1.0
            state.play(HardBot(random.Random(0)).choose(observation))
    assert explained > 0.95 * positions > 300


def test_no_opponent_model_in_the_last_deal():
    # There Hard keeps a Jack for bigger piles than the policy: its plays
    # are not held against the worlds, which are solved exactly anyway.
    state = GameState(CARDEMS, seeded_deck("model-last", CARDEMS))
    while state.stock or len(state.plays) % 8 < 3:
        state.play(state.hands[state.turn][0])
    assert _history(observe(state, state.turn)) == []
    state = GameState(CARDEMS, seeded_deck("model-last", CARDEMS))
    for _ in range(3):
        state.play(state.hands[state.turn][0])
    assert [play.seat for play in _history(observe(state, 1))] == [0, 0]


@pytest.mark.parametrize("level", ["hard", "medium"])
def test_the_inferred_voids_hold_against_hard_and_medium(level):
    # Both levels take a pile by rank whenever they can: a rank they left
    # on top is one they did not hold.
    claims = 0
    for number in range(10):
        state = GameState(CARDEMS, seeded_deck(f"voids-{number}", CARDEMS))
        while not state.finished:
            observation = observe(state, state.turn)
            for seat, ranks in enumerate(inferred_voids(observation)):
                claims += len(ranks)
                assert not {card[0] for card in state.hands[seat]} & ranks
            state.play(make_bot(level, random.Random(0)).choose(observation))
    assert claims > 300


def counted_sampling(monkeypatch, limit: int) -> list[int]:
    """Count the worlds the Expert samples, batch by batch; past ``limit``,
    fail (the search would go on without end)."""
    sampled: list[int] = []
    sample = Batch.sample

    def counted(observation, generator, size, voids):
        sampled.append(size)
        assert sum(sampled) <= limit, "sampling without end"
        return sample(observation, generator, size, voids)

    monkeypatch.setattr(expert.Batch, "sample", counted)
    return sampled


def unlike_hard(seed: str, seat: int, plays: int) -> Observation:
    """``seat``'s observation after ``plays`` random legal plays of a
    four-player ``classic`` (partners) hand: seats that play at random, as
    nothing like Hard."""
    rules = with_options(CLASSIC, {"players": 4})
    state = GameState.deal(rules, seeded_deck(seed, rules))
    rng = random.Random(seed)
    for _ in range(plays):
        state.play(rng.choice(observe(state, state.turn).hand))
    assert state.turn == seat
    return observe(state, seat)


def test_plays_no_hand_explains_do_not_starve_the_search(monkeypatch):
    # The other seats made plays the policy would not have made with any
    # hand: each cut every world's odds tenfold, and a review step of a
    # thousand worlds once sampled ten million (80 s). No world is now
    # less likely than three such plays make it, and the sampling stops at
    # a hundred times the worlds asked for.
    observation = unlike_hard("review-slow-1", 2, 14)
    history = _history(observation)
    worlds = Batch.sample(observation, np.random.default_rng(0), 500, None)
    assert _likelihood(worlds, history).max() == expert.MODEL_FLOOR
    sampled = counted_sampling(monkeypatch, 40_000)
    values = expert.card_values(observation, random.Random(1), 300)
    kept = {len(row) for row in values.values()}
    assert len(kept) == 1 and 10 <= kept.pop() <= 300
    assert sum(sampled) < expert.SAMPLED_PER_WORLD * 300 + expert.MAX_BATCH


def test_a_count_of_worlds_bounds_the_sampling_too(monkeypatch):
    # With one world kept in all (a stand-in likelihood, far below the
    # floor but for the first world sampled), the search stops after
    # sampling a hundred times the worlds asked for, and a review step
    # says how many it kept.
    calls: list[int] = []

    def likelihood(worlds, history):
        calls.append(worlds.size)
        return np.concatenate([[float(len(calls) == 1)], np.full(worlds.size - 1, 1e-9)])

    monkeypatch.setattr(expert, "_likelihood", likelihood)
    sampled = counted_sampling(monkeypatch, 200_000)
    observation = observe(king_thrown_from(["KS", "QS", "9D", "8D"]), 1)
    values = expert.card_values(observation, random.Random(1), 100)
    assert expert.SAMPLED_PER_WORLD * 100 <= sum(sampled) < expert.SAMPLED_PER_WORLD * 100 + 512
    assert {len(row) for row in values.values()} == {1}
    sampled.clear()
    calls.clear()
    step = evaluate(observation, observation.hand[0])
    assert step.worlds == 1
    assert expert.SAMPLED_PER_WORLD * 1000 <= sum(sampled) < expert.SAMPLED_PER_WORLD * 1000 + 512
