"""Seeded random playouts: 3000 whole hands (1000 per rule set), each step
checked against the common rules of record-format.md."""

import json
import random
from collections import Counter

import pytest

from app.engine import (
    CARDEMS,
    CLASSIC,
    FULL_DECK,
    PARTNERS,
    GameState,
    IllegalPlay,
    card_points,
    hand_winner,
    score_hand,
)
from tests.engine.conftest import snapshot

HANDS_PER_RULE_SET = 1000
CHUNK = 100
FULL = Counter(FULL_DECK)


def all_cards(state):
    stock = list(state.deck[len(state.deck) - state.stock :])
    held = list(state.pile) + stock
    for hand in state.hands:
        held += hand
    for cards in state.captured:
        held += cards
    return held


def shuffled_deck(rules, rng):
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    while rules.deck_problem(deck):
        rng.shuffle(deck)
    return deck


def check_illegal_plays(state, rng):
    seat = state.turn
    own = state.hands[seat]
    others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    elsewhere = others + list(state.pile) + [c for cards in state.captured for c in cards]
    stock = list(state.deck[len(state.deck) - state.stock :])
    candidates = [own[0].lower(), "XX", "", None, "10" + own[0][1], *elsewhere, *stock]
    candidates = [c for c in candidates if c not in own]
    before = snapshot(state)
    for card in rng.sample(candidates, min(6, len(candidates))):
        with pytest.raises(IllegalPlay):
            state.play(card)
        assert snapshot(state) == before


def check_round_trip(state):
    saved = json.loads(json.dumps(state.to_dict()))
    assert set(saved) == {"rules", "deck", "plays"}
    restored = GameState.from_dict(saved)
    assert snapshot(restored) == snapshot(state)
    assert restored.to_dict() == state.to_dict()


def play_out(rules, i):
    rng = random.Random(i)
    deck = shuffled_deck(rules, rng)
    state = GameState.deal(rules, deck)
    n = rules.players
    illegal_at, round_trip_at = rng.randrange(48), rng.randrange(48)
    made = [[0, 0], [0, 0]]  # [team][pisti, jack pisti], from the play results
    for step in range(48):
        seat = state.turn
        assert seat == step % n
        assert not state.finished
        if step == illegal_at:
            check_illegal_plays(state, rng)
        if step == round_trip_at:
            check_round_trip(state)
        hand = list(state.hands[seat])
        pile = list(state.pile)
        card = rng.choice(hand)
        assert card in state.legal_plays()
        result = state.play(card)
        assert (result.seat, result.card) == (seat, card)
        team = seat % 2
        # the common capture and pisti rules, restated
        takes = bool(pile) and (card[0] == pile[-1][0] or card[0] == "J")
        if takes:
            assert result.captured == len(pile) + 1
            assert state.captured[team][-len(pile) - 1 :] == [*pile, card]
            assert state.last_capturer == team
        else:
            assert result.captured == 0
        lone = takes and len(pile) == 1 and pile[0][0] == card[0]
        lone = lone and (step < 47 or rules.pisti_on_last_play)
        assert result.pisti == (lone and card[0] != "J")
        assert result.jack_pisti == (lone and card[0] == "J")
        made[team][0] += result.pisti
        made[team][1] += result.jack_pisti
        # nothing appears or disappears
        assert card not in state.hands[seat]
        if not result.dealt:
            assert sorted(state.hands[seat] + [card]) == sorted(hand)
        assert Counter(all_cards(state)) == FULL
        assert result.dealt == (step % (4 * n) == 4 * n - 1 and step < 47)
        assert result.hand_over == (step == 47)
    return state, made, result


def check_finished(state, made, last):
    rules = state.rules
    assert state.finished
    assert state.pile == [] and state.stock == 0
    assert all(hand == [] for hand in state.hands)
    assert sorted(state.captured[0] + state.captured[1]) == sorted(FULL_DECK)
    if last.swept:
        assert last.swept_to == state.last_capturer
    scores = score_hand(state)
    assert [s.team for s in scores] == [0, 1]
    assert [s.seats for s in scores] == [tuple(range(t, rules.players, 2)) for t in (0, 1)]
    assert sum(s.cards for s in scores) == 52
    assert sum(s.aces for s in scores) == 4
    assert sum(s.jacks for s in scores) == 4
    assert sum(s.two_of_clubs for s in scores) == 1
    assert sum(s.ten_of_diamonds for s in scores) == 1
    card_total = sum(s.aces + s.jacks + 2 * s.two_of_clubs + 3 * s.ten_of_diamonds for s in scores)
    assert card_total == 13
    for s in scores:
        held = state.captured[s.team]
        assert s.cards == len(held)
        assert s.aces + s.jacks + 2 * s.two_of_clubs + 3 * s.ten_of_diamonds == sum(
            card_points(c) for c in held
        )
        assert [s.pisti, s.jack_pisti] == made[s.team]
        assert s.points == (
            s.aces
            + s.jacks
            + 2 * s.two_of_clubs
            + 3 * s.ten_of_diamonds
            + s.most_cards
            + 10 * s.pisti
            + 20 * s.jack_pisti
        )
    a, b = scores
    if rules.most_cards == "27_or_more":
        assert [a.most_cards, b.most_cards] == [3 * (a.cards >= 27), 3 * (b.cards >= 27)]
    else:
        assert [a.most_cards, b.most_cards] == [3 * (a.cards > b.cards), 3 * (b.cards > a.cards)]
    if a.cards == b.cards == 26:
        # 13 card points plus multiples of 10: never level
        assert a.points != b.points
    winner, reason = hand_winner(state, scores)
    if a.points != b.points:
        assert (winner, reason) == ((0 if a.points > b.points else 1), "points")
    elif rules.cards_break_ties and a.cards != b.cards:
        assert (winner, reason) == ((0 if a.cards > b.cards else 1), "cards")
    else:
        assert (winner, reason) == (None, "draw")
    check_round_trip(state)
    with pytest.raises(IllegalPlay):
        state.play(state.plays[0])


@pytest.mark.parametrize("start", range(0, HANDS_PER_RULE_SET, CHUNK))
@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS], ids=lambda r: r.name)
def test_random_playouts(rules, start):
    for i in range(start, start + CHUNK):
        state, made, last = play_out(rules, i)
        check_finished(state, made, last)


def test_playouts_reach_the_interesting_cases():
    # Guards the playouts above against testing only dull hands.
    seen = Counter()
    for rules in (CARDEMS, CLASSIC, PARTNERS):
        for i in range(300):
            state, _made, last = play_out(rules, i)
            seen["pisti"] += sum(state.pisti) > 0
            seen["jack pisti"] += sum(state.jack_pisti) > 0
            seen["sweep"] += last.swept > 0
            seen["26-26"] += len(state.captured[0]) == 26
            seen[f"{rules.name} opening Jack"] += state.deck[3][0] == "J"
    assert all(seen[k] for k in ("pisti", "jack pisti", "sweep", "26-26")), seen
    assert all(seen[f"{r} opening Jack"] for r in ("cardems", "classic", "partners")), seen
