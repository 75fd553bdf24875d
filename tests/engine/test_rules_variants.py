"""The ``classic`` (seed 001) and ``partners`` (seeds 003, 004) rule sets:
the points where they differ from ``cardems`` (record-format.md, "Rule sets")."""

import dataclasses

import pytest

from app.engine import (
    CARDEMS,
    CLASSIC,
    PARTNERS,
    GameState,
    IllegalPlay,
    InvalidState,
    hand_winner,
    observe,
    score_hand,
)

CENTRE = ["3D", "4D", "5D", "6D"]


# --- classic --------------------------------------------------------------------


def test_classic_opening_jack_stays_on_top(stacked_deck):
    state = GameState.deal(CLASSIC, stacked_deck(["2C", "3C", "4C", "JH"]))
    assert state.pile == ["2C", "3C", "4C", "JH"]
    assert state.pile_top == "JH"
    assert state.face_down == 3
    assert state.face_up_at_start == ("JH",)


@pytest.mark.parametrize(
    ("plays", "captured", "team"),
    [
        (["7H"], 0, None),  # no match on a Jack: stays on it
        (["7H", "JS"], 6, 1),  # the first to take the pile takes the Jack too
        (["JS"], 5, 0),  # Jack on the 4-card pile: no Jack pisti
    ],
)
def test_classic_opening_jack_goes_with_the_pile(deck_from_plays, play_all, plays, captured, team):
    centre = ["2C", "3C", "4C", "JH"]
    state = GameState.deal(CLASSIC, deck_from_plays(centre, plays))
    last = play_all(state, plays)[-1]
    assert (last.captured, last.pisti, last.jack_pisti) == (captured, False, False)
    if team is not None:
        assert "JH" in state.captured[team]
    else:
        assert state.pile == centre + plays


def test_classic_allows_four_jacks_in_the_centre(stacked_deck):
    state = GameState.deal(CLASSIC, stacked_deck(["JC", "JD", "JH", "JS"]))
    assert state.pile == ["JC", "JD", "JH", "JS"]
    assert state.face_down == 3


def test_classic_leftovers_go_to_the_dealer_when_nobody_captured(
    deck_from_plays,
    no_match_plays,
    play_all,
):
    # Only possible with all four Jacks in the centre (a Jack in hand captures).
    centre = ["JC", "JD", "JH", "JS"]
    plays = no_match_plays({}, centre)
    state = GameState.deal(CLASSIC, deck_from_plays(centre, plays))
    results = play_all(state, plays)
    assert all(r.captured == 0 for r in results)
    assert (results[-1].seat, results[-1].swept, results[-1].swept_to) == (1, 52, 1)
    scores = score_hand(state)
    assert [(s.cards, s.most_cards, s.points) for s in scores] == [(0, 0, 0), (52, 3, 16)]
    assert hand_winner(state, scores) == (1, "points")


# centre, fixed plays (as in test_rules_cardems.HANDS), then each team's cards
# and most-cards bonus: strictly more cards than the other side earns 3.
MOST_CARDS = [
    pytest.param(["JC", "JD", "5D", "6D"], {21: "JH", 24: "JS"}, [26, 26], [0, 0], id="26-26"),
    pytest.param(["JC", "JD", "5D", "6D"], {20: "JH", 45: "JS"}, [25, 27], [0, 3], id="25-27"),
    pytest.param(
        ["JC", "4D", "5D", "6D"], {0: "JH", 21: "JD", 30: "JS"}, [31, 21], [3, 0], id="31-21"
    ),
    pytest.param(["JC", "JD", "JS", "6D"], {22: "JH"}, [52, 0], [3, 0], id="52-0"),
]


@pytest.mark.parametrize(("centre", "fixed", "cards", "most"), MOST_CARDS)
def test_classic_most_cards_means_strictly_more(
    deck_from_plays,
    no_match_plays,
    play_all,
    centre,
    fixed,
    cards,
    most,
):
    plays = no_match_plays(fixed, centre)
    state = GameState.deal(CLASSIC, deck_from_plays(centre, plays))
    play_all(state, plays)
    scores = score_hand(state)
    assert [s.cards for s in scores] == cards
    assert [s.most_cards for s in scores] == most


def test_classic_points_tie_is_a_draw_whatever_the_cards(tie_deal, play_all):
    # The tie of conftest's tie_deal: 8 points each, 25 cards against 27.
    deck, plays = tie_deal
    state = GameState.deal(CLASSIC, deck)
    play_all(state, plays)
    scores = score_hand(state)
    assert [(s.cards, s.most_cards, s.points) for s in scores] == [(25, 0, 8), (27, 3, 8)]
    assert hand_winner(state, scores) == (None, "draw")


def test_classic_jack_at_the_bottom_is_allowed(stacked_deck):
    assert GameState.deal(CLASSIC, stacked_deck(CENTRE, bottom="JD")).deck[51] == "JD"


# --- the hand's last play, under each rule set ------------------------------------

# The last play (index 47, by the dealer) takes a lone card of its rank.
LAST_PLAY = [
    pytest.param(["JC", "JD", "JS", "5D"], {45: "JH", 46: "7H", 47: "7S"}, "pisti", id="pisti"),
    pytest.param(
        ["JC", "4D", "5D", "6D"], {45: "JD", 46: "JH", 47: "JS"}, "jack_pisti", id="Jack pisti"
    ),
]


@pytest.mark.parametrize(
    ("rules", "counts"),
    [(CARDEMS, True), (CLASSIC, True), (PARTNERS, False)],
    ids=lambda v: getattr(v, "name", str(v)),
)
@pytest.mark.parametrize(("centre", "fixed", "kind"), LAST_PLAY)
def test_pisti_on_the_last_play(
    deck_from_plays,
    no_match_plays,
    play_all,
    captures,
    rules,
    counts,
    centre,
    fixed,
    kind,
):
    plays = no_match_plays(fixed, centre)
    deck = deck_from_plays(centre, plays, players=rules.players)
    # The dealer's last packet is deck[48..51]; its order does not change the
    # hand, and keeps a Jack away from the (partners-forbidden) bottom place.
    deck[48], deck[51] = deck[51], deck[48]
    state = GameState.deal(rules, deck)
    results = play_all(state, plays)
    assert captures(results) == [45, 47]
    last = results[-1]
    assert (last.seat, last.captured, last.hand_over) == (rules.players - 1, 2, True)
    assert (last.pisti, last.jack_pisti) == (
        counts and kind == "pisti",
        counts and kind == "jack_pisti",
    )
    scores = score_hand(state)
    assert scores[1].cards == 52
    bonus = {"pisti": 10, "jack_pisti": 20}[kind] if counts else 0
    assert scores[1].points == 13 + 3 + bonus
    assert (scores[1].pisti, scores[1].jack_pisti) == (
        int(counts and kind == "pisti"),
        int(counts and kind == "jack_pisti"),
    )


# Only the hand's last play is ruled out (seeds 003/004: "the dealer's very
# last"), not the dealer's last card of an earlier deal: with four players
# plays 15 and 31 (the dealer's, before the second and third deals) make a
# pişti and a Jack pişti.
DEALS_END = {14: "7H", 15: "7S", 30: "JH", 31: "JS"}


@pytest.mark.parametrize(
    "rules",
    [PARTNERS, dataclasses.replace(CLASSIC, players=4, teams="partners", pisti_on_last_play=False)],
    ids=["partners", "classic 4 partners, no pisti on the last play"],
)
def test_a_pisti_with_the_dealers_last_card_of_an_earlier_deal_counts(
    deck_from_plays, no_match_plays, play_all, captures, rules
):
    plays = no_match_plays({13: "JC", 29: "JD", **DEALS_END}, CENTRE)
    deck = deck_from_plays(CENTRE, plays, players=4)
    state = GameState.deal(rules, deck)
    results = play_all(state, plays)
    assert captures(results) == [13, 15, 29, 31]
    for index in (15, 31):
        assert (results[index].seat, results[index].captured, results[index].dealt) == (3, 2, True)
    assert (results[15].pisti, results[15].jack_pisti) == (True, False)
    assert (results[31].pisti, results[31].jack_pisti) == (False, True)
    assert (state.pisti, state.jack_pisti) == ([0, 1], [0, 1])


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS], ids=lambda rules: rules.name)
def test_the_final_sweep_is_never_a_pisti(
    deck_from_plays, no_match_plays, play_all, captures, rules
):
    # The hand's last card lands alone on a table just cleared by a pişti:
    # it goes to the last capturer with the sweep, and no pişti is scored
    # for it (record-format.md, "Rule sets": "that final sweep is never a
    # pişti").
    fixed = {10: "JD", 20: "JH", 30: "JS", 44: "JC", 45: "7H", 46: "7S"}
    plays = no_match_plays(fixed, CENTRE)
    state = GameState.deal(rules, deck_from_plays(CENTRE, plays, players=rules.players))
    results = play_all(state, plays)
    assert captures(results) == [10, 20, 30, 44, 46]
    capturer = rules.team_of(46 % rules.players)
    assert (results[46].captured, results[46].pisti) == (2, True)
    last = results[-1]
    assert (last.captured, last.pisti, last.jack_pisti) == (0, False, False)
    assert (last.swept, last.swept_to, state.pile) == (1, capturer, [])
    assert (sum(state.pisti), sum(state.jack_pisti)) == (1, 0)
    assert state.pisti[capturer] == 1 and plays[-1] in state.captured[capturer]


# --- partners -------------------------------------------------------------------


def test_partners_deal_four_seats(stacked_deck):
    deck = stacked_deck(CENTRE, players=4)
    state = GameState.deal(PARTNERS, deck)
    assert state.hands == [deck[4:8], deck[8:12], deck[12:16], deck[16:20]]
    assert state.stock == 32
    for i in range(48):
        assert state.turn == i % 4
        result = state.play(state.hands[i % 4][0])
        assert result.seat == i % 4
        assert result.dealt == (i in (15, 31))
        if result.dealt:
            r = (i + 1) // 16
            start = 4 + 16 * r
            assert state.hands == [deck[start + 4 * s : start + 4 * s + 4] for s in range(4)]
    assert state.finished
    assert state.hands == [[], [], [], []]


# Plays on CENTRE; then the last play's capture and the teams' cards and piştis.
PARTNER_PLAYS = [
    pytest.param(["7H", "8H", "JS"], 7, [7, 0], [0, 0], [0, 0], id="seat 2 captures for team 0"),
    pytest.param(
        ["7H", "8H", "9H", "JS"], 8, [0, 8], [0, 0], [0, 0], id="seat 3 captures for team 1"
    ),
    pytest.param(["7H", "JH", "8C", "8S"], 2, [0, 8], [0, 1], [0, 0], id="seat 3 pisti, team 1"),
    pytest.param(
        ["7H", "8H", "JS", "9C", "9S"], 2, [9, 0], [1, 0], [0, 0], id="seat 0 pisti, team 0"
    ),
    pytest.param(
        ["7H", "JH", "JC", "JD"], 2, [0, 8], [0, 0], [0, 1], id="seat 3 Jack pisti, team 1"
    ),
    pytest.param(
        ["JH", "7H", "8C", "7S"], 0, [5, 0], [0, 0], [0, 0], id="only the top card is matched"
    ),
]


@pytest.mark.parametrize(("plays", "captured", "cards", "pisti", "jack_pisti"), PARTNER_PLAYS)
def test_partners_team_is_seat_mod_2(
    deck_from_plays,
    play_all,
    plays,
    captured,
    cards,
    pisti,
    jack_pisti,
):
    state = GameState.deal(PARTNERS, deck_from_plays(CENTRE, plays, players=4))
    last = play_all(state, plays)[-1]
    assert last.seat == (len(plays) - 1) % 4
    assert last.captured == captured
    assert [len(c) for c in state.captured] == cards
    assert state.pisti == pisti
    assert state.jack_pisti == jack_pisti
    scores = score_hand(state)
    assert [s.seats for s in scores] == [(0, 2), (1, 3)]


@pytest.mark.parametrize(
    ("centre", "pile", "face_down"),
    [
        (["2C", "3C", "4C", "JH"], ["2C", "3C", "JH", "4C"], 2),
        (["2C", "3C", "JD", "JH"], ["2C", "JH", "JD", "3C"], 1),
        (["2C", "JS", "JD", "JH"], ["JH", "JD", "JS", "2C"], 0),
        (["JH", "3C", "4C", "5C"], ["JH", "3C", "4C", "5C"], 3),
        (["2C", "3C", "JH", "4C"], ["2C", "3C", "JH", "4C"], 3),
    ],
    ids=["one Jack", "two Jacks in a row", "three Jacks", "bottom Jack", "face-down Jack"],
)
def test_partners_opening_jacks_are_passed_over(stacked_deck, centre, pile, face_down):
    state = GameState.deal(PARTNERS, stacked_deck(centre, players=4))
    assert state.pile == pile
    assert state.face_down == face_down
    assert state.pile_top[0] != "J"
    assert state.face_up_at_start == tuple(pile[face_down:])
    for seat in range(4):
        view = observe(state, seat)
        assert view.pile_face_up == tuple(pile[face_down:])
        assert view.face_down == face_down
        assert set(pile[face_down:]) <= view.seen
        assert not set(pile[:face_down]) & view.seen


def test_partners_passed_over_jacks_go_with_the_first_capture(stacked_deck, play_all):
    deck = stacked_deck(["2C", "3C", "JD", "JH"], [[["3S"]]], players=4)
    state = GameState.deal(PARTNERS, deck)
    (result,) = play_all(state, ["3S"])
    assert (result.captured, result.pisti) == (5, False)
    assert sorted(state.captured[0]) == sorted(["2C", "3C", "JD", "JH", "3S"])


@pytest.mark.parametrize(
    ("centre", "bottom"),
    [
        (["JC", "JD", "JH", "JS"], None),
        (CENTRE, "JC"),
        (CENTRE, "JD"),
        (CENTRE, "JH"),
        (CENTRE, "JS"),
    ],
    ids=[
        "four centre Jacks",
        "JC at deck[51]",
        "JD at deck[51]",
        "JH at deck[51]",
        "JS at deck[51]",
    ],
)
def test_partners_invalid_decks(stacked_deck, centre, bottom):
    deck = stacked_deck(centre, players=4, bottom=bottom)
    with pytest.raises(InvalidState, match="Jack"):
        GameState.deal(PARTNERS, deck)
    with pytest.raises(InvalidState):
        GameState.replay(PARTNERS, deck, [])


def test_partners_jack_just_above_the_bottom_is_fine(stacked_deck):
    deck = stacked_deck(CENTRE, players=4, bottom="KS")
    i = deck.index("JS")
    deck[i], deck[50] = deck[50], deck[i]
    state = GameState.deal(PARTNERS, deck)
    for _ in range(32):
        state.play(state.hands[state.turn][0])
    assert state.hands[3][-2:] == ["JS", "KS"]


def test_partners_leftovers_go_to_team_1_when_nobody_captured(
    deck_from_plays,
    no_match_plays,
    play_all,
):
    # Impossible under partners itself (four centre Jacks are invalid and any
    # Jack in hand captures), so checked with only that field changed.
    centre = ["JC", "JD", "JH", "JS"]
    plays = no_match_plays({}, centre)
    deck = deck_from_plays(centre, plays, players=4)
    with pytest.raises(InvalidState):
        GameState.deal(PARTNERS, deck)
    rules = dataclasses.replace(PARTNERS, four_jacks_in_centre=True)
    state = GameState.deal(rules, deck)
    # No non-Jack to pass to: the pile is played as it is (format 2).
    assert state.pile == ["JC", "JD", "JH", "JS"]
    assert state.face_down == 3
    results = play_all(state, plays)
    assert all(r.captured == 0 for r in results)
    assert (results[-1].seat, results[-1].swept, results[-1].swept_to) == (3, 52, 1)
    scores = score_hand(state)
    assert [(s.cards, s.points) for s in scores] == [(0, 0), (52, 16)]


@pytest.mark.parametrize(
    ("rules", "shown"),
    [(PARTNERS, True), (CARDEMS, False), (CLASSIC, False)],
    ids=["partners", "cardems", "classic"],
)
def test_bottom_card_shown_only_under_partners(stacked_deck, rules, shown):
    deck = stacked_deck(CENTRE, players=rules.players, bottom="QS")
    state = GameState.deal(rules, deck)
    # before any play, mid-hand, and once the bottom card was dealt and played
    for moment in (0, 20, 48):
        while len(state.plays) < moment:
            state.play(state.hands[state.turn][0])
        for seat in range(rules.players):
            view = observe(state, seat)
            assert view.bottom_card == ("QS" if shown else None)
            assert ("QS" in view.seen) == (shown or "QS" in state.plays)
    assert "QS" in state.plays


def test_partners_wrong_seat_cannot_play(stacked_deck):
    state = GameState.deal(PARTNERS, stacked_deck(CENTRE, players=4))
    card = state.hands[2][0]
    with pytest.raises(IllegalPlay, match="seat 0"):
        state.play(card)
    assert state.plays == [] and card in state.hands[2]
