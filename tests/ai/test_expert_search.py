"""The Expert's batched search: its vectorised playout policy makes exactly
the choices of the same policy written card by card on the scalar engine
(the reference below), and its card values are repeatable."""

import random

import numpy as np
import pytest

from app.ai import expert
from app.ai.expert import (
    CONFIDENCE,
    CONFIDENCE_EXACT,
    MIN_GAIN,
    ExpertBot,
    _better_than,
    card_values,
    playout_policy,
    solves_exactly,
)
from app.ai.hard import CARD_WORTH, JACK_KEEP
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
from app.engine.batch import Batch, card_numbers
from app.engine.scoring import team_points
from app.engine.worlds import sample_world

HOUSE = [
    CARDEMS,
    CLASSIC,
    PARTNERS,
    rules_from_json({"base": "classic", "players": 3, "jack_pisti": 10, "last_sweep_bonus": 3}),
    rules_from_json({"base": "partners", "teams": "solo", "opening_jack": "under"}),
    rules_from_json(
        {"base": "cardems", "opening_jack": "pass", "pisti_on_last_play": False, "pisti": 5}
    ),
]


def reference_playout(world):
    """The playout policy of :func:`app.ai.expert.playout_policy`, one world
    at a time on the scalar engine; returns the cards it played."""
    hands, pile, plays = world.hands, world.pile, world.plays
    players = len(hands)
    seen = {rank: 0 for rank in "A23456789TJQK"}
    for card in set(plays) | set(world.face_up_at_start):
        seen[card[0]] += 1
    seen_total = sum(seen.values())
    played = []
    while len(plays) < 48:
        number = len(plays)
        hand = hands[number % players]
        choice = jack = -1
        if pile:
            for index, card in enumerate(hand):
                if card[0] == pile[-1][0]:
                    choice = index
                    break
                if card[0] == "J":
                    jack = index
        if choice < 0:
            pile_value = CARD_WORTH * len(pile) + sum(card_points(card) for card in pile)
            if jack >= 0 and pile_value > (JACK_KEEP if world.stock else 0.5):
                choice = jack
            elif len(hand) == 1:
                choice = 0
            else:
                bonus = 0.0 if pile else 10.0
                unknown = 52 - seen_total - len(hand)
                next_hand = len(hands[(number + 1) % players]) or 4
                best = float("inf")
                for index, card in enumerate(hand):
                    left = 4 - seen[card[0]] - sum(other[0] == card[0] for other in hand)
                    odds = min(left * next_hand / unknown, 1.0) if unknown > 0 else 0.0
                    points = card_points(card)
                    loss = odds * (pile_value + points + bonus) + 0.5 * points
                    if card[0] == "J":
                        loss += JACK_KEEP
                    if loss < best:
                        best, choice = loss, index
        card = hand[choice]
        played.append(card)
        seen[card[0]] += 1
        seen_total += 1
        world.play_index(choice)
    return played


@pytest.mark.parametrize("number", range(len(HOUSE)))
def test_the_batched_policy_plays_as_the_reference_from_a_deals_start(number):
    rules = HOUSE[number]
    decks = [seeded_deck(f"policy-{number}-{n}", rules) for n in range(150)]
    batch = Batch.deal(rules, np.array([card_numbers(deck) for deck in decks]))
    played = batch.playout(playout_policy, record=True)
    points = batch.team_points()
    for world, deck in enumerate(decks):
        state = GameState.deal(rules, deck)
        assert card_numbers(reference_playout(state)) == list(played[:, world]), deck
        assert team_points(state) == list(points[:, world])


@pytest.mark.parametrize("rules", HOUSE, ids=lambda r: r.label)
def test_the_batched_policy_plays_as_the_reference_in_sampled_worlds(rules):
    for number in range(12):
        rng = random.Random(number)
        state = GameState(rules, seeded_deck(f"mid-{number}", rules))
        for _ in range(rng.randrange(47)):
            state.play(rng.choice(state.hands[state.turn]))
        worlds = [sample_world(observe(state, state.turn), rng) for _ in range(25)]
        batch = Batch.from_states([world.copy() for world in worlds])
        played = batch.playout(playout_policy, record=True)
        margins = batch.margins(0)
        for index, world in enumerate(worlds):
            assert card_numbers(reference_playout(world)) == list(played[:, index])
            assert expert.margin(team_points(world), 0) == margins[index]


def position(rules, number, plays):
    rng = random.Random(number)
    state = GameState(rules, seeded_deck(f"values-{number}", rules))
    for _ in range(plays):
        state.play(rng.choice(state.hands[state.turn]))
    return observe(state, state.turn)


@pytest.mark.parametrize("plays", [0, 17, 41])
def test_card_values_are_repeatable_with_a_seed_and_a_world_count(plays):
    observation = position(CLASSIC, 3, plays)
    first = card_values(observation, random.Random(9), 150)
    second = card_values(observation, random.Random(9), 150)
    assert list(first) == list(dict.fromkeys(observation.hand))
    for card, values in first.items():
        assert len(values) == 150
        assert values == second[card]


def test_card_values_do_not_depend_on_how_the_worlds_are_batched(monkeypatch):
    observation = position(PARTNERS, 4, 9)
    usual = card_values(observation, random.Random(2), 200)
    monkeypatch.setattr(expert, "FIRST_BATCH", 7)
    monkeypatch.setattr(expert, "MAX_BATCH", 20)
    monkeypatch.setattr(expert, "MIN_BATCH", 1)
    small = card_values(observation, random.Random(2), 200)
    assert usual == small


def test_the_expert_reports_the_worlds_it_looked_at():
    bot = ExpertBot(random.Random(0), budget_ms=60_000, max_worlds=70)
    card = bot.choose(position(CARDEMS, 1, 4))
    assert bot.worlds == 70
    assert card in FULL_DECK


def test_card_values_need_a_world_count_or_a_budget():
    observation = position(CARDEMS, 2, 6)
    with pytest.raises(ValueError):
        card_values(observation, random.Random(0))
    values = card_values(observation, random.Random(0), budget_ms=1)
    assert len({len(row) for row in values.values()}) == 1
    assert all(len(row) >= 1 for row in values.values())


def test_the_search_overrules_hard_on_less_evidence_when_itsolves_exactly_the_worlds():
    # the second card beats Hard's (the first) by one standard error of
    # their paired difference: not enough for the playouts' 1.5, enough for
    # the exact solver's 0.5
    values = np.stack([np.zeros(100), np.array([1.1, -0.9] * 50)])
    error = values[1].std(ddof=1) / 10
    assert 0.5 * error < values[1].mean() < 1.5 * error
    assert _better_than(values, 0, CONFIDENCE) == 0
    assert _better_than(values, 0, CONFIDENCE_EXACT) == 1


def test_the_whole_last_deal_of_two_players_is_solved_exactly():
    state = GameState(CARDEMS, seeded_deck("exact-0", CARDEMS))
    while state.stock:
        state.play(state.hands[state.turn][0])
    assert solves_exactly(observe(state, state.turn))
    assert not solves_exactly(observe(GameState(CARDEMS, seeded_deck("exact-0", CARDEMS)), 0))


def test_a_minimum_gain_keeps_hard_s_card_when_the_search_is_better_by_less():
    # a card better by 0.4 points in every one of 100 worlds is clear to
    # the standard error, but not by half a point
    values = np.stack([np.zeros(100), np.full(100, 0.4), np.full(100, 0.6)])
    assert _better_than(values[:2], 0, CONFIDENCE, 0.5) == 0
    assert _better_than(values, 0, CONFIDENCE, 0.5) == 2
    assert _better_than(values[:2], 0, CONFIDENCE, MIN_GAIN) == 1
