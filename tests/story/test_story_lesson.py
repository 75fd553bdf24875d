"""Aunt Hayriye's stacked deal plays out as the lesson's steps say."""

from __future__ import annotations

import pytest

from app.engine import FULL_DECK, GameState, score_hand, would_capture
from app.story import lesson
from app.story.lesson import DECK, PLAYS, RULES, STEPS, position


def test_the_deck_is_one_fixed_deck_and_the_script_a_whole_hand():
    assert sorted(DECK) == sorted(FULL_DECK)
    state = GameState.replay(RULES, DECK, PLAYS)
    assert state.finished
    assert [step.play % 2 for step in STEPS] == [0] * len(STEPS)
    assert [step.play for step in STEPS] == sorted(step.play for step in STEPS)


def play_step(number: int):
    """The position before step ``number`` and the result of its card."""
    state = position(number)
    before = state.copy()
    return before, state.play(STEPS[number].card), state


@pytest.mark.parametrize("number", range(len(STEPS)))
def test_every_step_asks_for_a_card_of_the_players_hand(number):
    state = position(number)
    assert state.turn == 0
    assert STEPS[number].card in state.hands[0]


def test_capturing_by_rank():
    before, result, _ = play_step(0)
    assert before.pile_top == "7C" and before.face_down == 3
    assert result.card[0] == "7" and result.captured == 5 and not result.pisti
    wrong = [card for card in before.hands[0] if card[0] not in "7J"]
    assert wrong and not any(would_capture(card, before.pile_top) for card in wrong)


def test_a_pisti():
    before, result, _ = play_step(1)
    assert len(before.pile) == 1 and result.pisti and result.captured == 2


def test_a_jack_on_a_lone_card_is_no_pisti_and_is_kept():
    before, result, _ = play_step(2)
    assert len(before.pile) == 1 and result.captured == 0
    jack = next(card for card in before.hands[0] if card[0] == "J")
    trial = before.copy()
    taken = trial.play(jack)
    assert taken.captured == 2 and not taken.pisti and not taken.jack_pisti


def test_capturing_with_a_jack_takes_the_ten_of_diamonds():
    before, result, after = play_step(3)
    assert "TD" in before.pile and before.pile_top[0] != "J"
    assert result.card[0] == "J" and result.captured == 4
    assert "TD" in after.captured[0]


def test_keeping_a_jack_for_the_end():
    before, result, after = play_step(4)
    assert before.stock == 0 and len(before.hands[0]) == 2
    assert any(card[0] == "J" for card in after.hands[0]) and result.captured == 0
    # Aunt Hayriye's answer stays on the pile, so the Jack has a pile to take.
    assert not after.play(PLAYS[STEPS[4].play + 1]).captured


def test_the_last_capture_takes_the_table():
    before, result, after = play_step(5)
    assert result.card[0] == "J" and result.captured == len(before.pile) + 1
    last = after.play(PLAYS[-1])
    assert last.hand_over and last.captured == 0
    assert last.swept == 1 and last.swept_to == 0


def test_the_scoring_the_page_tells():
    """The last page says the player won on points though Aunt Hayriye took
    more cards, thanks to the pişti."""
    mine, hers = score_hand(position(len(STEPS)))
    assert mine.points > hers.points and hers.cards > mine.cards
    assert mine.pisti == 1 and mine.points - 10 < hers.points


def test_no_such_step():
    with pytest.raises(IndexError):
        position(len(lesson.STEPS) + 1)
