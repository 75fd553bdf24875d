"""Hints speak with one voice: one recommendation, the Hard level's card,
and notes that never advise against it nor against the first/last-play
rules (seeds 001, 003, 004)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ai.hard import HardBot
from app.ai.hints import NOTES, RECOMMENDATIONS, hints_for
from app.engine import RULE_SETS, GameState, RuleSet, observe, seeded_deck, with_options

SEED_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-"
#: The three games and some house rules (format 2) that change what a hint
#: may say: three seats, four solo seats, other pişti values, no pişti on
#: the last play.
RULES = [
    *RULE_SETS.values(),
    with_options(RULE_SETS["classic"], {"players": 3, "jack_pisti": 10}),
    with_options(RULE_SETS["partners"], {"teams": "solo", "pisti": 5}),
    with_options(RULE_SETS["cardems"], {"pisti_on_last_play": False}),
    with_options(RULE_SETS["classic"], {"players": 3, "pisti": 0, "jack_pisti": 0}),
    with_options(RULE_SETS["partners"], {"teams": "solo", "jack_pisti": 0}),
]


def position(rules: RuleSet | str, seed: str, plays: int, choices: int) -> GameState:
    """The hand dealt from ``seed`` after ``plays`` random legal plays."""
    if isinstance(rules, str):
        rules = RULE_SETS[rules]
    state = GameState(rules, seeded_deck(seed, rules))
    rng = random.Random(choices)
    while len(state.plays) < plays:
        state.play(rng.choice(state.hands[state.turn]))
    return state


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    seed=st.text(SEED_ALPHABET, min_size=1, max_size=12),
    plays=st.integers(0, 47),
    choices=st.integers(0, 2**32),
)
def test_hints_recommend_one_card_that_no_note_contradicts(rules, seed, plays, choices):
    state = position(rules, seed, plays, choices)
    seat = state.turn
    observation = observe(state, seat)
    hints = hints_for(observation)
    recommendations = [hint for hint in hints if hint.recommends]
    assert len(recommendations) == 1 and hints[-1] is recommendations[0]
    (best,) = recommendations
    assert best.card == HardBot(random.Random(0)).choose(observation)
    for note in hints[:-1]:
        assert note.kind in NOTES
        assert note.card in observation.hand and note.card != best.card
        if note.kind == "keep_jack":
            assert note.card[0] == "J" and best.card[0] != "J"
            assert note.number == observation.pile_size > 0
        else:
            # A risky lead: a lone card the next seat could take for a
            # pişti that counts on the next play.
            assert observation.pile_size == 0 and observation.plays_left > 1
            assert state.rules.pisti_counts(len(state.plays) + 2)
            assert state.rules.pisti_points > 0
    # The reason given is what the play does.
    before = observation.pile_size
    result = state.copy().play(best.card)
    assert best.kind in RECOMMENDATIONS
    if best.kind in ("pisti", "jack_pisti"):
        assert (result.jack_pisti, result.pisti) == (
            best.kind == "jack_pisti",
            best.kind == "pisti",
        )
        points = state.rules.jack_pisti_points if result.jack_pisti else state.rules.pisti_points
        assert best.number == points > 0
    elif best.kind == "capture":
        # No pişti is named where it would not count or is worth nothing.
        worth = state.rules.jack_pisti_points if result.jack_pisti else state.rules.pisti_points
        assert not (result.pisti or result.jack_pisti) or worth == 0
        assert result.captured == before + 1 == best.number + 1
    else:
        assert result.captured == 0


def test_the_jack_is_never_both_kept_and_recommended():
    """``/deal/hint-9`` once said "Keep your Jack" and "The Hard level would
    play your Jack of clubs" at once."""
    state = position("cardems", "hint-9", 0, 0)
    hints = hints_for(observe(state, 0))
    assert [(hint.kind, hint.card, hint.number) for hint in hints] == [("capture", "JC", 4)]


def test_no_risky_lead_when_the_next_play_is_the_dealers_last():
    """Partners: a pişti on the dealer's last card does not count (seed 003),
    so a lead onto an empty table before it is not risky."""
    for number in range(3000):
        state = position("partners", f"risky-{number}", 46, number)
        if not state.pile:
            break
    else:
        raise AssertionError("no empty table before the last play found")
    assert "risky_lead" not in [hint.kind for hint in hints_for(observe(state, state.turn))]


@pytest.mark.parametrize("players", [3, 4])
def test_a_pisti_worth_nothing_is_not_named(players):
    """House rules (format 2) may make a pişti worth 0: with three or four
    seats, a play that takes a lone card of its rank is then told as a
    capture, and no lead is called risky, while the same plays at 10 points
    are told as piştis."""
    options = {"players": players, "teams": "solo", "most_cards": "more"}
    worthless = with_options(RULE_SETS["cardems"], {**options, "pisti": 0})
    worth = with_options(RULE_SETS["cardems"], options)
    told = {"capture": 0, "pisti": 0}
    for number in range(400):
        for rules, kind in ((worthless, "capture"), (worth, "pisti")):
            state = position(rules, f"zero-{number}", number % 40, number)
            observation = observe(state, state.turn)
            hints = hints_for(observation)
            assert all(hint.kind != "risky_lead" for hint in hints) or rules is worth
            best = hints[-1]
            top = observation.pile_top
            if observation.pile_size == 1 and best.card[0] == top[0] != "J":
                assert best.kind == kind
                told[kind] += 1
    assert told["capture"] > 3 and told["pisti"] > 3
