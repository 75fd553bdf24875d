"""The Daily deal (seed 004: "Daily: everyone gets the same deals each
day"): one deal per rule set per UTC day, the same for everyone, against
the Hard computer at every computer seat.

The day's seed is an HMAC-SHA256 of the server's secret key and the date, so
nobody can work it out before the day; it is kept in the database once a
game of it is started, so a new secret key changes only days nobody has
played. While the day lasts the seed, the share link and the record of a
Daily game stay hidden (even to those who finished it). After the day the
seed is public, with a link to play it.

A known player's ranked game is the first Daily game of that day and rule
set they *start*: starting claims the rank (:func:`app.db.queries.start_daily`),
so looking at the cards and starting again cannot improve it. Later games
are played unranked, as are anonymous players' games, and so is a game
started in a browser that dealt the deal before under no name or another
(:func:`app.web.store.note_daily`).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import format_date, gettext
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import MethodNotAllowed
from werkzeug.wrappers import Response

from app.db import queries
from app.db.models import Player
from app.engine import RULE_SETS
from app.engine.match import Match

from . import game, i18n, links, store
from .errors import database_gone
from .identity import current_player, player_key
from .table import Table

bp = Blueprint("daily", __name__, url_prefix="/daily")

#: The computer level at every computer seat of a Daily game.
DAILY_LEVEL = "hard"
#: The rule sets with a Daily deal, each played to its first target.
DAILY_RULES = ("cardems", "classic", "partners")
#: The first day a Daily page can be asked for.
FIRST_DAY = date(2026, 1, 1)


def today() -> date:
    """The current UTC day."""
    return datetime.now(UTC).date()


def daily_seed(day: date, rules: str, keep: bool = False) -> str:
    """Return the seed of ``day``'s Daily deal of ``rules`` (32 hex
    digits): the one kept in the database since a Daily game of it was
    first started, else :func:`keyed_seed`, kept now when ``keep`` (a game
    of it starts). Kept seeds never change, so each app remembers those it
    has read.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    kept: dict[tuple[date, str], str] = current_app.extensions.setdefault("daily_seeds", {})
    seed = kept.get((day, rules)) or queries.daily_deal_seed(day, rules)
    if seed is None:
        seed = keyed_seed(day, rules)
        if not keep:
            return seed
        seed = queries.keep_daily_deal_seed(day, rules, seed)
    kept[day, rules] = seed
    return seed


def keyed_seed(day: date, rules: str) -> str:
    """The seed ``day``'s Daily deal of ``rules`` gets when first started:
    32 hex digits of HMAC-SHA256(secret key, ``pisti-daily/1|day|rules``)."""
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    message = f"pisti-daily/1|{day.isoformat()}|{rules}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def daily_levels(rules: str) -> tuple[str, ...]:
    """The computer levels of a Daily game of ``rules``."""
    return (DAILY_LEVEL,) * (RULE_SETS[rules].players - 1)


def _daily_target(rules: str) -> int | None:
    targets = RULE_SETS[rules].match_targets
    return targets[0] if targets else None


def daily_day_of(match: Match, levels: tuple[str, ...]) -> date | None:
    """Return today if ``match`` is today's Daily deal, else ``None``. A
    Daily game counts as one (ranked, on the day's board, for the tasks)
    only while its day lasts: at midnight its seed is public, and with it
    every card, so a game begun before and finished after it is played on
    unranked, as is any later game of a past day's deal. A game under house
    rules is never a Daily game, even from a Daily seed."""
    rules = _daily_rules(match, levels)
    if rules is None:
        return None
    now = today()
    return now if _same_seed(match.seed, daily_seed(now, rules)) else None


def late_daily_day(match: Match, levels: tuple[str, ...]) -> date | None:
    """Return the past day whose Daily deal ``match`` is, dealt from the
    Daily page (its seed kept, :func:`daily_seed`) and played on after that
    day's end, when its seed was public and every card with it; ``None``
    for any other game (today's Daily deal among them).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    rules = _daily_rules(match, levels)
    if rules is None:
        return None
    return queries.past_daily_day(match.seed, rules, today())


def _daily_rules(match: Match, levels: tuple[str, ...]) -> str | None:
    """The name of ``match``'s rule set when it is played as a Daily game
    is (a Daily rule set without house rules, the Daily's computers and
    target), else ``None``; its seed not looked at."""
    rules = match.rules.name
    if rules not in DAILY_RULES or match.rules.overrides or levels != daily_levels(rules):
        return None
    if match.target != _daily_target(rules):
        return None
    return rules


def _same_seed(seed: str, daily: str) -> bool:
    """Whether ``seed`` is the Daily seed ``daily``, compared in constant
    time (as UTF-8: a player's seed may have letters beyond ASCII)."""
    return hmac.compare_digest(seed.encode(), daily.encode())


def seed_secret(match: Match) -> bool:
    """Whether ``match`` is dealt from a Daily seed whose day is not over,
    so its seed (share link, record) must not be shown; when the database
    cannot say, it is kept hidden."""
    rules = match.rules.name
    if rules not in DAILY_RULES:
        return False
    try:
        return _same_seed(match.seed, daily_seed(today(), rules))
    except SQLAlchemyError as error:
        database_gone(error)
        return True


def _rules_arg(source: Mapping[str, str]) -> str:
    rules = source.get("rules", "cardems")
    return rules if rules in DAILY_RULES else "cardems"


def _unknown_rules() -> tuple[str, int] | None:
    """The 400 page of a Daily form whose ``rules`` is none of the Daily's
    games (a form sends one of them; left out, the Single hand is dealt)."""
    rules = request.form.get("rules", "")
    if not rules or rules in DAILY_RULES:
        return None
    error = links.BadLink("rules", rules[:40], DAILY_RULES, None)
    return game.bad_link(error, gettext("These game settings cannot be used"))


#: A leaderboard's ``?page=``: a whole number from 1, in ASCII digits.
PAGE = re.compile(r"[1-9][0-9]{0,5}")


def page_number() -> int:
    """The leaderboard page the request asks for (``?page=``, from 1); 1
    for anything else (``0``, ``-2``, ``²``, ``x``, more than six digits)."""
    text = request.args.get("page", "1")
    return int(text) if PAGE.fullmatch(text) else 1


def _day_page(day: date, rules: str, player: Player | None, **context: Any) -> str:
    """Render the Daily page of ``day`` and ``rules`` with its leaderboard
    (page ``?page=``, the player's own row marked), the player's entry of
    that day (``entry``) and ``context``."""
    board = queries.daily_leaderboard(
        day, rules, page_number(), player.id if player is not None else None
    )
    return render_template(
        "daily/daily.html",
        day=day,
        rules=rules,
        daily_rules=DAILY_RULES,
        rule_names=game.RULE_NAMES,
        level=DAILY_LEVEL,
        player=player,
        board=board,
        entry=board.entry,
        **context,
    )


@bp.get("")
def page() -> str:
    """Show today's Daily deal of ``?rules=`` (default the single deal): the
    countdown to the next deal, the play button, the leaderboard and the
    player's place, and yesterday's seeds."""
    return _today_page(_rules_arg(request.args))


def _today_page(rules: str, message: str | None = None) -> str:
    """Render today's Daily page of ``rules`` (:func:`page`), with
    ``message`` said at its top when given."""
    day = today()
    player = current_player()
    now = datetime.now(UTC)
    next_deal = datetime.combine(day + timedelta(days=1), datetime.min.time(), UTC)
    # Rounded up: the script's countdown must not reach zero (and offer the
    # new day's deal) while this is still the old day.
    left = math.ceil((next_deal - now).total_seconds())
    yesterday = day - timedelta(days=1)
    return _day_page(
        day,
        rules,
        player,
        hours=left // 3600,
        minutes=(left % 3600) // 60,
        seconds_left=left,
        next_deal=next_deal,
        yesterday=yesterday,
        yesterday_seeds={name: daily_seed(yesterday, name) for name in DAILY_RULES},
        past=False,
        rank_spent=player is not None and _rank_spent(player.id, day, rules),
        seen_here=_seen_here(player, day, rules),
        message=message,
    )


def _seen_here(player: Player | None, day: date, rules: str) -> bool:
    """Whether this browser dealt ``day``'s Daily deal of ``rules`` under no
    name or another than ``player``'s (anonymous: at all), so that a game of
    it started under ``player``'s name (or a name chosen now) is unranked."""
    dealers = store.daily_dealers(day, rules)
    return bool(dealers - {player_key(player)}) if player is not None else bool(dealers)


def _rank_spent(player_id: int, day: date, rules: str) -> bool:
    """Whether the player's ranked game of ``day`` and ``rules`` lost its
    rank to a second start before it ended (:func:`app.db.queries.spend_daily_claim`)."""
    entry = queries.daily_entry(player_id, day, rules)
    return entry is not None and entry.finished_at is None and entry.game_id == queries.SPENT_GAME


@bp.post("/play")
def play() -> Response | tuple[str, int]:
    """Deal today's Daily game of the posted ``rules``; ranked when the
    player is known and has not started one of today's before. Started
    while the player's ranked game of it is unfinished, it spends that
    game's rank (:func:`app.db.queries.spend_daily_claim`); so does the
    first start in a browser that dealt the deal under no name or another
    (:func:`_seen_here`)."""
    refused = _unknown_rules() or _day_over()
    if refused is not None:
        return refused
    rules = _rules_arg(request.form)
    day = today()
    table = _deal(day, rules)
    player = current_player()
    # A name taken in this browser after the deal was dealt in it under no
    # name or another (Forget me and the same name again, a transfer code)
    # would play it knowing every card: its first start is no ranked game.
    seen = player is not None and _seen_here(player, day, rules)
    claimed = False
    if player is not None:
        # The claim comes first: the same form sent twice at once by a
        # browser with no game yet has no session to tell the two apart,
        # and the second send would put an unranked game in the browser's
        # cookie, the ranked one in a session nobody holds.
        claimed = queries.start_daily(player.id, day, rules, table.game_id)
        if not claimed and _sent_twice(player.id, day, rules):
            return game.start_refused()
        if claimed and seen:
            # Spent at once, so no later start (a fresh session) claims it.
            queries.spend_daily_claim(player.id, day, rules)

    # Dealt before in this browser, under any name or none: its cards may
    # be known, so its points do not count.
    table.known_deal = bool(store.daily_dealers(day, rules))

    def start() -> None:
        store.start_table(table)
        store.note_daily(day, rules, player_key(player))

    try:
        store.apply(start)
    except BaseException as failure:
        # The game was not started: its claim goes back, whatever stopped it.
        if claimed and player is not None:
            queries.drop_daily_claim(player.id, day, rules, table.game_id)
        if isinstance(failure, store.Stale):
            return game.start_refused()
        raise
    if player is not None and not claimed:
        # Started again while the ranked game is unfinished: this one shows
        # every card, so the ranked one, kept aside, is ranked no more.
        queries.spend_daily_claim(player.id, day, rules)
    return redirect(url_for("game.table"), 303)


def _day_over() -> tuple[str, int] | None:
    """Refuse a play form shown on another day than today (its ``day``,
    YYYY-MM-DD; a form without one is taken as today's): sent after
    midnight UTC from a page shown before it, it would deal the new day's
    deal under the old page's words ("unranked" on a ranked first game).
    Nothing is started: 409 with today's page and why, or 400 for a day
    that is not a past one."""
    shown = request.form.get("day")
    day = today()
    if shown is None or shown == day.isoformat():
        return None
    try:
        written = date.fromisoformat(shown)
    except ValueError:
        written = None
    # Only as the page writes a day (2026-12-05): not "2026-W49-6" nor "20261205".
    past = written is not None and written.isoformat() == shown and written < day
    if not past:
        message = gettext(
            "“%(value)s” is not the day of today's Daily deal (%(day)s), so nothing was started.",
            value=i18n.quoted(shown, 20),
            day=format_date(day, "long"),
        )
        return render_template(
            "game/bad_request.html", title=gettext("No such Daily deal"), message=message
        ), 400
    message = gettext(
        "A new day began at midnight UTC while this page was open, so nothing was started. "
        "This is the new day's Daily deal."
    )
    return _today_page(_rules_arg(request.form), message), 409


#: A claim of the ranked game younger than this many seconds, from a
#: browser with no game, means the same form was sent twice.
TWICE_SECONDS = 10


def _sent_twice(player_id: int, day: date, rules: str) -> bool:
    """Whether this start is the same form sent again by a browser that had
    no game: the player's ranked Daily game of ``day`` and ``rules`` was
    claimed in the last :data:`TWICE_SECONDS` seconds, and this session
    holds no game. (With a game, the form names it, and the store refuses
    the second send; a start from a game's page, looking at the cards and
    starting again, is no double send: that game is then unranked.)"""
    if store.current_game_id():
        return False
    entry = queries.daily_entry(player_id, day, rules)
    if entry is None or entry.finished_at is not None:
        return False
    return queries.utcnow() - entry.started_at < timedelta(seconds=TWICE_SECONDS)


def _deal(day: date, rules: str) -> Table:
    return Table.start(
        RULE_SETS[rules],
        daily_seed(day, rules, keep=True),
        list(daily_levels(rules)),
        seed_public=day < today(),
        target=_daily_target(rules),
        expert_ms=float(current_app.config["EXPERT_MS"]),
    )


def _past_day(text: str) -> date | None:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if FIRST_DAY <= day < today() and len(text) == 10 else None


@bp.get("/<day_text>")
def past(day_text: str) -> str | tuple[str, int] | Response:
    """Show a past day's Daily deal of ``?rules=``: its final leaderboard,
    its seed and a button to play it (unranked). Today's date leads to
    today's page (``/daily``, 302); a later one is a 404."""
    if day_text == "play":  # the play form's address, asked for with a GET
        raise MethodNotAllowed(valid_methods=["OPTIONS", "POST"])
    if day_text == today().isoformat():
        asked = request.args
        return redirect(
            url_for("daily.page", rules=asked.get("rules"), page=asked.get("page")), 302
        )
    day = _past_day(day_text)
    if day is None:
        return _no_such_day(day_text)
    rules = _rules_arg(request.args)
    return _day_page(
        day,
        rules,
        current_player(),
        seed=daily_seed(day, rules),
        past=True,
    )


@bp.post("/<day_text>/play")
def play_past(day_text: str) -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Deal a past day's Daily game of the posted ``rules`` (never ranked)."""
    day = _past_day(day_text)
    if day is None:
        return _no_such_day(day_text)
    refused = _unknown_rules()
    if refused is not None:
        return refused
    table = _deal(day, _rules_arg(request.form))
    return game.start_game(table)


def _no_such_day(text: str) -> tuple[str, int]:
    """The 404 page of a Daily day that has no finished deal: a date before
    the first Daily deal or one not over yet is told as such (its seed is
    never shown), anything else is asked for as YYYY-MM-DD."""
    try:
        day = date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is not None and day < FIRST_DAY:
        message = gettext(
            "The first Daily deal was dealt on %(first)s.", first=format_date(FIRST_DAY, "long")
        )
    elif day is not None and day > today():  # today's is out, not finished
        message = gettext(
            "The Daily deal of %(day)s is not out yet: it comes at 00:00 UTC that day.",
            day=format_date(day, "long"),
        )
    else:
        message = gettext(
            "There is no finished Daily deal of “%(day)s”: give a past day as YYYY-MM-DD.",
            day=i18n.quoted(text, 20),
        )
    return render_template(
        "game/bad_request.html", title=gettext("No such Daily deal"), message=message
    ), 404
