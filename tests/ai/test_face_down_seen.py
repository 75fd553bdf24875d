"""Under ``face_down=capturer`` (seed 003; a format-2 option for any base),
the side that takes the face-down centre cards counts them as seen: Hard's
count, the hints and the Expert's sampled worlds leave them out of the
unseen cards for that side only, with three and four seats too."""

from __future__ import annotations

import random

import pytest

from app.ai.counting import count_cards
from app.engine import CLASSIC, PARTNERS, GameState, observe, seeded_deck, with_options
from app.engine.worlds import sample_world

RULES = {
    "three": with_options(CLASSIC, {"players": 3, "face_down": "capturer"}),
    "four-solo": with_options(PARTNERS, {"teams": "solo"}),
    "partners": PARTNERS,
}


def after_the_face_down_capture(rules, number: int) -> GameState:
    """The hand dealt from ``fd-N``, played at random until a seat has
    taken the face-down cards (or to its end)."""
    rng = random.Random(number)
    state = GameState(rules, seeded_deck(f"fd-{number}", rules))
    while not state.finished and state.face_down_taker is None:
        state.play(rng.choice(state.hands[state.turn]))
    return state


@pytest.mark.parametrize("name", list(RULES))
def test_the_taking_side_counts_the_face_down_cards_as_seen(name):
    rules = RULES[name]
    checked = 0
    for number in range(40):
        state = after_the_face_down_capture(rules, number)
        if state.finished:
            continue
        cards = set(state.face_down_cards)
        assert cards
        for seat in range(rules.players):
            view = observe(state, seat)
            unseen = count_cards(view).unseen
            if rules.team_of(seat) == state.face_down_taker:
                assert set(view.seen_face_down) == cards and not cards & unseen
                # The Expert's worlds deal them to nobody: they are in the pile taken.
                world = sample_world(view, random.Random(number))
                placed = {card for hand in world.hands for card in hand}
                placed |= set(world.pile) | set(world.order[world.next_card :])
                assert not cards & placed
            else:
                assert view.seen_face_down == () and cards <= unseen | set(view.hand)
        checked += 1
    assert checked > 20
