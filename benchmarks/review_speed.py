"""The review's time per step and per whole hand.

Plays ``HANDS`` hands of each rule set with the Hard level in every seat
(seeded, so the same hands every run), then reviews seat 0's decisions as
the summary's job does (:func:`app.ai.review.evaluate`, one after the
other), on one core in this process; and once more through a one-worker
:class:`app.searches.SearchPool`, as the web does, to show the pool's own
cost. Prints the median, 95th percentile and largest wall time of a step and
its CPU time, and the median and largest time of a whole hand's review.

Run: nice -n 10 .venv/bin/python benchmarks/review_speed.py [HANDS]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from app.ai import make_bot
from app.ai.review import evaluate
from app.engine import RULE_SETS, GameState, RuleSet, observe, seeded_deck, with_options
from app.engine.decisions import Decision, decisions
from app.searches import SearchPool

RULES = [
    *RULE_SETS.values(),
    with_options(RULE_SETS["classic"], {"players": 3}),
]


def hand(rules: RuleSet, seed: str) -> GameState:
    """A hand of ``rules`` dealt from ``seed`` and played by Hard bots."""
    state = GameState.deal(rules, seeded_deck(seed, rules))
    rng = random.Random(seed)
    bots = [make_bot("hard", rng, None) for _ in range(rules.players)]
    while not state.finished:
        state.play(bots[state.turn].choose(observe(state, state.turn)))
    return state


def pooled(_budget_ms: float, decision: Decision, number: int) -> object:
    return evaluate(decision.observation, decision.played, number)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(hands: int) -> None:
    print(f"review speed, {hands} hands a rule set, Python {sys.version.split()[0]}")
    print(
        "| rules | steps | step median | step p95 | step max | step CPU median | step CPU max "
        "| hand median | hand max | hand CPU median |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for rules in RULES:
        steps: list[float] = []
        cpu: list[float] = []
        totals: list[float] = []
        cpu_totals: list[float] = []
        for number in range(hands):
            found = decisions(hand(rules, f"review-bench-{number}"), 0)
            total = cpu_total = 0.0
            for index, decision in enumerate(found, start=1):
                start, start_cpu = time.perf_counter(), time.process_time()
                evaluate(decision.observation, decision.played, index)
                elapsed = time.perf_counter() - start
                used = time.process_time() - start_cpu
                steps.append(elapsed)
                cpu.append(used)
                total += elapsed
                cpu_total += used
            totals.append(total)
            cpu_totals.append(cpu_total)
        print(
            f"| {rules.label} | {len(steps)} | {statistics.median(steps) * 1000:.0f} ms "
            f"| {percentile(steps, 0.95) * 1000:.0f} ms | {max(steps) * 1000:.0f} ms "
            f"| {statistics.median(cpu) * 1000:.0f} ms | {max(cpu) * 1000:.0f} ms "
            f"| {statistics.median(totals):.1f} s | {max(totals):.1f} s "
            f"| {statistics.median(cpu_totals):.1f} s |"
        )
    pool = SearchPool(processes=1)
    pool.start()
    try:
        found = decisions(hand(RULE_SETS["classic"], "review-bench-0"), 0)
        start = time.perf_counter()
        for index, decision in enumerate(found, start=1):
            pool.run(pooled, 1000.0, decision, index)
        elapsed = time.perf_counter() - start
    finally:
        pool.shutdown()
    print(f"classic hand 0 through a one-worker SearchPool: {elapsed:.1f} s")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
