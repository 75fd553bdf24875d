"""Duplicate deals between two levels, for measuring strength and speed.

Every seeded deal is played once per team, level A playing that team's
seats and level B every other seat, so the luck of the cards cancels out:

- two players, or two partnerships: twice, the levels swapping seats (teams);
- three or four solo players: three or four times, A at one seat against
  B at all the others, A's seat going round the table, so each level plays
  every seat of the same deal.

A deal's figure is A's points minus the mean of the other teams' points,
averaged over its games. Standard library only.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .ai import Bot, make_bot
from .engine import (
    GameState,
    hand_winner,
    observe,
    parse_rules_text,
    score_hand,
    seeded_deck,
)
from .style_stats import StyleStats


@dataclass
class ArenaResult:
    """What an arena run measured.

    Attributes:
        differences: per deal, A's points minus the mean of the other
            teams' (B's), averaged over the deal's games (one per team).
        wins, draws, losses: A's results over all games (one per team and
            deal), by the rule set's winner rule (cardems breaks ties by
            cards); a loss is any other team winning.
        times: each level's decision times, in milliseconds.
        styles: each level's style statistics.
    """

    differences: list[float] = field(default_factory=list)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)
    styles: dict[str, StyleStats] = field(default_factory=dict)

    def merge(self, other: ArenaResult) -> None:
        """Add another run's figures to these."""
        self.differences += other.differences
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        for level, times in other.times.items():
            self.times.setdefault(level, []).extend(times)
        for level, stats in other.styles.items():
            self.styles.setdefault(level, StyleStats()).merge(stats)

    def mean_and_margin(self) -> tuple[float, float]:
        """Return the mean difference per deal and its 95% margin (±)."""
        return mean_and_margin(self.differences)


def mean_and_margin(values: list[float]) -> tuple[float, float]:
    """Return the mean of ``values`` (at least one) and its 95% margin (±,
    normal approximation; infinite with a single value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def play_deals(
    a: str,
    b: str,
    rules_text: str,
    seed: str,
    first: int,
    count: int,
    budget_ms: float | None = None,
    max_worlds: int | None = None,
    extra_bots: Mapping[str, Callable[[random.Random], Bot]] | None = None,
) -> ArenaResult:
    """Play deals ``first`` .. ``first + count - 1`` of ``seed``, each once
    per team with A at that team's seats. ``rules_text`` is a rule set as
    :func:`~app.engine.parse_rules_text` reads it (``classic&players=3``);
    ``budget_ms`` and ``max_worlds`` are the searching levels' budget (see
    :func:`app.ai.make_bot`). ``extra_bots`` adds bots by name to the
    levels (a factory taking the bot's :class:`random.Random`; the
    benchmarks' yardstick), picklable for :func:`run_arena`'s processes.

    Raises:
        InvalidRules: ``rules_text`` is not a valid rule set.
    """
    rules = parse_rules_text(rules_text)
    teams = rules.team_count
    result = ArenaResult(times={a: [], b: []}, styles={a: StyleStats(), b: StyleStats()})
    for number in range(first, first + count):
        deck = seeded_deck(f"{seed}-{number}", rules)
        difference = 0.0
        for a_team in range(teams):
            state = GameState(rules, deck)
            for seat in range(rules.players):
                result.styles[a if rules.team_of(seat) == a_team else b].hands += 1
            while not state.finished:
                seat = state.turn
                level = a if rules.team_of(seat) == a_team else b
                rng = random.Random(f"{seed}:{number}:{a_team}:{len(state.plays)}")
                if extra_bots and level in extra_bots:
                    bot = extra_bots[level](rng)
                else:
                    bot = make_bot(level, rng, budget_ms, max_worlds)
                observation = observe(state, seat)
                start = time.perf_counter()
                card = bot.choose(observation)
                result.times[level].append((time.perf_counter() - start) * 1000)
                result.styles[level].add_play(observation, state.play(card))
            scores = score_hand(state)
            others = sum(score.points for score in scores) - scores[a_team].points
            difference += (scores[a_team].points - others / (teams - 1)) / teams
            winner, _ = hand_winner(state, scores)
            if winner is None:
                result.draws += 1
            elif winner == a_team:
                result.wins += 1
            else:
                result.losses += 1
        result.differences.append(difference)
    return result


def run_arena(
    a: str,
    b: str,
    deals: int,
    seed: str,
    rules_text: str = "cardems",
    jobs: int = 1,
    budget_ms: float | None = None,
    max_worlds: int | None = None,
    extra_bots: Mapping[str, Callable[[random.Random], Bot]] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals of ``a`` against ``b`` under the rules
    ``rules_text`` (as :func:`play_deals`) over ``jobs`` processes and
    return the combined figures."""
    jobs = max(1, min(jobs, deals))
    chunks = [(deals * j // jobs, deals * (j + 1) // jobs) for j in range(jobs)]
    result = ArenaResult(times={a: [], b: []})
    if jobs == 1:
        result.merge(
            play_deals(a, b, rules_text, seed, 0, deals, budget_ms, max_worlds, extra_bots)
        )
        return result
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(
                play_deals, a, b, rules_text, seed, lo, hi - lo, budget_ms, max_worlds, extra_bots
            )
            for lo, hi in chunks
        ]
        for future in futures:
            result.merge(future.result())
    return result


def percentile(values: list[float], fraction: float) -> float:
    """Return the ``fraction`` quantile (0..1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def report(result: ArenaResult, a: str, b: str) -> str:
    """Return the arena figures as text lines."""
    mean, margin = result.mean_and_margin()
    games = result.wins + result.draws + result.losses
    lines = [
        f"{a} vs {b}: {len(result.differences)} duplicate deals, {games} games",
        f"mean point difference per deal ({a} - {b}): {mean:+.2f} ± {margin:.2f} (95% CI)",
        f"{a} wins {result.wins / games:.1%}, draws {result.draws / games:.1%}, "
        f"loses {result.losses / games:.1%}",
    ]
    for level in dict.fromkeys((a, b)):
        times = result.times[level]
        lines.append(
            f"{level} decision time: median {statistics.median(times):.3f} ms, "
            f"p99 {percentile(times, 0.99):.3f} ms over {len(times)} decisions"
        )
    for level in dict.fromkeys((a, b)):
        if level in result.styles:
            lines.append(f"{level} style: {result.styles[level].describe()}")
    return "\n".join(lines)
