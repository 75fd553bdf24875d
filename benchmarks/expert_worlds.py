"""Worlds the Expert looks at per decision, and its decision time.

Plays seeded deals (``worlds-0``, ``worlds-1``, ...), the Expert at seat 0
(at its default budget, or BUDGET_MS) against Hard at the other seats, and
reports over the Expert's decisions
with a choice (two cards or more) the median number of sampled worlds per
decision, apart for the last deal's exact solving and the playouts, and the
decision time's median and 99th percentile (wall clock, ``perf_counter``).

Run: .venv/bin/python -m benchmarks.expert_worlds [DEALS] [RULES] [BUDGET_MS]
(default 8 deals of ``cardems`` at 150 ms; RULES as ``--rules`` of the arena).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from app.ai.expert import BUDGET_MS, EXACT_LINES, ExpertBot, _lines
from app.ai.hard import HardBot
from app.engine import GameState, observe, parse_rules_text, seeded_deck


def main(deals: int, rules_text: str, budget_ms: float) -> None:
    rules = parse_rules_text(rules_text)
    worlds: dict[str, list[int]] = {"playouts": [], "exact": []}
    times: list[float] = []
    for number in range(deals):
        state = GameState(rules, seeded_deck(f"worlds-{number}", rules))
        expert, hard = ExpertBot(random.Random(number), budget_ms), HardBot(random.Random(number))
        while not state.finished:
            observation = observe(state, state.turn)
            if state.turn != 0:
                state.play(hard.choose(observation))
                continue
            start = time.perf_counter()
            card = expert.choose(observation)
            if expert.worlds:
                times.append(time.perf_counter() - start)
                exact = observation.stock == 0 and _lines(observation.hand_sizes) <= EXACT_LINES
                worlds["exact" if exact else "playouts"].append(expert.worlds)
            state.play(card)
    every = worlds["playouts"] + worlds["exact"]
    print(f"{rules.label}, {deals} deals, Expert at {budget_ms:g} ms v Hard:")
    for name, counts in (*worlds.items(), ("all", every)):
        print(
            f"  {name:9} {len(counts):5} decisions, median {statistics.median(counts):,.0f} worlds"
        )
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(
        f"  decision time median {statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
    )


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 8,
        sys.argv[2] if len(sys.argv) > 2 else "cardems",
        float(sys.argv[3]) if len(sys.argv) > 3 else BUDGET_MS,
    )
