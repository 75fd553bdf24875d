"""The outside yardstick of benchmarks/yardstick.py: a legal, sensible
opponent, and its comparison with Hard runs (figures in BENCHMARKS.md)."""

from __future__ import annotations

import random

import pytest

from app.engine import GameState, get_rules, observe, seeded_deck
from benchmarks.yardstick import YardstickBot, differ_deals
from tests.ai.test_bots import pisti_position


@pytest.mark.parametrize("rules", ["cardems", "classic", "partners"])
def test_the_yardstick_plays_a_card_of_its_hand_to_the_end(rules):
    state = GameState(get_rules(rules), seeded_deck("yard-0", get_rules(rules)))
    bot = YardstickBot(random.Random(0))
    while not state.finished:
        observation = observe(state, state.turn)
        card = bot.choose(observation)
        assert card in observation.hand
        state.play(card)


def test_the_yardstick_takes_a_pisti_when_offered():
    state = pisti_position()
    assert YardstickBot(random.Random(0)).choose(observe(state, 0))[0] == state.pile[0][0]


def test_differ_reports_the_decisions_where_the_yardstick_and_hard_part():
    gains = differ_deals("cardems", "yard", 0, 3)
    assert gains
    assert set(gains) <= {
        "last deal",
        "lead onto an empty table",
        "Jack timing: the yardstick's Jack",
        "Jack timing: Hard's Jack",
        "capture or not",
        "scoring card on the pile",
        "other throw",
    }
    assert all(values for values in gains.values())
