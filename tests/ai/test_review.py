"""The review's estimates: reproducible at a fixed seed, blind to the
hidden cards, a clearly worse card marked a mistake with why, and the
decisions and summary of whole hands in every rule set."""

from __future__ import annotations

import random

import pytest

from app.ai.review import (
    MISTAKE_POINTS,
    Step,
    Why,
    evaluate,
    explain,
    summarize,
    tells_why,
)
from app.engine import (
    CLASSIC,
    FULL_DECK,
    RULE_SETS,
    GameState,
    Observation,
    observe,
    seeded_deck,
    with_options,
    would_capture,
)
from app.engine.cards import CARD_POINTS
from app.engine.decisions import decisions

#: The centre (5♣ on top), then seat 0's four cards, then seat 1's.
STACKED = ["2H", "3H", "4H", "5C", "JD", "7S", "KD", "4C", "7H", "9S", "9D", "QC"]


def stacked(rest_seed: int = 0) -> GameState:
    """A classic hand where seat 0 takes the centre with its Jack and seat 1
    then throws the 7♥ on the empty table: seat 0 holds the 7♠, a pişti.
    ``rest_seed`` shuffles the cards nobody has seen yet."""
    rest = [card for card in FULL_DECK if card not in STACKED]
    random.Random(rest_seed).shuffle(rest)
    return GameState.replay(CLASSIC, STACKED + rest, ["JD", "7H"])


def test_estimates_are_reproducible_with_a_fixed_seed():
    observation = observe(stacked(), 0)
    first = evaluate(observation, "KD", seed="fixed")
    assert evaluate(observation, "KD", seed="fixed") == first
    assert evaluate(observation, "KD", seed="another") != first


def test_estimates_do_not_depend_on_the_hidden_cards():
    one, other = stacked(1), stacked(2)
    assert one.deck[len(STACKED) :] != other.deck[len(STACKED) :]
    assert observe(one, 0) == observe(other, 0)
    assert evaluate(observe(one, 0), "KD") == evaluate(observe(other, 0), "KD")


def test_throwing_away_a_pisti_is_a_mistake_and_says_why():
    step = evaluate(observe(stacked(), 0), "KD", number=3)
    assert step.best == "7S"
    assert step.mistake and step.loss > MISTAKE_POINTS
    played = next(estimate for estimate in step.estimates if estimate.card == "KD")
    assert played.loss_low > 0
    facts = {"best": "7S", "played": "KD", "cards": 1, "points": 0, "pisti": True}
    # Worth more than the pişti's 10 points: the cards count for the most cards.
    assert step.why == Why("take_pile", {**facts, "beyond": "most_cards", "bonus": 3})
    assert step.estimates[0].card == "7S"
    assert step.number == 3 and step.play == 2 and step.worlds > 0
    # The estimates are points for the rest of the hand with their interval.
    for estimate in step.estimates:
        assert estimate.low <= estimate.mean <= estimate.high
        assert estimate.loss_low <= estimate.loss <= estimate.loss_high


def test_making_the_pisti_is_no_mistake():
    step = evaluate(observe(stacked(), 0), "7S")
    assert step.best == "7S" and step.loss == 0 and not step.mistake and step.why is None


def test_a_step_survives_its_json_form():
    step = evaluate(observe(stacked(), 0), "KD")
    assert Step.from_dict(step.to_dict()) == step


def test_a_card_not_in_hand_is_refused():
    with pytest.raises(ValueError, match="not in seat 0's hand"):
        evaluate(observe(stacked(), 0), "AS")


def test_a_capture_worth_more_than_its_points_in_sight_says_why():
    # The pişti in sight is 10 points: a loss of 10.5 is the pişti alone,
    # 11.5 more than it (the cards taken count for the most cards).
    position = observe(stacked(), 0)
    assert explain(position, played="KD", best="7S", loss=10.5).facts["beyond"] is None
    why = explain(position, played="KD", best="7S", loss=11.5)
    assert (why.kind, why.facts["beyond"], why.facts["bonus"]) == ("take_pile", "most_cards", 3)
    # No most-cards bonus in the rules: nothing more to say while the stock lasts.
    no_bonus = with_options(CLASSIC, {"most_cards_points": 0})
    rest = [card for card in FULL_DECK if card not in STACKED]
    state = GameState.replay(no_bonus, STACKED + rest, ["JD", "7H"])
    assert explain(observe(state, 0), played="KD", best="7S", loss=13).facts["beyond"] is None


def _last_deal_choice() -> Observation:
    """A position of a random classic hand in the last deal where the seat
    to play holds a card that takes the pile by its rank and one that
    takes nothing."""
    rng = random.Random(7)
    for number in range(100):
        state = GameState.replay(CLASSIC, seeded_deck(f"beyond-{number}", CLASSIC), [])
        while state.legal_plays():
            hand = state.hands[state.turn]
            top = state.pile_top
            if state.stock == 0 and top is not None:
                takes = [c for c in hand if would_capture(c, top) and c[0] != "J"]
                if takes and any(not would_capture(c, top) for c in hand):
                    return observe(state, state.turn)
            state.play(rng.choice(state.legal_plays()))
    raise AssertionError("no such position in 100 hands")


def test_a_capture_in_the_last_deal_brings_the_table_left_at_the_end():
    position = _last_deal_choice()
    top = position.pile_top
    takes = [card for card in position.hand if would_capture(card, top) and card[0] != "J"]
    leaves = [card for card in position.hand if not would_capture(card, top)]
    points = sum(CARD_POINTS[card] for card in position.pile_face_up)
    why = explain(position, played=leaves[0], best=takes[0], loss=points + 0.5)
    assert (why.kind, why.facts["beyond"]) == ("take_pile", None)
    why = explain(position, played=leaves[0], best=takes[0], loss=points + 1.5)
    assert (why.kind, why.facts["beyond"]) == ("take_pile", "last_capture")


def test_a_jack_spent_on_a_poor_pile_is_worth_keeping():
    rest = [card for card in FULL_DECK if card not in STACKED]
    start = observe(GameState.replay(CLASSIC, STACKED + rest, []), 0)
    why = explain(start, played="JD", best="4C", loss=3.0)
    assert why == Why(
        "keep_jack", {"best": "4C", "played": "JD", "cards": 4, "points": 0, "jacks": 3}
    )


def test_a_lone_card_on_an_empty_table_counts_the_unseen_cards_of_its_rank():
    # Seat 1 faces an empty table after the Jack took the centre.
    rest = [card for card in FULL_DECK if card not in STACKED]
    after_jack = observe(GameState.replay(CLASSIC, STACKED + rest, ["JD"]), 1)
    why = explain(after_jack, played="QC", best="9S", loss=2.5)
    # Seat 1 holds the 9♠ and 9♦ and sees no other 9 or Queen: two 9s are
    # unseen, and three Queens.
    assert why == Why("gives_pisti", {"best": "9S", "played": "QC", "unseen": 3, "best_unseen": 2})
    # The other way round nothing simple stands out.
    assert explain(after_jack, played="9S", best="QC", loss=0.7).kind == "average"


RULES = [
    *RULE_SETS.values(),
    with_options(RULE_SETS["classic"], {"players": 3, "jack_pisti": 10}),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.label)
def test_every_rule_set_has_its_decisions_and_summary(rules):
    state = GameState.deal(rules, seeded_deck("review-rules", rules))
    rng = random.Random(5)
    while not state.finished:
        state.play(rng.choice(state.hands[state.turn]))
    found = decisions(state, 0)
    plays_of_seat_0 = 48 // rules.players
    # Each deal's last card is forced; every other play is a decision.
    assert len(found) == plays_of_seat_0 - rules.deals
    assert all(decision.observation.seat == 0 for decision in found)
    assert [decision.played for decision in found] == [
        state.plays[decision.play] for decision in found
    ]
    steps = [
        evaluate(decision.observation, decision.played, number)
        for number, decision in enumerate(found[-3:], start=1)
    ]
    summary = summarize(steps)
    assert summary.losses == tuple(step.loss for step in steps)
    assert summary.total == pytest.approx(sum(summary.losses), abs=0.01)
    assert summary.mistakes == sum(step.mistake for step in steps)
    assert (
        list(summary.costliest)
        == sorted(
            (step.number for step in steps if step.loss > 0),
            key=lambda number: -steps[number - 1].loss,
        )[:3]
    )


def test_a_seat_outside_the_game_is_refused():
    with pytest.raises(ValueError, match="seat 2"):
        decisions(stacked(), 2)


@pytest.mark.parametrize(("loss", "told"), [(0.44, False), (0.46, True), (0.5, True), (0.0, False)])
def test_a_loss_gets_its_why_as_the_page_shows_it(loss, told):
    # The page shows a loss to one decimal: one shown as 0.5 is never
    # called a good play with "no card was better by half a point".
    assert tells_why(loss) is told
