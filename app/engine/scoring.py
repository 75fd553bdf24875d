"""Scoring a hand: card points, most cards, piştis, the winner.

Card points (each Ace 1, each Jack 1, 2♣ 2, 10♦ 3) and the pişti values are
common to all sources; the most-cards rule and the tie rule come from the
rule set (``shared/spec/record-format.md``, seeds 000 and 001).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from .cards import CARD_POINTS
from .state import GameState

WinReason = Literal["points", "cards", "draw", "unfinished"]


@dataclass(frozen=True)
class TeamScore:
    """One side's score for a hand; field names are those of the replay
    output in ``shared/spec/record-format.md``.

    ``points = aces + jacks + 2*two_of_clubs + 3*ten_of_diamonds +
    most_cards + 10*pisti + 20*jack_pisti`` (with the rule set's values).
    """

    team: int
    seats: tuple[int, ...]
    cards: int
    aces: int
    jacks: int
    two_of_clubs: int
    ten_of_diamonds: int
    most_cards: int
    pisti: int
    jack_pisti: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        """Return the score as the replay output's team object."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        return data


def _has_most_cards(state: GameState, mine: int, theirs: int) -> bool:
    if state.rules.most_cards == "27_or_more":
        return mine >= 27
    return mine > theirs


def score_hand(state: GameState) -> list[TeamScore]:
    """Return both teams' scores, team 0 first.

    For an unfinished hand the counts are those captured so far and nobody
    has the most-cards bonus yet.
    """
    rules = state.rules
    counts = [len(cards) for cards in state.captured]
    scores = []
    for team, cards in enumerate(state.captured):
        aces = sum(1 for card in cards if card[0] == "A")
        jacks = sum(1 for card in cards if card[0] == "J")
        two = int("2C" in cards)
        ten = int("TD" in cards)
        most = 0
        if state.finished and _has_most_cards(state, counts[team], counts[1 - team]):
            most = rules.most_cards_points
        points = (
            aces
            + jacks
            + 2 * two
            + 3 * ten
            + most
            + rules.pisti_points * state.pisti[team]
            + rules.jack_pisti_points * state.jack_pisti[team]
        )
        scores.append(
            TeamScore(
                team=team,
                seats=tuple(range(team, rules.players, 2)),
                cards=counts[team],
                aces=aces,
                jacks=jacks,
                two_of_clubs=two,
                ten_of_diamonds=ten,
                most_cards=most,
                pisti=state.pisti[team],
                jack_pisti=state.jack_pisti[team],
                points=points,
            )
        )
    return scores


def team_points(state: GameState) -> list[int]:
    """Return each team's points so far, fast (search playouts): card
    points of the captured cards (stand-ins count 0), piştis, and the
    most-cards bonus once the hand is finished."""
    rules = state.rules
    points = [
        sum(CARD_POINTS.get(card, 0) for card in cards)
        + rules.pisti_points * state.pisti[team]
        + rules.jack_pisti_points * state.jack_pisti[team]
        for team, cards in enumerate(state.captured)
    ]
    if state.finished:
        counts = [len(cards) for cards in state.captured]
        for team in (0, 1):
            if _has_most_cards(state, counts[team], counts[1 - team]):
                points[team] += rules.most_cards_points
    return points


def hand_winner(state: GameState, scores: list[TeamScore]) -> tuple[int | None, WinReason]:
    """Return the winning team (or ``None``) and why.

    More points win; on equal points, more cards win where the rule set says
    so (``cardems``); otherwise it is a draw. An unfinished hand has no winner.
    """
    if not state.finished:
        return None, "unfinished"
    a, b = scores
    if a.points != b.points:
        return (0 if a.points > b.points else 1), "points"
    if state.rules.cards_break_ties and a.cards != b.cards:
        return (0 if a.cards > b.cards else 1), "cards"
    return None, "draw"
