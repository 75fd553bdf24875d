"""Daily tasks and weekly challenges (seed 001: "3 tasks every day" and "one
challenge every week", whose rewards add to the Pişti score).

Each task counts something in a finished game (:class:`~app.db.facts.GameFacts`)
towards a goal; reaching it adds the reward once. A player's three tasks of
a day are drawn from :data:`DAILY_POOL` by a hash of the player and the day
(the same three all day, on every replica); the week's challenge from
:data:`WEEKLY_POOL` by a hash of the week, the same for everyone.

A game whose deal could be known beforehand (:attr:`GameFacts.known_deal`:
a deal link, a past day's Daily deal, today's Daily deal dealt again)
advances no task about playing well (:attr:`Task.skill`: piştis, cards
taken, wins, points), only those about playing at all (finish games, a
Daily deal): its cards can be worked out and the deal replayed until the
task is done.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date

from flask_babel import lazy_gettext

from app.ai import BOTS, LEVELS

from .facts import GameFacts

DAILY_COUNT = 3


@dataclass(frozen=True)
class Task:
    """A task: its id, words (lazy, in the page's language), goal, reward
    (points added to the Pişti score), what a game adds to its progress,
    and whether it is about playing well (``skill``: a known deal does not
    advance it) rather than about playing at all."""

    id: str
    title: object
    goal: int
    reward: int
    count: Callable[[GameFacts], int]
    skill: bool = True

    def gained(self, facts: GameFacts) -> int:
        """What the game ``facts`` adds to this task's progress: its
        :attr:`count`, but nothing from a :attr:`GameFacts.known_deal` for a
        task about playing well."""
        return 0 if self.skill and facts.known_deal else self.count(facts)

    def held_back(self, facts: GameFacts) -> bool:
        """Whether this task would have advanced with the game ``facts``
        but for its deal being known beforehand."""
        return self.gained(facts) == 0 and self.count(replace(facts, known_deal=False)) > 0


def _win(facts: GameFacts) -> int:
    return int(facts.won)


def _in_partners(facts: GameFacts) -> bool:
    """Whether the game was played two against two: Partners, unless its
    house rules made it each for themselves (``teams=solo``), or another
    base played by four in partners (``teams=partners``)."""
    options = set(facts.house_rules.split())
    if "teams=partners" in options:
        return True
    return facts.rules == "partners" and "teams=solo" not in options


#: The computers a win "against Hard or Expert" is over: those levels, and
#: the story's opponents who play as them (Ferit Hoca is the Hard level,
#: Mürüvvet Hanım the Expert).
STRONG = frozenset(name for name, bot in BOTS.items() if bot in (LEVELS["hard"], LEVELS["expert"]))


DAILY_POOL: tuple[Task, ...] = (
    Task("pisti", lazy_gettext("Make a pişti"), 1, 20, lambda f: f.pistis + f.jack_pistis),
    Task("pisti3", lazy_gettext("Make 3 piştis"), 3, 40, lambda f: f.pistis + f.jack_pistis),
    Task("jack_pisti", lazy_gettext("Make a Jack pişti"), 1, 60, lambda f: f.jack_pistis),
    Task(
        "win_partners",
        lazy_gettext("Win a partners game"),
        1,
        50,
        lambda f: int(f.won and _in_partners(f)),
    ),
    Task("ten_diamonds", lazy_gettext("Take the 10♦"), 1, 15, lambda f: f.ten_of_diamonds),
    Task("two_clubs", lazy_gettext("Take the 2♣"), 1, 15, lambda f: f.two_of_clubs),
    Task(
        "win_no_jack",
        lazy_gettext("Win without playing a Jack"),
        1,
        50,
        lambda f: int(f.won and not f.used_jack),
    ),
    Task(
        "win_101",
        lazy_gettext("Win a classic match to 101"),
        1,
        80,
        lambda f: int(f.won and f.rules == "classic" and f.target == 101),
    ),
    Task(
        "win_hard",
        lazy_gettext("Win against Hard or Expert"),
        1,
        40,
        lambda f: int(f.won and all(level in STRONG for level in f.levels)),
    ),
    Task(
        "most_cards", lazy_gettext("Take the most cards in a hand"), 1, 15, lambda f: f.most_cards
    ),
    Task("play3", lazy_gettext("Finish 3 games"), 3, 20, lambda f: 1, skill=False),
    Task("win2", lazy_gettext("Win 2 games"), 2, 30, _win),
    Task(
        "daily",
        lazy_gettext("Finish a Daily deal"),
        1,
        25,
        lambda f: int(f.daily_day is not None),
        skill=False,
    ),
    Task(
        "points20",
        lazy_gettext("Score 20 points or more in a Single hand game"),
        1,
        30,
        lambda f: int(
            f.rules == "cardems" and f.target is None and f.counts_points and f.points >= 20
        ),
    ),
)
WEEKLY_POOL: tuple[Task, ...] = (
    Task("week_pisti10", lazy_gettext("Make 10 piştis this week"), 10, 150, DAILY_POOL[0].count),
    Task("week_win10", lazy_gettext("Win 10 games this week"), 10, 150, _win),
    Task(
        "week_daily5",
        lazy_gettext("Finish 5 Daily deals this week"),
        5,
        150,
        DAILY_POOL[12].count,
        skill=False,
    ),
    Task(
        "week_ten5", lazy_gettext("Take the 10♦ in 5 hands this week"), 5, 120, DAILY_POOL[4].count
    ),
)
TASKS = {task.id: task for task in DAILY_POOL + WEEKLY_POOL}


def week_start(day: date) -> date:
    """Return the Monday of ``day``'s week."""
    return date.fromordinal(day.toordinal() - day.weekday())


def daily_tasks(player_id: int, day: date) -> list[Task]:
    """Return the player's :data:`DAILY_COUNT` tasks of ``day`` (distinct,
    the same on every call)."""
    key = hashlib.sha256(f"tasks/1:{player_id}:{day.isoformat()}".encode()).digest()
    return random.Random(key).sample(DAILY_POOL, DAILY_COUNT)


def weekly_challenge(day: date) -> Task:
    """Return the challenge of ``day``'s week, the same for everyone."""
    key = hashlib.sha256(f"challenge/1:{week_start(day).isoformat()}".encode()).digest()
    return WEEKLY_POOL[int.from_bytes(key[:4], "big") % len(WEEKLY_POOL)]
