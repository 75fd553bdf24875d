"""The arena command: a short run proves it works (figures live in
BENCHMARKS.md, not in tests)."""

from __future__ import annotations

import re


def test_arena_reports_difference_rates_and_times(runner):
    result = runner.invoke(
        args=[
            "arena",
            "--a",
            "hard",
            "--b",
            "easy",
            "--deals",
            "12",
            "--seed",
            "ci",
            "--rules",
            "classic",
            "--jobs",
            "2",
        ]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "12 duplicate deals, 24 games" in out
    mean = re.search(r"\(hard - easy\): ([+-]\d+\.\d\d) ± (\d+\.\d\d) \(95% CI\)", out)
    assert mean
    rates = re.search(r"hard wins (\d+\.\d)%, draws (\d+\.\d)%, loses (\d+\.\d)%", out)
    assert abs(sum(float(rate) for rate in rates.groups()) - 100) < 0.2
    assert re.search(
        r"hard decision time: median \d+\.\d+ ms, p99 \d+\.\d+ ms over 576 decisions", out
    )
    assert re.search(
        r"easy decision time: median \d+\.\d+ ms, p99 \d+\.\d+ ms over 576 decisions", out
    )


def test_arena_expert_with_a_budget(runner):
    result = runner.invoke(
        args=[
            "arena",
            "--a",
            "expert",
            "--b",
            "medium",
            "--deals",
            "1",
            "--seed",
            "ci",
            "--budget-ms",
            "2",
            "--jobs",
            "1",
        ]
    )
    assert result.exit_code == 0, result.output
    assert "expert decision time" in result.output


def test_arena_rejects_unknown_level(runner):
    result = runner.invoke(args=["arena", "--a", "grandmaster", "--b", "easy"])
    assert result.exit_code == 2
