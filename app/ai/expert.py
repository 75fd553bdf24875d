"""Expert: searches within a time budget (default 150 ms a move).

Determinized Monte Carlo (Cowling, Powley and Whitehouse, 2012): it deals
the cards it cannot see at random, consistently with everything its seat has
seen (:func:`app.engine.worlds.sample_world`), tries each card of its hand in
that world and plays the hand out with a fast version of the Hard level's
reasoning for every seat;
every card is tried in the same worlds, so their averages compare fairly. In
the last deal, when few plays are left, each world is solved exactly
(minimax with alpha-beta; with three or four teams max-n, every seat
playing for its own team) instead of played out. It keeps sampling until the
budget is spent. It then plays the Hard level's card unless the card with the
best average point difference beats it clearly (by 1.5 standard errors of
their difference over the same worlds): the search overrules the heuristic
only where it has seen enough to know better.
"""

from __future__ import annotations

import math
import random
import time

from app.engine import Observation
from app.engine.cards import CARD_POINTS, RANKS
from app.engine.scoring import team_points
from app.engine.worlds import World, sample_world

from .counting import count_cards
from .hard import CARD_WORTH, JACK_KEEP, evaluate

#: Default thinking time per move, in milliseconds.
BUDGET_MS = 150.0
#: Solve the worlds of the last deal exactly when the orders the cards in
#: hand can be played in (the product of the hand sizes' factorials) are at
#: most this many: the last 8 plays with two seats, the last 10 with three,
#: the last 11 with four.
EXACT_LINES = 1000
#: The search overrules the Hard level's choice only when its card is better
#: by this many standard errors of the difference (over the same worlds).
CONFIDENCE = 1.5


def _playout(world: World) -> None:
    """Play the world to the end with a fast version of the Hard level's
    reasoning, for every seat: capture with a same rank; spend a Jack when
    the pile is worth more than keeping it; otherwise throw the card whose
    expected loss is least (the odds that the next seat matches it, from the
    ranks seen face up, times what it would take, plus the card's points)."""
    hands, pile, plays = world.hands, world.pile, world.plays
    players = len(hands)
    seen = dict.fromkeys(RANKS, 0)
    for card in plays:
        seen[card[0]] += 1
    for card in pile[world.face_down :]:
        seen[card[0]] += 1
    seen_total = sum(seen.values())
    play_index = world.play_index
    points = CARD_POINTS
    while len(plays) < 48:
        number = len(plays)
        hand = hands[number % players]
        choice = jack = -1
        if pile:
            top = pile[-1][0]
            for index, card in enumerate(hand):
                if card[0] == top:
                    choice = index
                    break
                if card[0] == "J":
                    jack = index
        if choice < 0:
            pile_value = CARD_WORTH * len(pile)
            for card in pile:
                pile_value += points[card]
            if jack >= 0 and pile_value > (JACK_KEEP if world.next_card < 52 else 0.5):
                choice = jack
            elif len(hand) == 1:
                choice = 0
            else:
                bonus = 10.0 if not pile else 0.0
                unknown = 52 - seen_total - len(hand)
                next_hand = len(hands[(number + 1) % players]) or 4
                best = 1e9
                for index, card in enumerate(hand):
                    rank = card[0]
                    left = 4 - seen[rank]
                    for other in hand:
                        if other[0] == rank:
                            left -= 1
                    odds = left * next_hand / unknown if unknown > 0 else 0.0
                    if odds > 1.0:
                        odds = 1.0
                    loss = odds * (pile_value + points[card] + bonus) + 0.5 * points[card]
                    if rank == "J":
                        loss += JACK_KEEP
                    if loss < best:
                        best, choice = loss, index
        seen[hand[choice][0]] += 1
        seen_total += 1
        play_index(choice)


def margin(points: list[int], team: int) -> float:
    """Return ``team``'s lead: its points minus the other team's, or with
    more than two teams (three or four solo seats) minus the others' mean."""
    others = len(points) - 1
    return points[team] - (sum(points) - points[team]) / others


def _solve(world: World, team: int, alpha: float, beta: float) -> float:
    """Exact value of a perfect-information world of two teams for
    ``team``: its points minus the other team's at the end, both sides
    playing their best (minimax with alpha-beta)."""
    if len(world.plays) == 48:
        return margin(team_points(world), team)
    hand = world.hands[world.turn]
    maximizing = world.rules.team_of(world.turn) == team
    best = float("-inf") if maximizing else float("inf")
    tried = set()
    for index in range(len(hand)):
        card = hand[index]
        if card in tried:
            continue
        tried.add(card)
        child = world.copy()
        child.play_index(index)
        value = _solve(child, team, alpha, beta)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def _solve_each(world: World) -> list[int]:
    """Exact end of a perfect-information world of three or four teams:
    every team's points when each seat in turn plays the card best for its
    own team's :func:`margin` (max-n; ties go to the card earliest in the
    hand)."""
    if len(world.plays) == 48:
        return team_points(world)
    hand = world.hands[world.turn]
    team = world.rules.team_of(world.turn)
    best: list[int] = []
    best_value = float("-inf")
    tried = set()
    for index in range(len(hand)):
        card = hand[index]
        if card in tried:
            continue
        tried.add(card)
        child = world.copy()
        child.play_index(index)
        points = _solve_each(child)
        value = margin(points, team)
        if value > best_value:
            best, best_value = points, value
    return best


def solve(world: World, team: int) -> float:
    """Exact value of a perfect-information world for ``team``: its
    :func:`margin` at the end, every seat playing its best (minimax for two
    teams, max-n for more)."""
    if world.rules.team_count == 2:
        return _solve(world, team, float("-inf"), float("inf"))
    return margin(_solve_each(world), team)


class ExpertBot:
    """Searching player: determinized sampling, exact in the endgame.

    ``budget_ms`` is the thinking time per move in milliseconds; the search
    always looks at one world at least, so a tiny budget still plays.
    ``max_worlds`` stops the search after that many worlds even within the
    budget (``None``: no limit), which makes its choice repeatable.
    """

    takes_budget = True

    def __init__(
        self, rng: random.Random, budget_ms: float = BUDGET_MS, max_worlds: int | None = None
    ) -> None:
        self.rng = rng
        self.budget_ms = budget_ms
        self.max_worlds = max_worlds

    def choose(self, observation: Observation) -> str:
        """Return the card code to play from ``observation.hand``."""
        hand = list(dict.fromkeys(observation.hand))
        if len(hand) == 1:
            return hand[0]
        deadline = time.perf_counter() + self.budget_ms / 1000
        seat, team = observation.seat, observation.team
        exact = observation.stock == 0 and _lines(observation.hand_sizes) <= EXACT_LINES
        values: list[list[float]] = [[] for _ in hand]
        while True:
            world = sample_world(observation, self.rng)
            for position, card in enumerate(hand):
                trial = world.copy()
                trial.play_index(trial.hands[seat].index(card))
                if exact:
                    values[position].append(solve(trial, team))
                else:
                    _playout(trial)
                    values[position].append(margin(team_points(trial), team))
            if time.perf_counter() >= deadline or len(values[0]) == self.max_worlds:
                break
        count = count_cards(observation)
        default = hand.index(max(hand, key=lambda card: evaluate(observation, count, card)))
        return hand[_better_than(values, default)]


def _lines(hand_sizes: tuple[int, ...]) -> int:
    """How many orders the cards in hand can be played in: the product of
    the hand sizes' factorials (the leaves of an exact search)."""
    return math.prod(math.factorial(size) for size in hand_sizes)


def _better_than(values: list[list[float]], default: int) -> int:
    """Return the move with the best mean value if it beats ``default`` (the
    Hard level's choice) by more than :data:`CONFIDENCE` standard errors of
    their paired difference over the same worlds; else ``default``."""
    means = [sum(row) / len(row) for row in values]
    best = max(range(len(values)), key=means.__getitem__)
    if best == default:
        return default
    differences = [a - b for a, b in zip(values[best], values[default], strict=False)]
    n = len(differences)
    mean = sum(differences) / n
    if n < 2:
        return default
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    if variance == 0:
        return best if mean > 0 else default
    return best if mean > CONFIDENCE * (variance / n) ** 0.5 else default


def card_values(
    observation: Observation, rng: random.Random, worlds: int
) -> dict[str, list[float]]:
    """Return, for every distinct card in ``observation.hand``, its value in
    each of ``worlds`` sampled worlds (the same worlds for every card, in
    order): the observing team's :func:`margin` at the end of the hand when
    it plays that card now and every seat then plays as the Expert's search
    assumes (played out, or solved exactly in the last deal as
    :meth:`ExpertBot.choose` does). Captured cards are stand-ins, so the
    margin counts the points still to be won plus the piştis so far.
    Deterministic for a given ``rng`` state. For the game review
    (:mod:`app.ai.review`)."""
    hand = list(dict.fromkeys(observation.hand))
    seat, team = observation.seat, observation.team
    exact = observation.stock == 0 and _lines(observation.hand_sizes) <= EXACT_LINES
    values: dict[str, list[float]] = {card: [] for card in hand}
    for _ in range(worlds):
        world = sample_world(observation, rng)
        for card in hand:
            trial = world.copy()
            trial.play_index(trial.hands[seat].index(card))
            if exact:
                values[card].append(solve(trial, team))
            else:
                _playout(trial)
                values[card].append(margin(team_points(trial), team))
    return values
