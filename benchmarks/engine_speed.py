"""Random full deals per second on one core.

A random full deal: shuffle a deck, deal it under ``cardems`` and play all
48 cards, each a uniformly random card of the hand of the seat to play. The
deck is shuffled by sorting it on random keys (a uniform shuffle, twice as
fast as ``random.Random.shuffle``, which is also reported). Measured through
the fast path the Expert's playouts use (``GameState.random_playout``) and
through the public ``play()`` API.

Run: .venv/bin/python benchmarks/engine_speed.py [SECONDS]
"""

from __future__ import annotations

import random
import sys
import time

from app.engine import CARDEMS, FULL_DECK, GameState


def shuffled(rng: random.Random, deck: list[str]) -> list[str]:
    """A uniformly shuffled copy of ``deck``: sorted on random keys."""
    rand = rng.random
    return sorted(deck, key=lambda _card: rand())


def fast(rng: random.Random, deck: list[str]) -> None:
    GameState(CARDEMS, shuffled(rng, deck)).random_playout(rng)


def fast_stdlib_shuffle(rng: random.Random, deck: list[str]) -> None:
    rng.shuffle(deck)
    GameState(CARDEMS, deck).random_playout(rng)


def public(rng: random.Random, deck: list[str]) -> None:
    state = GameState(CARDEMS, shuffled(rng, deck))
    rand = rng.random
    while not state.finished:
        hand = state.hands[state.turn]
        state.play(hand[int(rand() * len(hand))])


def rate(deal, seconds: float) -> float:
    """Deals per second over about ``seconds`` (best of three runs)."""
    rng, deck = random.Random(1), list(FULL_DECK)
    best = 0.0
    for _ in range(3):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            for _ in range(200):
                deal(rng, deck)
            count += 200
        best = max(best, count / elapsed)
    return best


def main(seconds: float) -> None:
    print(f"random full deals per second, one core, Python {sys.version.split()[0]}:")
    print(f"  fast path (random_playout):                {rate(fast, seconds):,.0f}")
    print(f"  fast path, random.shuffle for the deck:    {rate(fast_stdlib_shuffle, seconds):,.0f}")
    print(f"  public play() API:                         {rate(public, seconds):,.0f}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 6.0)
