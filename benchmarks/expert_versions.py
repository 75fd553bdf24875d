"""Versions of the Expert against Hard on the same duplicate deals, paired.

Plays the arena's duplicate deals (:func:`app.arena.play_deals`), the Expert
against Hard, once for each VARIANT of the Expert's settings, all on the
same deals, one variant after the other in this process. A VARIANT is a
comma-separated list of ``NAME=VALUE`` settings of :mod:`app.ai.expert`
(e.g. ``INFER=0`` or ``MODEL_MISS=0.1,MIN_GAIN=0.5``; ``-`` for the
defaults), as in ``benchmarks/expert_gain.py``. For each it reports Expert −
Hard per deal with a 95 % interval and the decision times, and, from the
second on, its difference from the first variant deal by deal: the same
deals and the same Hard, so much of the noise cancels and a difference
shows with fewer deals than two separate arena runs need.

Run: nice -n 10 .venv/bin/python -m benchmarks.expert_versions --deals 400
--seed x20 --budget-ms 20 [--rules R] VARIANT...
"""

from __future__ import annotations

import argparse
import statistics

from app.arena import ArenaResult, mean_and_margin, percentile, play_deals

from .expert_gain import current_settings, use_variant


def _interval(values: list[float]) -> str:
    mean, half = mean_and_margin(values)
    return f"{mean:+.2f} ± {half:.2f}"


def main(deals: int, seed: str, rules: str, budget_ms: float, variants: list[str]) -> None:
    defaults = current_settings(variants)
    results: list[ArenaResult] = []
    print(f"{rules}, {deals} duplicate deals of seed {seed!r}, the Expert at {budget_ms:g} ms")
    for variant in variants:
        use_variant(variant, defaults)
        result = play_deals("expert", "hard", rules, seed, 0, deals, budget_ms)
        results.append(result)
        times = result.times["expert"]
        line = (
            f"{variant:40} Expert − Hard {_interval(result.differences)}"
            f"  time median {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms"
        )
        if len(results) > 1:
            paired = [
                x - y for x, y in zip(result.differences, results[0].differences, strict=True)
            ]
            line += f"  − {variants[0]}: {_interval(paired)}"
        print(line, flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="x20")
    parser.add_argument("--rules", default="cardems")
    parser.add_argument("--budget-ms", type=float, default=20.0)
    args = parser.parse_args()
    main(args.deals, args.seed, args.rules, args.budget_ms, args.variants)
