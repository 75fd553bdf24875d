"""Scoring a hand: card points, most cards, piştis, the winner.

Card points (each Ace 1, each Jack 1, 2♣ 2, 10♦ 3) are common to all
sources; the pişti values, the most-cards rule, the last-sweep bonus and
the tie rule come from the rule set (``docs/record-format.md``,
seeds 000 and 001, and format 2's house rules).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from .cards import CARD_POINTS, FULL_DECK
from .rules import RuleSet
from .state import GameState

WinReason = Literal["points", "cards", "draw", "unfinished"]


@dataclass(frozen=True)
class TeamScore:
    """One team's score for a hand; field names are those of the replay
    output in ``docs/record-format.md``.

    ``points = aces + jacks + 2*two_of_clubs + 3*ten_of_diamonds +
    most_cards + last_sweep_bonus + pisti_points*pisti +
    jack_pisti_points*jack_pisti`` (the rule set's pişti values, 10 and 20
    unless house rules say otherwise).
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
    last_sweep_bonus: int = 0

    def to_dict(self, sweep_bonus: bool = False) -> dict[str, Any]:
        """Return the score as the replay output's team object; with
        ``sweep_bonus`` (format 2) it has ``last_sweep_bonus`` too, before
        ``points``."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        bonus = data.pop("last_sweep_bonus")
        points = data.pop("points")
        if sweep_bonus:
            data["last_sweep_bonus"] = bonus
        data["points"] = points
        return data


def _most_cards(rules: RuleSet, counts: list[int], team: int) -> bool:
    """Whether ``team`` earns the most-cards bonus with ``counts`` cards per
    team: 27 or more (two teams only), or strictly more than every other."""
    mine = counts[team]
    if rules.most_cards == "27_or_more":
        return mine >= 27
    return all(mine > other for index, other in enumerate(counts) if index != team)


def most_cards_sure(rules: RuleSet, counts: list[int]) -> int | None:
    """Return the team already sure of the most-cards bonus with ``counts``
    cards taken so far per team (team 0 first), or ``None``.

    Every one of the 52 cards is taken by the hand's end (the cards left on
    the table go to the last capturer, or when nobody captured to the rule
    set's side, seeds 000 and 001), so a team is sure of it once no
    share of the cards not taken yet could change that: 27 or more under
    ``most_cards: 27_or_more`` (seed 000), or more than any other team
    could still reach under ``more_than_other`` (seed 001: none when the
    most is shared). Raises nothing; counts that add up to more than 52
    are the caller's mistake."""
    left = len(FULL_DECK) - sum(counts)
    for team, mine in enumerate(counts):
        if rules.most_cards == "27_or_more":
            if mine >= 27:
                return team
        elif all(mine > other + left for index, other in enumerate(counts) if index != team):
            return team
    return None


def score_hand(state: GameState) -> list[TeamScore]:
    """Return every team's score, team 0 first.

    For an unfinished hand the counts are those captured so far and nobody
    has the most-cards or last-sweep bonus yet.
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
        if state.finished and _most_cards(rules, counts, team):
            most = rules.most_cards_points
        sweep = rules.last_sweep_bonus if state.swept_to == team else 0
        points = (
            aces
            + jacks
            + 2 * two
            + 3 * ten
            + most
            + sweep
            + rules.pisti_points * state.pisti[team]
            + rules.jack_pisti_points * state.jack_pisti[team]
        )
        scores.append(
            TeamScore(
                team=team,
                seats=rules.seats_of(team),
                cards=counts[team],
                aces=aces,
                jacks=jacks,
                two_of_clubs=two,
                ten_of_diamonds=ten,
                most_cards=most,
                pisti=state.pisti[team],
                jack_pisti=state.jack_pisti[team],
                points=points,
                last_sweep_bonus=sweep,
            )
        )
    return scores


def team_points(state: GameState) -> list[int]:
    """Return each team's points so far, fast (search playouts): card
    points of the captured cards (stand-ins count 0), piştis, and the
    most-cards and last-sweep bonuses once the hand is finished."""
    rules = state.rules
    points = [
        sum(CARD_POINTS.get(card, 0) for card in cards)
        + rules.pisti_points * state.pisti[team]
        + rules.jack_pisti_points * state.jack_pisti[team]
        for team, cards in enumerate(state.captured)
    ]
    if state.finished:
        counts = [len(cards) for cards in state.captured]
        for team in range(len(points)):
            if _most_cards(rules, counts, team):
                points[team] += rules.most_cards_points
        if state.swept_to is not None:
            points[state.swept_to] += rules.last_sweep_bonus
    return points


def hand_winner(state: GameState, scores: list[TeamScore]) -> tuple[int | None, WinReason]:
    """Return the winning team (or ``None``) and why.

    The most points win; among the teams sharing the most points, more
    cards win where the rule set says so (``cardems``, ``tie_break:
    cards``); otherwise, or if they have as many cards, it is a draw. An
    unfinished hand has no winner.
    """
    if not state.finished:
        return None, "unfinished"
    best = max(score.points for score in scores)
    leaders = [score for score in scores if score.points == best]
    if len(leaders) == 1:
        return leaders[0].team, "points"
    if state.rules.cards_break_ties:
        most = max(score.cards for score in leaders)
        by_cards = [score for score in leaders if score.cards == most]
        if len(by_cards) == 1:
            return by_cards[0].team, "cards"
    return None, "draw"
