"""What one seat may see (observation.py): its own hand and what was shown
face up to everyone; never the other hands, the stock or the face-down
centre cards, not even after they are captured (seed 001) -- except by the
team that captured them under ``face_down="capturer"`` (partners, seed
003)."""

import dataclasses
import random

import pytest

from app.engine import CARDEMS, CLASSIC, PARTNERS, GameState, observe, seeded_deck

RULE_SETS = [CARDEMS, CLASSIC, PARTNERS]
CENTRE = ["3D", "4D", "5D", "6D"]


def card_strings(view):
    """Every string inside an observation (except its rule set)."""
    found = set()
    for field in dataclasses.fields(view):
        if field.name == "rules":
            continue
        value = getattr(view, field.name)
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, (tuple, list, frozenset, set)):
            found.update(v for v in value if isinstance(v, str))
    return found


def hidden_from(state, seat):
    """The cards ``seat`` must not see now: other hands, the stock (but a
    shown bottom card), the three cards dealt face down (unless its team
    took them and the rule set lets it look)."""
    hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    hidden |= set(state.deck[len(state.deck) - state.stock :])
    hidden |= set(state.deck[:3]) - set(state.face_up_at_start)
    if state.rules.bottom_card_shown:
        hidden.discard(state.deck[51])
    if state.rules.face_down == "capturer" and state.face_down_taker == seat % 2:
        hidden -= set(state.face_down_cards)
    return hidden - set(state.plays)


def played(rules, deck, n, rng):
    state = GameState.deal(rules, deck)
    for _ in range(n):
        state.play(rng.choice(state.hands[state.turn]))
    return state


def decks_without_opening_jack(rules, count):
    """Seeded decks whose face-up centre card is not a Jack, so the three
    face-down cards stay face down whatever they are."""
    seeds = (f"obs-{i}" for i in range(1000))
    decks = (seeded_deck(seed, rules) for seed in seeds)
    return [deck for deck in decks if deck[3][0] != "J"][:count]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_a_seat_sees_only_its_own_hand(rules):
    for deck_seed in range(20):
        deck = seeded_deck(f"view-{deck_seed}", rules)
        for n in (0, 1, 9, 24, 40, 47, 48):
            state = played(rules, deck, n, random.Random(deck_seed))
            for seat in range(rules.players):
                view = observe(state, seat)
                assert view.seat == seat and view.team == seat % 2
                assert view.hand == tuple(state.hands[seat])
                leaked = card_strings(view) & hidden_from(state, seat)
                assert not leaked, (deck_seed, n, seat, leaked)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize("n", [0, 3, 8, 17, 30, 45])
def test_hidden_cards_do_not_change_the_observation(rules, n):
    """Two decks that differ only in cards hidden from a seat (after the same
    plays) give that seat equal observations."""
    rng = random.Random(f"{rules.name}-{n}")
    for deck in decks_without_opening_jack(rules, 8):
        plays = played(rules, deck, n, rng).plays
        for seat in range(rules.players):
            a = GameState.replay(rules, deck, plays)
            hidden = hidden_from(a, seat)
            places = [i for i, card in enumerate(deck) if card in hidden]
            moved = [deck[i] for i in places]
            rng.shuffle(moved)
            other = list(deck)
            for i, card in zip(places, moved, strict=False):
                other[i] = card
            b = GameState.replay(rules, other, plays)  # the same plays stay legal
            assert observe(b, seat) == observe(a, seat)
            if other != deck:
                # the change was real: someone else's hand, the stock or the
                # face-down cards differ
                assert (a.hands, a.deck) != (b.hands, b.deck)


def swapped(deck, *pairs):
    other = list(deck)
    for i, j in pairs:
        other[i], other[j] = other[j], other[i]
    return other


@pytest.mark.parametrize(
    ("rules", "pairs", "same_for", "differs_for"),
    [
        # 2 seats: deck[0] face down <-> deck[40] stock; deck[8] seat 1's hand
        # <-> deck[50] stock (the dealer's last deal)
        (CARDEMS, [(0, 40), (8, 50)], [0], [1]),
        (CLASSIC, [(2, 30), (11, 45)], [0], [1]),
        # seat 0's hand <-> stock: hidden from seat 1 only
        (CARDEMS, [(4, 49)], [1], [0]),
        # 4 seats: seat 1's and seat 3's hands, a face-down card, the stock
        (PARTNERS, [(8, 16), (1, 33), (18, 47)], [0, 2], [1, 3]),
        (PARTNERS, [(12, 40)], [0, 1, 3], [2]),
    ],
    ids=["cardems", "classic", "cardems seat 1", "partners", "partners seat 2"],
)
def test_swapping_hidden_cards_in_a_stacked_deck(stacked_deck, rules, pairs, same_for, differs_for):
    deck = stacked_deck(CENTRE, players=rules.players, bottom="KS")
    other = swapped(deck, *pairs)
    a, b = GameState.deal(rules, deck), GameState.deal(rules, other)
    for seat in same_for:
        assert observe(a, seat) == observe(b, seat)
    for seat in differs_for:
        assert observe(a, seat) != observe(b, seat)
        assert observe(a, seat).hand != observe(b, seat).hand


def test_captured_face_down_cards_stay_hidden(stacked_deck):
    # Seat 0 takes the opening pile with 6H; its three face-down cards are
    # counted, never shown, even to the seat that took them.
    deck = stacked_deck(CENTRE, [[["6H"]]])
    other = swapped(deck, (0, 30), (1, 31))  # change two face-down cards
    a, b = GameState.deal(CARDEMS, deck), GameState.deal(CARDEMS, other)
    a.play("6H")
    b.play("6H")
    for seat in (0, 1):
        view = observe(a, seat)
        assert view.captured == (5, 0)
        assert not {"3D", "4D", "5D"} & card_strings(view)
        assert view == observe(b, seat)
    assert a.captured != b.captured


def test_bottom_card_is_public_under_partners(stacked_deck):
    deck = stacked_deck(CENTRE, players=4, bottom="KS")
    other = swapped(deck, (51, 40))
    assert other[51] != "KS" and other[51][0] != "J"
    a, b = GameState.deal(PARTNERS, deck), GameState.deal(PARTNERS, other)
    assert observe(a, 0).bottom_card == "KS"
    assert observe(a, 0) != observe(b, 0)


def test_observation_fields_after_a_few_plays(deck_from_plays, play_all):
    plays = ["7H", "8H", "JS", "9C", "9S"]  # seat 2 takes 7; seat 0 piştis 9C
    deck = deck_from_plays(CENTRE, plays, players=4, bottom="KS")
    state = GameState.deal(PARTNERS, deck)
    play_all(state, plays)
    view = observe(state, 1)
    assert view.turn == 1
    assert view.hand == tuple(deck[9:12])  # 8H (deck[8]) was played
    assert view.pile_face_up == () and view.pile_top is None
    assert (view.pile_size, view.face_down, view.stock) == (0, 0, 32)
    assert view.hand_sizes == (2, 3, 3, 3)
    assert view.captured == (9, 0)
    assert (view.pisti, view.jack_pisti) == ((1, 0), (0, 0))
    assert view.plays == tuple(plays)
    assert view.seen == frozenset({"6D", "KS", *plays})
    assert view.last_capturer == 0
    assert view.deal_number == 1
    assert view.plays_left == 43
    assert view.finished is False
    assert view.bottom_card == "KS"


def test_observation_at_the_start(stacked_deck):
    deck = stacked_deck(CENTRE)
    view = observe(GameState.deal(CARDEMS, deck), 0)
    assert view.pile_face_up == ("6D",) and view.pile_top == "6D"
    assert (view.pile_size, view.face_down, view.stock) == (4, 3, 40)
    assert view.hand_sizes == (4, 4)
    assert view.seen == frozenset({"6D"})
    assert (view.turn, view.deal_number, view.plays_left) == (0, 1, 48)
    assert view.last_capturer is None
