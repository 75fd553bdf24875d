"""The tables. Times are naive UTC datetimes (the same on SQLite and
PostgreSQL); days and weeks are UTC dates (a week starts
on Monday). Every row of a player goes when the player is forgotten
(``ON DELETE CASCADE``)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from . import db

#: A 64-bit id that is SQLite's rowid there (so it counts up by itself).
BigId = BigInteger().with_variant(Integer(), "sqlite")
PLAYER_FK = "players.id"


class Player(db.Model):  # type: ignore[name-defined]
    """A player known by a display name (no sign-up).

    ``score`` (the all-time Pişti score) is kept equal to ``points +
    rewards``: points from finished games (but for house-rule games that
    set what cards or piştis are worth) plus task and challenge rewards.
    ``games``, ``wins``, ``streak`` and ``best_streak`` are running totals,
    so the leaderboards never add up results.
    """

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    #: :func:`app.db.queries.name_key` of the name: names are unique
    #: regardless of case and of look-alike spellings.
    name_key: Mapped[str] = mapped_column(String(96), unique=True)
    #: :func:`app.db.queries.look_key` of the name: names are unique by
    #: look-alike letters too (``None`` for a player whose name already
    #: looked like another's when the key came, see ``0014_ascii_look_keys``).
    look_key: Mapped[str | None] = mapped_column(String(96), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime())
    points: Mapped[int] = mapped_column(Integer, default=0)
    rewards: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    #: SHA-256 of the one-time transfer code, while one is open.
    transfer_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    transfer_expires: Mapped[datetime | None] = mapped_column(DateTime())

    __table_args__ = (Index("ix_players_rank", score.desc(), "id"),)


class ScoreCount(db.Model):  # type: ignore[name-defined]
    """How many players have each all-time Pişti score, kept by every write
    that changes a score (a new player, a recorded game, forgetting a
    player), so a player's place is a sum over the scores above theirs, not
    a count of the players above them. Rows may fall to 0 players."""

    __tablename__ = "score_counts"

    score: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    players: Mapped[int] = mapped_column(Integer)


class PlayerToken(db.Model):  # type: ignore[name-defined]
    """A device's player cookie, kept only as the SHA-256 of the token."""

    __tablename__ = "player_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey(PLAYER_FK, ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime())


#: Every column of a result that a player's statistics and story path
#: read, so those queries read ``ix_results_player_games`` alone however
#: many games the player has (migration ``0018_results_player_games``).
_PLAYER_GAMES = (
    "player_id", "rules", "levels", "house", "target", "outcome", "hands", "points", "pistis",
    "jack_pistis", "most_cards",
)  # fmt: skip


class Result(db.Model):  # type: ignore[name-defined]
    """A known player's finished game, written once (unique per player and
    game id) when the server saw the game end.

    ``points``/``opp_points`` are the player's side's and the other side's
    match totals; ``pistis`` and ``jack_pistis`` the player's own (a Jack
    pişti is not also counted as a pişti); ``most_cards`` the hands in which
    the player's side had the most-cards points. ``deal_key`` names the deal
    (seed, rules, target, levels) for the shared-deal lists. ``house`` is
    the house-rule options over the base ``rules`` as the record writes
    them after the base's name (``"players=3 teams=solo pisti=20"``; empty
    for a preset).
    """

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey(PLAYER_FK, ondelete="CASCADE"))
    game_id: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[datetime] = mapped_column(DateTime())
    rules: Mapped[str] = mapped_column(String(16))
    house: Mapped[str] = mapped_column(String(400), default="", server_default="")
    target: Mapped[int | None] = mapped_column(Integer)
    levels: Mapped[str] = mapped_column(String(40))
    deal_key: Mapped[str] = mapped_column(String(32))
    daily_day: Mapped[date | None] = mapped_column(Date)
    ranked: Mapped[bool] = mapped_column(Boolean, default=False)
    outcome: Mapped[str] = mapped_column(String(4))
    points: Mapped[int] = mapped_column(Integer)
    opp_points: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)
    pistis: Mapped[int] = mapped_column(Integer)
    jack_pistis: Mapped[int] = mapped_column(Integer)
    most_cards: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        UniqueConstraint("player_id", "game_id", name="uq_results_player_game"),
        Index("ix_results_player_time", "player_id", "finished_at"),
        Index("ix_results_deal", "deal_key", points.desc()),
        Index("ix_results_game", "game_id"),
        Index("ix_results_player_games", *_PLAYER_GAMES),
        Index("ix_results_player_daily", "player_id", "daily_day", "rules", "game_id"),
    )


class DailyEntry(db.Model):  # type: ignore[name-defined]
    """A known player's ranked Daily game of one day and rule set: made when
    the player starts their first Daily game of the day (so a look at the
    cards costs the rank), completed when that game finishes."""

    __tablename__ = "daily_entries"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    rules: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey(PLAYER_FK, ondelete="CASCADE"), primary_key=True, index=True
    )
    game_id: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[datetime] = mapped_column(DateTime())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime())
    points: Mapped[int | None] = mapped_column(Integer)
    pistis: Mapped[int | None] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_daily_rank", "day", "rules", points.desc(), pistis.desc(), "finished_at"),
    )


class DailyDeal(db.Model):  # type: ignore[name-defined]
    """The seed of one day's Daily deal of one rule set, kept when a Daily
    game of it is first started, so that a new secret key changes only the
    days nobody has played (:func:`app.web.daily.daily_seed`)."""

    __tablename__ = "daily_deals"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    rules: Mapped[str] = mapped_column(String(16), primary_key=True)
    seed: Mapped[str] = mapped_column(String(32))


class WeeklyTotal(db.Model):  # type: ignore[name-defined]
    """A player's score in one week (from its Monday): points from games
    finished that week plus rewards earned that week."""

    __tablename__ = "weekly_totals"

    week: Mapped[date] = mapped_column(Date, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey(PLAYER_FK, ondelete="CASCADE"), primary_key=True, index=True
    )
    score: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (Index("ix_weekly_rank", "week", score.desc(), "player_id"),)


class PlayerTask(db.Model):  # type: ignore[name-defined]
    """One of a player's daily tasks (``period`` ``"day"``) or their weekly
    challenge (``"week"``), from ``start`` (the day, or the week's Monday).
    ``done_at`` is set, and the reward added, once."""

    __tablename__ = "player_tasks"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey(PLAYER_FK, ondelete="CASCADE"))
    period: Mapped[str] = mapped_column(String(4))
    start: Mapped[date] = mapped_column(Date)
    task: Mapped[str] = mapped_column(String(24))
    progress: Mapped[int] = mapped_column(Integer, default=0)
    goal: Mapped[int] = mapped_column(Integer)
    reward: Mapped[int] = mapped_column(Integer)
    done_at: Mapped[datetime | None] = mapped_column(DateTime())

    __table_args__ = (
        UniqueConstraint("player_id", "start", "period", "task", name="uq_player_tasks"),
    )


class StoryProgress(db.Model):  # type: ignore[name-defined]
    """A known player's Mansion Evenings progress (``app/story/progress.py``):
    the lesson's state (``"done"``, ``"skipped"`` or ``None``) and step, and
    the opponents beaten (cast keys, comma-separated, in cast order).
    Written when the lesson moves on or a story match is won; an anonymous
    session's progress is merged in when its player becomes known."""

    __tablename__ = "story_progress"

    player_id: Mapped[int] = mapped_column(
        ForeignKey(PLAYER_FK, ondelete="CASCADE"), primary_key=True
    )
    lesson: Mapped[str | None] = mapped_column(String(8))
    lesson_step: Mapped[int] = mapped_column(Integer, default=0)
    beaten: Mapped[str] = mapped_column(String(120), default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime())


class Review(db.Model):  # type: ignore[name-defined]
    """A hand's review for one seat (:mod:`app.ai.review`), kept once per
    record: ``key`` is the SHA-256 of the record's rules, deck, plays and
    players and the seat, so a game and its downloaded record uploaded
    share one row.

    ``status`` is ``"new"`` until a server claims the summary's job,
    ``"running"`` while one computes it (``updated_at`` moves at every
    step; a job silent too long may be claimed again), then ``"done"``
    (or ``"failed"``). ``steps`` holds the reviewed steps so far as JSON
    (:meth:`app.ai.review.Step.to_dict`), ``done`` of ``total``, all
    made by version ``estimates`` of the estimates
    (:data:`app.ai.review.ESTIMATES`; 0 for those kept before versions).
    """

    __tablename__ = "reviews"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    record: Mapped[str] = mapped_column(Text)
    seat: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), default="new")
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer)
    steps: Mapped[str] = mapped_column(Text, default="[]")
    estimates: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(), index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime())
