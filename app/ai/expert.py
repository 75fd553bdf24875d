"""Expert: searches within a time budget (default 150 ms a move).

Determinized Monte Carlo (Cowling, Powley and Whitehouse, 2012): it deals
the cards it cannot see at random, consistently with everything its seat has
seen and with what the other seats' plays in this deal say about their
hands (a seat that left a top card alone holds none of its rank,
:func:`app.engine.worlds.inferred_voids`; while the stock lasts, worlds
whose hands would not have led the playout policy to the plays made are
kept less often, :data:`MODEL_MISS`), tries each card of its hand in those
worlds and plays the hand out
with a fast version of the Hard level's reasoning for every seat
(:func:`playout_policy`); every card is tried in the same worlds, so their
averages compare fairly. The worlds are sampled and played hundreds at a
time with numpy (:mod:`app.engine.batch`, whose results are the scalar
engine's on the same cards and choices). In the last deal, when few plays
are left, each world is solved exactly instead of played out: its own
team's seats play their best, the other teams' seats the Hard level's card
as the world shows them the table (:data:`MODEL_IN_SOLVER`; the search
models the other seats as Hard-like players throughout, as its playouts
do). It keeps sampling until the budget is spent. It then plays the Hard
level's card unless the card with the best average point difference beats
it clearly (by 1.5 standard errors of their difference over the same
worlds; 0.5 standard errors in the last deal, where every world is solved
exactly and the values are not a playout policy's guesses): the search
overrules the heuristic only where it has seen enough to know better."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.random  # loaded with the module, not at the first search (numpy loads it lazily)
import numpy.typing as npt

from app.engine import Observation, observe
from app.engine.batch import (
    JACK,
    NO_RANK,
    POINTS,
    RANK,
    Batch,
    Floats,
    Ints,
    card_numbers,
)
from app.engine.cards import CARD_POINTS, FULL_DECK, RANKS
from app.engine.scoring import team_points
from app.engine.worlds import Voids, World, deal_plays, inferred_voids, sample_world

from .hard import CARD_WORTH, JACK_KEEP, best_card

#: Default thinking time per move, in milliseconds.
BUDGET_MS = 150.0
#: Sample worlds where the other seats hold no rank their plays in this
#: deal say they lack (:func:`app.engine.worlds.inferred_voids`).
INFER = True
#: The same for Jacks (a big pile left alone).
INFER_JACKS = True
#: Opponent modelling: a sampled world in whose hand for another seat the
#: playout policy would not have made that seat's play of this deal is kept
#: with this probability only, per such play (rejection sampling by the
#: likelihood; 1 keeps every world). The policy explains Hard's plays with
#: the true hands in 98 % of positions; a sampled world, in 78 %.
MODEL_MISS = 0.1
#: ... but never less than this: a world that would have missed more plays
#: than three is not less likely for it. Plays that no hand explains (a
#: person unlike Hard makes many) say how the seat plays, not what it
#: holds; without a floor each cut every world alike, and four of them
#: made a review step sample ten million worlds to keep a thousand.
MODEL_FLOOR = MODEL_MISS**3
#: Solve the worlds of the last deal exactly when the orders the cards in
#: hand can be played in (the product of the hand sizes' factorials) are at
#: most this many: the last 8 plays with two seats, the last 10 with three,
#: the last 11 with four.
EXACT_LINES = 1000
#: The search overrules the Hard level's choice only when its card is better
#: by this many standard errors of the difference (over the same worlds).
CONFIDENCE = 1.5
#: The same when each world is solved exactly (the last deal): the
#: solver's values have no playout bias, only the sampling's noise.
CONFIDENCE_EXACT = 0.5
#: With playouts, the search's card must also beat Hard's by more than this
#: many points a hand, as a guard against the playout policy's bias, which
#: does not shrink with more worlds. None at the default budget: half a
#: point, chosen at 20 ms a move, measured a little weaker at 150 ms, one
#: decision at a time and in the arena (BENCHMARKS.md).
MIN_GAIN = 0.0
#: When solving the last deal, the other teams' seats play the Hard
#: level's card (its own team's seats their best); without it, the other
#: team's seats play their best too (minimax; with three or four teams,
#: max-n: every seat for its own team).
MODEL_IN_SOLVER = True
#: Worlds in the first batch of playouts of a move's search.
FIRST_BATCH = 32
#: The most worlds in one batch (bounds the memory and the overshoot).
MAX_BATCH = 512
#: No further batch when fewer worlds than this fit in the time left.
MIN_BATCH = 16
#: With a number of worlds asked for (the review's fixed count), the search
#: also stops once it has sampled this many times that number, kept or not
#: (:data:`MODEL_FLOOR` keeps one in a thousand at least; this bounds the
#: time: about 0.2 s of sampling for a thousand worlds asked for).
SAMPLED_PER_WORLD = 100
#: The search stops at this share of its budget, leaving the rest for the
#: choice itself and for the process waiting for a core on a busy machine.
FINISH = 0.97
#: The share of the time left that the next batch is sized to fill.
FILL = 0.8


def playout_policy(batch: Batch) -> Ints:
    """The Expert's playout policy, for every world of ``batch`` at once: a
    fast version of the Hard level's reasoning for the seat to play. Capture
    with the first card of the top card's rank; else spend the last Jack of
    the hand when the pile is worth more than keeping it (:data:`JACK_KEEP`
    while the stock lasts, half a point in the last deal); else throw the
    first card whose expected loss is least: the odds that the next seat
    holds its rank (from the ranks seen face up, :attr:`Batch.seen`) times
    what it would take (pile, card, 10 for a pişti on an empty table), plus
    half the card's points and :data:`JACK_KEEP` for a Jack.

    The pile's worth is ``CARD_WORTH * cards + their points``. Returns
    ``(size,)`` indexes into the hand of the seat to play.
    """
    seat = batch.turn
    size = batch.hand_sizes[seat]
    if size == 1:
        return np.zeros(batch.size, dtype=np.int64)
    hand = batch.hand(seat)
    ranks = RANK[hand]
    seen = batch.seen.ravel().take(batch.seen_rows + ranks)
    next_hand = batch.hand_sizes[(seat + 1) % batch.rules.players] or 4
    unknown = 52 - batch.seen_total - size
    pile_value = CARD_WORTH * batch.pile_size + batch.pile_points
    match, jacks, use_jack, loss = _policy_terms(
        ranks,
        POINTS[hand],
        seen,
        unknown,
        next_hand,
        batch.pile_size,
        pile_value,
        batch.top,
        batch.stock_left,
    )
    choice = loss.argmin(axis=0)
    last_jack = size - 1 - jacks[::-1].argmax(axis=0)
    choice = np.where(use_jack, last_jack, choice)
    return np.where(match.any(axis=0), match.argmax(axis=0), choice)


def _policy_terms(
    ranks: Ints,
    points: Ints,
    seen: Ints,
    unknown: Ints | int,
    next_hand: int,
    pile_size: Ints | int,
    pile_value: npt.NDArray[np.floating[Any]] | float,
    top: Ints | int,
    stock_left: int,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Floats]:
    """What :func:`playout_policy` decides on, for a ``(cards, worlds)``
    hand of ``ranks`` and ``points``: which cards take the pile by rank
    and which are Jacks (both ``(cards, worlds)``), whether to spend a Jack
    (``(worlds,)``), and each card's expected loss if thrown (``(cards,
    worlds)``). ``seen`` is, per card, the cards of its rank seen face up;
    ``unknown`` the cards the seat has not seen; the rest is the position
    (per world, or one for all)."""
    jacks = ranks == JACK
    same_in_hand = (ranks[:, None, :] == ranks[None, :, :]).sum(axis=1)
    left = 4 - seen - same_in_hand
    odds = np.minimum(left * next_hand / np.maximum(unknown, 1), 1.0) * (unknown > 0)
    bonus = np.where(pile_size == 0, 10.0, 0.0)
    loss = odds * (pile_value + points + bonus) + 0.5 * points + JACK_KEEP * jacks
    keep = JACK_KEEP if stock_left else 0.5
    use_jack = jacks.any(axis=0) & (pile_value > keep) & (pile_size > 0)
    return ranks == top, jacks, use_jack, loss


@dataclass(frozen=True)
class _Play:
    """Another seat's play in this deal, as :func:`playout_policy` would
    have seen it: ``cards``, the card played then the seat's later plays in
    the deal (card numbers, ``(m,)``); the position before the play (the
    top rank or :data:`~app.engine.batch.NO_RANK`, the pile's cards and
    worth with the face-down cards at their mean points, the ranks seen
    face up ``(13,)``, the cards the seat had not seen, the next seat's
    hand size); the stock not out."""

    seat: int
    cards: Ints
    top: int
    pile_size: int
    pile_value: float
    seen: Ints
    unknown: int
    next_hand: int


def _history(observation: Observation) -> list[_Play]:
    """The plays of the other seats in this deal that had a choice (more
    than one card in hand), replayed from the observation alone; none in
    the last deal, where Hard keeps its Jacks for bigger piles than the
    policy does and the worlds are solved exactly."""
    if not observation.stock:
        return []
    players = observation.rules.players
    unseen = [card for card in FULL_DECK if card not in observation.seen]
    unseen = [card for card in unseen if card not in observation.hand]
    mean_points = sum(CARD_POINTS[card] for card in unseen) / max(len(unseen), 1)
    history = []
    for play in deal_plays(observation):
        if play.seat == observation.seat or play.in_hand == 1:
            continue
        pile_size = play.pile_size
        history.append(
            _Play(
                seat=play.seat,
                cards=np.array(card_numbers(observation.plays[play.index :: players])),
                top=NO_RANK if play.top is None else RANKS.index(play.top),
                pile_size=pile_size,
                pile_value=CARD_WORTH * pile_size + play.points + play.face_down * mean_points,
                seen=np.array(play.seen),
                unknown=52 - sum(play.seen) - play.in_hand,
                next_hand=play.in_hand - (play.seat == players - 1),
            )
        )
    return history


def _likelihood(worlds: Batch, history: list[_Play]) -> Floats:
    """``(size,)``: for each world, :data:`MODEL_MISS` to the power of the
    plays of ``history`` that :func:`playout_policy` would not have made
    with the world's hand (any card it might have played, ties included;
    any Jack where no card takes the pile by rank), at least
    :data:`MODEL_FLOOR`."""
    weight: Floats = np.ones(worlds.size)
    for play in history:
        fixed = np.repeat(play.cards[:, None], worlds.size, axis=1)
        hand = np.vstack([fixed, worlds.hand(play.seat)])
        ranks = RANK[hand]
        match, jacks, use_jack, loss = _policy_terms(
            ranks,
            POINTS[hand],
            play.seen[ranks],
            play.unknown,
            play.next_hand,
            play.pile_size,
            play.pile_value,
            play.top,
            1,
        )
        # Hard spends a Jack on smaller piles than the policy does: a Jack
        # played is always one it might have played.
        thrown = ~use_jack & (loss[0] <= loss.min(axis=0) + 1e-9)
        made = np.where(match.any(axis=0), match[0], jacks[0] | thrown)
        weight *= np.where(made, 1.0, MODEL_MISS)
    return np.maximum(weight, MODEL_FLOOR)


def margin(points: list[int], team: int) -> float:
    """Return ``team``'s lead: its points minus the other team's, or with
    more than two teams (three or four solo seats) minus the others' mean."""
    others = len(points) - 1
    return points[team] - (sum(points) - points[team]) / others


def _modelled(world: World) -> World:
    """``world`` after the seat to play plays the Hard level's card, from
    what the world shows that seat (:func:`app.ai.hard.best_card`)."""
    child = world.copy()
    child.play(best_card(observe(world, world.turn)))
    return child


def _solve(world: World, team: int, alpha: float, beta: float) -> float:
    """Exact value of a perfect-information world of two teams for
    ``team``: its points minus the other team's at the end, its seats
    playing their best and the other team's the Hard level's card
    (:data:`MODEL_IN_SOLVER`; else their best: minimax), with alpha-beta."""
    if len(world.plays) == 48:
        return margin(team_points(world), team)
    hand = world.hands[world.turn]
    maximizing = world.rules.team_of(world.turn) == team
    if MODEL_IN_SOLVER and not maximizing:
        return _solve(_modelled(world), team, alpha, beta)
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


def _solve_each(world: World, own: int) -> list[int]:
    """Exact end of a perfect-information world of three or four teams:
    every team's points when each seat in turn plays the card best for its
    own team's :func:`margin` (max-n; ties go to the card earliest in the
    hand), but for the seats of teams other than ``own``, which play the
    Hard level's card (:data:`MODEL_IN_SOLVER`)."""
    if len(world.plays) == 48:
        return team_points(world)
    hand = world.hands[world.turn]
    team = world.rules.team_of(world.turn)
    if MODEL_IN_SOLVER and team != own:
        return _solve_each(_modelled(world), own)
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
        points = _solve_each(child, own)
        value = margin(points, team)
        if value > best_value:
            best, best_value = points, value
    return best


def solve(world: World, team: int) -> float:
    """Exact value of a perfect-information world for ``team``: its
    :func:`margin` at the end, its seats playing their best and the other
    teams' seats the Hard level's card (:data:`MODEL_IN_SOLVER`; else
    every seat its best: minimax for two teams, max-n for more)."""
    if world.rules.team_count == 2:
        return _solve(world, team, float("-inf"), float("inf"))
    return margin(_solve_each(world, team), team)


def card_values(
    observation: Observation,
    rng: random.Random,
    worlds: int | None = None,
    budget_ms: float | None = None,
) -> dict[str, list[float]]:
    """Return, for every distinct card in ``observation.hand`` (in hand
    order), its value in each of the same sampled worlds, in order: the
    observing team's :func:`margin` at the end of the hand when it plays
    that card now and every seat then plays as the Expert's search assumes
    (:func:`playout_policy`, or solved exactly in the last deal as
    :meth:`ExpertBot.choose` does). Captured cards are stand-ins, so the
    margin counts the points still to be won plus the piştis so far.

    Stops after ``worlds`` worlds (while the stock lasts, also after
    sampling :data:`SAMPLED_PER_WORLD` times as many, kept or not) or once
    :data:`FINISH` of ``budget_ms`` milliseconds are spent, whichever comes
    first (``None``: no such limit; give at least one), and looks at one
    world at least. Draws only from ``rng``: with
    ``worlds`` alone, the same ``rng`` state gives the same values. Used by
    :class:`ExpertBot` and the game review (:mod:`app.ai.review`).

    Raises:
        ValueError: neither ``worlds`` nor ``budget_ms`` is given.
    """
    hand, values = _search(observation, rng, worlds, budget_ms)
    return {card: row.tolist() for card, row in zip(hand, values, strict=True)}


def _search(
    observation: Observation,
    rng: random.Random,
    worlds: int | None,
    budget_ms: float | None,
) -> tuple[list[str], Floats]:
    """The distinct cards in hand and their ``(cards, worlds)`` values, as
    :func:`card_values` says."""
    if worlds is None and budget_ms is None:
        raise ValueError("give a number of worlds or a time budget")
    hand = list(dict.fromkeys(observation.hand))
    deadline = time.perf_counter() + (math.inf if budget_ms is None else FINISH * budget_ms / 1000)
    voids = inferred_voids(observation, INFER_JACKS) if INFER else None
    if solves_exactly(observation):
        return hand, _solved_values(observation, hand, rng, deadline, worlds, voids)
    return hand, _played_values(observation, hand, rng, deadline, worlds, voids)


def _solved_values(
    observation: Observation,
    hand: list[str],
    rng: random.Random,
    deadline: float,
    max_worlds: int | None,
    voids: Voids | None,
) -> Floats:
    """``(cards, worlds)``: each card's exact value (:func:`solve`) in
    worlds sampled one at a time (with ``voids``, see :func:`sample_world`)
    until ``deadline`` or ``max_worlds``."""
    seat, team = observation.seat, observation.team
    values: list[list[float]] = [[] for _ in hand]
    while True:
        world = sample_world(observation, rng, voids)
        for position, card in enumerate(hand):
            trial = world.copy()
            trial.play_index(trial.hands[seat].index(card))
            values[position].append(solve(trial, team))
        if time.perf_counter() >= deadline or len(values[0]) == max_worlds:
            return np.array(values, dtype=np.float64)


def _played_values(
    observation: Observation,
    hand: list[str],
    rng: random.Random,
    deadline: float,
    max_worlds: int | None,
    voids: Voids | None,
) -> Floats:
    """``(cards, worlds)``: each card's margin after a playout with
    :func:`playout_policy`, in batches of sampled worlds (with ``voids``,
    see :meth:`Batch.sample`; each kept with the probability
    :func:`_likelihood` gives it from the other seats' plays of this deal;
    every card tried in a copy of each world, all in one :class:`Batch`).
    With ``max_worlds``, it also stops after sampling
    :data:`SAMPLED_PER_WORLD` times as many, kept or not (one world kept at
    least). The first batch samples :data:`FIRST_BATCH` worlds; each next one is
    sized to end by :data:`FILL` of the time left (see
    :func:`_batch_cost`), at most :data:`MAX_BATCH`; none when fewer than
    :data:`MIN_BATCH` would fit. A batch still playing at the deadline is
    dropped (unless no world was kept yet: one world at least), so the
    search ends within a play of the deadline."""
    generator = np.random.default_rng(rng.getrandbits(64))
    history = _history(observation) if MODEL_MISS < 1 else []
    accept = np.random.default_rng(rng.getrandbits(64))
    team = observation.team
    indexes = np.array([observation.hand.index(card) for card in hand], dtype=np.int64)
    chunks: list[Floats] = []
    timings: list[tuple[int, float]] = []
    done, sampled, size = 0, 0, FIRST_BATCH
    while True:
        began = time.perf_counter()
        if max_worlds is not None:
            size = min(size, max_worlds - done)
        worlds = Batch.sample(observation, generator, size, voids)
        sampled += size
        if history:
            kept = accept.random(size) < _likelihood(worlds, history)
            worlds = worlds.take(np.flatnonzero(kept))
        trials = worlds.tile(len(indexes))
        trials.play(indexes.repeat(worlds.size))
        while not trials.finished:
            if done and time.perf_counter() >= deadline:
                # Out of time: this batch is dropped, the worlds so far stand.
                return np.concatenate(chunks, axis=1)
            trials.play(playout_policy(trials))
        chunks.append(trials.margins(team).reshape(len(indexes), worlds.size))
        done += worlds.size
        now = time.perf_counter()
        timings.append((size, now - began))
        if done == max_worlds or (done and now >= deadline):
            break
        if max_worlds is not None and done and sampled >= SAMPLED_PER_WORLD * max_worlds:
            break
        if deadline < math.inf and done:
            fixed, per_world = _batch_cost(timings)
            size = min(MAX_BATCH, int(((deadline - now) * FILL - fixed) / per_world))
            if size < MIN_BATCH:
                break
        else:
            size = MAX_BATCH
    return np.concatenate(chunks, axis=1)


def _batch_cost(timings: list[tuple[int, float]]) -> tuple[float, float]:
    """Return a batch's fixed time and its time per world, in seconds, from
    the ``(worlds, seconds)`` of the batches so far: the line through the
    first and the last (the first alone: all of its time counts as fixed,
    and as per world too)."""
    first_size, first_time = timings[0]
    last_size, last_time = timings[-1]
    if last_size > first_size:
        per_world = (last_time - first_time) / (last_size - first_size)
        if per_world > 0:
            return max(first_time - per_world * first_size, 0.0), per_world
    return first_time, last_time / last_size


class ExpertBot:
    """Searching player: determinized sampling, exact in the endgame.

    ``budget_ms`` is the thinking time per move in milliseconds; the search
    always looks at one world at least, so a tiny budget still plays.
    ``max_worlds`` stops the search after that many worlds even within the
    budget (``None``: no limit), which makes its choice repeatable.
    ``worlds`` is how many worlds its last search looked at (0 before the
    first, and when the hand left one card to play).
    """

    takes_budget = True

    def __init__(
        self, rng: random.Random, budget_ms: float = BUDGET_MS, max_worlds: int | None = None
    ) -> None:
        self.rng = rng
        self.budget_ms = budget_ms
        self.max_worlds = max_worlds
        self.worlds = 0

    def choose(self, observation: Observation) -> str:
        """Return the card code to play from ``observation.hand``: the Hard
        level's card unless another's values (:func:`card_values`) beat it
        clearly (:func:`_better_than`, by :data:`CONFIDENCE` standard errors
        and :data:`MIN_GAIN` points; by :data:`CONFIDENCE_EXACT` standard
        errors when the worlds are solved exactly)."""
        hand = list(dict.fromkeys(observation.hand))
        self.worlds = 0
        if len(hand) == 1:
            return hand[0]
        _hand, values = _search(observation, self.rng, self.max_worlds, self.budget_ms)
        self.worlds = values.shape[1]
        default = hand.index(best_card(observation))
        if solves_exactly(observation):
            return hand[_better_than(values, default, CONFIDENCE_EXACT)]
        return hand[_better_than(values, default, CONFIDENCE, MIN_GAIN)]


def solves_exactly(observation: Observation) -> bool:
    """Whether the search solves each world exactly: the last deal, with at
    most :data:`EXACT_LINES` orders of play left."""
    return observation.stock == 0 and _lines(observation.hand_sizes) <= EXACT_LINES


def _lines(hand_sizes: tuple[int, ...]) -> int:
    """How many orders the cards in hand can be played in: the product of
    the hand sizes' factorials (the leaves of an exact search)."""
    return math.prod(math.factorial(size) for size in hand_sizes)


def _better_than(
    values: Floats, default: int, confidence: float = CONFIDENCE, min_gain: float = 0.0
) -> int:
    """Return the move (a row of ``values``, ``(cards, worlds)``) with the
    best mean value if it beats ``default`` (the Hard level's choice) by
    more than ``confidence`` standard errors of their paired difference
    over the same worlds and by more than ``min_gain`` points; else
    ``default``."""
    best = int(values.mean(axis=1).argmax())
    n = values.shape[1]
    if best == default or n < 2:
        return default
    differences = values[best] - values[default]
    mean = differences.mean()
    if mean <= min_gain:
        return default
    variance = differences.var(ddof=1)
    if variance == 0:
        return best if mean > 0 else default
    return best if mean > confidence * (variance / n) ** 0.5 else default
