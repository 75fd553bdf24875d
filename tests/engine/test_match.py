"""A match (app/engine/match.py): hands in sequence from one seed, the dealer
moving on every hand, running totals per side, and the end of the match.

Sources: seed 001 (classic: "The side that reaches the target at the end of a
hand wins the game. ... 51 (the default) or 101", "points are only counted
when the hand is over", "If both sides pass the target in the same hand, the
higher score wins; if the scores are level, one more hand is played", "The
dealer changes every hand"); seeds 003/004 (partners: "first team to score
151 points", "the dealer position will pass to the right", "or the higher
score if both get there together"); record-format.md (cardems: "single
hand").

Every hand here is dealt by ``Match`` from its seed and played card by card
through ``GameState.play``. To test the end-of-match rules at exact totals,
some tests then *overwrite* ``match.history[h]`` (the points per side of the
finished, counted hand ``h``) with chosen numbers: see :func:`finish_hand`.
Such a match is never saved and reloaded, since ``from_dict`` recounts the
real points.
"""

from __future__ import annotations

import json
import random

import pytest

from app.engine import (
    CARDEMS,
    CLASSIC,
    PARTNERS,
    GameState,
    InvalidSeed,
    InvalidState,
    hand_winner,
    score_hand,
    seeded_deck,
)
from app.engine.match import Match, first_rotation


def choose(match: Match, state: GameState) -> str:
    """A deterministic card choice for the seat to play: any legal card,
    drawn from a generator seeded by the match seed, the hand and the play."""
    rng = random.Random(f"{match.seed}/{match.hand_number}/{len(state.plays)}")
    return rng.choice(state.legal_plays())


def play_cards(match: Match, count: int) -> None:
    """Play ``count`` cards of the current hand."""
    for _ in range(count):
        match.state.play(choose(match, match.state))


def finish_hand(match: Match, points: tuple[int, int] | None = None) -> None:
    """Play the current hand to its end and count it; then, if ``points`` is
    given, overwrite that hand's entry in ``match.history`` with them (per
    side, ``[side 0, side 1]``) to set the match totals exactly."""
    play_cards(match, 48 - len(match.state.plays))
    assert match.state.finished
    match.count_hand()
    if points is not None:
        match.history[match.hand_number] = list(points)


def snapshot(match: Match):
    """Everything a match holds, as comparable plain data."""
    return (
        match.rules,
        match.seed,
        match.target,
        match.hand_number,
        [list(points) for points in match.history],
        [list(plays) for plays in match.plays_history],
        match.state.to_dict(),
        [list(h) for h in match.state.hands],
        list(match.state.pile),
        [list(c) for c in match.state.captured],
        match.hand_counted,
        match.over,
        match.winner(),
        match.totals,
    )


# --- starting a match ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "target", "expected"),
    [
        (CLASSIC, None, 51),
        (CLASSIC, 51, 51),
        (CLASSIC, 101, 101),
        (PARTNERS, None, 151),
        (PARTNERS, 151, 151),
        (CARDEMS, None, None),
    ],
)
def test_a_new_match(rules, target, expected):
    match = Match(rules, "start", target)
    assert match.target == expected
    assert match.players == rules.players
    assert match.hand_number == 0
    assert match.history == [] and match.plays_history == []
    assert match.totals == [0, 0]
    assert not match.hand_counted and not match.over and match.winner() is None
    assert match.state.deck == tuple(seeded_deck("start", rules, 0))
    assert match.state.plays == []


def test_the_default_target_is_the_first_offered_or_a_single_hand():
    assert (CLASSIC.default_target, PARTNERS.default_target) == (51, 151)
    assert CARDEMS.default_target is None


@pytest.mark.parametrize(
    ("rules", "target"),
    [
        (CLASSIC, 77),
        (CLASSIC, 0),
        (CLASSIC, 150),
        (CLASSIC, "51"),
        (CLASSIC, True),
        (PARTNERS, 52),
        (CARDEMS, 100),
        (CARDEMS, 151.0),
    ],
)
def test_a_target_that_is_not_a_match_target_is_a_value_error(rules, target):
    with pytest.raises(ValueError, match="is not played to"):
        Match(rules, "target", target)


@pytest.mark.parametrize("seed", ["", "has space", "x" * 65, "u\u0308nicode", None, 42])
def test_a_bad_seed_is_refused(seed):
    with pytest.raises(InvalidSeed):
        Match(CLASSIC, seed)


# --- counting hands and moving on ---------------------------------------------------


def test_a_hand_is_counted_only_when_finished_and_only_once():
    match = Match(CLASSIC, "count")
    play_cards(match, 47)
    with pytest.raises(InvalidState):
        match.count_hand()
    assert match.history == []
    with pytest.raises(InvalidState):
        match.next_hand()
    play_cards(match, 1)
    assert not match.hand_counted
    with pytest.raises(InvalidState):
        match.next_hand()  # finished but not counted yet
    match.count_hand()
    match.count_hand()
    scores = score_hand(match.state)
    # Each side's points are its team's (the team of its seat this hand).
    assert match.history == [[scores[match.seat_of(0)].points, scores[match.seat_of(1)].points]]
    assert match.plays_history == [match.state.plays]
    assert match.totals == match.history[0]


def test_points_count_only_at_the_end_of_a_hand():
    # seed 001: "Even if the target is passed in the middle of a hand, the
    # hand is played to the end, because points are only counted when the
    # hand is over."
    match = Match(CLASSIC, "midhand")
    finish_hand(match, (50, 0))
    match.next_hand()
    play_cards(match, 47)
    assert match.totals == [50, 0]
    assert not match.over and match.winner() is None
    play_cards(match, 1)
    assert match.state.finished
    assert match.totals == [50, 0]
    assert not match.over and match.winner() is None  # finished but not counted
    match.count_hand()
    sides = match.side_scores()
    assert match.totals == [50 + sides[0].points, sides[1].points]
    assert match.over == (50 + sides[0].points >= 51 and sides[0].points + 50 != sides[1].points)


# --- the end of the match -------------------------------------------------------------
#
# Each case: the rule set, its target, and the points per side of each hand
# (written into match.history after the hand is really played). The match
# must not be over after any hand but the last; after the last it must be
# ``over`` with ``winner``.

END_CASES = {
    # neither side at the target
    "neither": (CLASSIC, 51, [(20, 30)], False, None),
    "one short": (CLASSIC, 51, [(30, 20), (20, 30)], False, None),
    "level below the target": (CLASSIC, 51, [(25, 25)], False, None),
    # one side reaches the target at the end of a hand
    "side 0 exactly 51": (CLASSIC, 51, [(51, 10)], True, 0),
    "side 1 exactly 51": (CLASSIC, 51, [(10, 51)], True, 1),
    "side 0 over 51 later": (CLASSIC, 51, [(30, 20), (25, 5)], True, 0),
    "side 1 over 51 later": (CLASSIC, 51, [(30, 20), (2, 40)], True, 1),
    "101: 100 is not enough": (CLASSIC, 101, [(60, 40), (40, 30)], False, None),
    "101 reached": (CLASSIC, 101, [(60, 40), (41, 30)], True, 0),
    "51 does not end a match to 101": (CLASSIC, 101, [(55, 0)], False, None),
    "partners 151 reached": (PARTNERS, 151, [(100, 95), (50, 56)], True, 1),
    "partners 150 is not enough": (PARTNERS, 151, [(100, 90), (50, 60)], False, None),
    # both pass the target in the same hand: the higher total wins
    "both pass, side 1 higher": (CLASSIC, 51, [(40, 45), (15, 12)], True, 1),
    "both pass, side 0 higher": (CLASSIC, 51, [(45, 40), (30, 11)], True, 0),
    "both exactly at target and one more": (CLASSIC, 51, [(40, 40), (11, 12)], True, 1),
    "both pass 101": (CLASSIC, 101, [(90, 95), (20, 10)], True, 0),
    "both pass 151": (PARTNERS, 151, [(140, 145), (16, 10)], True, 0),
    # both pass with equal totals: not over
    "level at 51": (CLASSIC, 51, [(40, 40), (11, 11)], False, None),
    "level past 51": (CLASSIC, 51, [(40, 40), (20, 20)], False, None),
    "level past 151": (PARTNERS, 151, [(100, 95), (52, 57)], False, None),
}


@pytest.mark.parametrize(
    ("rules", "target", "hands", "over", "winner"), END_CASES.values(), ids=END_CASES.keys()
)
def test_end_of_match(rules, target, hands, over, winner):
    match = Match(rules, f"end-{rules.name}-{target}", target)
    for h, points in enumerate(hands):
        if h:
            match.next_hand()
        assert not match.over  # never decided while the hand is being played
        finish_hand(match, points)
        totals = [sum(p[side] for p in hands[: h + 1]) for side in (0, 1)]
        assert match.totals == totals
        if h < len(hands) - 1:
            assert not match.over and match.winner() is None
    assert match.over is over
    assert match.winner() == winner
    if over:
        with pytest.raises(InvalidState):
            match.next_hand()
    else:
        match.next_hand()  # one more hand is dealt
        assert match.hand_number == len(hands)


def test_level_totals_past_the_target_play_one_more_hand():
    match = Match(CLASSIC, "level")
    finish_hand(match, (40, 40))
    match.next_hand()
    finish_hand(match, (20, 20))
    assert match.totals == [60, 60] and not match.over and match.winner() is None
    match.next_hand()
    assert match.hand_number == 2 and not match.hand_counted
    assert match.state.plays == [] and match.state.deck == tuple(seeded_deck("level", CLASSIC, 2))
    assert match.dealer == 1  # the deal still changes hands
    finish_hand(match, (5, 5))  # level again: still one more hand
    assert match.totals == [65, 65] and not match.over
    match.next_hand()
    finish_hand(match, (2, 3))
    assert match.totals == [67, 68]
    assert match.over and match.winner() == 1


def test_real_matches_end_by_the_rules():
    # Whole matches with real points (nothing overwritten): after every
    # counted hand, ``over`` and ``winner`` follow the rule of seeds 001/003.
    for rules in (CLASSIC, PARTNERS):
        for k in range(3):
            match = Match(rules, f"real-{k}")
            while True:
                finish_hand(match)
                a, b = match.totals
                decided = max(a, b) >= match.target and a != b
                assert match.over is decided
                if decided:
                    assert match.winner() == (0 if a > b else 1)
                    break
                assert match.winner() is None
                match.next_hand()
            assert match.hand_number < 40


# --- cardems: a single hand ---------------------------------------------------------


@pytest.mark.parametrize("seed", ["single-1", "single-2", "single-3"])
def test_cardems_is_a_single_hand(seed):
    match = Match(CARDEMS, seed)
    assert match.target is None
    play_cards(match, 48)
    assert not match.over and match.winner() is None  # not counted yet
    match.count_hand()
    assert match.over
    team, _reason = hand_winner(match.state, score_hand(match.state))
    assert match.winner() == team == match.side_of_team(team)  # hand 0: side = team
    assert match.history == [[s.points for s in score_hand(match.state)]]
    with pytest.raises(InvalidState):
        match.next_hand()
    assert match.hand_number == 0


# --- seats, positions, sides, dealer ---------------------------------------------------


def zero_point_hands(rules, seed, count):
    """A match after ``count`` really played hands, each hand's points then
    overwritten with 0-0 so that the match goes on; yields it at each hand."""
    match = Match(rules, seed)
    for h in range(count):
        if h:
            finish_hand(match, (0, 0))
            match.next_hand()
        yield match


def test_classic_dealer_alternates():
    # seed 001: "The dealer changes every hand. The player to the dealer's
    # left plays first (with two players, the non-dealer)".
    dealers = []
    for match in zero_point_hands(CLASSIC, "deal2", 8):
        dealers.append(match.position_of(1))
        assert match.dealer == match.position_of(1)
        assert match.position_of(0) == 1 - match.dealer  # the non-dealer leads
        assert match.seat_of(match.dealer) == 1
    first = (1 + first_rotation("deal2", 2)) % 2
    assert dealers == [first, 1 - first] * 4


def test_partners_deal_passes_round_the_four_positions():
    # seeds 003/004: "the dealer position will pass to the right"; play is
    # anticlockwise, so the player on the dealer's right is the next one in
    # playing order: he deals the next hand.
    dealers = []
    for match in zero_point_hands(PARTNERS, "deal4", 8):
        dealers.append(match.dealer)
        assert match.dealer == match.position_of(3)
        assert match.position_of(0) == (match.dealer + 1) % 4  # dealer's neighbour leads
    first = (3 + first_rotation("deal4", 4)) % 4
    assert dealers == [(first + hand) % 4 for hand in range(8)]


@pytest.mark.parametrize("rules", [CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_the_first_dealer_is_drawn_from_the_seed(rules):
    # seed 003: "The first dealer is chosen randomly"; seed 001: the dealer's
    # advantage "goes to each side in turn", so no side always starts with
    # it. The same seed deals the same first dealer to everyone.
    n = rules.players
    firsts = [Match(rules, f"first-{i}").dealer for i in range(800)]
    for position in range(n):
        assert abs(firsts.count(position) / 800 - 1 / n) < 0.06
    assert [Match(rules, f"first-{i}").dealer for i in range(50)] == firsts[:50]
    # Seat 0 plays first: the dealer's neighbour in playing order.
    match = next(Match(rules, f"first-{i}") for i in range(800) if firsts[i] != n - 1)
    assert match.state.turn == 0 and match.seat_of(match.dealer) == n - 1


def test_a_single_deal_is_led_by_the_player():
    # A single hand has no deal to pass on: position 0 (the player) leads.
    assert {Match(CARDEMS, f"single-{i}").dealer for i in range(50)} == {1}
    assert {Match(CARDEMS, f"single-{i}").seat_of(0) for i in range(50)} == {0}


def test_a_match_of_single_hands_is_led_by_the_player_then_alternates():
    # Seed 000: "The human player takes the first turn" (and "the
    # computer deals"), in a match's first hand too; then the dealer changes
    # every hand, as in a Classic match.
    for i in range(50):
        match = Match(CARDEMS, f"single-{i}", target=51)
        dealers = [match.dealer]
        for _ in range(3):
            finish_hand(match, (0, 0))
            match.next_hand()
            dealers.append(match.dealer)
        assert dealers == [1, 0, 1, 0], i
        assert match.seat_of(1) == 0  # the computer leads the fourth hand


def test_a_match_saved_before_the_first_dealer_was_drawn_keeps_its_seats():
    match = next(m for i in range(20) if (m := Match(CLASSIC, f"old-{i}")).rotation)
    play_cards(match, 5)
    data = match.to_dict()
    del data["rotation"]  # as saved before
    restored = Match.from_dict(data)
    assert restored.rotation == 0 and restored.dealer == 1
    assert restored.state.plays == match.state.plays


@pytest.mark.parametrize("rules", [CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_seat_of_and_position_of_are_inverse(rules):
    n = rules.players
    for match in zero_point_hands(rules, "inverse", 6):
        seats = [match.seat_of(p) for p in range(n)]
        assert sorted(seats) == list(range(n))
        for p in range(n):
            assert match.position_of(match.seat_of(p)) == p
            assert match.seat_of(match.position_of(p)) == p
            # playing order is the same round the table every hand
            assert match.seat_of((p + 1) % n) == (match.seat_of(p) + 1) % n
            # sides are fixed partnerships: a position's side never changes
            assert match.side_of_team(match.seat_of(p) % 2) == p % 2


@pytest.mark.parametrize("rules", [CLASSIC, PARTNERS], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", ["sides-a", "sides-b"])
def test_each_sides_points_are_its_teams_points(rules, seed):
    # The human (position 0) plays from seat_of(0); its side's points for a
    # hand are the points of the team that seat belonged to in that hand.
    match = Match(rules, seed)
    totals = [0, 0]
    for _ in range(5):
        human_seat = match.seat_of(0)
        human_team = human_seat % 2
        assert match.side_of_team(human_team) == 0
        assert match.side_of_team(1 - human_team) == 1
        finish_hand(match)
        h = match.hand_number
        scores = score_hand(match.state)
        assert match.history[h] == [scores[human_team].points, scores[1 - human_team].points]
        assert [s.team for s in match.side_scores()] == [human_team, 1 - human_team]
        assert match.side_of_team(human_team, hand_number=h) == 0
        for p in range(rules.players):
            team = match.seat_of(p) % 2
            assert match.history[h][p % 2] == scores[team].points
        totals = [totals[0] + match.history[h][0], totals[1] + match.history[h][1]]
        assert match.totals == totals
        if match.over:
            break
        match.next_hand()
        # side_of_team for an earlier hand does not depend on the current one
        assert match.side_of_team(human_team, hand_number=h) == 0


@pytest.mark.parametrize("rules", [CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_a_seeded_match_deals_the_same_decks(rules):
    a, b = Match(rules, "same-decks"), Match(rules, "same-decks")
    decks = []
    for h in range(4):
        if h:
            for match in (a, b):
                finish_hand(match, (0, 0))
                match.next_hand()
        assert a.hand_number == b.hand_number == h
        assert a.state.deck == b.state.deck == tuple(seeded_deck("same-decks", rules, h))
        assert a.state.hands == GameState.deal(rules, seeded_deck("same-decks", rules, h)).hands
        decks.append(a.state.deck)
    assert len(set(decks)) == 4  # a new shuffle every hand
    assert Match(rules, "other-decks").state.deck != decks[0]


# --- saving and loading -----------------------------------------------------------------


def reload(match: Match) -> Match:
    return Match.from_dict(json.loads(json.dumps(match.to_dict())))


@pytest.mark.parametrize(
    ("rules", "hands", "plays"),
    [
        (CLASSIC, 0, 0),
        (CLASSIC, 0, 17),
        (CLASSIC, 1, 0),
        (CLASSIC, 1, 31),
        (CLASSIC, 2, 47),
        (PARTNERS, 0, 5),
        (PARTNERS, 3, 40),
        (CARDEMS, 0, 0),
        (CARDEMS, 0, 29),
    ],
)
def test_round_trip_mid_hand(rules, hands, plays):
    match = Match(rules, f"save-{rules.name}")
    for _ in range(hands):
        finish_hand(match)
        assert not match.over
        match.next_hand()
    play_cards(match, plays)
    data = match.to_dict()
    assert set(data) == {"rules", "seed", "target", "hands", "plays", "rotation"}
    assert len(data["hands"]) == hands and data["plays"] == match.state.plays
    restored = reload(match)
    assert snapshot(restored) == snapshot(match)
    assert restored.to_dict() == data
    # and it plays on the same way
    play_cards(match, 48 - plays)
    play_cards(restored, 48 - plays)
    match.count_hand()
    restored.count_hand()
    assert snapshot(restored) == snapshot(match)


@pytest.mark.parametrize("rules", [CLASSIC, PARTNERS, CARDEMS], ids=lambda r: r.name)
def test_round_trip_between_hands_and_after_the_end(rules):
    match = Match(rules, f"between-{rules.name}")
    while True:
        finish_hand(match)
        # counted, next hand not dealt yet
        restored = reload(match)
        assert restored.hand_counted
        assert snapshot(restored) == snapshot(match)
        if match.over:
            break
        match.next_hand()
        restored.next_hand()
        assert snapshot(restored) == snapshot(match)
        assert snapshot(reload(match)) == snapshot(match)  # a fresh hand, no plays
    assert reload(match).winner() == match.winner()


@pytest.fixture(scope="module")
def saved():
    """A classic match saved in its third hand (two hands played, 9 plays)."""
    match = Match(CLASSIC, "damaged")
    for _ in range(2):
        finish_hand(match)
        assert not match.over
        match.next_hand()
    play_cards(match, 9)
    data = match.to_dict()
    Match.from_dict(data)  # valid as it is
    return data


def damaged(data, **changes):
    out = json.loads(json.dumps(data))
    out.update(changes)
    return out


def without(data, key):
    out = json.loads(json.dumps(data))
    del out[key]
    return out


def swap_two_plays(plays, i, j):
    plays = list(plays)
    plays[i], plays[j] = plays[j], plays[i]
    return plays


DAMAGE = {
    "not an object": lambda d: [d],
    "a string": lambda d: "match",
    "unknown rules": lambda d: damaged(d, rules="poker"),
    "rules not a string": lambda d: damaged(d, rules=["classic"]),
    "no rules": lambda d: without(d, "rules"),
    "bad seed": lambda d: damaged(d, seed="bad seed!"),
    "empty seed": lambda d: damaged(d, seed=""),
    "long seed": lambda d: damaged(d, seed="s" * 65),
    "seed a number": lambda d: damaged(d, seed=12),
    "no seed": lambda d: without(d, "seed"),
    "target 77": lambda d: damaged(d, target=77),
    "target a string": lambda d: damaged(d, target="51"),
    "target not a match target": lambda d: damaged(d, target=150),
    "hands not a list": lambda d: damaged(d, hands="nope"),
    "no hands": lambda d: without(d, "hands"),
    "a hand not a list": lambda d: damaged(d, hands=[d["hands"][0], None]),
    "an unfinished earlier hand": lambda d: damaged(d, hands=[d["hands"][0][:10], d["hands"][1]]),
    "a later hand unfinished": lambda d: damaged(d, hands=[d["hands"][0], d["hands"][1][:47]]),
    "an earlier hand with 49 plays": lambda d: damaged(
        d, hands=[d["hands"][0] + [d["hands"][0][0]], d["hands"][1]]
    ),
    "an illegal play in an earlier hand": lambda d: damaged(
        d, hands=[swap_two_plays(d["hands"][0], 0, 1), d["hands"][1]]
    ),
    "an earlier hand of another seed": lambda d: damaged(d, seed="damaged2"),
    "hands in the wrong order": lambda d: damaged(d, hands=d["hands"][::-1]),
    "an illegal current play": lambda d: damaged(d, plays=swap_two_plays(d["plays"], 0, 1)),
    "a current play not a card": lambda d: damaged(d, plays=d["plays"] + ["ZZ"]),
    "a current card played twice": lambda d: damaged(d, plays=d["plays"] + [d["plays"][-1]]),
    "plays not a list": lambda d: damaged(d, plays="7H"),
    "no plays": lambda d: without(d, "plays"),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_from_dict_rejects_damaged_data(saved, damage):
    with pytest.raises(InvalidState):
        Match.from_dict(damage(saved))


def test_from_dict_rejects_hands_after_the_match_is_decided():
    match = Match(CARDEMS, "decided")
    finish_hand(match)
    data = match.to_dict()
    assert data["hands"] == [] and len(data["plays"]) == 48
    assert Match.from_dict(data).over
    with pytest.raises(InvalidState):
        Match.from_dict(damaged(data, hands=[data["plays"]], plays=[]))
    with pytest.raises(InvalidState):
        Match.from_dict(damaged(data, target=52))
