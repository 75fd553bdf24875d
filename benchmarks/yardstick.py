"""An outside yardstick for the Hard level: an independent card-counting
heuristic, and the tools to measure Hard against it.

The bot (:class:`YardstickBot`) is written from the rules and strategy tips
of seed 001 ("Counting cards and strategy tips"), not from the Hard level's
code: it counts the unseen cards of each rank itself, weighs a capture by the
pile's points, cards and pişti, and a throw by the odds that the next seat
takes it (same rank or a Jack), saves Jacks for piles worth them, holds a
rank it can take back, and knows who takes the table at the end.

Run (``--rules`` as the arena's; ``--jobs`` worker processes)::

    python -m benchmarks.yardstick arena --a yardstick --b hard --deals 10000 --seed yard
    python -m benchmarks.yardstick differ --deals 2000 --seed yard

``arena`` is the ``flask arena`` command with this bot among the levels.
``differ`` plays Hard against the yardstick over duplicate deals and, at
every decision where the two would play different cards, plays the rest of
the deal out both ways (every seat keeping its bot; the deck is known, so
each way's end is exact) and reports, by kind of decision, how many points
the yardstick's card gains over Hard's for the deciding seat's team.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from app.ai import Bot, make_bot
from app.ai.expert import margin
from app.arena import report, run_arena
from app.engine import (
    FULL_DECK,
    GameState,
    Observation,
    card_points,
    observe,
    parse_rules_text,
    seeded_deck,
)
from app.engine.scoring import team_points

#: Points a captured card is worth towards the most-cards bonus (3 points
#: shared over 52 cards, a little more since it goes to one side).
PER_CARD = 0.1
#: A Jack is spent on a pile worth at least this many points while the stock lasts.
JACK_PILE = 1.5


class YardstickBot:
    """Independent card counter (seed 001's strategy tips)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> str:
        """Return the card of ``observation.hand`` with the best expected
        point swing (ties: the first in hand)."""
        return max(observation.hand, key=lambda card: self.worth(observation, card))

    def worth(self, obs: Observation, card: str) -> float:
        """Expected points of playing ``card`` for the seat's side."""
        known = set(obs.seen) | set(obs.hand)
        unseen = [c for c in FULL_DECK if c not in known]
        left = {rank: 0 for rank in "A23456789TJQK"}
        for c in unseen:
            left[c[0]] += 1
        unknown = len(unseen)
        mean_points = sum(card_points(c) for c in unseen) / unknown if unknown else 0.0
        next_size = obs.hand_sizes[(obs.seat + 1) % obs.rules.players]

        def holds(rank: str) -> float:
            k = left[rank]
            if k == 0 or next_size == 0 or unknown == 0:
                return 0.0
            miss = 1.0
            for i in range(min(next_size, unknown)):
                if unknown - k - i <= 0:
                    return 1.0
                miss *= (unknown - k - i) / (unknown - i)
            return 1.0 - miss

        face_up = list(obs.pile_face_up)
        pile = (
            sum(card_points(c) for c in face_up)
            + obs.face_down * mean_points
            + PER_CARD * obs.pile_size
        )
        mine = card_points(card) + PER_CARD
        top = obs.pile_top
        jack = card[0] == "J"
        in_last_deal = obs.stock == 0
        hold_jack = 0.0
        if jack:
            # Saving a Jack is worth less as the hand runs out.
            hold_jack = 0.4 * len(obs.hand) if in_last_deal else JACK_PILE
        captures = top is not None and (card[0] == top[0] or jack)
        if captures:
            value = pile + mine
            pisti = obs.pile_size == 1 and card[0] == top[0]
            if pisti and obs.rules.pisti_counts(len(obs.plays) + 1):
                value += obs.rules.jack_pisti_points if jack else obs.rules.pisti_points
            return value - hold_jack
        # The card stays on the table.
        after = pile + mine
        if obs.plays_left == 1:
            swept = after + obs.rules.last_sweep_bonus
            return swept if obs.last_capturer == obs.team else -swept
        take_rank = holds(card[0])
        take_jack = holds("J") if not jack else take_rank
        if obs.pile_size == 0:
            bonus = obs.rules.jack_pisti_points if jack else obs.rules.pisti_points
            loss = take_rank * (after + bonus)
        else:
            loss = take_rank * after + (1 - take_rank) * take_jack * max(0.0, after - 1.0)
        # Holding another card of the rank: the pile may come back to us.
        again = sum(1 for c in obs.hand if c[0] == card[0]) - 1
        back = 0.3 * after * (1 - take_rank) * (1 - take_jack) if again > 0 else 0.0
        return back - loss - hold_jack - 0.5 * card_points(card)


def _kind(obs: Observation, cards: tuple[str, str]) -> str:
    """What a decision between ``cards`` (the yardstick's, Hard's) is
    about: the first matching of the listed kinds."""
    top = obs.pile_top
    if obs.stock == 0:
        return "last deal"
    if top is None:
        return "lead onto an empty table"
    if cards[0][0] == "J":
        return "Jack timing: the yardstick's Jack"
    if cards[1][0] == "J":
        return "Jack timing: Hard's Jack"
    if any(card[0] == top[0] for card in cards):
        return "capture or not"
    if any(card_points(card) for card in cards):
        return "scoring card on the pile"
    return "other throw"


def _finish(state: GameState, bots: dict[int, Bot]) -> None:
    while not state.finished:
        seat = state.turn
        state.play(bots[seat].choose(observe(state, seat)))


def differ_deals(rules_text: str, seed: str, first: int, count: int) -> dict[str, list[float]]:
    """For deals ``first`` .. ``first + count - 1``: the yardstick's card's
    outcome minus Hard's, for the deciding seat's team, at each decision
    where they differ, grouped by :func:`_kind`."""
    rules = parse_rules_text(rules_text)
    gains: dict[str, list[float]] = defaultdict(list)
    for number in range(first, first + count):
        deck = seeded_deck(f"{seed}-{number}", rules)
        for yard_team in range(rules.team_count):
            bots: dict[int, Bot] = {
                seat: (
                    YardstickBot(random.Random(0))
                    if rules.team_of(seat) == yard_team
                    else make_bot("hard", random.Random(0))
                )
                for seat in range(rules.players)
            }
            state = GameState(rules, deck)
            while not state.finished:
                seat = state.turn
                obs = observe(state, seat)
                hard_card = make_bot("hard", random.Random(0)).choose(obs)
                yard_card = YardstickBot(random.Random(0)).choose(obs)
                if hard_card != yard_card:
                    team = rules.team_of(seat)
                    ends = []
                    for card in (yard_card, hard_card):
                        trial = state.copy()
                        trial.play(card)
                        _finish(trial, bots)
                        ends.append(margin(team_points(trial), team))
                    gains[_kind(obs, (yard_card, hard_card))].append(ends[0] - ends[1])
                state.play(bots[seat].choose(obs))
    return gains


def differ(rules_text: str, seed: str, deals: int, jobs: int) -> str:
    """Run :func:`differ_deals` over ``jobs`` processes; return a table."""
    chunks = [(deals * j // jobs, deals * (j + 1) // jobs) for j in range(jobs)]
    gains: dict[str, list[float]] = defaultdict(list)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(differ_deals, rules_text, seed, lo, hi - lo) for lo, hi in chunks]
        for future in futures:
            for kind, values in future.result().items():
                gains[kind] += values
    lines = [f"{rules_text}, {deals} duplicate deals: yardstick's card minus Hard's, per decision"]
    for kind, values in sorted(gains.items(), key=lambda item: -len(item[1])):
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
        lines.append(
            f"{kind:36} {len(values):7} decisions  {mean:+.2f} ± {half:.2f}  "
            f"total {sum(values) / deals:+.3f} a deal"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("arena", "differ"))
    parser.add_argument("--a", default="yardstick")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="yard")
    parser.add_argument("--rules", default="cardems")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None)
    args = parser.parse_args()
    if args.mode == "differ":
        print(differ(args.rules, args.seed, args.deals, args.jobs))
        return
    extra = {"yardstick": YardstickBot}
    result = run_arena(
        args.a, args.b, args.deals, args.seed, args.rules, args.jobs, args.budget_ms, None, extra
    )
    print(report(result, args.a, args.b))


if __name__ == "__main__":
    main()
