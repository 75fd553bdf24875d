"""The batched engine (app/engine/batch.py) against the scalar one: the same
cards and the same choices give the same captures, piştis, last-card sweep
and points, for 2, 3 and 4 players and any combination of house rules."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    CARDEMS,
    CLASSIC,
    FULL_DECK,
    PARTNERS,
    GameState,
    card_points,
    observe,
    rules_from_json,
    seeded_deck,
)
from app.engine.batch import CARD_NUMBER, Batch, card_numbers, random_policy
from app.engine.cards import RANKS
from app.engine.rules import CHOICES, InvalidRules
from app.engine.scoring import team_points
from app.engine.worlds import sample_world


def decks_for(rules, rng, count):
    """``count`` decks the rule set allows; every fifth has a Jack on top of
    the centre (the opening-Jack rules at work)."""
    decks = []
    while len(decks) < count:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        if len(decks) % 5 == 0 and deck[3][0] != "J":
            jack = next(i for i, card in enumerate(deck) if card[0] == "J" and 3 < i < 51)
            deck[3], deck[jack] = deck[jack], deck[3]
        if not rules.deck_problem(deck):
            decks.append(deck)
    return decks


def outcome(state):
    """What a hand's end is judged on, from the scalar engine."""
    return (
        [len(cards) for cards in state.captured],
        list(state.pisti),
        list(state.jack_pisti),
        -1 if state.swept_to is None else state.swept_to,
        team_points(state),
    )


def batch_outcome(batch, world):
    return (
        list(batch.cards[:, world]),
        list(batch.pisti[:, world]),
        list(batch.jack_pisti[:, world]),
        int(batch.swept_to[world]),
        list(batch.team_points()[:, world]),
    )


def check_random_deals(rules, seed, count):
    """Play ``count`` random deals batched, replay each one's cards in the
    scalar engine with ``play()`` and compare every result."""
    decks = decks_for(rules, random.Random(seed), count)
    batch = Batch.deal(rules, np.array([card_numbers(deck) for deck in decks]))
    played = batch.playout(random_policy(np.random.default_rng(seed)), record=True)
    assert played.shape == (48, count)
    assert batch.finished
    for world, deck in enumerate(decks):
        state = GameState.deal(rules, deck)
        for number in played[:, world]:
            state.play(FULL_DECK[number])  # raises IllegalPlay if not in hand
        assert outcome(state) == batch_outcome(batch, world), (rules.label, deck)


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_random_deals_match_the_scalar_engine(rules):
    check_random_deals(rules, 1, 700)


def rule_sets():
    """Any base with any values of the options that change play or score."""
    choices = {
        option: st.sampled_from(list(values))
        for option, values in CHOICES.items()
        if option != "teams"
    }
    points = st.integers(min_value=0, max_value=30)
    return st.builds(
        lambda base, options, pisti, jack, most, sweep, partners: {
            "base": base,
            **options,
            "teams": "partners" if partners and options["players"] == 4 else "solo",
            "pisti": pisti,
            "jack_pisti": jack,
            "most_cards_points": most,
            "last_sweep_bonus": sweep,
        },
        st.sampled_from(["cardems", "classic", "partners"]),
        st.fixed_dictionaries(choices),
        points,
        points,
        points,
        points,
        st.booleans(),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=rule_sets(), seed=st.integers(0, 10**6))
def test_house_rules_match_the_scalar_engine(spec, seed):
    try:
        rules = rules_from_json(spec)
    except InvalidRules:
        rules = rules_from_json({**spec, "most_cards": "more"})
    check_random_deals(rules, seed, 40)


def test_the_opening_jack_rules_lay_out_the_centre_as_the_scalar_engine():
    for opening in ("stay", "swap", "pass", "under"):
        rules = rules_from_json({"base": "classic", "opening_jack": opening})
        decks = decks_for(rules, random.Random(opening), 60)
        batch = Batch.deal(rules, np.array([card_numbers(deck) for deck in decks]))
        for world, deck in enumerate(decks):
            state = GameState.deal(rules, deck)
            assert batch.pile_size[world] == len(state.pile)
            assert batch.top[world] == RANKS.index(state.pile[-1][0])
            assert batch.pile_points[world] == sum(card_points(card) for card in state.pile)
            for seat, hand in enumerate(state.hands):
                assert list(batch.hand(seat)[:, world]) == card_numbers(hand)


@pytest.mark.parametrize(
    "rules",
    [CARDEMS, PARTNERS, rules_from_json({"base": "classic", "players": 3})],
    ids=lambda r: r.label,
)
def test_hands_in_progress_match_the_scalar_engine(rules):
    # Worlds sampled behind a seat's view, loaded mid-hand, played out at random.
    for number in range(12):
        rng = random.Random(number)
        state = GameState(rules, seeded_deck(f"batch-{number}", rules))
        for _ in range(rng.randrange(46)):
            state.play(rng.choice(state.hands[state.turn]))
        worlds = [sample_world(observe(state, state.turn), rng) for _ in range(30)]
        batch = Batch.from_states([world.copy() for world in worlds])
        played = batch.playout(random_policy(np.random.default_rng(number)), record=True)
        for index, world in enumerate(worlds):
            for card in played[:, index]:
                world.play(FULL_DECK[card])
            assert outcome(world) == batch_outcome(batch, index)


def test_states_at_different_plays_cannot_share_a_batch():
    state = GameState(CARDEMS, seeded_deck("mixed", CARDEMS))
    later = state.copy()
    later.play(later.hands[0][0])
    with pytest.raises(ValueError):
        Batch.from_states([state, later])
    with pytest.raises(ValueError):
        Batch.from_states([])


@pytest.mark.parametrize(
    "spec",
    [
        "cardems",
        "partners",
        {"base": "classic", "players": 3, "opening_jack": "under", "bottom_card": "no_jack"},
        {"base": "partners", "face_down": "capturer"},
    ],
    ids=str,
)
def test_sampled_worlds_are_consistent_with_what_the_seat_saw(spec):
    rules = rules_from_json(spec)
    for number in range(25):
        rng = random.Random(number)
        state = GameState(rules, seeded_deck(f"sample-{number}", rules))
        for _ in range(rng.randrange(48)):
            state.play(rng.choice(state.hands[state.turn]))
        seat = state.turn
        observation = observe(state, seat)
        batch = Batch.sample(observation, np.random.default_rng(number), 40)
        assert batch.played == len(state.plays)
        assert batch.hand_sizes == [len(hand) for hand in state.hands]
        assert batch.stock_left == state.stock
        assert (batch.pile_size == len(state.pile)).all()
        assert ([len(cards) for cards in state.captured] == batch.cards.T).all()
        seen = {CARD_NUMBER[card] for card in observation.seen}
        tail = card_numbers(observation.stock_bottom)
        for world in range(batch.size):
            assert list(batch.hand(seat)[:, world]) == card_numbers(state.hands[seat])
            held = [
                int(card) for hand in range(rules.players) for card in batch.hand(hand)[:, world]
            ]
            stock = [int(card) for card in batch.stock[:, world]]
            assert len(set(held + stock)) == len(held + stock)
            hidden = set(held + stock) - set(card_numbers(state.hands[seat]))
            assert not hidden & (seen - set(tail))
            if state.stock and tail:
                assert stock[-len(tail) :] == tail


def test_a_sampled_world_does_not_depend_on_the_batch_it_is_drawn_in():
    state = GameState(CLASSIC, seeded_deck("split", CLASSIC))
    observation = observe(state, 0)
    whole = Batch.sample(observation, np.random.default_rng(5), 30)
    generator = np.random.default_rng(5)
    first, second = (Batch.sample(observation, generator, size) for size in (12, 18))
    for seat in range(2):
        assert (np.hstack([first.hands[seat], second.hands[seat]]) == whole.hands[seat]).all()
    assert (np.hstack([first.stock, second.stock]) == whole.stock).all()
