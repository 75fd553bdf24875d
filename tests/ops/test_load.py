"""The load test, once at a small size: 10 players, a whole hand each, on
each backend and the hello-world (the full size is run by hand; see
BENCHMARKS.md)."""

from __future__ import annotations

import pytest

from benchmarks.load_test import HEADER, main, run


@pytest.mark.parametrize("backend", ["filesystem", "redis", "hello"])
def test_small_load_test_finishes_every_game(backend):
    report = run(backend, players=10, hands=1)
    assert report.errors == []
    assert report.games == 10
    # Every game: home, new game, table, 24 plays each read back, record.
    assert report.requests == 10 * 52
    assert report.median_ms <= report.p99_ms


def test_command_line_reports_and_exits_0(capsys):
    assert main(["--players", "3", "--backend", "filesystem", "--level", "easy"]) == 0
    output = capsys.readouterr().out
    assert HEADER in output
    row = output.strip().splitlines()[-1]
    assert row.startswith("| filesystem |       3 |     3 |      156 |")
