"""The ceiling of the Expert's search: a clairvoyant Expert against Hard.

The clairvoyant runs the Expert's own search and decision rule
(:class:`app.ai.expert.ExpertBot`), but the worlds it samples are built from
the true hand in progress. It reads the real state, which no bot of
``app/`` ever gets: this benchmark wraps the arena's ``observe`` to keep the
state the arena last observed, and hands worlds made from it to the search
in place of its sampled ones (``--sees``):

- ``all``: every world is the true state (the other seats' hands, the
  face-down cards and the stock as they lie). The playout policy is
  deterministic, so the worlds are all the same and two are enough; the
  decision rule then reduces to: the search's best card when it beats
  Hard's by more than ``MIN_GAIN`` points (with playouts; by anything in
  the solved last deal).
- ``hands``: the other seats' true hands, the stock and the face-down
  cards dealt at random among themselves in each world (``--worlds`` of
  them a decision). This bounds what inference about the other hands from
  their plays (opponent modelling) can give this search: perfect
  inference gives no more.

Run (``--min-gain`` overrides :data:`app.ai.expert.MIN_GAIN`; 0 plays the
search's best card whenever it beats Hard's)::

    nice -n 10 .venv/bin/python -m benchmarks.ceiling --deals 400 --rules cardems --min-gain 1
    nice -n 10 .venv/bin/python -m benchmarks.ceiling --deals 400 --sees hands --worlds 100 \
        --min-gain 1
"""

from __future__ import annotations

import argparse
import random
from unittest import mock

from app import arena
from app.ai import expert
from app.ai.expert import ExpertBot
from app.engine import GameState, Observation, observe
from app.engine.batch import Batch

#: The state the arena observed last (before the bot to play chooses).
_observed: list[GameState] = []


def _observe(state: GameState, seat: int) -> Observation:
    """The arena's ``observe``, keeping ``state`` for the clairvoyant."""
    _observed[:] = [state]
    return observe(state, seat)


def hands_world(state: GameState, rng: random.Random) -> GameState:
    """A copy of ``state`` with the stock's unknown cards and the face-down
    cards still on the table dealt at random among themselves; every hand
    and the cards known at the bottom of the stock as they are."""
    world = state.copy()
    end = len(state.order) - len(state.stock_bottom)
    pool = [*state.order[state.next_card : end], *state.pile[: state.face_down]]
    rng.shuffle(pool)
    stock = end - state.next_card
    world.order = (*state.order[: state.next_card], *pool[:stock], *state.order[end:])
    world.pile[: state.face_down] = pool[stock:]
    return world


class ClairvoyantBot:
    """The Expert's search with worlds made from the true state."""

    #: ``"all"`` (every world the true state) or ``"hands"`` (:func:`hands_world`).
    sees = "all"
    #: Worlds a decision looks at.
    worlds = 2

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.expert = ExpertBot(rng, budget_ms=1e9, max_worlds=self.worlds)

    def choose(self, observation: Observation) -> str:
        """Return the Expert's card when its worlds are made from the true state."""
        state = _observed[0]

        def world(*_: object) -> GameState:
            return state.copy() if self.sees == "all" else hands_world(state, self.rng)

        class Worlds:
            @staticmethod
            def sample(
                _observation: Observation, _generator: object, size: int, *_: object
            ) -> Batch:
                return Batch.from_states([world() for _ in range(size)])

        # Worlds made from the true hands need no inference from the plays.
        with (
            mock.patch.object(expert, "sample_world", world),
            mock.patch.object(expert, "Batch", Worlds),
            mock.patch.object(expert, "MODEL_MISS", 1.0),
        ):
            return self.expert.choose(observation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--b", default="hard")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", default="ceiling")
    parser.add_argument("--rules", default="cardems")
    parser.add_argument("--min-gain", type=float, default=expert.MIN_GAIN)
    parser.add_argument("--sees", choices=("all", "hands"), default="all")
    parser.add_argument("--worlds", type=int, default=2)
    args = parser.parse_args()
    ClairvoyantBot.sees = args.sees
    ClairvoyantBot.worlds = args.worlds
    extra = {"clairvoyant": ClairvoyantBot}
    with (
        mock.patch.object(arena, "observe", _observe),
        mock.patch.object(expert, "MIN_GAIN", args.min_gain),
    ):
        result = arena.run_arena(
            "clairvoyant", args.b, args.deals, args.seed, args.rules, 1, None, None, extra
        )
    print(f"sees {args.sees}, {args.worlds} worlds a decision, MIN_GAIN={args.min_gain:g}")
    print(arena.report(result, "clairvoyant", args.b))


if __name__ == "__main__":
    main()
