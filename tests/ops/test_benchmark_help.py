"""The benchmarks whose figures BENCHMARKS.md gives answer ``--help`` with
how to run them (their arguments are positional: ``--help`` was read as
one and stopped them with a traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize(
    "module", ["engine_speed", "expert_worlds", "review_speed", "review_queue", "web_post"]
)
def test_help_says_how_to_run_it(module):
    done = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{module}", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Run" in done.stdout
    assert module in done.stdout
    assert "Traceback" not in done.stderr
