"""Duplicate matches between two levels, for measuring strength and speed.

Every seeded deal is played twice, the levels swapping seats (and with four
players, teams), so the luck of the cards cancels out. Standard library only.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .ai import make_bot
from .engine import GameState, get_rules, hand_winner, observe, score_hand, seeded_deck
from .style_stats import StyleStats


@dataclass
class ArenaResult:
    """What an arena run measured.

    Attributes:
        differences: per deal, A's points minus B's, averaged over the two
            seatings.
        wins, draws, losses: A's results over all games (two per deal),
            by the rule set's winner rule (cardems breaks ties by cards).
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
        mean = statistics.fmean(self.differences)
        if len(self.differences) < 2:
            return mean, math.inf
        return mean, 1.96 * statistics.stdev(self.differences) / math.sqrt(len(self.differences))


def play_deals(
    a: str,
    b: str,
    rules_name: str,
    seed: str,
    first: int,
    count: int,
    budget_ms: float | None = None,
    max_worlds: int | None = None,
) -> ArenaResult:
    """Play deals ``first`` .. ``first + count - 1`` of ``seed`` twice each
    (``budget_ms`` and ``max_worlds``: the searching levels' budget, see
    :func:`app.ai.make_bot`)."""
    rules = get_rules(rules_name)
    result = ArenaResult(times={a: [], b: []}, styles={a: StyleStats(), b: StyleStats()})
    for number in range(first, first + count):
        deck = seeded_deck(f"{seed}-{number}", rules)
        difference = 0.0
        for a_team in (0, 1):
            state = GameState(rules, deck)
            result.styles[a].hands += 1
            result.styles[b].hands += 1
            while not state.finished:
                seat = state.turn
                level = a if seat % 2 == a_team else b
                bot = make_bot(
                    level,
                    random.Random(f"{seed}:{number}:{a_team}:{len(state.plays)}"),
                    budget_ms,
                    max_worlds,
                )
                observation = observe(state, seat)
                start = time.perf_counter()
                card = bot.choose(observation)
                result.times[level].append((time.perf_counter() - start) * 1000)
                result.styles[level].add_play(observation, state.play(card))
            scores = score_hand(state)
            difference += (scores[a_team].points - scores[1 - a_team].points) / 2
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
    rules_name: str = "cardems",
    jobs: int = 1,
    budget_ms: float | None = None,
    max_worlds: int | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals of ``a`` against ``b`` over ``jobs``
    processes and return the combined figures."""
    jobs = max(1, min(jobs, deals))
    chunks = [(deals * j // jobs, deals * (j + 1) // jobs) for j in range(jobs)]
    result = ArenaResult(times={a: [], b: []})
    if jobs == 1:
        result.merge(play_deals(a, b, rules_name, seed, 0, deals, budget_ms, max_worlds))
        return result
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(play_deals, a, b, rules_name, seed, lo, hi - lo, budget_ms, max_worlds)
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
