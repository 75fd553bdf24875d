"""Complete playouts from a deal's start per CPU-second, scalar and batched.

A playout: shuffle a deck, deal it under ``cardems``, play all 48 cards and
score the hand (each team's points). Side by side in one run, on one core:

- the scalar engine (:class:`~app.engine.state.GameState`), a uniformly
  random card each play, through the fast path ``random_playout`` (the deck
  sorted on random keys, or shuffled with ``random.Random.shuffle``) and
  through the public ``play()`` API;
- the batched engine (:class:`~app.engine.batch.Batch`) for batches of 256,
  1,024 and 4,096 worlds (decks shuffled by sorting random keys with numpy),
  with a uniformly random card and with the Expert's playout policy
  (:func:`app.ai.expert.playout_policy`).

Times are CPU seconds of this process (``time.process_time``), so other
work on the machine slows the figures less than wall-clock ones.

Run: .venv/bin/python -m benchmarks.engine_speed [SECONDS]
(SECONDS per figure, default 3).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import numpy as np

from app.ai.expert import playout_policy
from app.engine import CARDEMS, FULL_DECK, GameState
from app.engine.batch import Batch, Policy, random_policy
from app.engine.scoring import team_points

BATCH_SIZES = (256, 1024, 4096)


def shuffled(rng: random.Random, deck: list[str]) -> list[str]:
    """A uniformly shuffled copy of ``deck``: sorted on random keys."""
    rand = rng.random
    return sorted(deck, key=lambda _card: rand())


def fast(rng: random.Random, deck: list[str]) -> int:
    state = GameState(CARDEMS, shuffled(rng, deck))
    state.random_playout(rng)
    team_points(state)
    return 1


def fast_stdlib_shuffle(rng: random.Random, deck: list[str]) -> int:
    rng.shuffle(deck)
    state = GameState(CARDEMS, deck)
    state.random_playout(rng)
    team_points(state)
    return 1


def public(rng: random.Random, deck: list[str]) -> int:
    state = GameState(CARDEMS, shuffled(rng, deck))
    rand = rng.random
    while not state.finished:
        hand = state.hands[state.turn]
        state.play(hand[int(rand() * len(hand))])
    team_points(state)
    return 1


def batched(size: int, policy: Callable[[np.random.Generator], Policy]) -> Callable[..., int]:
    """A run of ``size`` playouts at once with ``policy(generator)``."""
    generator = np.random.default_rng(1)
    chosen = policy(generator)

    def run(_rng: random.Random, _deck: list[str]) -> int:
        decks = np.argsort(generator.random((size, len(FULL_DECK))), axis=1)
        batch = Batch.deal(CARDEMS, decks)
        batch.playout(chosen)
        batch.team_points()
        return size

    return run


def rate(run: Callable[[random.Random, list[str]], int], seconds: float) -> float:
    """Playouts per CPU-second over about ``seconds`` (best of three runs)."""
    rng, deck = random.Random(1), list(FULL_DECK)
    best = 0.0
    for _ in range(3):
        count, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / 3:
            count += run(rng, deck)
        best = max(best, count / elapsed)
    return best


def main(seconds: float) -> None:
    print(
        f"complete playouts from a deal's start per CPU-second, cardems, one core, "
        f"Python {sys.version.split()[0]}, numpy {np.__version__}:"
    )
    rows: list[tuple[str, Callable[..., int]]] = [
        ("scalar, random, fast path (random_playout)", fast),
        ("scalar, random, fast path, random.shuffle", fast_stdlib_shuffle),
        ("scalar, random, public play() API", public),
    ]
    for size in BATCH_SIZES:
        rows.append((f"batched, random, {size:,} worlds", batched(size, random_policy)))
    for size in BATCH_SIZES:
        rows.append(
            (f"batched, Expert's policy, {size:,} worlds", batched(size, lambda _g: playout_policy))
        )
    for name, run in rows:
        print(f"  {name:44} {rate(run, seconds):>10,.0f}")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
