"""Hints speak with one voice: one recommendation, the Hard level's card,
with a reason that holds in the game (told from what the seat may see
only), and notes that never advise against it nor against the
first/last-play rules (seeds 001, 003, 004)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ai.hard import HardBot
from app.ai.hints import NOTES, REASONS, RECOMMENDATIONS, Hint, hints_for
from app.engine import (
    CLASSIC,
    FULL_DECK,
    RULE_SETS,
    GameState,
    Observation,
    RuleSet,
    observe,
    seeded_deck,
    with_options,
)
from app.engine.cards import CARD_POINTS
from tests.ai.test_bots import hidden_twin

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
    assert len(recommendations) == 1 and hints[0] is recommendations[0]
    (best,) = recommendations
    assert best.card == HardBot(random.Random(0)).choose(observation)
    for note in hints[1:]:
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
    assert_reason_holds(state, observation, best)


def hidden_by_rank(state: GameState, observation: Observation) -> dict[str, int]:
    """How many cards of each rank ``observation``'s seat has not seen, from
    where they are in ``state``: other hands, the stock, face-down cards in
    the pile or taken with it."""
    seat = observation.seat
    places = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    places += list(state.order[state.next_card :]) + state.pile[: state.face_down]
    places += [card for cards in state.captured for card in cards]
    hidden: dict[str, int] = {}
    for card in places:
        if card not in observation.seen:
            hidden[card[0]] = hidden.get(card[0], 0) + 1
    return hidden


def assert_reason_holds(state: GameState, observation: Observation, best: Hint) -> None:
    """The recommendation's reason is true of the game ``state`` (checked
    against the state's hidden cards, not the seat's count)."""
    assert best.reason in REASONS[best.kind]
    hand = observation.hand
    if best.kind == "capture":
        face_up = state.pile[state.face_down :]
        assert best.points == sum(CARD_POINTS[card] for card in face_up)
        if best.reason == "keep_jack":
            assert best.card[0] != "J" and any(card[0] == "J" for card in hand)
        if best.reason == "last_capture":
            assert not state.order[state.next_card :]
            assert sum(len(cards) for cards in state.hands) <= 2 * state.rules.players
        return
    if best.kind != "suggest":
        assert (best.reason, best.points, best.unseen) == ("", 0, 0)
        return
    assert best.number == len(state.pile) and best.points == 0
    rank = best.card[0]
    hidden = hidden_by_rank(state, observation)
    others = [card for card in hand if card[0] != rank]
    # The cards of each rank another player holds or will be dealt.
    seat = observation.seat
    held = [card for other, cards in enumerate(state.hands) if other != seat for card in cards]
    held += state.order[state.next_card :]
    if best.reason == "all_seen":
        # No other player holds a card of its rank, nor will.
        assert hidden.get(rank, 0) == 0
        assert not any(card[0] == rank for card in held)
    if best.reason == "fewest_unseen":
        assert best.unseen == hidden.get(rank, 0) > 0
        assert others and all(best.unseen < hidden.get(card[0], 0) for card in others)
        # None of them is a card the seat has seen (the stock's bottom card).
        assert not any(card[0] == rank and card in observation.seen for card in held)
    else:
        assert best.unseen == 0
    if best.reason == "no_points":
        assert CARD_POINTS[best.card] == 0 and any(CARD_POINTS[card] for card in hand)
    if best.reason == "no_value":
        assert not any(CARD_POINTS[card] for card in hand)
        # As many of its rank are left to the others as of any other rank
        # in hand, or fewer: unseen, or seen but theirs.
        left = dict(hidden)
        for card in held:
            if card in observation.seen:
                left[card[0]] = left.get(card[0], 0) + 1
        assert all(left.get(rank, 0) <= left.get(card[0], 0) for card in others)


def stacked(hands: list[list[str]], plays: list[str]) -> GameState:
    """A classic hand dealt as ``hands`` (the centre, its last card on top,
    then seat 0's four cards, then seat 1's; the stock the rest in the
    deck's order) after ``plays``."""
    deck = [card for cards in hands for card in cards]
    return GameState.replay(CLASSIC, deck + [card for card in FULL_DECK if card not in deck], plays)


#: Positions built card by card, seat 0 to play, and the hint they get.
POSITIONS = {
    # The A♦ takes the centre: three face-down cards and the A♣ (1 point).
    "capture": (
        [["2H", "3H", "4H", "AC"], ["AD", "7S", "KD", "4C"], ["7H", "9S", "9D", "QC"]],
        [],
        Hint("capture", "AD", 4, points=1),
    ),
    # The same with a Jack in hand: the Ace takes it and the Jack is kept.
    "kept Jack": (
        [["2H", "3H", "4H", "AC"], ["AD", "JS", "7S", "KD"], ["7H", "9S", "9D", "QC"]],
        [],
        Hint("capture", "AD", 4, reason="keep_jack", points=1),
    ),
    # The Jack takes the centre, seat 1 leads the 7♥ alone: the 7♠ makes a pişti.
    "pişti": (
        [["2H", "3H", "4H", "5C"], ["JD", "7S", "KD", "4C"], ["7H", "9S", "9D", "QC"]],
        ["JD", "7H"],
        Hint("pisti", "7S", 10),
    ),
    # The 8♣ (centre), 8♦ (played) and 8♠ (taken by the Jack) are seen:
    # the 8♥ left on the 5♥ cannot be matched.
    "safe throw, its rank seen": (
        [["2H", "3H", "4H", "8C"], ["8D", "JD", "8H", "KD"], ["8S", "5H", "9D", "QC"]],
        ["8D", "8S", "JD", "5H"],
        Hint("suggest", "8H", 1, reason="all_seen"),
    ),
    # Holding two 4s, only two 4s are unseen, three of every other rank.
    "safe throw, fewest unseen": (
        [["2H", "3H", "4H", "5C"], ["4C", "KD", "4D", "9H"], ["7H", "9S", "9D", "QC"]],
        [],
        Hint("suggest", "4C", 4, reason="fewest_unseen", unseen=2),
    ),
    # Three of each rank unseen: the 7♠ is thrown, the A♦ (1 point) kept.
    "card of no value": (
        [["2H", "3H", "4H", "5C"], ["7S", "AD", "KD", "4C"], ["7H", "9S", "9D", "QC"]],
        [],
        Hint("suggest", "7S", 4, reason="no_points"),
    ),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_reason_is_the_positions(name):
    hands, plays, wanted = POSITIONS[name]
    state = stacked(hands, plays)
    assert state.turn == 0
    observation = observe(state, 0)
    assert hints_for(observation)[0] == wanted
    assert_reason_holds(state, observation, wanted)


def test_a_capture_in_the_last_rounds_says_the_last_capture_takes_what_is_left():
    for number in range(200):
        state = position("classic", f"last-{number}", 44, number)
        observation = observe(state, state.turn)
        best = hints_for(observation)[0]
        if best.kind == "capture" and "J" not in {card[0] for card in observation.hand}:
            break
    else:
        raise AssertionError("no capture in the last rounds found")
    assert best.reason == "last_capture"
    assert_reason_holds(state, observation, best)
    # Earlier in the hand, a capture is told without it.
    early = position("classic", "last-early", 10, 0)
    assert all(hint.reason != "last_capture" for hint in hints_for(observe(early, early.turn)))


@pytest.mark.parametrize("rules", ["cardems", "classic", "partners"])
def test_the_reason_does_not_depend_on_the_hidden_cards(rules):
    """The same observation with the cards the seat cannot see dealt
    otherwise gets the same hints, reasons included."""
    checked = 0
    for number in range(60):
        rng = random.Random(number)
        state = position(rules, f"unseen-{number}", rng.randrange(40), number)
        seat = state.turn
        twin = hidden_twin(state, seat, rng)
        assert observe(twin, seat) == observe(state, seat)
        hints = hints_for(observe(state, seat))
        assert hints_for(observe(twin, seat)) == hints
        if twin.hands != state.hands and hints and hints[0].reason:
            checked += 1
    assert checked > 20


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
            best = hints[0]
            top = observation.pile_top
            if observation.pile_size == 1 and best.card[0] == top[0] != "J":
                assert best.kind == kind
                told[kind] += 1
    assert told["capture"] > 3 and told["pisti"] > 3
