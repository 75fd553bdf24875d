"""House rules (record-format.md, "Format 2: house rules"): one stacked-deck
test per option, named ``test_option_<option>...``, then three and four
seats, the query-string form, and records of format 2."""

from __future__ import annotations

import json

import pytest

from app.engine import (
    CARDEMS,
    CLASSIC,
    PARTNERS,
    GameState,
    InvalidRecord,
    InvalidRules,
    InvalidState,
    hand_winner,
    load_record,
    make_record,
    observe,
    parse_rules_text,
    read_record,
    replay_summary,
    rules_from_json,
    rules_from_query,
    rules_to_json,
    rules_to_query,
    score_hand,
    seeded_deck,
    with_options,
)
from app.engine.match import Match
from tests.conftest import points_from_fields

CENTRE = ["3D", "4D", "5D", "6D"]
THREE = with_options(CLASSIC, {"players": 3})
FOUR_SOLO = with_options(CLASSIC, {"players": 4, "teams": "solo"})


def points_by_team(rules, deck, plays):
    state = GameState.deal(rules, deck)
    for card in plays:
        state.play(card)
    return state, [score.points for score in score_hand(state)]


# --- players and teams ------------------------------------------------------------


def test_option_players_3_deals_packets_of_four_four_times(stacked_deck):
    deck = stacked_deck(CENTRE, players=3, bottom="KS")
    state = GameState.deal(THREE, deck)
    assert THREE.deals == 4 and THREE.team_count == 3
    assert state.hands == [deck[4:8], deck[8:12], deck[12:16]]
    seats, deals = [], []
    while not state.finished:
        if len(state.plays) == 36:
            # the last deal: the dealer (seat 2) gets deck[51] last
            assert state.hands == [deck[40:44], deck[44:48], deck[48:52]]
            assert state.hands[2][-1] == "KS" and state.stock == 0
        seats.append(state.turn)
        deals.append(state.deal_number)
        state.play(state.hands[state.turn][0])
    assert seats == [0, 1, 2] * 16
    assert deals == [d for d in (1, 2, 3, 4) for _ in range(12)]
    assert len(score_hand(state)) == 3
    assert sum(len(cards) for cards in state.captured) == 52


def test_option_players_3_team_is_seat(deck_from_plays, play_all):
    deck = deck_from_plays(CENTRE, ["7H", "7C", "8S"], players=3)
    state = GameState.deal(THREE, deck)
    results = play_all(state, ["7H", "7C", "8S"])
    assert [r.seat for r in results] == [0, 1, 2]
    assert results[1].captured == 6
    assert [len(cards) for cards in state.captured] == [0, 6, 0]
    assert state.last_capturer == 1
    assert [observe(state, seat).team for seat in range(3)] == [0, 1, 2]
    assert [s.seats for s in score_hand(state)] == [(0,), (1,), (2,)]


def test_option_teams_solo_four_players_each_for_themselves(deck_from_plays, play_all):
    plays = ["7H", "8C", "8S", "9S"]
    state = GameState.deal(FOUR_SOLO, deck_from_plays(CENTRE, plays, players=4))
    play_all(state, plays)
    assert [len(cards) for cards in state.captured] == [0, 0, 7, 0]  # seat 2 alone
    partners = with_options(CLASSIC, {"players": 4})  # partners by default with 4
    assert partners.teams == "partners"
    other = GameState.deal(partners, deck_from_plays(CENTRE, plays, players=4))
    play_all(other, plays)
    assert [len(cards) for cards in other.captured] == [7, 0]  # seats 0 and 2


@pytest.mark.parametrize("players", [2, 3])
def test_option_teams_partners_needs_four_players(players):
    with pytest.raises(InvalidRules, match="teams"):
        with_options(CLASSIC, {"players": players, "teams": "partners"})
    with pytest.raises(InvalidRules, match="teams"):
        with_options(PARTNERS, {"players": players, "teams": "partners"})


def test_four_solo_dealer_takes_the_last_card_and_leftovers(stacked_deck):
    deck = stacked_deck(CENTRE, players=4, bottom="KS")
    state = GameState.deal(FOUR_SOLO, deck)
    while state.stock:
        state.play(state.hands[state.turn][0])
    assert "KS" in state.hands[3]


# --- the opening Jack -----------------------------------------------------------------


def test_option_opening_jack_under_the_dealer_gets_it_last(stacked_deck):
    rules = with_options(CLASSIC, {"opening_jack": "under"})
    deck = stacked_deck(["2C", "3C", "4C", "JH"], [[["5S"]]], bottom="KS")
    # deck[4] is the 5S: it is turned up in the Jack's place
    state = GameState.deal(rules, deck)
    assert state.pile == ["2C", "3C", "4C", "5S"] and state.face_down == 3
    assert state.face_up_at_start == ("5S",)
    assert state.stock_bottom == ("JH",)
    assert state.order[-2:] == ("KS", "JH")
    for seat in (0, 1):
        view = observe(state, seat)
        assert view.stock_bottom == ("JH",) and "JH" in view.seen
    assert state.hands[0] == deck[5:9]  # the stock moved up by one card
    while state.stock:
        state.play(state.hands[state.turn][0])
    assert {"KS", "JH"} <= set(state.hands[1])  # the dealer's last packet
    assert state.deck == tuple(deck)  # the record keeps the deck as dealt


def test_option_opening_jack_under_repeats_while_a_jack_is_turned_up(stacked_deck):
    rules = with_options(PARTNERS, {"opening_jack": "under"})
    deck = stacked_deck(["2C", "3C", "4C", "JH"], [[["JD", "7S"]]], players=4, bottom="KS")
    state = GameState.deal(rules, deck)
    assert state.pile == ["2C", "3C", "4C", "7S"]
    assert state.stock_bottom == ("KS", "JH", "JD")  # the bottom card is shown too
    assert observe(state, 1).bottom_card == "KS"
    while state.stock:
        state.play(state.hands[state.turn][0])
    assert state.hands[3][-3:] == ["KS", "JH", "JD"]


@pytest.mark.parametrize("opening_jack", ["swap", "stay", "pass", "under"])
def test_option_four_jacks_play_keeps_the_pile_as_it_is(stacked_deck, opening_jack):
    rules = with_options(CARDEMS, {"four_jacks": "play", "opening_jack": opening_jack})
    deck = stacked_deck(["JC", "JD", "JH", "JS"])
    state = GameState.deal(rules, deck)
    assert state.pile == ["JC", "JD", "JH", "JS"] and state.face_down == 3
    assert state.order == state.deck


def test_option_four_jacks_redeal_makes_the_deck_invalid(stacked_deck):
    rules = with_options(CLASSIC, {"four_jacks": "redeal"})
    with pytest.raises(InvalidState, match="four Jacks"):
        GameState.deal(rules, stacked_deck(["JC", "JD", "JH", "JS"]))


# --- the bottom card --------------------------------------------------------------------


def test_option_bottom_card_no_jack_is_the_cut_shown_to_all(stacked_deck):
    rules = with_options(CLASSIC, {"bottom_card": "no_jack"})
    with pytest.raises(InvalidState, match=r"deck\[51\]"):
        GameState.deal(rules, stacked_deck(CENTRE, bottom="JD"))
    state = GameState.deal(rules, stacked_deck(CENTRE, bottom="QS"))
    assert [observe(state, seat).bottom_card for seat in (0, 1)] == ["QS", "QS"]
    anything = with_options(PARTNERS, {"bottom_card": "any"})
    state = GameState.deal(anything, stacked_deck(CENTRE, players=4, bottom="JD"))
    assert observe(state, 0).bottom_card is None and "JD" not in observe(state, 0).seen


# --- piştis -------------------------------------------------------------------------------


def last_play_pisti_plays(no_match_plays):
    """A hand whose last play (seat 1) is a pişti: a Jack takes the pile
    at play 46, 9S is left alone, 9D takes it."""
    centre = ["JC", "JD", "JH", "6D"]
    return centre, no_match_plays({45: "JS", 46: "9S", 47: "9D"}, centre)


def test_option_pisti_on_last_play(deck_from_plays, no_match_plays, play_all):
    centre, plays = last_play_pisti_plays(no_match_plays)
    deck = deck_from_plays(centre, plays)
    state = GameState.deal(CLASSIC, deck)
    assert play_all(state, plays)[-1].pisti and state.pisti == [0, 1]
    rules = with_options(CLASSIC, {"pisti_on_last_play": False})
    state = GameState.deal(rules, deck)
    last = play_all(state, plays)[-1]
    assert last.captured == 2 and not last.pisti and state.pisti == [0, 0]
    rules = with_options(PARTNERS, {"players": 2, "pisti_on_last_play": True})
    state = GameState.deal(rules, deck_from_plays(centre, plays, bottom=plays[-1]))
    assert play_all(state, plays)[-1].pisti


def test_option_pisti_points(deck_from_plays):
    plays = ["6S", "7H", "7C"]  # seat 0 takes the centre, seat 1 leads, seat 0 pişti
    deck = deck_from_plays(CENTRE, plays)
    state, plain = points_by_team(CLASSIC, deck, plays)
    assert state.pisti == [1, 0]
    _, house = points_by_team(with_options(CLASSIC, {"pisti": 5}), deck, plays)
    assert house[0] == plain[0] - 5 and house[1] == plain[1]


def test_option_jack_pisti_points(deck_from_plays):
    plays = ["6S", "JH", "JD"]  # a Jack on a lone Jack
    deck = deck_from_plays(CENTRE, plays)
    state, plain = points_by_team(CLASSIC, deck, plays)
    assert state.jack_pisti == [1, 0]
    _, house = points_by_team(with_options(CLASSIC, {"jack_pisti": 10}), deck, plays)
    assert house[0] == plain[0] - 10


# --- most cards, the last sweep, leftovers and ties ----------------------------------------


def finished_with(rules, captured, *, swept_to=None):
    """A finished hand whose teams captured ``captured`` (lists of cards)."""
    state = GameState.from_position(
        rules,
        hands=[[] for _ in range(rules.players)],
        pile=[],
        face_down=0,
        stock=[],
        captured=captured,
        pisti=[0] * rules.team_count,
        jack_pisti=[0] * rules.team_count,
        plays=["?"] * 48,
        last_capturer=0,
    )
    state.swept_to = swept_to
    return state


def blanks(n):
    return ["?"] * n


@pytest.mark.parametrize(
    ("rules", "counts", "bonus"),
    [
        (THREE, [20, 20, 12], [0, 0, 0]),  # the most is shared: nobody
        (THREE, [21, 20, 11], [3, 0, 0]),  # strictly more than every other team
        (THREE, [18, 17, 17], [3, 0, 0]),  # a strict majority is not needed
        (FOUR_SOLO, [13, 13, 13, 13], [0, 0, 0, 0]),
        (FOUR_SOLO, [10, 14, 14, 14], [0, 0, 0, 0]),
        (FOUR_SOLO, [10, 12, 15, 15], [0, 0, 0, 0]),
        (FOUR_SOLO, [10, 12, 14, 16], [0, 0, 0, 3]),
        (with_options(CLASSIC, {"most_cards": 27}), [26, 26], [0, 0]),
        (with_options(CLASSIC, {"most_cards": 27}), [27, 25], [3, 0]),
        (with_options(CARDEMS, {"most_cards": "more"}), [26, 26], [0, 0]),
        (with_options(CARDEMS, {"most_cards": "more"}), [27, 25], [3, 0]),
    ],
)
def test_option_most_cards(rules, counts, bonus):
    state = finished_with(rules, [blanks(n) for n in counts])
    assert [score.most_cards for score in score_hand(state)] == bonus


@pytest.mark.parametrize("rules", [CARDEMS, PARTNERS])
def test_option_most_cards_27_needs_two_teams(rules):
    with pytest.raises(InvalidRules, match="most_cards"):
        with_options(rules, {"players": 3, "most_cards": 27})
    with pytest.raises(InvalidRules, match="most_cards"):
        with_options(CARDEMS, {"players": 4, "teams": "solo"})  # cardems' own 27


def test_option_most_cards_points():
    rules = with_options(CLASSIC, {"most_cards_points": 7})
    state = finished_with(rules, [blanks(30), blanks(22)])
    assert [(s.most_cards, s.points) for s in score_hand(state)] == [(7, 7), (0, 0)]


@pytest.mark.parametrize("bonus", [3, 0])
def test_option_last_sweep_bonus(deck_from_plays, no_match_plays, play_all, bonus):
    # the last capture (play 24, seat 0) takes the table at the end
    centre = ["JC", "JD", "5D", "6D"]
    plays = no_match_plays({21: "JH", 24: "JS"}, centre)
    deck = deck_from_plays(centre, plays)
    rules = with_options(CLASSIC, {"last_sweep_bonus": bonus})
    state = GameState.deal(rules, deck)
    assert play_all(state, plays)[-1].swept_to == 0
    assert state.swept_to == 0
    scores = score_hand(state)
    plain = score_hand(GameState.replay(CLASSIC, deck, plays))
    assert [s.last_sweep_bonus for s in scores] == [bonus, 0]
    assert [s.points for s in scores] == [plain[0].points + bonus, plain[1].points]
    summary = replay_summary(state, 2)
    assert [team["last_sweep_bonus"] for team in summary["teams"]] == [bonus, 0]


def test_a_house_rules_summary_without_a_version_is_format_2s(deck_from_plays, no_match_plays):
    # replay_summary(load_record(text)), the way to a record's summary
    # without the command line: a format-2 record's team objects gain
    # last_sweep_bonus, and its points add up from the fields given.
    centre = ["JC", "JD", "5D", "6D"]
    plays = no_match_plays({21: "JH", 24: "JS"}, centre)
    rules = with_options(CLASSIC, {"last_sweep_bonus": 3})
    record = make_record(GameState.replay(rules, deck_from_plays(centre, plays), plays))
    summary = replay_summary(load_record(json.dumps(record)))
    assert summary["rules"] == {"base": "classic", "last_sweep_bonus": 3}
    assert [team["last_sweep_bonus"] for team in summary["teams"]] == [3, 0]
    assert [team["points"] for team in summary["teams"]] == [
        points_from_fields(team) for team in summary["teams"]
    ]


def test_option_last_sweep_bonus_needs_cards_left(deck_from_plays, no_match_plays, play_all):
    centre, plays = last_play_pisti_plays(no_match_plays)  # the last play captures
    state = GameState.deal(
        with_options(CLASSIC, {"last_sweep_bonus": 3}), deck_from_plays(centre, plays)
    )
    play_all(state, plays)
    assert state.swept_to is None
    assert [s.last_sweep_bonus for s in score_hand(state)] == [0, 0]


@pytest.mark.parametrize(
    ("rules", "options", "team"),
    [
        (CLASSIC, {"no_capture_leftovers": "first"}, 0),
        (CLASSIC, {"no_capture_leftovers": "dealer"}, 1),
        (CARDEMS, {"four_jacks": "play", "no_capture_leftovers": "dealer"}, 1),
        (CLASSIC, {"players": 3, "no_capture_leftovers": "dealer"}, 2),
        (CLASSIC, {"players": 3, "no_capture_leftovers": "first"}, 0),
        (CLASSIC, {"players": 4, "teams": "solo", "no_capture_leftovers": "dealer"}, 3),
    ],
)
def test_option_no_capture_leftovers(
    deck_from_plays, no_match_plays, play_all, rules, options, team
):
    # only possible with four Jacks in the centre: nobody ever captures
    centre = ["JC", "JD", "JH", "JS"]
    house = with_options(rules, options)
    plays = no_match_plays({}, centre)
    state = GameState.deal(house, deck_from_plays(centre, plays, players=house.players))
    results = play_all(state, plays)
    assert (results[-1].swept, results[-1].swept_to) == (52, team)
    # The three face-down Jacks went with the sweep: that team took them.
    assert (state.face_down, state.face_down_taker) == (0, team)


@pytest.mark.parametrize(
    ("tie_break", "winner"), [("cards", (0, "cards")), ("none", (None, "draw"))]
)
def test_option_tie_break(tie_break, winner):
    rules = with_options(CLASSIC, {"tie_break": tie_break})
    # 4 points each: team 0 an Ace and most cards, team 1 three Aces and a Jack
    state = finished_with(rules, [["AC", *blanks(26)], ["AD", "AH", "AS", "JC", *blanks(21)]])
    scores = score_hand(state)
    assert [s.points for s in scores] == [4, 4]
    assert hand_winner(state, scores) == winner


def test_tie_break_with_three_teams_looks_only_at_the_leaders():
    rules = with_options(CLASSIC, {"players": 3, "tie_break": "cards", "most_cards_points": 0})
    state = finished_with(rules, [["AC", *blanks(10)], ["AD", *blanks(5)], blanks(30)])
    assert hand_winner(state, score_hand(state)) == (0, "cards")
    state = finished_with(rules, [["AC", *blanks(10)], ["AD", *blanks(10)], blanks(26)])
    assert hand_winner(state, score_hand(state)) == (None, "draw")


# --- the face-down cards ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "see"),
    [
        (PARTNERS, {1: True, 3: True, 0: False, 2: False}),  # capturer by default
        (with_options(PARTNERS, {"face_down": "hidden"}), {1: False, 3: False, 0: False, 2: False}),
        (with_options(CLASSIC, {"face_down": "capturer"}), {1: True, 0: False}),
        (
            with_options(CLASSIC, {"players": 3, "face_down": "capturer"}),
            {1: True, 0: False, 2: False},
        ),
        (CLASSIC, {1: False, 0: False}),
    ],
    ids=["partners", "partners-hidden", "classic-capturer", "three-capturer", "classic"],
)
def test_option_face_down_seen_by_the_capturing_side_only(deck_from_plays, play_all, rules, see):
    plays = ["7H", "7C"]  # seat 1 takes the opening pile
    deck = deck_from_plays(CENTRE, plays, players=rules.players)
    state = GameState.deal(rules, deck)
    for seat in see:
        assert observe(state, seat).seen_face_down == ()
    play_all(state, plays)
    assert state.face_down_taker == rules.team_of(1)
    for seat, sees in see.items():
        view = observe(state, seat)
        assert view.seen_face_down == (tuple(CENTRE[:3]) if sees else ())
        assert set(CENTRE[:3]) <= view.seen if sees else not set(CENTRE[:3]) & view.seen
    # it changes what a seat observes, never the score
    plain = GameState.replay(CLASSIC if rules.players == 2 else rules, deck, plays)
    assert [s.points for s in score_hand(plain)] == [s.points for s in score_hand(state)]


# --- match targets and three or four sides ----------------------------------------------


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS, THREE, FOUR_SOLO])
@pytest.mark.parametrize("target", [51, 101, 121, 151])
def test_every_base_plays_to_every_target(rules, target):
    assert Match(rules, "targets", target).target == target


def test_the_bases_keep_their_default_targets():
    assert [Match(rules, "defaults").target for rules in (CARDEMS, CLASSIC, PARTNERS)] == [
        None,
        51,
        151,
    ]


def test_three_sides_the_deal_moves_round_and_sides_are_seats():
    match = Match(THREE, "three", 51)
    assert match.sides == 3 and match.totals == [0, 0, 0]
    dealers = []
    for _ in range(3):
        dealers.append(match.dealer)
        assert [match.team_of_side(side) for side in range(3)] == [
            match.seat_of(side) for side in range(3)
        ]
        assert all(match.side_of_team(match.team_of_side(s)) == s for s in range(3))
        while not match.state.finished:
            match.state.play(match.state.hands[match.state.turn][0])
        match.count_hand()
        if match.over:
            break
        match.next_hand()
    # The first dealer is drawn from the seed; then the deal moves on one.
    assert dealers[:2] == [(2 + match.rotation) % 3, match.rotation]
    assert len(match.history[0]) == 3
    assert sum(match.history[0]) == sum(s.points for s in score_hand(match.finished_hand(0)))


@pytest.mark.parametrize(
    ("history", "over", "winner"),
    [
        ([[30, 20, 1]], False, None),
        ([[40, 55, 55]], False, None),  # equal highest past the target: another hand
        ([[40, 56, 55]], True, 1),
        ([[60, 30, 0]], True, 0),
        ([[30, 20, 1], [30, 40, 60]], True, 2),  # 60 v 60 v 61
    ],
)
def test_three_sides_end_of_match(history, over, winner):
    match = Match(THREE, "end", 51)
    match.history = history
    match.hand_number = len(history) - 1
    assert match.over is over
    assert match.winner() == winner


def test_match_with_house_rules_round_trips():
    rules = with_options(CLASSIC, {"players": 3, "jack_pisti": 10})
    match = Match(rules, "round-trip", 121)
    while not match.state.finished:
        match.state.play(match.state.hands[match.state.turn][0])
    match.count_hand()
    match.next_hand()
    match.state.play(match.state.hands[match.state.turn][0])
    data = match.to_dict()
    assert data["rules"] == {"base": "classic", "players": 3, "teams": "solo", "jack_pisti": 10}
    again = Match.from_dict(json.loads(json.dumps(data)))
    assert again.rules == rules and again.totals == match.totals
    assert again.state.plays == match.state.plays


# --- the query-string form (deal links) ----------------------------------------------------


def test_query_form_round_trips():
    rules = with_options(CLASSIC, {"players": 3, "jack_pisti": 10, "pisti_on_last_play": False})
    query = rules_to_query(rules)
    assert query == {
        "rules": "classic",
        "players": "3",
        "teams": "solo",
        "pisti_on_last_play": "false",
        "jack_pisti": "10",
    }
    assert rules_from_query(query) == rules
    assert parse_rules_text("classic&players=3&jack_pisti=10&pisti_on_last_play=false") == rules
    assert (
        parse_rules_text("rules=classic&players=3&jack_pisti=10&pisti_on_last_play=false") == rules
    )
    assert rules_to_query(CLASSIC) == {"rules": "classic"}
    assert rules_from_query({"rules": "partners", "seed": "x", "target": "101"}) == PARTNERS
    assert rules_from_query({}) == CARDEMS
    assert rules_from_query({"most_cards": "more"}).most_cards == "more_than_other"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        ({"rules": "pinochle"}, "pinochle"),
        ({"rules": "classic", "players": "5"}, "players"),
        ({"rules": "classic", "players": "three"}, "players"),
        ({"rules": "classic", "jack_pisti": "-1"}, "jack_pisti"),
        ({"rules": "classic", "jack_pisti": "ten"}, "jack_pisti"),
        ({"rules": "classic", "pisti": ""}, "pisti"),
        ({"rules": "classic", "pisti_on_last_play": "yes"}, "pisti_on_last_play"),
        ({"rules": "classic", "most_cards": "28"}, "most_cards"),
        ({"rules": "classic", "opening_jack": "Under"}, "opening_jack"),
        ({"rules": "classic", "players": "3", "teams": "partners"}, "teams"),
        ({"rules": "cardems", "players": "3"}, "most_cards"),
    ],
)
def test_query_form_errors_name_the_option(args, named):
    with pytest.raises(InvalidRules, match=named):
        rules_from_query(args)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("classic&player=3", "player"),
        ("classic&players=3&players=4", "players"),
        ("players=3", "base"),
        ("", "base"),
    ],
)
def test_rules_text_errors_name_the_option(text, named):
    with pytest.raises(InvalidRules, match=named):
        parse_rules_text(text)


def test_query_form_says_the_most_points_a_game_is_played_with():
    """A deal link's or the arena's points stop at six digits, and the
    message says so: a million is a whole number of points ≥ 0, as a
    record may hold, but no game is played with it."""
    assert rules_from_query({"rules": "classic", "pisti": "999999"}).pisti_points == 999_999
    with pytest.raises(InvalidRules) as refused:
        parse_rules_text("classic&pisti=1000000")
    assert str(refused.value) == 'pisti: "1000000" is not a whole number of points from 0 to 999999'
    with pytest.raises(InvalidRules) as refused:
        rules_from_query({"rules": "classic", "jack_pisti": "-1"})
    assert str(refused.value) == 'jack_pisti: "-1" is not a whole number of points from 0 to 999999'


# --- records, format 2 ----------------------------------------------------------------


def played_out(rules, seed="record"):
    state = GameState(rules, seeded_deck(seed, rules))
    while not state.finished:
        state.play(sorted(state.hands[state.turn])[0])
    return state


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "jack_pisti": 10, "last_sweep_bonus": 3},
        {"players": 4, "teams": "solo", "opening_jack": "under"},
        {"face_down": "hidden", "bottom_card": "any", "tie_break": "cards", "pisti": 12},
        {"most_cards": "more", "pisti": 0, "no_capture_leftovers": "dealer"},
    ],
)
@pytest.mark.parametrize("base", [CARDEMS, CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_a_house_rules_record_is_format_2_and_replays(base, options):
    if base is CARDEMS and options.get("players") in (3, 4):
        options = {**options, "most_cards": "more"}
    rules = with_options(base, options)
    state = played_out(rules)
    record = make_record(state, "record")
    assert record["format"] == "pisti-record/2"
    assert record["rules"]["base"] == base.name
    assert rules_from_json(record["rules"]) == rules
    loaded = read_record(json.dumps(record))
    assert loaded.version == 2 and loaded.state.rules == rules
    assert replay_summary(loaded.state, 2) == replay_summary(state, 2)
    summary = replay_summary(state, 2)
    assert len(summary["teams"]) == rules.team_count
    assert all("last_sweep_bonus" in team for team in summary["teams"])


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_a_plain_rule_set_is_written_as_format_1(rules):
    record = make_record(played_out(rules))
    assert record["format"] == "pisti-record/1" and record["rules"] == rules.name
    assert rules_to_json(rules) == rules.name
    assert "last_sweep_bonus" not in replay_summary(load_record(json.dumps(record)))["teams"][0]


def test_format_2_reads_a_plain_name_and_format_1_refuses_an_object():
    record = make_record(played_out(CLASSIC))
    record["format"] = "pisti-record/2"
    assert read_record(json.dumps(record)).state.rules == CLASSIC
    record["rules"] = {"base": "classic"}
    assert read_record(json.dumps(record)).state.rules == CLASSIC
    record["format"] = "pisti-record/1"
    with pytest.raises(InvalidRecord, match="pisti-record/2"):
        read_record(json.dumps(record))


@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"base": "classic", "jokers": True}, "jokers"),
        ({"base": "classic", "players": "3"}, "players"),
        ({"base": "classic", "players": 3.0}, "players"),
        ({"base": "classic", "players": 5}, "players"),
        ({"base": "classic", "pisti": True}, "pisti"),
        ({"base": "classic", "pisti": -10}, "pisti"),
        # The least value refused: the spec says "integer ≥ 0".
        ({"base": "classic", "jack_pisti": -1}, "jack_pisti"),
        ({"base": "classic", "pisti_on_last_play": "false"}, "pisti_on_last_play"),
        ({"base": "classic", "pisti_on_last_play": 0}, "pisti_on_last_play"),
        ({"base": "classic", "most_cards": "27"}, "most_cards"),
        ({"base": "classic", "players": 3, "most_cards": 27}, "most_cards"),
        ({"base": "classic", "players": 3, "teams": "partners"}, "teams"),
        ({"base": "partners", "teams": "partners", "players": 2}, "teams"),
        ({"base": "bridge"}, "bridge"),
        ({"players": 3}, "base"),
        (["classic"], "rules"),
    ],
)
def test_invalid_options_make_the_record_invalid(rules, named):
    record = make_record(played_out(CLASSIC))
    record["format"] = "pisti-record/2"
    record["rules"] = rules
    with pytest.raises(InvalidRecord, match=named):
        load_record(json.dumps(record))
