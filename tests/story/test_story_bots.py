"""The story opponents play like the levels do: legal cards, from their own
observation only, and each style does what its description says."""

from __future__ import annotations

import math
import random

import pytest

from app.ai import BOTS, LEVELS, OPPONENTS, is_searching, make_bot
from app.ai.expert import ExpertBot
from app.ai.styles import STYLES, Style, StyleBot
from app.engine import RULE_SETS, GameState, get_rules, observe, seeded_deck
from app.story.cast import CAST
from tests.ai.test_bots import hidden_twin

CHEAP = [key for key in OPPONENTS if not is_searching(key)]


def bot(key: str, rng: random.Random):
    if is_searching(key):
        # Three worlds and no clock: a deadline reached first on a busy
        # machine stopped the search at another world count (another card).
        return ExpertBot(rng, budget_ms=math.inf, max_worlds=3)
    return make_bot(key, rng)


def test_cast_is_the_registered_opponents_in_order():
    assert [member.key for member in CAST] == list(OPPONENTS)
    assert CAST[0].key == "hayriye" and CAST[-1].key == "muruvvet"
    assert set(OPPONENTS).isdisjoint(LEVELS) and set(BOTS) == set(LEVELS) | set(OPPONENTS)
    assert OPPONENTS["muruvvet"] is LEVELS["expert"] and is_searching("muruvvet")


@pytest.mark.parametrize("rules", list(RULE_SETS))
@pytest.mark.parametrize("key", CHEAP)
def test_every_opponent_plays_legal_cards(rules, key):
    rule_set = get_rules(rules)
    for number in range(150):
        state = GameState(rule_set, seeded_deck(f"story-legal-{number}", rule_set))
        while not state.finished:
            seat = state.turn
            card = bot(key, random.Random(number)).choose(observe(state, seat))
            assert card in state.hands[seat]
            state.play(card)
        assert sum(len(cards) for cards in state.captured) == 52


@pytest.mark.parametrize("rules", ["classic", "partners"])
@pytest.mark.parametrize("key", list(OPPONENTS))
def test_choice_ignores_cards_the_seat_cannot_see(rules, key):
    rule_set = get_rules(rules)
    checked = 0
    for number in range(30):
        rng = random.Random(number)
        state = GameState(rule_set, seeded_deck(f"story-fair-{number}", rule_set))
        for _ in range(rng.randrange(40)):
            state.play(rng.choice(state.hands[state.turn]))
        seat = state.turn
        twin = hidden_twin(state, seat, rng)
        assert observe(twin, seat) == observe(state, seat)
        checked += twin.hands != state.hands or twin.deck != state.deck
        first = bot(key, random.Random(7)).choose(observe(state, seat))
        second = bot(key, random.Random(7)).choose(observe(twin, seat))
        assert first == second
    assert checked > 10


def plays_of(style: Style, games: int = 200):
    """Yield (observation, card) for every play of ``style`` against Medium."""
    rules = get_rules("classic")
    for number in range(games):
        state = GameState(rules, seeded_deck(f"story-style-{number}", rules))
        while not state.finished:
            seat = state.turn
            observation = observe(state, seat)
            if seat == 0:
                card = StyleBot(random.Random(number), style).choose(observation)
                yield observation, card
            else:
                card = make_bot("medium", random.Random(number)).choose(observation)
            state.play(card)


def test_the_hoarder_never_spends_a_jack_while_another_card_will_do():
    jacks = 0
    for observation, card in plays_of(STYLES["cevdet"]):
        top = observation.pile_top
        if card[0] == "J" and not (top and top[0] == "J"):
            jacks += 1
            assert all(other[0] == "J" for other in observation.hand)
    assert jacks > 100


def scoring(card: str) -> bool:
    return card in ("2C", "TD") or card[0] in "AJ"


def test_the_careful_one_leaves_no_scoring_card_she_can_keep():
    for observation, card in plays_of(STYLES["nevin"]):
        top = observation.pile_top
        takes = top is not None and (card[0] == top[0] or card[0] == "J")
        if not takes and scoring(card):
            assert all(scoring(other) for other in observation.hand)
        can_take = top is not None and any(other[0] in ("J", top[0]) for other in observation.hand)
        if can_take and any(scoring(face) for face in observation.pile_face_up):
            assert takes


def bold_share(style: Style) -> float:
    """The share of ``style``'s leads that are lone cards with all three
    mates unseen."""
    bold = leads = 0
    for observation, card in plays_of(style):
        if observation.pile_top is None:
            leads += 1
            known = observation.seen | set(observation.hand)
            bold += sum(1 for other in known if other[0] == card[0]) == 1
    return bold / leads


def test_the_hunter_leads_lone_cards_whose_mates_are_unseen():
    assert bold_share(STYLES["sevim"]) > 1.25 * bold_share(STYLES["cevdet"])
    assert bold_share(STYLES["nevin"]) < 0.85 * bold_share(STYLES["cevdet"])


def test_aunt_hayriye_plays_a_random_card_half_the_time():
    differs = total = 0
    careful = Style(jacks="spend", lead="random", throw="random")
    for observation, card in plays_of(STYLES["hayriye"], games=60):
        total += 1
        differs += card != StyleBot(random.Random(0), careful).choose(observation)
    assert 0.1 < differs / total < 0.9


def test_the_arena_runs_an_opponent_and_prints_its_style(runner):
    arguments = "arena --a cevdet --b medium --deals 20 --seed ci --rules classic --jobs 1"
    result = runner.invoke(args=arguments.split())
    assert result.exit_code == 0, result.output
    assert "cevdet vs medium: 20 duplicate deals, 40 games" in result.output
    assert "cevdet style:" in result.output and "kept to its last card of a deal" in result.output


def test_the_arena_measures_muruvvet_on_a_fixed_number_of_worlds(runner):
    arguments = "arena --a muruvvet --b ferit --deals 1 --seed ci --worlds 2 --jobs 1"
    result = runner.invoke(args=arguments.split())
    assert result.exit_code == 0, result.output
    assert "muruvvet vs ferit: 1 duplicate deals, 2 games" in result.output
    assert make_bot("muruvvet", random.Random(0), max_worlds=7).max_worlds == 7
    assert make_bot("muruvvet", random.Random(0), budget_ms=5).budget_ms == 5
