"""The arena command: a short run proves it works (figures live in
BENCHMARKS.md, not in tests)."""

from __future__ import annotations

import re

import pytest

from app.ai.easy import EasyBot
from app.arena import run_arena


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


def test_arena_with_three_players_turns_a_seat_round_the_table(runner):
    result = runner.invoke(
        args=[
            "arena",
            "--a",
            "hard",
            "--b",
            "medium",
            "--deals",
            "4",
            "--seed",
            "ci",
            "--rules",
            "classic&players=3&jack_pisti=10",
            "--jobs",
            "1",
        ]
    )
    assert result.exit_code == 0, result.output
    # one game per seat for A: 3 games a deal; A plays 16 cards a game, B 32
    assert "4 duplicate deals, 12 games" in result.output
    assert re.search(r"hard decision time: .* over 192 decisions", result.output)
    assert re.search(r"medium decision time: .* over 384 decisions", result.output)


def test_arena_with_four_solo_players(runner):
    result = runner.invoke(
        args=[
            *("arena", "--a", "hard", "--b", "easy", "--deals", "2", "--jobs", "1"),
            *("--rules", "rules=partners&teams=solo"),
        ]
    )
    assert result.exit_code == 0, result.output
    assert "2 duplicate deals, 8 games" in result.output


@pytest.mark.parametrize(
    ("rules", "named"),
    [("cardems&players=3", "most_cards"), ("classic&jokers=2", "jokers"), ("tavla", "tavla")],
)
def test_arena_refuses_invalid_rules_in_one_line(runner, rules, named):
    result = runner.invoke(args=["arena", "--a", "hard", "--b", "easy", "--rules", rules])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and named in result.stderr


@pytest.mark.parametrize("budget", ["nan", "inf", "1e9", "0.5", "-3"])
def test_arena_refuses_a_budget_it_cannot_keep_in_one_line(runner, budget):
    args = ["arena", "--a", "expert", "--b", "medium", "--deals", "1", "--budget-ms", budget]
    result = runner.invoke(args=args)
    assert result.exit_code == 2
    assert result.stderr == "--budget-ms must be a number of milliseconds from 1 to 60000\n"


def test_arena_plays_a_bot_given_by_name_over_processes():
    # the benchmarks' yardstick joins the arena this way; the Easy level's
    # class under another name plays exactly as Easy does
    extra = run_arena("random", "hard", 4, "ci", "classic", 2, extra_bots={"random": EasyBot})
    easy = run_arena("easy", "hard", 4, "ci", "classic", 1)
    assert extra.differences == easy.differences
    assert len(extra.times["random"]) == len(easy.times["easy"]) == 4 * 2 * 24


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        ("", "--seed: a seed is 1 to 64 letters, digits, '-' or '_'\n"),
        ("a/b", "--seed: a seed is 1 to 64 letters, digits, '-' or '_'\n"),
        # The deals are seeded SEED-0 .. SEED-11: the last one, 65 characters,
        # would be no seed, and stopped the command with a traceback.
        (
            "x" * 62,
            "--seed: at most 61 characters with --deals 12 (the deals are seeded SEED-0 to "
            "SEED-11, each at most 64), not 62\n",
        ),
    ],
    ids=["empty", "a slash", "too long for its deals"],
)
def test_arena_refuses_a_seed_its_deals_cannot_take_in_one_line(runner, seed, said):
    args = ["arena", "--a", "hard", "--b", "easy", "--deals", "12", "--jobs", "1"]
    result = runner.invoke(args=[*args, "--seed", seed])
    assert result.exit_code == 2
    assert result.stderr == said


def test_arena_takes_the_longest_seed_its_deals_allow(runner):
    args = ["arena", "--a", "hard", "--b", "easy", "--deals", "12", "--jobs", "1"]
    result = runner.invoke(args=[*args, "--seed", "x" * 61])
    assert result.exit_code == 0, result.output
