"""What the Expert's search gains over the Hard level, one decision at a time.

Plays seeded deals with Hard at every seat. At each decision with a choice
it asks the Expert (in each VARIANT of its settings) which card it would
play; where that is not Hard's card, it plays the rest of the deal out both
ways with Hard at every seat (the deck is known, so each end is exact)
and counts the Expert's card's margin minus Hard's for the deciding seat's
team. Every variant decides in the same positions, so their gains compare
pair by pair, with far less noise than the arena (only decisions where a
variant leaves Hard count).

A VARIANT is a comma-separated list of ``NAME=VALUE`` settings of
:mod:`app.ai.expert` (e.g. ``CONFIDENCE=1.0,CONFIDENCE_EXACT=0.5``; ``-``
for the defaults). It reports each variant's mean gain per decision (95%
interval), apart for searched (playouts) and solved (the last deal)
decisions (as the settings on start class them), how often it left Hard's
card and, from the second variant on, its gain minus the first's, decision
by decision. "A deal" is on the arena's scale (:mod:`app.arena`: a deal's
figure is the mean of its games, one per team): the gains of a deal's
decisions, every seat's, summed and divided by the number of teams.

With ``--last-deal`` it measures whole last deals instead: Hard plays every
seat up to the last deal, then each team in turn plays the last deal as
the Expert (each VARIANT) against Hard, and the gain is its margin minus
the one it gets playing the last deal as Hard; "a deal" is the mean of
the teams' gains, as the arena's figure is the mean of a deal's games.
Here the Expert plays on after its first card, so what it gains later in
the deal counts too.

The Expert thinks ``--budget-ms`` a move (20 by default), or as long as a
VARIANT's ``BUDGET_MS`` says (``BUDGET_MS=1000``).

Run: .venv/bin/python -m benchmarks.expert_gain [--deals N] [--seed S] [--rules R]
[--budget-ms M] [--jobs J] [--only solved|playouts | --last-deal] VARIANT...
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from app.ai import expert
from app.ai.expert import ExpertBot, margin, solves_exactly
from app.ai.hard import HardBot
from app.arena import mean_and_margin
from app.engine import GameState, RuleSet, observe, parse_rules_text, seeded_deck
from app.engine.scoring import team_points


def variant_settings(variant: str) -> dict[str, float]:
    """The settings of :mod:`app.ai.expert` a VARIANT names (``"-"``: none)."""
    if variant == "-":
        return {}
    pairs = (item.split("=") for item in variant.split(","))
    return {name: float(value) for name, value in pairs}


def current_settings(variants: list[str]) -> dict[str, float]:
    """The present values of the settings of :mod:`app.ai.expert` that any
    of ``variants`` changes.

    Raises:
        SystemExit: a variant names a setting the module does not have (a
            typo, or a sketch's setting that was not kept), in one line.
    """
    names = {name for v in variants for name in variant_settings(v)}
    unknown = sorted(name for name in names if not hasattr(expert, name))
    if unknown:
        raise SystemExit(f"app.ai.expert has no setting {', '.join(unknown)}")
    return {name: getattr(expert, name) for name in names}


def use_variant(variant: str, defaults: dict[str, float]) -> None:
    """Set the settings of :mod:`app.ai.expert` to ``defaults`` (each
    setting some variant changes, at its value on start), then to those
    VARIANT names."""
    for name, value in {**defaults, **variant_settings(variant)}.items():
        setattr(expert, name, value)


def _budget(variant: str, budget_ms: float) -> float:
    """The Expert's budget a move in ``variant``, in milliseconds: its
    ``BUDGET_MS`` if it sets one, else ``budget_ms``."""
    return variant_settings(variant).get("BUDGET_MS", budget_ms)


def _hard_margin(state: GameState, card: str, team: int) -> float:
    trial = state.copy()
    trial.play(card)
    hard = HardBot(random.Random(0))
    while not trial.finished:
        trial.play(hard.choose(observe(trial, trial.turn)))
    return margin(team_points(trial), team)


def _hands(rules: RuleSet, seed: str, first: int, count: int) -> Iterator[tuple[int, GameState]]:
    """The seeded hands ``first`` .. ``first + count - 1``, with their numbers."""
    for number in range(first, first + count):
        yield number, GameState(rules, seeded_deck(f"{seed}-{number}", rules))


def gains(
    rules_text: str,
    seed: str,
    first: int,
    count: int,
    budget_ms: float,
    variants: list[str],
    only: str | None = None,
) -> dict[tuple[str, str], list[tuple[float, bool]]]:
    """Per (variant, kind): the gain of each decision (0 where the variant
    plays Hard's card) and whether it left Hard's card, deals ``first`` ..
    ``first + count - 1`` (only the decisions of kind ``only``, if given)."""
    rules = parse_rules_text(rules_text)
    defaults = current_settings(variants)
    found: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    hard = HardBot(random.Random(0))
    for number, state in _hands(rules, seed, first, count):
        while not state.finished:
            seat = state.turn
            obs = observe(state, seat)
            card = hard.choose(obs)
            use_variant("-", defaults)
            kind = "solved" if solves_exactly(obs) else "playouts"
            if len(set(obs.hand)) > 1 and only in (None, kind):
                ends = {card: 0.0}
                for variant in variants:
                    use_variant(variant, defaults)
                    rng = random.Random(f"{seed}:{number}:{len(state.plays)}")
                    choice = ExpertBot(rng, _budget(variant, budget_ms)).choose(obs)
                    if choice not in ends:
                        ends[choice] = _hard_margin(state, choice, rules.team_of(seat))
                        ends[card] = ends[card] or _hard_margin(state, card, rules.team_of(seat))
                    found[variant, kind].append((ends[choice] - ends[card], choice != card))
            state.play(card)
    return found


def _last_deal(
    state: GameState, team: int, budget_ms: float, rng: random.Random
) -> tuple[float, bool]:
    """``team``'s margin when its seats play the rest of the hand as the
    Expert and the other seats as Hard, and whether the Expert ever played
    another card than Hard would have."""
    trial = state.copy()
    hard = HardBot(random.Random(0))
    left = False
    while not trial.finished:
        obs = observe(trial, trial.turn)
        card = hard.choose(obs)
        if trial.rules.team_of(trial.turn) == team:
            choice = ExpertBot(rng, budget_ms).choose(obs)
            left, card = left or choice != card, choice
        trial.play(card)
    return margin(team_points(trial), team), left


def last_deals(
    rules_text: str, seed: str, first: int, count: int, budget_ms: float, variants: list[str]
) -> dict[tuple[str, str], list[tuple[float, bool]]]:
    """Per (variant, ``"last deal"``): for deals ``first`` .. ``first + count
    - 1``, played by Hard at every seat up to the last deal, the gain of
    each team playing the last deal as the Expert (the other team as Hard)
    over playing it as Hard, and whether the Expert left Hard's card."""
    rules = parse_rules_text(rules_text)
    defaults = current_settings(variants)
    found: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    hard = HardBot(random.Random(0))
    for number, state in _hands(rules, seed, first, count):
        while state.stock:
            state.play(hard.choose(observe(state, state.turn)))
        for team in range(rules.team_count):
            use_variant("-", defaults)
            base = _hard_margin(state, hard.choose(observe(state, state.turn)), team)
            for variant in variants:
                use_variant(variant, defaults)
                rng = random.Random(f"{seed}:{number}:{team}")
                end, left = _last_deal(state, team, _budget(variant, budget_ms), rng)
                found[variant, "last deal"].append((end - base, left))
    return found


def main(
    deals: int,
    seed: str,
    rules_text: str,
    budget_ms: float,
    jobs: int,
    only: str | None,
    variants: list[str],
    last_deal: bool = False,
) -> None:
    chunks = [(deals * j // jobs, deals * (j + 1) // jobs) for j in range(jobs)]
    found: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(last_deals, rules_text, seed, lo, hi - lo, budget_ms, variants)
            if last_deal
            else pool.submit(gains, rules_text, seed, lo, hi - lo, budget_ms, variants, only)
            for lo, hi in chunks
        ]
        for future in futures:
            for key, values in future.result().items():
                found[key] += values
    print(f"{rules_text}, {deals} deals, Hard at every seat, the Expert at {budget_ms:g} ms")
    per_deal = deals * parse_rules_text(rules_text).team_count
    for (variant, kind), pairs in sorted(found.items()):
        values = [gain for gain, _ in pairs]
        left = sum(1 for _, changed in pairs if changed) / len(pairs)
        mean, half = mean_and_margin(values)
        line = (
            f"{variant:40} {kind:9} {len(values):6} {'' if kind == 'last deal' else 'decisions'}"
            f"  gain {mean:+.3f} ± {half:.3f}"
            f"  ({sum(values) / per_deal:+.2f} a deal)  leaves Hard's card {left:.1%}"
        )
        if variant != variants[0]:
            first = [gain for gain, _ in found[variants[0], kind]]
            paired, half = mean_and_margin([x - y for x, y in zip(values, first, strict=True)])
            line += f"  − {variants[0]}: {paired:+.3f} ± {half:.3f}"
        print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="gain")
    parser.add_argument("--rules", default="cardems")
    parser.add_argument("--budget-ms", type=float, default=20.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", choices=("solved", "playouts"), default=None)
    parser.add_argument("--last-deal", action="store_true")
    args = parser.parse_args()
    main(
        args.deals,
        args.seed,
        args.rules,
        args.budget_ms,
        args.jobs,
        args.only,
        args.variants,
        args.last_deal,
    )
