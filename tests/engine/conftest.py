"""Helpers for the engine tests: stacked decks and playing lists of cards.

A stacked deck says exactly what is dealt. Deck layout (record-format.md,
"Seats and dealing"): ``deck[0..3]`` are the centre, bottom to top; in deal
``r`` seat ``s`` gets ``deck[4 + 4*n*r + 4*s .. +3]`` (``n`` seats);
``deck[51]`` is the stock's bottom card, the dealer's last card.

The helpers are plain functions, handed to tests through fixtures of the
same name (so no test module imports ``conftest``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from app.engine import FULL_DECK, GameState, PlayResult

CENTRE = 4
PACKET = 4
JACKS = ("JC", "JD", "JH", "JS")


def build_stacked_deck(
    centre: Sequence[str | None] = (None, None, None, None),
    deals: Sequence[Sequence[Sequence[str]]] = (),
    *,
    players: int = 2,
    bottom: str | None = None,
    rest: Iterable[str] | None = None,
) -> list[str]:
    """Return a 52-card deck, top of the stock first.

    Args:
        centre: the four centre cards, bottom to top (``deck[0..3]``);
            ``None`` leaves a place to be filled.
        deals: ``deals[r][s]`` is seat ``s``'s packet in deal ``r``: up to
            four cards (a shorter packet is completed by filling).
        players: 2, 3 or 4.
        bottom: the stock's bottom card ``deck[51]``, if it matters.
        rest: the order in which the remaining cards fill the free places,
            top of the stock first; by default the canonical order
            (``FULL_DECK``, clubs A..K, diamonds, hearts, spades).
    """
    assert len(centre) == CENTRE, "the centre is four cards"
    assert players in (2, 3, 4)
    deck: list[str | None] = [None] * len(FULL_DECK)
    deck[:CENTRE] = list(centre)
    for r, deal in enumerate(deals):
        assert len(deal) <= players, f"deal {r} has more packets than seats"
        for s, packet in enumerate(deal):
            assert len(packet) <= PACKET, f"deal {r}, seat {s}: more than 4 cards"
            start = CENTRE + PACKET * players * r + PACKET * s
            for k, card in enumerate(packet):
                deck[start + k] = card
    if bottom is not None:
        assert deck[-1] in (None, bottom), "deck[51] given twice"
        deck[-1] = bottom
    fixed = [card for card in deck if card is not None]
    assert len(fixed) == len(set(fixed)), f"a card is stacked twice: {fixed}"
    assert set(fixed) <= set(FULL_DECK), f"not canonical codes: {set(fixed) - set(FULL_DECK)}"
    order = list(FULL_DECK if rest is None else rest)
    filler = iter(card for card in order if card not in fixed)
    for i, card in enumerate(deck):
        if card is None:
            deck[i] = next(filler)
    assert sorted(deck) == sorted(FULL_DECK)
    return deck  # type: ignore[return-value]


def packets_for_plays(plays: Sequence[str], players: int = 2) -> list[list[list[str]]]:
    """Return the deals that make ``plays`` (in turn order) a legal sequence:
    the cards a seat plays in a deal are exactly its packet, in play order."""
    per_deal = PACKET * players
    deals = []
    for start in range(0, len(plays), per_deal):
        chunk = plays[start : start + per_deal]
        deals.append([list(chunk[s::players]) for s in range(players)])
    return deals


def build_deck_from_plays(
    centre: Sequence[str | None],
    plays: Sequence[str],
    *,
    players: int = 2,
    bottom: str | None = None,
    rest: Iterable[str] | None = None,
) -> list[str]:
    """Return a stacked deck under which ``plays`` (a prefix of the hand, in
    turn order) can be played exactly as listed."""
    return build_stacked_deck(
        centre,
        packets_for_plays(plays, players),
        players=players,
        bottom=bottom,
        rest=rest,
    )


def build_no_match_plays(
    fixed: dict[int, str],
    centre: Sequence[str],
    *,
    length: int = 48,
) -> list[str]:
    """Return ``length`` plays with ``fixed[i]`` at index ``i`` and every other
    place filled with a non-Jack whose rank differs from the card before it
    (the centre top for index 0) and from a fixed card right after it, so
    the filler cards never capture anything by themselves.

    Filling is greedy in the canonical card order; it fails loudly rather
    than produce an accidental match.
    """
    used = set(fixed.values()) | set(centre)
    assert len(used) == len(fixed) + len(centre), "a card is used twice"
    pool = [card for card in FULL_DECK if card[0] != "J" and card not in used]
    assert len(pool) >= length - len(fixed), "not enough non-Jacks: place every Jack"
    plays: list[str] = []
    previous = centre[-1]
    for i in range(length):
        if i in fixed:
            card = fixed[i]
        else:
            following = fixed.get(i + 1)
            card = next(
                (
                    c
                    for c in pool
                    if c[0] != previous[0] and (following is None or c[0] != following[0])
                ),
                None,
            )
            assert card is not None, f"no filler card fits at play {i}"
            pool.remove(card)
        plays.append(card)
        previous = card
    return plays


def run_plays(state: GameState, cards: Iterable[str]) -> list[PlayResult]:
    """Play ``cards`` in order for whichever seat is to play; return the results."""
    return [state.play(card) for card in cards]


def capture_indices(results: Sequence[PlayResult]) -> list[int]:
    """Return the play indices (from 0) of the plays that captured."""
    return [i for i, result in enumerate(results) if result.captured]


# The points tie of two-player Pişti: Jacks take the pile at plays 19 (seat 1),
# 30 (seat 0), 33 (seat 1) and 40 (seat 0); TD is a face-down centre card, so
# goes to team 1; the four Aces and the 2C are played where team 0 takes them.
# Team 1: 4 + 20 + 3 = 27 cards, JC JH TD = 5 points + 3 for 27 cards = 8.
# Team 0: 11 + 7 + 7 (swept) = 25 cards, JD JS, 4 Aces, 2C = 8 points.
TIE_CENTRE = ("TD", "3D", "4D", "5D")
TIE_FIXED = {
    19: "JC",
    20: "AC",
    22: "AD",
    24: "AH",
    26: "AS",
    28: "2C",
    30: "JD",
    33: "JH",
    40: "JS",
}


@pytest.fixture
def tie_deal() -> tuple[list[str], list[str]]:
    """The points tie above as ``(deck, plays)``: a 52-card two-player deck
    (top of the stock first) and its 48 plays in order."""
    plays = build_no_match_plays(TIE_FIXED, TIE_CENTRE)
    return build_deck_from_plays(TIE_CENTRE, plays), plays


@pytest.fixture
def stacked_deck():
    """:func:`build_stacked_deck`."""
    return build_stacked_deck


@pytest.fixture
def deck_from_plays():
    """:func:`build_deck_from_plays`."""
    return build_deck_from_plays


@pytest.fixture
def no_match_plays():
    """:func:`build_no_match_plays`."""
    return build_no_match_plays


@pytest.fixture
def play_all():
    """:func:`run_plays`."""
    return run_plays


@pytest.fixture
def captures():
    """:func:`capture_indices`."""
    return capture_indices


def snapshot(state):
    """Everything a state holds, as comparable plain data."""
    return (
        state.to_dict(),
        [list(hand) for hand in state.hands],
        list(state.pile),
        state.face_down,
        [list(cards) for cards in state.captured],
        list(state.pisti),
        list(state.jack_pisti),
        list(state.plays),
        state.last_capturer,
        state.next_card,
        state.face_up_at_start,
        state.face_down_taker,
        state.swept_to,
        state.order,
    )
