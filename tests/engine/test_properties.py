"""Property tests (hypothesis) over the three rule sets and random house
rules (any valid combination of the format-2 options on any base).

Every example is a rule set, a deck that is valid for it, and a list of
integers that choose which card of the hand each seat plays in turn (index
modulo the hand size), so every sequence of plays generated is legal. The
properties come from ``docs/record-format.md``:

* the 52 cards are conserved at every step (hands, pile, captured, stock);
* a finished hand's card points add up to 13 ("Card points: each Ace 1, each
  Jack 1, the 2 of clubs 2, the 10 of diamonds 3");
* the most-cards bonus goes to at most one team, and to none at 26-26;
* each team's points add up from its rows (card points, bonuses, piştis at
  the rule set's values);
* a record written by ``make_record`` and read by ``load_record`` replays to
  the same summary;
* an illegal play ("a card not in the hand of the seat whose turn it is", or
  any play after the hand) raises ``IllegalPlay`` and changes nothing;
* ``team_points`` (the fast scorer) agrees with ``score_hand``;
* a team ``most_cards_sure`` names during a hand keeps being named and
  earns the most-cards bonus when the hand is scored;
* a world sampled from a seat's observation looks the same to that seat.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    CARDEMS,
    CLASSIC,
    FULL_DECK,
    PARTNERS,
    GameState,
    IllegalPlay,
    InvalidRules,
    card_points,
    hand_winner,
    load_record,
    make_record,
    most_cards_sure,
    observe,
    replay_summary,
    score_hand,
    seeded_deck,
    with_options,
)
from app.engine.rules import CHOICES, OPTIONS, POINTS
from app.engine.scoring import team_points
from app.engine.worlds import STAND_IN, sample_world
from tests.engine.conftest import snapshot

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

SEED_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
JACKS = [card for card in FULL_DECK if card[0] == "J"]
FULL = Counter(FULL_DECK)

PRESETS = [CARDEMS, CLASSIC, PARTNERS]


@st.composite
def house_rules(draw):
    """A base with a random few options at random values, made valid the
    smallest way: ``teams: partners`` only with four players, ``most_cards:
    27`` only with two teams."""
    options: dict[str, object] = {}
    for option in OPTIONS:
        if draw(st.integers(min_value=0, max_value=2)) == 0:
            continue
        if option in POINTS:
            options[option] = draw(st.integers(min_value=0, max_value=25))
        else:
            options[option] = draw(st.sampled_from(list(CHOICES[option])))
    base = draw(st.sampled_from(PRESETS))
    for fix in ({"teams": "solo"}, {"most_cards": "more"}):
        try:
            return with_options(base, options)
        except InvalidRules:
            options.update(fix)
    return with_options(base, options)


rule_sets = st.one_of(st.sampled_from(PRESETS), house_rules())
#: one choice per play: the index (modulo the hand size) of the card played
choices = st.lists(st.integers(min_value=0, max_value=3), min_size=48, max_size=48)


def make_valid(deck: list[str], rules) -> list[str]:
    """Adjust a permutation so the rule set accepts it, by the smallest swaps:
    a fourth centre Jack goes into the stock; a Jack at the bottom (the
    partners cut) is swapped with a non-Jack of the stock."""
    if not rules.four_jacks_in_centre and all(card[0] == "J" for card in deck[:4]):
        i = next(i for i in range(4, 51) if deck[i][0] != "J")
        deck[3], deck[i] = deck[i], deck[3]
    if not rules.jack_at_bottom and deck[51][0] == "J":
        i = next(i for i in range(4, 51) if deck[i][0] != "J")
        deck[51], deck[i] = deck[i], deck[51]
    assert rules.deck_problem(deck) is None
    return deck


@st.composite
def decks(draw, rules):
    """A deck valid for ``rules``: either a seeded deal (a drawn seed and
    hand number) or a drawn permutation, some Jacks possibly moved to the top
    of the centre and to the bottom of the stock to reach the opening-Jack
    and bottom-card rules often, then adjusted to be valid."""
    if draw(st.booleans()):
        seed = draw(st.text(alphabet=SEED_ALPHABET, min_size=1, max_size=64))
        hand = draw(st.integers(min_value=0, max_value=30))
        deck = seeded_deck(seed, rules, hand)
        assert rules.deck_problem(deck) is None
        return deck
    deck = list(draw(st.permutations(FULL_DECK)))
    # Jacks to the centre, top (deck[3]) first, then maybe one to the bottom
    places = [3, 2, 1, 0][: draw(st.integers(min_value=0, max_value=4))]
    if draw(st.booleans()):
        places.append(51)
    for place, jack in zip(places, draw(st.permutations(JACKS)), strict=False):
        i = deck.index(jack)
        deck[place], deck[i] = deck[i], deck[place]
    return make_valid(deck, rules)


@st.composite
def hands(draw):
    """(rules, deck, choices) for one hand."""
    rules = draw(rule_sets)
    return rules, draw(decks(rules)), draw(choices)


def pick(state: GameState, choice: int) -> str:
    hand = state.hands[state.turn]
    return hand[choice % len(hand)]


def play_prefix(rules, deck, picks, n=48) -> GameState:
    state = GameState.deal(rules, deck)
    for choice in picks[:n]:
        state.play(pick(state, choice))
    return state


def stock(state: GameState) -> list[str]:
    return list(state.order[state.next_card :])


def all_cards(state: GameState) -> Counter:
    held = list(state.pile) + stock(state)
    for hand in state.hands:
        held += hand
    for cards in state.captured:
        held += cards
    return Counter(held)


# --- conservation -------------------------------------------------------------------


@SETTINGS
@given(hands())
def test_every_legal_sequence_conserves_the_52_cards(hand):
    rules, deck, picks = hand
    state = GameState.deal(rules, deck)
    assert all_cards(state) == FULL
    for step, choice in enumerate(picks):
        assert not state.finished and state.turn == step % rules.players
        card = pick(state, choice)
        assert card in state.legal_plays()
        state.play(card)
        assert all_cards(state) == FULL, step
        assert state.plays == [] or state.plays[-1] == card
        assert (
            sum(map(len, state.captured))
            + len(state.pile)
            + sum(map(len, state.hands))
            + state.stock
            == 52
        )
    assert state.finished and state.legal_plays() == []
    assert state.pile == [] and state.stock == 0 and not any(state.hands)
    assert Counter(card for cards in state.captured for card in cards) == FULL
    assert sorted(state.plays) == sorted(set(state.plays))  # 48 distinct cards played


@SETTINGS
@given(hands(), st.integers(min_value=0, max_value=47))
def test_copy_is_independent_and_play_index_agrees_with_play(hand, n):
    rules, deck, picks = hand
    state = play_prefix(rules, deck, picks, n)
    before = snapshot(state)
    other = state.copy()
    assert snapshot(other) == before
    hand_now = state.hands[state.turn]
    index = picks[n] % len(hand_now)
    card = hand_now[index]
    captured = other.play_index(index)
    assert snapshot(state) == before  # playing on the copy leaves the original alone
    result = state.play(card)
    assert result.captured == captured
    assert snapshot(state) == snapshot(other)


# --- scoring ------------------------------------------------------------------------


@SETTINGS
@given(hands())
def test_a_team_sure_of_the_most_cards_earns_them(hand):
    """Seed 001's "keep an eye on most cards", as the table's score marks
    it: once a team is named sure of the most-cards bonus, it stays named
    whatever is played, and the hand's score gives it the bonus; at the
    hand's end the team named is the one with the bonus (none when none
    earns it)."""
    rules, deck, picks = hand
    state = GameState.deal(rules, deck)
    named = None
    for choice in picks:
        sure = most_cards_sure(rules, [len(cards) for cards in state.captured])
        assert named is None or sure == named
        named = sure
        state.play(pick(state, choice))
    counts = [len(cards) for cards in state.captured]
    earned = [s.team for s in score_hand(state) if s.most_cards]
    if rules.most_cards_points:
        assert [most_cards_sure(rules, counts)] == (earned or [None])
    if named is not None:
        assert most_cards_sure(rules, counts) == named


@SETTINGS
@given(hands())
def test_scores_of_a_finished_hand(hand):
    rules, deck, picks = hand
    state = play_prefix(rules, deck, picks)
    scores = score_hand(state)
    # card points: 13 in all, however the cards fell
    teams = rules.team_count
    assert [s.team for s in scores] == list(range(teams))
    assert [s.seats for s in scores] == [
        tuple(seat for seat in range(rules.players) if rules.team_of(seat) == t)
        for t in range(teams)
    ]
    card_sums = [s.aces + s.jacks + 2 * s.two_of_clubs + 3 * s.ten_of_diamonds for s in scores]
    assert sum(card_sums) == 13
    assert card_sums == [sum(card_points(c) for c in state.captured[t]) for t in range(teams)]
    # the most-cards bonus: at most one team, none at 26-26
    bonus = [s.most_cards for s in scores]
    assert sorted(bonus) in ([0] * teams, [0] * (teams - 1) + [rules.most_cards_points])
    cards = [s.cards for s in scores]
    assert sum(cards) == 52
    if cards.count(max(cards)) > 1:
        assert not any(bonus)
    elif rules.most_cards == "more_than_other":
        assert bonus[cards.index(max(cards))] == rules.most_cards_points
    else:
        assert bonus == [rules.most_cards_points * (c >= 27) for c in cards]
    # the last-sweep bonus: to the team that took the leftovers, if any
    sweep = [s.last_sweep_bonus for s in scores]
    if state.swept_to is None:
        assert not any(sweep)
    else:
        assert sweep[state.swept_to] == rules.last_sweep_bonus == sum(sweep)
    for s in scores:
        assert (
            s.points
            == card_sums[s.team]
            + s.most_cards
            + s.last_sweep_bonus
            + rules.pisti_points * s.pisti
            + rules.jack_pisti_points * s.jack_pisti
        )
    # the fast scorer agrees
    assert team_points(state) == [s.points for s in scores]
    winner, reason = hand_winner(state, scores)
    if winner is not None:
        assert scores[winner].points == max(s.points for s in scores)
    if rules == CARDEMS:
        # 13 card points, even pişti values: points can only tie with the
        # bonus given, and then the cards differ, so cardems never draws
        assert winner is not None and reason in ("points", "cards")


@SETTINGS
@given(hands(), st.integers(min_value=0, max_value=48))
def test_team_points_agrees_with_score_hand_at_every_step(hand, n):
    rules, deck, picks = hand
    state = GameState.deal(rules, deck)
    for choice in picks[:n]:
        assert team_points(state) == [s.points for s in score_hand(state)]
        state.play(pick(state, choice))
    assert team_points(state) == [s.points for s in score_hand(state)]
    if not state.finished:
        assert not any(s.most_cards or s.last_sweep_bonus for s in score_hand(state))


# --- records ------------------------------------------------------------------------


@SETTINGS
@given(
    hands(),
    st.integers(min_value=0, max_value=48),
    st.none() | st.text(alphabet=SEED_ALPHABET, min_size=1, max_size=64),
)
def test_record_round_trip_gives_the_same_summary(hand, n, seed):
    rules, deck, picks = hand
    state = play_prefix(rules, deck, picks, n)
    record = make_record(state, seed)
    loaded = load_record(json.dumps(record))
    assert replay_summary(loaded) == replay_summary(state)
    assert snapshot(loaded) == snapshot(state)
    assert make_record(loaded, seed) == record
    summary = replay_summary(state)
    assert summary["plays"] == n and summary["finished"] == (n == 48)
    if n < 48:
        assert summary["winner"] is None


# --- illegal plays --------------------------------------------------------------------

not_cards = st.one_of(
    st.text(max_size=4),
    st.none(),
    st.integers(),
    st.sampled_from(["10D", "td", "XX", ""]),
)


@SETTINGS
@given(
    hands(),
    st.integers(min_value=0, max_value=47),
    st.lists(st.integers(min_value=0, max_value=51), min_size=1, max_size=8),
    st.lists(not_cards, max_size=3),
)
def test_illegal_plays_are_refused_and_change_nothing(hand, n, others, junk):
    rules, deck, picks = hand
    state = play_prefix(rules, deck, picks, n)
    own = state.hands[state.turn]
    not_own = [card for card in FULL_DECK if card not in own]
    candidates = [not_own[i % len(not_own)] for i in others]
    candidates += [text for text in junk if text not in own]
    # another seat's card is always among them when the others hold cards
    candidates += [card for s, h in enumerate(state.hands) if s != state.turn for card in h[:1]]
    before = snapshot(state)
    for card in candidates:
        try:
            state.play(card)
        except IllegalPlay:
            pass
        else:
            raise AssertionError(f"{card!r} was played by seat {state.turn} holding {own}")
        assert snapshot(state) == before


@SETTINGS
@given(hands(), st.lists(st.sampled_from(FULL_DECK) | not_cards, min_size=1, max_size=6))
def test_no_play_after_the_hand_is_over(hand, attempts):
    rules, deck, picks = hand
    state = play_prefix(rules, deck, picks)
    assert state.finished
    before = snapshot(state)
    summary = replay_summary(state)
    for card in [*attempts, state.plays[-1], state.plays[0]]:
        try:
            state.play(card)
        except IllegalPlay:
            pass
        else:
            raise AssertionError(f"{card!r} was played after the hand")
        assert snapshot(state) == before
    assert replay_summary(state) == summary


# --- worlds ---------------------------------------------------------------------------


@SETTINGS
@given(
    hands(),
    st.integers(min_value=0, max_value=48),
    st.integers(min_value=0, max_value=3),
    st.integers(min_value=0, max_value=2**32),
)
def test_a_sampled_world_looks_the_same_to_its_seat(hand, n, seat, rng_seed):
    rules, deck, picks = hand
    seat %= rules.players
    state = play_prefix(rules, deck, picks, n)
    view = observe(state, seat)
    world = sample_world(view, random.Random(rng_seed))
    assert observe(world, seat) == view
    # the hidden cards are placed among the cards the seat has not seen
    unseen = set(FULL_DECK) - view.seen - set(view.hand)
    placed = [c for s, h in enumerate(world.hands) if s != seat for c in h]
    placed += world.pile[: world.face_down] + stock(world)
    known = view.stock_bottom
    assert Counter(c for c in placed if c not in known) <= Counter(unseen)
    assert len(placed) == len(set(placed))
    assert {card for cards in world.captured for card in cards} <= {STAND_IN}
    # a world is a playable hand: play it out to the end
    world.random_playout(random.Random(rng_seed))
    assert world.finished
    assert sum(map(len, world.captured)) == 52 and not world.pile
