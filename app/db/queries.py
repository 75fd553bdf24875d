"""Every question the pages ask the database, each a function named for it.
The web never builds SQL; the engine and the bots never see it.

Writes that must happen once rely on the database, not on the caller: a
result is unique per player and game id, a Daily entry per day, rule set and
player, a task's reward is added by the one update that marks it done.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Select

from app.story import progress as story

from . import db, dialect_insert
from .facts import GameFacts
from .models import (
    DailyEntry,
    Player,
    PlayerTask,
    PlayerToken,
    Result,
    StoryProgress,
    WeeklyTotal,
)
from .tasks import DAILY_COUNT, TASKS, Task, daily_tasks, week_start, weekly_challenge

#: Bulk updates here touch no object the session holds: skip syncing them.
NO_SYNC = {"synchronize_session": False}
#: Rows on a leaderboard page.
PAGE_SIZE = 20
NAME_MAX = 24
#: Punctuation a name may have besides letters (any script) and digits.
NAME_MARKS = frozenset(" -_.")
#: How long a transfer code works, and its alphabet (no 0/O, 1/I/L).
TRANSFER_LIFETIME = timedelta(hours=1)
TRANSFER_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
TRANSFER_LENGTH = 12


def _page_rows(query: Select[*tuple[Any, ...]], page: int) -> list[dict[str, Any]]:
    """Return page ``page`` (1-based, :data:`PAGE_SIZE` rows) of an ordered
    leaderboard query, each row a dict with its ``rank`` added."""
    first = (page - 1) * PAGE_SIZE
    return [
        {**row._asdict(), "rank": first + index + 1}
        for index, row in enumerate(db.session.execute(query.offset(first).limit(PAGE_SIZE)))
    ]


def utcnow() -> datetime:
    """The current time as a naive UTC datetime (as stored)."""
    return datetime.now(UTC).replace(tzinfo=None)


def secret_hash(text: str) -> str:
    """Return the SHA-256 hex digest kept in place of a token or code."""
    return hashlib.sha256(text.encode()).hexdigest()


# --- players -----------------------------------------------------------


class NameRefused(ValueError):
    """A display name that cannot be used; ``reason`` is one of ``"empty"``,
    ``"long"``, ``"characters"``, ``"taken"`` (the pages word them)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_name(text: object) -> str:
    """Return ``text`` as a display name: NFC-normalised, spaces trimmed and
    runs of spaces made one; 1–24 characters, each a letter of any script,
    a digit, a space, ``-``, ``_`` or ``.``.

    Raises:
        NameRefused: ``"empty"``, ``"long"`` or ``"characters"``.
    """
    name = " ".join(unicodedata.normalize("NFC", str(text or "")).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    if not name:
        raise NameRefused("empty")
    if len(name) > NAME_MAX:
        raise NameRefused("long")
    for char in name:
        kind = unicodedata.category(char)
        if not (kind.startswith("L") or kind == "Nd" or char in NAME_MARKS):
            raise NameRefused("characters")
    return name


def create_player(name: str) -> tuple[Player, str]:
    """Make a player called ``name`` (checked with :func:`check_name`) and
    return it with its new device token (only the token's hash is kept).

    Raises:
        NameRefused: the name is not usable, or ``"taken"`` (case-insensitively).
    """
    name = check_name(name)
    player = Player(name=name, name_key=name.casefold(), created_at=utcnow())
    db.session.add(player)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise NameRefused("taken") from None
    token = _new_token(player.id)
    db.session.commit()
    return player, token


def _new_token(player_id: int) -> str:
    token = secrets.token_urlsafe(32)
    db.session.add(
        PlayerToken(token_hash=secret_hash(token), player_id=player_id, created_at=utcnow())
    )
    return token


def player_by_token(token: str | None) -> Player | None:
    """Return the player whose device token this is, or ``None`` (no token,
    a forged one, or one of a forgotten player)."""
    if not token or len(token) > 100:
        return None
    return db.session.scalar(
        select(Player)
        .join(PlayerToken, PlayerToken.player_id == Player.id)
        .where(PlayerToken.token_hash == secret_hash(token))
    )


def rename_player(player: Player, name: str) -> None:
    """Give ``player`` a new display name.

    Raises:
        NameRefused: as :func:`create_player`.
    """
    name = check_name(name)
    player.name, player.name_key = name, name.casefold()
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise NameRefused("taken") from None


def open_transfer(player: Player) -> str:
    """Return a new one-time transfer code for ``player``, working for
    :data:`TRANSFER_LIFETIME` (a code opened before stops working)."""
    code = "".join(secrets.choice(TRANSFER_ALPHABET) for _ in range(TRANSFER_LENGTH))
    player.transfer_hash = secret_hash(code)
    player.transfer_expires = utcnow() + TRANSFER_LIFETIME
    db.session.commit()
    return "-".join(code[i : i + 4] for i in range(0, TRANSFER_LENGTH, 4))


def redeem_transfer(code: object) -> tuple[Player, str] | None:
    """Use a transfer code: return its player and a new device token, or
    ``None`` when the code is unknown, used or expired. A code works once."""
    text = "".join(char for char in str(code or "").upper() if char.isalnum())
    if len(text) != TRANSFER_LENGTH:
        return None
    now = utcnow()
    claimed = db.session.execute(
        update(Player)
        .where(Player.transfer_hash == secret_hash(text), Player.transfer_expires > now)
        .values(transfer_hash=None, transfer_expires=None)
        .returning(Player.id)
    ).scalar()
    if claimed is None:
        db.session.rollback()
        return None
    token = _new_token(claimed)
    db.session.commit()
    player = db.session.get(Player, claimed)
    assert player is not None
    return player, token


def forget_player(player_id: int) -> None:
    """Delete a player with their devices, results, Daily entries, tasks,
    weekly totals and story progress."""
    for model in (PlayerToken, Result, DailyEntry, PlayerTask, WeeklyTotal, StoryProgress):
        db.session.execute(delete(model).where(model.player_id == player_id))
    db.session.execute(delete(Player).where(Player.id == player_id))
    db.session.commit()


# --- Mansion Evenings progress ------------------------------------------


def story_progress(player_id: int) -> dict[str, Any]:
    """Return the player's story progress (``app/story/progress.py``'s
    shape; nothing yet is no lesson and nobody beaten)."""
    row = db.session.get(StoryProgress, player_id)
    if row is None:
        return story.clean({})
    return story.clean(
        {
            "lesson": row.lesson,
            "lesson_step": row.lesson_step,
            "beaten": row.beaten.split(",") if row.beaten else [],
        }
    )


def save_story_progress(player_id: int, value: object) -> None:
    """Keep ``value`` (progress, cleaned first) as the player's story
    progress, replacing what was kept."""
    data = story.clean(value)
    fields = {
        "lesson": data["lesson"],
        "lesson_step": data["lesson_step"],
        "beaten": ",".join(data["beaten"]),
        "updated_at": utcnow(),
    }
    insert = dialect_insert(db.engine)
    db.session.execute(
        insert(StoryProgress)
        .values(player_id=player_id, **fields)
        .on_conflict_do_update(index_elements=["player_id"], set_=fields)
    )
    db.session.commit()


def merge_story_progress(player_id: int, value: object) -> None:
    """Merge ``value`` (an anonymous session's progress) into the player's:
    the furthest of the two is kept (:func:`app.story.progress.merge`)."""
    if story.is_empty(value):
        return
    save_story_progress(player_id, story.merge(story_progress(player_id), value))


# --- recording a finished game ------------------------------------------


@dataclass
class Recorded:
    """What recording a game did: whether it was the ranked Daily game, and
    the tasks it finished (their reward added to the score)."""

    ranked: bool = False
    finished_tasks: list[Task] = field(default_factory=list)


def record_result(player_id: int, facts: GameFacts) -> Recorded | None:
    """Write a finished game once, in one transaction: the result, the Daily
    entry when this is the player's ranked Daily game, task progress and
    rewards, the player's totals and weekly score.

    Return ``None`` when this game (player and game id) was recorded before:
    a retry or a second POST changes nothing.
    """
    db.session.rollback()  # start the write transaction with the write
    now = utcnow()
    insert = dialect_insert(db.engine)
    result_id = db.session.execute(
        insert(Result)
        .values(
            player_id=player_id,
            game_id=facts.game_id,
            finished_at=now,
            rules=facts.rules,
            target=facts.target,
            levels=",".join(facts.levels),
            deal_key=facts.deal_key,
            daily_day=facts.daily_day,
            ranked=False,
            outcome=facts.outcome,
            points=facts.points,
            opp_points=facts.opp_points,
            hands=facts.hands,
            pistis=facts.pistis,
            jack_pistis=facts.jack_pistis,
            most_cards=facts.most_cards,
        )
        .on_conflict_do_nothing()
        .returning(Result.id)
    ).scalar()
    if result_id is None:
        db.session.rollback()
        return None
    recorded = Recorded()
    if facts.daily_day is not None:
        recorded.ranked = _finish_daily_entry(player_id, facts, now)
        if recorded.ranked:
            db.session.execute(
                update(Result).where(Result.id == result_id).values(ranked=True),
                execution_options=NO_SYNC,
            )
    recorded.finished_tasks = _advance_tasks(player_id, facts, now)
    rewards = sum(task.reward for task in recorded.finished_tasks)
    gained = facts.points + rewards
    streak = Player.streak + 1
    db.session.execute(
        update(Player)
        .where(Player.id == player_id)
        .values(
            points=Player.points + facts.points,
            rewards=Player.rewards + rewards,
            score=Player.score + gained,
            games=Player.games + 1,
            wins=Player.wins + int(facts.won),
            streak=streak if facts.won else 0,
            best_streak=(
                case((streak > Player.best_streak, streak), else_=Player.best_streak)
                if facts.won
                else Player.best_streak
            ),
        ),
        execution_options=NO_SYNC,
    )
    week = week_start(now.date())
    stmt = insert(WeeklyTotal).values(week=week, player_id=player_id, score=gained)
    db.session.execute(
        stmt.on_conflict_do_update(
            index_elements=["week", "player_id"],
            set_={"score": WeeklyTotal.score + stmt.excluded.score},
        )
    )
    db.session.commit()
    return recorded


def _finish_daily_entry(player_id: int, facts: GameFacts, now: datetime) -> bool:
    done = db.session.execute(
        update(DailyEntry)
        .where(
            DailyEntry.day == facts.daily_day,
            DailyEntry.rules == facts.rules,
            DailyEntry.player_id == player_id,
            DailyEntry.game_id == facts.game_id,
            DailyEntry.finished_at.is_(None),
        )
        .values(finished_at=now, points=facts.points, pistis=facts.pistis + facts.jack_pistis),
        execution_options=NO_SYNC,
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]


def _ensure_tasks(player_id: int, day: date) -> None:
    rows = [
        {
            "player_id": player_id,
            "period": "day",
            "start": day,
            "task": task.id,
            "progress": 0,
            "goal": task.goal,
            "reward": task.reward,
        }
        for task in daily_tasks(player_id, day)
    ]
    challenge = weekly_challenge(day)
    rows.append(
        {
            "player_id": player_id,
            "period": "week",
            "start": week_start(day),
            "task": challenge.id,
            "progress": 0,
            "goal": challenge.goal,
            "reward": challenge.reward,
        }
    )
    db.session.execute(dialect_insert(db.engine)(PlayerTask).values(rows).on_conflict_do_nothing())


def _current_tasks(player_id: int, day: date) -> list[Any]:
    """The player's task rows of ``day`` and its week (id, task, period,
    progress, goal, reward, done_at), daily ones first."""
    return list(
        db.session.execute(
            select(
                PlayerTask.id,
                PlayerTask.task,
                PlayerTask.period,
                PlayerTask.progress,
                PlayerTask.goal,
                PlayerTask.reward,
                PlayerTask.done_at,
            )
            .where(
                PlayerTask.player_id == player_id,
                or_(
                    and_(PlayerTask.period == "day", PlayerTask.start == day),
                    and_(PlayerTask.period == "week", PlayerTask.start == week_start(day)),
                ),
            )
            .order_by(PlayerTask.period, PlayerTask.id)
        )
    )


def _advance_tasks(player_id: int, facts: GameFacts, now: datetime) -> list[Task]:
    day = now.date()
    rows = _current_tasks(player_id, day)
    if len(rows) < DAILY_COUNT + 1:
        _ensure_tasks(player_id, day)
        rows = _current_tasks(player_id, day)
    finished = []
    for row in rows:
        task = TASKS.get(row.task)
        gained = task.count(facts) if task is not None and row.done_at is None else 0
        if not gained:
            continue
        progress = PlayerTask.progress + gained
        # One statement moves the progress and marks the task done when it
        # reaches the goal; "done_at IS NULL" makes the reward happen once
        # even when two games of the player are recorded at the same time.
        done_at = db.session.execute(
            update(PlayerTask)
            .where(PlayerTask.id == row.id, PlayerTask.done_at.is_(None))
            .values(
                progress=case((progress > PlayerTask.goal, PlayerTask.goal), else_=progress),
                done_at=case((progress >= PlayerTask.goal, now), else_=None),
            )
            .returning(PlayerTask.done_at),
            execution_options=NO_SYNC,
        ).scalar()
        if done_at is not None and task is not None:
            finished.append(task)
    return finished


@dataclass
class TaskProgress:
    """A task as a page shows it."""

    task: Task
    period: str
    progress: int
    goal: int
    reward: int
    done: bool


def player_tasks(player_id: int, day: date) -> list[TaskProgress]:
    """Return the player's three tasks of ``day`` and the week's challenge,
    with their progress (made on first sight)."""
    _ensure_tasks(player_id, day)
    db.session.commit()
    return [
        TaskProgress(
            TASKS[row.task], row.period, row.progress, row.goal, row.reward, bool(row.done_at)
        )
        for row in _current_tasks(player_id, day)
        if row.task in TASKS
    ]


# --- the Daily deal -------------------------------------------------------


def start_daily(player_id: int, day: date, rules: str, game_id: str) -> bool:
    """Claim the player's ranked Daily game of ``day`` and ``rules`` for the
    game ``game_id``; return ``False`` when one was started before (this
    game is then unranked)."""
    db.session.rollback()
    claimed = db.session.execute(
        dialect_insert(db.engine)(DailyEntry)
        .values(day=day, rules=rules, player_id=player_id, game_id=game_id, started_at=utcnow())
        .on_conflict_do_nothing()
        .returning(DailyEntry.player_id)
    ).scalar()
    db.session.commit()
    return claimed is not None


def daily_entry(player_id: int, day: date, rules: str) -> DailyEntry | None:
    """Return the player's Daily entry of ``day`` and ``rules``, if any."""
    return db.session.get(DailyEntry, (day, rules, player_id))


@dataclass
class Board:
    """A leaderboard page.

    Attributes:
        rows: the page's rows, best first; each a dict with ``rank``,
            ``player_id``, ``name`` and the board's figures.
        page, pages: this page (from 1) and the number of pages (at least 1).
        total: rows on the whole board.
        mine: the viewer's own row (wherever it is), or ``None``.
    """

    rows: list[dict[str, Any]]
    page: int
    pages: int
    total: int
    mine: dict[str, Any] | None

    @property
    def mine_on_page(self) -> bool:
        """Whether the viewer's row is among :attr:`rows`."""
        return self.mine is not None and any(
            row["player_id"] == self.mine["player_id"] for row in self.rows
        )


def _pages(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


def daily_leaderboard(day: date, rules: str, page: int, player_id: int | None) -> Board:
    """Return a page of ``day``'s Daily leaderboard of ``rules``: finished
    ranked games by points, then piştis, then the earlier finish."""
    where = (
        DailyEntry.day == day,
        DailyEntry.rules == rules,
        DailyEntry.finished_at.is_not(None),
    )
    total = db.session.scalar(select(func.count()).select_from(DailyEntry).where(*where)) or 0
    page = min(max(page, 1), _pages(total))
    columns = (
        DailyEntry.player_id,
        Player.name,
        DailyEntry.points,
        DailyEntry.pistis,
        DailyEntry.finished_at,
    )
    query = (
        select(*columns)
        .join(Player, Player.id == DailyEntry.player_id)
        .where(*where)
        .order_by(DailyEntry.points.desc(), DailyEntry.pistis.desc(), DailyEntry.finished_at)
    )
    rows = _page_rows(query, page)
    mine = None
    if player_id is not None:
        own = db.session.execute(
            select(*columns)
            .join(Player, Player.id == DailyEntry.player_id)
            .where(*where, DailyEntry.player_id == player_id)
        ).first()
        if own is not None:
            better = db.session.scalar(
                select(func.count())
                .select_from(DailyEntry)
                .where(
                    *where,
                    or_(
                        DailyEntry.points > own.points,
                        and_(DailyEntry.points == own.points, DailyEntry.pistis > own.pistis),
                        and_(
                            DailyEntry.points == own.points,
                            DailyEntry.pistis == own.pistis,
                            DailyEntry.finished_at < own.finished_at,
                        ),
                    ),
                )
            )
            mine = {**own._asdict(), "rank": (better or 0) + 1}
    return Board(rows, page, _pages(total), total, mine)


def alltime_leaderboard(page: int, player_id: int | None) -> Board:
    """Return a page of the all-time leaderboard: players by Pişti score,
    then the one who joined first."""
    total = db.session.scalar(select(func.count()).select_from(Player)) or 0
    page = min(max(page, 1), _pages(total))
    columns = (
        Player.id.label("player_id"),
        Player.name,
        Player.score,
        Player.points,
        Player.rewards,
        Player.games,
        Player.wins,
    )
    query = select(*columns).order_by(Player.score.desc(), Player.id)
    rows = _page_rows(query, page)
    mine = None
    if player_id is not None:
        own = db.session.execute(select(*columns).where(Player.id == player_id)).first()
        if own is not None:
            above = db.session.scalar(
                select(func.count()).select_from(Player).where(Player.score > own.score)
            )
            tied = db.session.scalar(
                select(func.count())
                .select_from(Player)
                .where(Player.score == own.score, Player.id < player_id)
            )
            mine = {**own._asdict(), "rank": (above or 0) + (tied or 0) + 1}
    return Board(rows, page, _pages(total), total, mine)


def weekly_leaderboard(week: date, page: int, player_id: int | None) -> Board:
    """Return a page of the leaderboard of the week from Monday ``week``:
    players by that week's score, then the one who joined first."""
    where = (WeeklyTotal.week == week,)
    total = db.session.scalar(select(func.count()).select_from(WeeklyTotal).where(*where)) or 0
    page = min(max(page, 1), _pages(total))
    columns = (WeeklyTotal.player_id, Player.name, WeeklyTotal.score)
    query = (
        select(*columns)
        .join(Player, Player.id == WeeklyTotal.player_id)
        .where(*where)
        .order_by(WeeklyTotal.score.desc(), WeeklyTotal.player_id)
    )
    rows = _page_rows(query, page)
    mine = None
    if player_id is not None:
        own = db.session.execute(
            select(*columns)
            .join(Player, Player.id == WeeklyTotal.player_id)
            .where(*where, WeeklyTotal.player_id == player_id)
        ).first()
        if own is not None:
            better = db.session.scalar(
                select(func.count())
                .select_from(WeeklyTotal)
                .where(
                    *where,
                    or_(
                        WeeklyTotal.score > own.score,
                        and_(WeeklyTotal.score == own.score, WeeklyTotal.player_id < player_id),
                    ),
                )
            )
            mine = {**own._asdict(), "rank": (better or 0) + 1}
    return Board(rows, page, _pages(total), total, mine)


# --- shared deals and statistics -----------------------------------------


def deal_results(key: str, limit: int = 20) -> list[dict[str, Any]]:
    """Return the best ``limit`` results of the deal ``key`` (see
    :func:`app.db.facts.deal_key`): name, points, the other side's points,
    outcome; best points first, then the earlier finish."""
    query = (
        select(Player.name, Result.points, Result.opp_points, Result.outcome, Result.player_id)
        .join(Player, Player.id == Result.player_id)
        .where(Result.deal_key == key)
        .order_by(Result.points.desc(), Result.finished_at)
        .limit(limit)
    )
    return [row._asdict() for row in db.session.execute(query)]


def player_results(player_id: int, limit: int = 200) -> list[Result]:
    """Return the player's last ``limit`` results, oldest first."""
    rows = db.session.scalars(
        select(Result)
        .where(Result.player_id == player_id)
        .order_by(Result.finished_at.desc(), Result.id.desc())
        .limit(limit)
    )
    return list(reversed(list(rows)))


def games_by_rules_and_level(player_id: int) -> list[dict[str, Any]]:
    """Return games and wins per rule set and computer levels, most played
    first: dicts with ``rules``, ``levels``, ``games``, ``wins``."""
    wins = func.sum(case((Result.outcome == "win", 1), else_=0))
    query = (
        select(Result.rules, Result.levels, func.count().label("games"), wins.label("wins"))
        .where(Result.player_id == player_id)
        .group_by(Result.rules, Result.levels)
        .order_by(func.count().desc(), Result.rules, Result.levels)
    )
    return [row._asdict() for row in db.session.execute(query)]


def hand_totals(player_id: int) -> dict[str, int]:
    """Return the player's sums over all results: ``games``, ``hands``,
    ``points``, ``pistis``, ``jack_pistis``, ``most_cards``."""
    row = db.session.execute(
        select(
            func.count().label("games"),
            func.coalesce(func.sum(Result.hands), 0).label("hands"),
            func.coalesce(func.sum(Result.points), 0).label("points"),
            func.coalesce(func.sum(Result.pistis), 0).label("pistis"),
            func.coalesce(func.sum(Result.jack_pistis), 0).label("jack_pistis"),
            func.coalesce(func.sum(Result.most_cards), 0).label("most_cards"),
        ).where(Result.player_id == player_id)
    ).one()
    return {key: int(value) for key, value in row._asdict().items()}
