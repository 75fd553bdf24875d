"""The ``cardems`` rule set (seed 000; record-format.md, "Rule sets"),
played on stacked decks so every test says exactly what is dealt."""

import dataclasses

import pytest

from app.engine import (
    CARDEMS,
    GameState,
    IllegalPlay,
    InvalidState,
    TeamScore,
    card_points,
    hand_winner,
    score_hand,
    would_capture,
)

CENTRE = ["3D", "4D", "5D", "6D"]  # bottom to top: 6D face up, the rest face down


@pytest.mark.parametrize(
    ("card", "top", "takes"),
    [
        ("7H", "7S", True),
        ("JH", "7S", True),
        ("JH", "JS", True),
        ("7H", "8H", False),
        ("7H", "JS", False),
        ("JH", None, False),
        ("7H", None, False),
        ("TD", "TC", True),
    ],
)
def test_would_capture(card, top, takes):
    assert would_capture(card, top) is takes


# --- one play at a time -------------------------------------------------------

# Each row: plays from the start of the hand on CENTRE, then what the last play
# did and what the table looks like afterwards.
SINGLE_PLAYS = [
    pytest.param(
        ["7H"],
        dict(captured=0, pisti=False, jack_pisti=False),
        dict(pile=[*CENTRE, "7H"], face_down=3, cards=[0, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="non-matching card stays on top",
    ),
    pytest.param(
        ["3H"],
        dict(captured=0, pisti=False, jack_pisti=False),
        dict(pile=[*CENTRE, "3H"], face_down=3, cards=[0, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="only the top card is matched, not a face-down one",
    ),
    pytest.param(
        ["6H"],
        dict(captured=5, pisti=False, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[5, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="same rank takes the opening pile with its face-down cards, no pisti",
    ),
    pytest.param(
        ["7H", "8H", "9H", "9S"],
        dict(captured=8, pisti=False, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[0, 8], pisti=[0, 0], jack_pisti=[0, 0]),
        id="same rank, suit ignored, takes a bigger pile",
    ),
    pytest.param(
        ["7H", "JS"],
        dict(captured=6, pisti=False, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[0, 6], pisti=[0, 0], jack_pisti=[0, 0]),
        id="a Jack takes any pile",
    ),
    pytest.param(
        ["JH", "7H", "7S"],
        dict(captured=2, pisti=True, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[7, 0], pisti=[1, 0], jack_pisti=[0, 0]),
        id="pisti",
    ),
    pytest.param(
        ["7H", "JH", "8C", "8S"],
        dict(captured=2, pisti=True, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[0, 8], pisti=[0, 1], jack_pisti=[0, 0]),
        id="pisti by seat 1 is team 1's",
    ),
    pytest.param(
        ["JH", "JD", "JS"],
        dict(captured=2, pisti=False, jack_pisti=True),
        dict(pile=[], face_down=0, cards=[7, 0], pisti=[0, 0], jack_pisti=[1, 0]),
        id="Jack pisti",
    ),
    pytest.param(
        ["JH", "7H", "JS"],
        dict(captured=2, pisti=False, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[7, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="Jack on a lone non-Jack takes two, no pisti",
    ),
    pytest.param(
        ["JH", "JD"],
        dict(captured=0, pisti=False, jack_pisti=False),
        dict(pile=["JD"], face_down=0, cards=[5, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="Jack on an empty table stays",
    ),
    pytest.param(
        ["JH", "7H"],
        dict(captured=0, pisti=False, jack_pisti=False),
        dict(pile=["7H"], face_down=0, cards=[5, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="any card on an empty table stays",
    ),
    pytest.param(
        ["JH", "JD", "7S"],
        dict(captured=0, pisti=False, jack_pisti=False),
        dict(pile=["JD", "7S"], face_down=0, cards=[5, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="non-Jack on a lone Jack stays",
    ),
    pytest.param(
        ["JH", "7H", "8S"],
        dict(captured=0, pisti=False, jack_pisti=False),
        dict(pile=["7H", "8S"], face_down=0, cards=[5, 0], pisti=[0, 0], jack_pisti=[0, 0]),
        id="other rank on a lone card stays",
    ),
    pytest.param(
        ["JH", "7H", "8S", "8C"],
        dict(captured=3, pisti=False, jack_pisti=False),
        dict(pile=[], face_down=0, cards=[5, 3], pisti=[0, 0], jack_pisti=[0, 0]),
        id="same rank on two cards is no pisti",
    ),
]


@pytest.mark.parametrize(("plays", "result", "after"), SINGLE_PLAYS)
def test_single_play(deck_from_plays, play_all, plays, result, after):
    state = GameState.deal(CARDEMS, deck_from_plays(CENTRE, plays))
    results = play_all(state, plays)
    last = results[-1]
    assert (last.seat, last.card) == ((len(plays) - 1) % 2, plays[-1])
    assert dict(captured=last.captured, pisti=last.pisti, jack_pisti=last.jack_pisti) == result
    assert state.pile == after["pile"]
    assert state.face_down == after["face_down"]
    assert [len(cards) for cards in state.captured] == after["cards"]
    assert state.pisti == after["pisti"]
    assert state.jack_pisti == after["jack_pisti"]


def test_capture_takes_the_exact_pile_face_down_cards_included(deck_from_plays, play_all):
    plays = ["7H", "8H", "9H", "9S"]
    state = GameState.deal(CARDEMS, deck_from_plays(CENTRE, plays))
    play_all(state, plays)
    assert sorted(state.captured[1]) == sorted(CENTRE + plays)
    assert state.captured[0] == []
    assert state.last_capturer == 1


@pytest.mark.parametrize(
    ("plays", "team", "points"),
    [
        (["JH", "7H", "7S"], 0, 1 + 10),  # JH + pisti
        (["JH", "JD", "JS"], 0, 3 + 20),  # three Jacks + Jack pisti
        (["JH", "7H", "JS"], 0, 2),  # two Jacks, no pisti
    ],
)
def test_pisti_points_while_playing(deck_from_plays, play_all, plays, team, points):
    state = GameState.deal(CARDEMS, deck_from_plays(CENTRE, plays))
    play_all(state, plays)
    scores = score_hand(state)
    assert scores[team].points == points
    assert scores[team].most_cards == 0  # unfinished: no bonus yet
    assert hand_winner(state, scores) == (None, "unfinished")


# --- the opening Jack is swapped --------------------------------------------


@pytest.mark.parametrize(
    ("centre", "pile"),
    [
        (["2C", "3C", "4C", "JH"], ["2C", "3C", "JH", "4C"]),
        (["2C", "3C", "JD", "JH"], ["2C", "JH", "JD", "3C"]),
        (["2C", "JS", "JD", "JH"], ["JH", "JS", "JD", "2C"]),
        (["JH", "3C", "4C", "5C"], ["JH", "3C", "4C", "5C"]),  # Jack face down: nothing
        (["2C", "3C", "JH", "4C"], ["2C", "3C", "JH", "4C"]),
    ],
    ids=[
        "deck3 with deck2",
        "deck2 Jack too: deck1",
        "deck2,1 Jacks: deck0",
        "bottom Jack untouched",
        "face-down Jack untouched",
    ],
)
def test_opening_jack_is_swapped_with_nearest_non_jack_below(stacked_deck, centre, pile):
    state = GameState.deal(CARDEMS, stacked_deck(centre))
    assert state.pile == pile
    assert state.face_down == 3
    assert state.pile_top[0] != "J"
    assert state.face_up_at_start == (pile[-1],)


def test_swapped_opening_jack_is_taken_with_the_pile(stacked_deck, play_all):
    # 4C comes up; a 4 takes the pile, the swapped Jack with it; no pisti.
    deck = stacked_deck(["2C", "3C", "4C", "JH"], [[["4S"]]])
    state = GameState.deal(CARDEMS, deck)
    (result,) = play_all(state, ["4S"])
    assert (result.captured, result.pisti) == (5, False)
    assert sorted(state.captured[0]) == sorted(["2C", "3C", "4C", "JH", "4S"])


def test_four_jacks_in_the_centre_are_invalid(stacked_deck):
    with pytest.raises(InvalidState, match="four Jacks"):
        GameState.deal(CARDEMS, stacked_deck(["JC", "JD", "JH", "JS"]))


def test_jack_at_the_bottom_of_the_stock_is_allowed(stacked_deck):
    state = GameState.deal(CARDEMS, stacked_deck(CENTRE, bottom="JS"))
    assert state.deck[51] == "JS"


# --- dealing and turns ----------------------------------------------------------


def test_first_deal_follows_the_record_layout(stacked_deck):
    deck = stacked_deck(CENTRE)
    state = GameState.deal(CARDEMS, deck)
    assert state.pile == deck[0:4]
    assert state.hands == [deck[4:8], deck[8:12]]
    assert state.stock == 40
    assert state.turn == 0


def test_new_deals_only_when_both_hands_are_empty(stacked_deck):
    deck = stacked_deck(CENTRE)
    state = GameState.deal(CARDEMS, deck)
    for i in range(48):
        seat = i % 2
        assert state.turn == seat
        before = [len(hand) for hand in state.hands]
        result = state.play(state.hands[seat][-1])
        deal_over = i % 8 == 7
        assert result.dealt == (deal_over and i < 47)
        assert result.hand_over == (i == 47)
        if result.dealt:
            r = (i + 1) // 8
            assert state.hands == [deck[4 + 8 * r : 8 + 8 * r], deck[8 + 8 * r : 12 + 8 * r]]
            assert state.stock == 40 - 8 * r
        elif not result.hand_over:
            expected = list(before)
            expected[seat] -= 1
            assert [len(hand) for hand in state.hands] == expected
    assert state.hands == [[], []]
    assert state.stock == 0


def test_the_dealer_gets_the_bottom_card_in_the_last_deal(stacked_deck):
    deck = stacked_deck(CENTRE, bottom="QS")
    state = GameState.deal(CARDEMS, deck)
    for _ in range(40):
        state.play(state.hands[state.turn][0])
    assert state.stock == 0
    assert deck[51] in state.hands[1]
    assert state.hands[1][-1] == deck[51]


@pytest.mark.parametrize("wrong", ["seat 0's card", "a pile card", "a stock card", "lower case"])
def test_turn_order_and_illegal_plays_change_nothing(stacked_deck, wrong):
    deck = stacked_deck(CENTRE)
    state = GameState.deal(CARDEMS, deck)
    state.play(state.hands[0][0])
    assert state.turn == 1
    card = {
        "seat 0's card": state.hands[0][0],
        "a pile card": state.pile[0],
        "a stock card": deck[51],
        "lower case": state.hands[1][0].lower(),
    }[wrong]
    before = state.to_dict(), [list(h) for h in state.hands], list(state.pile), state.face_down
    with pytest.raises(IllegalPlay, match="seat 1"):
        state.play(card)
    after = state.to_dict(), [list(h) for h in state.hands], list(state.pile), state.face_down
    assert after == before
    assert state.turn == 1


def test_no_play_after_the_hand_is_over(stacked_deck):
    state = GameState.deal(CARDEMS, stacked_deck(CENTRE))
    for _ in range(48):
        state.play(state.hands[state.turn][0])
    assert state.finished
    with pytest.raises(IllegalPlay, match="over"):
        state.play(state.plays[-1])
    assert len(state.plays) == 48


# --- whole hands: leftovers, most cards, the winner -----------------------------

# Each row: the centre, the plays that are fixed (index -> card; every other
# play is a non-Jack filler that never matches), and then: which plays
# capture, the sweep, each team's cards and most-cards bonus, the winner.
HANDS = [
    pytest.param(
        ["JC", "4D", "5D", "6D"],
        {0: "JH", 21: "JD", 30: "JS"},
        dict(captures=[0, 21, 30], swept=17, swept_to=0, cards=[31, 21], most=[3, 0]),
        id="leftovers to the last capturer, seat 0",
    ),
    pytest.param(
        ["JC", "JS", "5D", "6D"],
        {0: "JH", 33: "JD"},
        dict(captures=[0, 33], swept=14, swept_to=1, cards=[5, 47], most=[0, 3]),
        id="leftovers to the last capturer, seat 1",
    ),
    pytest.param(
        ["JC", "JD", "5D", "6D"],
        {21: "JH", 24: "JS"},
        dict(captures=[21, 24], swept=23, swept_to=0, cards=[26, 26], most=[0, 0]),
        id="26-26 earns nobody the 3 points",
    ),
    pytest.param(
        ["JC", "JD", "JS", "6D"],
        {22: "JH"},
        dict(captures=[22], swept=25, swept_to=0, cards=[52, 0], most=[3, 0]),
        id="one capture takes everything",
    ),
    pytest.param(
        ["JC", "JD", "5D", "6D"],
        {20: "JH", 45: "JS"},
        dict(captures=[20, 45], swept=2, swept_to=1, cards=[25, 27], most=[0, 3]),
        id="27 cards earn 3",
    ),
]


def expected_scores(state, cards, most):
    """Team scores computed from what each team holds, independently of
    score_hand's bookkeeping."""
    rows = []
    for team, held in enumerate(state.captured):
        points = sum(card_points(card) for card in held) + most[team]
        points += 10 * state.pisti[team] + 20 * state.jack_pisti[team]
        rows.append((len(held), points))
    assert [n for n, _ in rows] == cards
    return rows


@pytest.mark.parametrize(("centre", "fixed", "outcome"), HANDS)
def test_whole_hand(deck_from_plays, no_match_plays, play_all, captures, centre, fixed, outcome):
    plays = no_match_plays(fixed, centre)
    state = GameState.deal(CARDEMS, deck_from_plays(centre, plays))
    results = play_all(state, plays)
    assert captures(results) == outcome["captures"]
    last = results[-1]
    assert last.hand_over and state.finished
    assert (last.swept, last.swept_to) == (outcome["swept"], outcome["swept_to"])
    last_capture = outcome["captures"][-1]
    assert state.captured[outcome["swept_to"]][-outcome["swept"] :] == plays[last_capture + 1 :]
    assert state.pile == []
    scores = score_hand(state)
    assert [s.cards for s in scores] == outcome["cards"]
    assert [s.most_cards for s in scores] == outcome["most"]
    expected = expected_scores(state, outcome["cards"], outcome["most"])
    assert [(s.cards, s.points) for s in scores] == expected
    assert sum(s.points for s in scores) == 13 + sum(outcome["most"])
    (cards0, points0), (cards1, points1) = expected
    if points0 != points1:
        assert hand_winner(state, scores) == (0 if points0 > points1 else 1, "points")
    else:
        assert hand_winner(state, scores) == (0 if cards0 > cards1 else 1, "cards")


def test_points_tie_is_broken_by_cards(tie_deal, play_all, captures):
    deck, plays = tie_deal
    state = GameState.deal(CARDEMS, deck)
    results = play_all(state, plays)
    assert captures(results) == [19, 30, 33, 40]
    scores = score_hand(state)
    assert [(s.cards, s.most_cards, s.points) for s in scores] == [(25, 0, 8), (27, 3, 8)]
    assert [(s.aces, s.jacks, s.two_of_clubs, s.ten_of_diamonds) for s in scores] == [
        (4, 2, 1, 0),
        (0, 2, 0, 1),
    ]
    assert hand_winner(state, scores) == (1, "cards")


def test_full_tie_is_a_draw(deck_from_plays, no_match_plays, play_all):
    # Level points and level cards cannot happen in a real 2-player hand (26-26
    # gives no bonus and 13 card points + multiples of 10 is odd), so the
    # draw branch is checked with scores made up for a finished hand.
    plays = no_match_plays({21: "JH", 24: "JS"}, ["JC", "JD", "5D", "6D"])
    state = GameState.deal(CARDEMS, deck_from_plays(["JC", "JD", "5D", "6D"], plays))
    play_all(state, plays)
    level = [
        TeamScore(
            team=t,
            seats=(t,),
            cards=26,
            aces=2,
            jacks=2,
            two_of_clubs=0,
            ten_of_diamonds=0,
            most_cards=0,
            pisti=0,
            jack_pisti=0,
            points=4,
        )
        for t in (0, 1)
    ]
    assert hand_winner(state, level) == (None, "draw")
    by_cards = [level[0], dataclasses.replace(level[1], cards=27)]
    assert hand_winner(state, by_cards) == (1, "cards")


def test_last_card_pisti_counts(deck_from_plays, no_match_plays, play_all, captures):
    centre = ["JC", "JD", "JS", "5D"]
    plays = no_match_plays({45: "JH", 46: "7H", 47: "7S"}, centre)
    state = GameState.deal(CARDEMS, deck_from_plays(centre, plays))
    results = play_all(state, plays)
    assert captures(results) == [45, 47]
    last = results[-1]
    assert (last.seat, last.captured, last.pisti, last.swept, last.swept_to) == (
        1,
        2,
        True,
        0,
        None,
    )
    scores = score_hand(state)
    assert (scores[1].cards, scores[1].pisti, scores[1].points) == (52, 1, 13 + 3 + 10)
    assert hand_winner(state, scores) == (1, "points")


def test_leftovers_go_to_seat_0_when_nobody_captured(deck_from_plays, no_match_plays, play_all):
    # Under cardems nobody-captured cannot happen: four centre Jacks are
    # invalid, so a Jack is in some hand, and a Jack played on the never-taken
    # opening pile captures. The rule is checked with the cardems rule set
    # allowing four centre Jacks (rules are data; only that field changes).
    centre = ["JC", "JD", "JS", "JH"]
    plays = no_match_plays({}, centre)
    deck = deck_from_plays(centre, plays)
    with pytest.raises(InvalidState):
        GameState.deal(CARDEMS, deck)
    rules = dataclasses.replace(CARDEMS, four_jacks_in_centre=True)
    state = GameState.deal(rules, deck)
    assert state.pile == centre  # no non-Jack to swap with
    results = play_all(state, plays)
    assert all(r.captured == 0 for r in results)
    assert state.last_capturer is None
    assert (results[-1].swept, results[-1].swept_to) == (52, 0)
    scores = score_hand(state)
    assert [(s.cards, s.points) for s in scores] == [(52, 16), (0, 0)]
    assert hand_winner(state, scores) == (0, "points")
