"""Is the seeded shuffle fair? Chi-square tests over fixed seeds: the kinds
people type (``1``, ``abc``, dates), the Daily's HMAC seeds and random-looking
ones. Each statistic is computed from the same seeds on every run, so the
tests are deterministic; the thresholds are ones a fair shuffle passes with
these seeds (its p-values are spread evenly from 0 to 1), and a shuffle with
the textbook faults (a swap with any place, ``j = word % 52``; or never
leaving a card in place, ``j = word % i``) fails them by far."""

from __future__ import annotations

import hashlib
import hmac
import math
from collections import Counter
from datetime import date, timedelta
from itertools import product

import pytest

from app.engine import CLASSIC, FULL_DECK, PARTNERS, seeded_deck
from app.engine.match import first_rotation

#: Tests per family of statistics; a p-value below LOWEST / their number
#: fails (Bonferroni: a fair shuffle fails one of them with chance LOWEST).
LOWEST = 0.001
RANKS = "A23456789TJQK"
INDEX = {card: index for index, card in enumerate(FULL_DECK)}


def chi_square_p(observed: list[int], expected: list[float]) -> float:
    """Return the p-value of Pearson's chi-square for these counts, with
    ``len(observed) - 1`` degrees of freedom: the upper regularized
    incomplete gamma function Q(df / 2, statistic / 2) (series below
    a + 1, continued fraction above, to 1e-14)."""
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    a, x = (len(observed) - 1) / 2, statistic / 2
    front = math.exp(-x + a * math.log(x) - math.lgamma(a)) if x > 0 else 0.0
    if x < a + 1:
        term = total = 1 / a
        n = a
        while term > total * 1e-14:
            n += 1
            term *= x / n
            total += term
        return 1 - front * total
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h, i = d, 0
    while True:
        i += 1
        an, b = -i * (i - a), b + 2
        d, c = 1 / (an * d + b), b + an / c
        h *= d * c
        if abs(d * c - 1) < 1e-14:
            return front * h


def typed_seeds(count: int) -> list[str]:
    """``count`` seeds of each kind a person types: numbers, short words,
    dates in three spellings."""
    numbers = [str(number) for number in range(1, count + 1)]
    words = ["".join(letters) for letters in product("abcdefghijklmnopqrstuvwxyz", repeat=3)]
    days = [date(2000, 1, 1) + timedelta(days=number) for number in range(count)]
    spellings = ("%Y-%m-%d", "%d-%m-%Y", "%d_%m_%y")
    dates = [day.strftime(spellings[number % 3]) for number, day in enumerate(days)]
    return numbers + words[:count] + dates


def daily_seeds(count: int) -> list[str]:
    """Daily seeds as the app makes them (``app.web.daily.keyed_seed``):
    HMAC-SHA256 of a secret key and ``pisti-daily/1|day|game``, 32 hex digits."""
    seeds = []
    for number in range(count):
        day = date(2026, 1, 1) + timedelta(days=number // 2)
        game = ("classic", "partners")[number % 2]
        message = f"pisti-daily/1|{day.isoformat()}|{game}".encode()
        seeds.append(hmac.new(b"a-secret", message, hashlib.sha256).hexdigest()[:32])
    return seeds


SEEDS = {"typed": typed_seeds(1800), "daily": daily_seeds(5200)}


@pytest.fixture(scope="module", params=list(SEEDS))
def classic_decks(request) -> list[list[str]]:
    return [seeded_deck(seed, CLASSIC) for seed in SEEDS[request.param]]


def test_every_card_is_as_likely_at_every_place(classic_decks):
    # 52 places x 52 cards: each place's cards, and each card's places.
    n = len(classic_decks)
    table = [[0] * 52 for _ in range(52)]
    for deck in classic_decks:
        for place, card in enumerate(deck):
            table[place][INDEX[card]] += 1
    fair = [n / 52] * 52
    places = [chi_square_p(row, fair) for row in table]
    cards = [chi_square_p(list(column), fair) for column in zip(*table, strict=True)]
    assert min(places + cards) > LOWEST / 104, (min(places), min(cards))
    # Not too even either (a p-value near 1 for most of them is no shuffle).
    assert sum(p > 0.5 for p in places + cards) < 80


def test_neighbouring_cards_are_independent(classic_decks):
    # For each pair of neighbouring places, the ranks of the two cards
    # (13 x 13): the same rank 3 times in 51, each other rank 4 in 51.
    n = len(classic_decks)
    expected = [n * (12 if a == b else 16) / (52 * 51) for a in RANKS for b in RANKS]
    lowest = 1.0
    for place in range(51):
        pairs = Counter((deck[place][0], deck[place + 1][0]) for deck in classic_decks)
        observed = [pairs[a, b] for a in RANKS for b in RANKS]
        lowest = min(lowest, chi_square_p(observed, expected))
    assert lowest > LOWEST / 51


def test_the_opening_pile_and_the_hands_favour_no_seat(classic_decks):
    # The centre's face-up card is any card as likely; the Jacks a hand
    # deals to seat 0 (first to play) and to seat 1 (the dealer) are as
    # many: "the computer always gets the Jacks" is not so.
    n = len(classic_decks)
    face_up = Counter(INDEX[deck[3]] for deck in classic_decks)
    assert chi_square_p([face_up[i] for i in range(52)], [n / 52] * 52) > LOWEST
    jacks = Counter()
    for deck in classic_decks:
        for deal, seat in product(range(6), range(2)):
            start = 4 + 8 * deal + 4 * seat
            jacks[seat] += sum(card[0] == "J" for card in deck[start : start + 4])
    assert chi_square_p([jacks[0], jacks[1]], [n * 24 / 13] * 2) > LOWEST, jacks


@pytest.mark.parametrize("family", list(SEEDS))
def test_the_partners_bottom_card_is_any_card_but_a_jack_as_likely(family):
    seeds = SEEDS[family]
    bottoms = Counter(seeded_deck(seed, PARTNERS)[51] for seed in seeds)
    cards = [card for card in FULL_DECK if card[0] != "J"]
    assert set(bottoms) == set(cards)
    p = chi_square_p([bottoms[card] for card in cards], [len(seeds) / 48] * 48)
    assert p > LOWEST


@pytest.mark.parametrize("family", list(SEEDS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_dealer_is_any_player_as_likely(family, players):
    seeds = SEEDS[family]
    drawn = Counter(first_rotation(seed, players) for seed in seeds)
    p = chi_square_p([drawn[r] for r in range(players)], [len(seeds) / players] * players)
    assert p > LOWEST, drawn


def test_the_chi_square_p_value_is_right():
    # One degree of freedom: the textbook 0.0455 for a statistic of 4; two
    # and four have closed forms, exp(-x/2) and exp(-x/2)(1 + x/2).
    assert chi_square_p([60, 40], [50, 50]) == pytest.approx(0.0455003, rel=1e-5)
    assert chi_square_p([30, 10, 20], [20, 20, 20]) == pytest.approx(math.exp(-5), rel=1e-12)
    fair = [20.0] * 5
    assert chi_square_p([40, 10, 20, 20, 10], fair) == pytest.approx(16 * math.exp(-15), rel=1e-12)
    assert chi_square_p([21, 19, 20, 20, 20], fair) == pytest.approx(1.05 * math.exp(-0.05))
