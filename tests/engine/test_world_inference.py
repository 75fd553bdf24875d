"""Inference from the other seats' plays (app/engine/worlds.py): which ranks a
seat is taken not to hold, and the sampled worlds (scalar and batched) that
honour it, with the fallback to the plain deal when it cannot hold."""

import random

import numpy as np
import pytest

from app.engine import CARDEMS, FULL_DECK, PARTNERS, GameState, observe
from app.engine.batch import CARD_NUMBER, RANK, Batch, _constrained_order
from app.engine.cards import RANKS
from app.engine.worlds import constrained_order, deal_plays, inferred_voids, sample_world

WORLDS = 300


def thrown_on(top: str, stacked_deck):
    """A ``cardems`` hand where seat 0 (no card of ``top``'s rank, no Jack)
    throws the King of spades onto the opening ``top``; seat 1 to play."""
    deck = stacked_deck(
        ("3C", "4C", "6C", top),
        [[["KS", "QS", "9D", "8D"], ["7S", "7D", "9S", "TS"]]],
    )
    state = GameState.deal(CARDEMS, deck)
    state.play("KS")
    return state


def test_a_card_left_on_a_pile_says_the_seat_lacks_the_top_rank(stacked_deck):
    state = thrown_on("5H", stacked_deck)
    voids = inferred_voids(observe(state, 1))
    # A pile without points: nothing said about Jacks; nothing about seat 1 itself.
    assert voids == (frozenset({"5"}), frozenset())


def test_a_scoring_pile_left_alone_says_the_seat_has_no_jack(stacked_deck):
    state = thrown_on("2C", stacked_deck)
    assert inferred_voids(observe(state, 1))[0] == {"2", "J"}
    assert inferred_voids(observe(state, 1), jacks=False)[0] == {"2"}


def test_plays_of_an_earlier_deal_say_nothing(stacked_deck, no_match_plays):
    centre = ("3C", "4C", "6C", "5H")
    plays = no_match_plays({}, centre, length=10)
    rest = [card for card in FULL_DECK if card not in plays]
    deck = stacked_deck(
        centre, [[plays[0:8:2], plays[1:8:2]], [plays[8:10:2], plays[9:10:2]]], rest=rest
    )
    state = GameState.deal(CARDEMS, deck)
    for card in plays[:9]:
        state.play(card)
    # Seat 0's throw in the second deal (play 8) counts, not its four of the first.
    assert inferred_voids(observe(state, 1), jacks=False)[0] == {plays[7][0]}


def holds(hands, seat, rank):
    return any(card[0] == rank for card in hands[seat])


def test_sampled_worlds_deal_no_void_rank_to_the_seat(stacked_deck):
    state = thrown_on("5H", stacked_deck)
    observation = observe(state, 1)
    voids = inferred_voids(observation)
    rng = random.Random(1)
    plain = [sample_world(observation, rng) for _ in range(WORLDS)]
    inferred = [sample_world(observation, rng, voids) for _ in range(WORLDS)]
    assert any(holds(world.hands, 0, "5") for world in plain)
    assert not any(holds(world.hands, 0, "5") for world in inferred)
    # The fives went to the stock or under the pile instead, and each world
    # still deals every card once.
    for world in inferred:
        cards = [*world.hands[0], *world.hands[1], *world.order[world.next_card :], *world.pile]
        assert len(cards) == len(set(cards)) == 52 - len(world.plays) + 1
    batch = Batch.sample(observation, np.random.default_rng(1), WORLDS, voids)
    assert not (RANK[batch.hand(0)] == RANKS.index("5")).any()
    plain_batch = Batch.sample(observation, np.random.default_rng(1), WORLDS)
    assert (RANK[plain_batch.hand(0)] == RANKS.index("5")).any()


def test_voids_that_cannot_all_hold_leave_the_plain_deal(stacked_deck):
    state = thrown_on("5H", stacked_deck)
    observation = observe(state, 1)
    impossible = (frozenset(RANKS), frozenset())
    for seed in range(5):
        plain = sample_world(observation, random.Random(seed))
        fallback = sample_world(observation, random.Random(seed), impossible)
        assert fallback.hands == plain.hands and fallback.order == plain.order
        batches = [
            Batch.sample(observation, np.random.default_rng(seed), 20, voids)
            for voids in (None, impossible)
        ]
        assert (batches[0].hands[0] == batches[1].hands[0]).all()
        assert (batches[0].stock == batches[1].stock).all()


@pytest.mark.parametrize("seed", range(20))
def test_the_batched_sampler_deals_as_the_scalar_one(seed):
    # The same random order of the unseen cards gives the same deal, seat by
    # seat, also where the voids leave a seat short (then the plain order).
    rng = random.Random(seed)
    pool = rng.sample(FULL_DECK, rng.randrange(6, 40))
    needs = [(seat, rng.randrange(0, 5)) for seat in (0, 2, 3)]
    voids = [frozenset(rng.sample(RANKS, rng.randrange(0, 12))) for _ in range(4)]
    keys = np.array([[pool.index(card) / len(pool) for card in pool]])
    unseen = np.array([CARD_NUMBER[card] for card in pool])
    order = _constrained_order(keys, np.argsort(keys, axis=1), RANK[unseen], needs, voids)
    expected = constrained_order(pool, needs, voids) or pool
    assert [FULL_DECK[card] for card in unseen[order[0]]] == expected


def test_partners_voids_cover_each_other_seat(stacked_deck):
    # Seats 0, 1 and 2 each leave the top card alone; seat 3 sees all three.
    deck = stacked_deck(
        ("3C", "4C", "6C", "5H"),
        [[["KS"], ["QS"], ["9D"], ["8D"]]],
        players=4,
        bottom="2D",
    )
    state = GameState.deal(PARTNERS, deck)
    for card in ("KS", "QS", "9D"):
        state.play(card)
    assert inferred_voids(observe(state, 3)) == (
        frozenset({"5"}),
        frozenset({"K"}),
        frozenset({"Q"}),
        frozenset(),
    )


def test_the_deal_s_tables_follow_captures_from_the_opening(stacked_deck):
    # Seat 0 throws the King onto the opening five, seat 1 takes both with
    # a Jack (the face-down cards too), seat 0 leads the Queen.
    deck = stacked_deck(
        ("3C", "4C", "6C", "5H"),
        [[["KS", "QS", "9D", "8D"], ["JS", "7D", "9S", "TS"]]],
    )
    state = GameState.deal(CARDEMS, deck)
    for card in ("KS", "JS", "QS"):
        state.play(card)
    tables = deal_plays(observe(state, 1))
    assert [(t.seat, t.card, t.in_hand, t.top, t.pile_size, t.face_down) for t in tables] == [
        (0, "KS", 4, "5", 4, 3),
        (1, "JS", 4, "K", 5, 3),
        (0, "QS", 3, None, 0, 0),
    ]
    assert [sum(t.seen) for t in tables] == [1, 2, 3]
