"""The review pages: a hand reviewed move by move (:mod:`app.ai.review`).

A review starts from the final page of a game ("Review this game": the
player's own seat of a finished hand of the session's game) or from an
uploaded ``pisti-record`` file: the seat its optional ``players`` field
names "you" (the app's downloads name it), else seat 0. The pages call the
reviewed seat "You" only when the record says so and the hand is of the
browser's own game (a friend's record names "you" its recorder: "The
recorder" there), else "Seat 0 (plays first)", and the others by their
position from it, as the table does (East, North, West; "The computer"
of a player's two-player game), and the rules in the table's words.
Either way the record is kept in the database under its content's hash
(:mod:`app.db.reviews`), so its pages are plain GET addresses any
replica can answer:

- ``/review/<key>/<n>``: decision ``n``, the table as the seat saw it (the
  hidden cards only with ``?reveal=1``), every card's estimate, the mark
  and the sentence of why. Evaluated on demand in the server's search
  pool (:data:`app.searches.POOL`: the same cap as the Expert's moves),
  unless the summary has evaluated it already.
- ``/review/<key>``: the summary. The first visit starts its job (claimed
  once in the database, so it is computed once, whichever replica and
  however many visitors ask): alone, in this process's background threads,
  which evaluate the steps one by one through the same pool; with several
  replicas, on the RQ queue, run by a review worker (:mod:`app.jobs`).
  Either stores each step as it is done; the page shows a progress bar
  that a small script updates from ``/review/<key>/status`` (JSON), or
  that reloads itself without JavaScript. A job that failed, or whose
  worker died, shows as failed, and the next visit starts it again; when
  the queue cannot be reached, the page says so (503) and nothing is lost.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, Literal, cast

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_decimal, lazy_gettext
from redis import RedisError
from werkzeug.wrappers import Response as BaseResponse

from app import jobs, searches
from app.ai.review import MISTAKE_POINTS, Step, summarize, verdict
from app.db.models import Review
from app.db.reviews import (
    STALE_AFTER,
    claim_review,
    fail_review,
    find_review,
    keep_review,
    keep_step,
    release_review,
    review_key,
    review_steps,
    running_summaries,
    save_steps,
    utcnow,
)
from app.engine import (
    GameState,
    InvalidRecord,
    Observation,
    RuleSet,
    make_record,
    read_record,
    score_hand,
)
from app.engine.decisions import Decision, decisions
from app.engine.rules import MAX_PLAYED_POINTS
from app.engine.rules import POINTS as POINT_OPTIONS
from app.logs import short_key

from . import daily, errors, game, i18n, store
from .errors import RETRY_AFTER
from .i18n import gettext
from .rule_words import rules_summary
from .security import SEARCHED
from .table import Table
from .view import POSITION_NAMES_EN, mirrored, position_names, record_players

bp = Blueprint("review", __name__, url_prefix="/review")
bp.record_once(lambda setup: i18n.init_app(cast(Flask, setup.app)))

#: The largest record file accepted, in bytes (a record is about 1 KiB).
RECORD_LIMIT = 8 * 1024
#: The budget a step asks the search pool for, in milliseconds. The
#: review's worlds are fixed (its estimates are reproducible), so the
#: pool's shorter budgets under load do not change them; the pool still
#: caps how many searches run at once.
STEP_BUDGET_MS = 1000.0
#: Summary jobs this process runs at once (each asks the pool for one step
#: at a time, so the players' Expert moves keep their turns).
JOB_THREADS = 2
#: Seconds a job waits before asking the pool again when its line is full,
#: and how many times it asks before giving up.
BUSY_PAUSE = 1.0
BUSY_ATTEMPTS = 120
#: Seconds between reloads of the summary page without JavaScript.
REFRESH_SECONDS = 2
#: A running summary that has stored nothing for this long is said to be
#: stalled on its page (waiting its turn, or its server stopped: then it is
#: taken over after :data:`~app.db.reviews.STALE_AFTER`).
STALLED_AFTER = timedelta(seconds=20)
#: The most summaries claimed at once over every server (queued or
#: running): past it a new one waits, its page says so and starts it when
#: there is room, so a flood of uploads cannot make a queue without end.
MAX_SUMMARIES = 16

KEY = re.compile(r"[0-9a-f]{64}")
#: The names a record's ``players`` field gives the player's own seat and
#: the computer's in a two-player game.
YOU, COMPUTER = POSITION_NAMES_EN[2]
JOBS = ThreadPoolExecutor(JOB_THREADS, thread_name_prefix="review")


class _Room:
    """The reviews whose summaries an app's process has taken on and not
    finished (waiting for one of the :data:`JOB_THREADS`, or running): at
    most :data:`MAX_SUMMARIES`, whatever the database counts (a job
    waiting longer than :data:`~app.db.reviews.STALE_AFTER` no longer
    counts there, yet it is alive here). One per app (:func:`_room`)."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.lock = threading.Lock()
        #: Whether the server is stopping (:func:`stop_summaries`).
        self.stopping = False

    def take(self, key: str) -> bool:
        """Take a place for review ``key``; false when every place is taken."""
        with self.lock:
            if len(self.keys) >= MAX_SUMMARIES:
                return False
            self.keys.add(key)
            return True

    def give_back(self, key: str) -> None:
        """Give review ``key``'s place back (its job finished, or failed)."""
        with self.lock:
            self.keys.discard(key)

    def holds(self, key: str) -> bool:
        """Whether review ``key``'s job waits or runs in this process."""
        with self.lock:
            return key in self.keys

    def full(self) -> bool:
        """Whether every place is taken."""
        with self.lock:
            return len(self.keys) >= MAX_SUMMARIES


def _room(app: Flask) -> _Room:
    """``app``'s :class:`_Room`."""
    return cast(_Room, app.extensions.setdefault("review_room", _Room()))


@bp.app_template_filter("points")
def _points(value: float) -> str:
    """A number of points with its sign and one decimal, in the page's
    language (``+3.2``, ``−0.5``, ``0.0``; Turkish ``+3,2``)."""
    value = round(value, 1) + 0.0  # no "−0.0"
    if value == 0:
        return _lost(0.0)
    return str(format_decimal(value, format="+#,##0.0;\u2212#,##0.0"))


@bp.app_template_filter("lost")
def _lost(value: float) -> str:
    """Points lost: one decimal, no sign, in the page's language."""
    return str(format_decimal(abs(round(value, 1)), format="#,##0.0"))


@bp.get("/")
def upload_page() -> str:
    """The form to review an uploaded ``pisti-record`` file."""
    return _upload_form()


@bp.post("/upload")
def upload() -> BaseResponse | tuple[str, int]:
    """Keep an uploaded record for review of the seat its ``players`` field
    names "you", else of seat 0, and go to its first decision; a file that
    is missing or not a valid record is refused (400, nothing kept) with
    what was wrong, one over :data:`RECORD_LIMIT` bytes with 413. A
    ``players`` field that does not name one seat "you" among the right
    number of seats is left out, as a replay skips it."""
    file = request.files.get("record")
    if file is None or not file.filename:
        return _refused(gettext("Choose a record file to upload."))
    data = file.read(RECORD_LIMIT + 1)
    if len(data) > RECORD_LIMIT:
        # Too large whether the form's limit or the record's caught it.
        return _refused(_too_large(), status=413)
    try:
        record = read_record(data)
    except InvalidRecord as exc:
        # The record reader's words are English (the engine has no
        # translations): folded away under a sentence in the page's language.
        return _refused(_unreadable(exc), detail=str(exc))
    state = record.state
    if max(getattr(state.rules, field) for field in POINT_OPTIONS.values()) > MAX_PLAYED_POINTS:
        return _refused(
            gettext(
                "This site reviews games whose points a pişti or bonus are at most %(points)s.",
                points=format_decimal(MAX_PLAYED_POINTS, format="#,##0"),
            )
        )
    players = _players(record.extra, state.rules.players)
    extra: dict[str, Any] = {}
    hand = _hand_number(record.extra.get("hand"))
    if hand is not None:
        extra["hand"] = hand
    if players is None:
        return _open(state, make_record(state, **extra), 0)
    kept = make_record(state, players=players, **extra)
    seat = players.index(YOU)
    # The player's own record of a hand of this browser's game, uploaded
    # back: "You" is true of it, as of a review from the final page.
    own = review_key(kept, seat) in {
        review_key(record, mine) for _, record, mine in _own_hands(store.load_table())
    }
    return _open(state, kept, seat, own=own)


def _unreadable(error: InvalidRecord) -> str:
    """What is wrong with an uploaded record, in the page's language: the
    part :attr:`InvalidRecord.problem` names, a play by its number counted
    from 1, as a player counts, then by its index in the record's list of
    plays, from 0, as the reader's own line and the file count."""
    index = error.play or 0  # set for the two problems of a play
    if error.problem == "hand":
        return gettext(
            "This game record cannot be replayed: its play number %(number)s (play "
            "%(index)s in the file, which counts from 0) is not a card in the hand of "
            "the player whose turn it was.",
            number=index + 1,
            index=index,
        )
    if error.problem == "card":
        return gettext(
            "This game record cannot be replayed: its play number %(number)s (play "
            "%(index)s in the file, which counts from 0) is not a card (a card is "
            "written like 7H, TD or 10D).",
            number=index + 1,
            index=index,
        )
    if error.problem == "plays":
        return gettext(
            "This game record cannot be replayed: its plays are not a list of at most 48 cards."
        )
    if error.problem == "deck":
        return gettext(
            "This game record cannot be replayed: its deck is not one its rules could deal."
        )
    if error.problem == "rules":
        return gettext("This game record's rules are not ones this site can play.")
    return gettext(
        "That file is not a game record. A record is the .json file that “Download "
        "record” gives on a game's final page."
    )


#: Why "Review this game" from the page of an earlier game shows the table.
OTHER_GAME = lazy_gettext(
    "That page's game is no longer this browser's game: a newer one was started "
    "(in another tab, say), so that game can no longer be reviewed here. Nothing "
    "was played; here is the table as it stands."
)
#: Why "Review this game" from a page of an older version (its form named
#: no game, before December 2, 2026) shows the table: which game it meant
#: cannot be told.
OLDER_PAGE = lazy_gettext(
    "That page is from an earlier version of this site, and does not say which game "
    "to review. Nothing was played; here is the table as it stands."
)


@bp.post("/game")
def from_game() -> BaseResponse | tuple[str, int]:
    """Review the player's own seat in a finished hand of their game
    (form field ``hand``, from 1; default the last finished one). The form
    names its game (field ``game``): from a page of another game (a newer
    one started in another tab since), or of an older version of the site
    whose form named none, it is refused with 409 and the table as it
    stands, never answered with a review of the wrong game."""
    table = store.load_table()
    if table is None:
        if store.moved():
            page, status, _ = errors.stale_page()
            return page, status
        return render_template("game/no_game.html"), 404
    sent = request.form.get("game")
    if sent != table.game_id:
        return game.table_out_of_date(table, str(OTHER_GAME if sent is not None else OLDER_PAGE))
    match = table.match
    if not table.seed_public and daily.seed_secret(match):
        return _refused(str(game.DAILY_RECORDS_LATER), status=409, file=False)
    finished = len(match.plays_history)
    text = request.form.get("hand") or str(finished)  # missing or empty: the last
    number = int(text) if re.fullmatch(r"[0-9]{1,3}", text) else 0
    if not 1 <= number <= finished:
        if finished and number != match.hand_number + 1:  # not the hand in play
            message = gettext("This game has no hand “%(hand)s”.", hand=i18n.quoted(text, 20))
            return _refused(message, file=False)
        return _refused(
            gettext("A hand can be reviewed once it is over: it shows every card."), file=False
        )
    state, record, seat = _own_hand(table, number - 1)
    return _open(state, record, seat, own=True)


def _own_hand(table: Table, index: int) -> tuple[GameState, dict[str, Any], int]:
    """The finished hand ``index`` (from 0) of the player's game
    ``table``: its state, its record as the review keeps it (the download's
    ``players`` and ``hand``, no seed or link) and the player's seat."""
    match = table.match
    seat = match.seat_of(0, index)  # the seat the player's position had
    state = match.finished_hand(index)
    extra: dict[str, Any] = {"players": record_players(match, index)}
    if match.target:
        extra["hand"] = index + 1  # as the record download has it
    return state, make_record(state, **extra), seat


def _own_hands(table: Table | None) -> list[tuple[GameState, dict[str, Any], int]]:
    """Every finished hand of the player's game ``table`` (none without one,
    or for today's Daily, whose records are not out yet), as :func:`_own_hand`."""
    if table is None or (not table.seed_public and daily.seed_secret(table.match)):
        return []
    return [_own_hand(table, index) for index in range(len(table.match.plays_history))]


@bp.get("/<string(length=64):key>")
def summary(key: str) -> str | tuple[str, int, dict[str, str]]:
    """The summary: progress while its job runs (started here once), then
    the points lost at every decision and the three costliest. When the
    job queue cannot be reached to start it: the page says so, with 503
    and ``Retry-After``; nothing is lost (the steps stored so far stay)."""
    review = _review(key)
    queue_down = busy = False
    if review.status != "done":
        started = _start(review)
        busy, queue_down = started == "busy", started == "down"
        review = _review(key)
    steps = [Step.from_dict(data) for data in review_steps(review)]
    record = read_record(review.record)
    players = record.extra.get("players")
    own = _is_own(review)
    recorded_you = _is_you(players, review.seat)
    ahead = _ahead(review)
    context: dict[str, Any] = {
        "review": review,
        "result": _result(record.state, review.seat, players, own),
        "rule_name": _rule_name(record.state.rules, record.extra.get("hand")),
        "you": recorded_you and own,
        "recorder": recorded_you and not own,
        "steps": steps,
        "refresh": REFRESH_SECONDS,
        "queue_down": queue_down,
        "retry_after": RETRY_AFTER,
        "busy": busy,
        "ahead": ahead,
        "stalled": _stalled(review, ahead),
        # The way back to the player's game (its final page, say).
        "has_game": bool(store.current_game_id()),
    }
    if review.status == "done":
        context["summary"] = summarize(steps)
        context["by_number"] = {step.number: step for step in steps}
        # The bars colour a loss past this as bad, and one near zero as good.
        context["mistake_points"] = MISTAKE_POINTS
    page = render_template("review/summary.html", **context)
    if queue_down:
        return page, 503, {"Retry-After": str(RETRY_AFTER)}
    return page


@bp.get("/<string(length=64):key>/status")
def status(key: str) -> Response:
    """The summary job's progress as JSON: ``status`` (``new``,
    ``running``, ``done``, ``failed``), ``done`` and ``total`` decisions,
    ``ahead``: the jobs ahead of it while it waits for a review worker
    (else ``null``), and ``busy``: whether a new one waits for room among
    the :data:`MAX_SUMMARIES` (the page's script visits the page, which
    starts it, once there is), and ``stalled``: whether it runs but has
    stored nothing for :data:`STALLED_AFTER` (:func:`_stalled`)."""
    review = _review(key, page=False)
    if _job_lost(review):
        review = _review(key, page=False)
    elif _gone_silent(review):
        # Its server or worker died: started again, so an open page goes
        # on by itself.
        _start(review)
        review = _review(key, page=False)
    busy = review.status == "new" and not _room_for(review)
    ahead = _ahead(review)
    return jsonify(
        status=review.status,
        done=review.done,
        total=review.total,
        ahead=ahead,
        busy=busy,
        stalled=_stalled(review, ahead),
    )


def _stalled(review: Review, ahead: int | None) -> bool:
    """Whether ``review``'s summary runs (not waiting in the queue, when
    ``ahead`` is ``None``) yet has stored nothing for
    :data:`STALLED_AFTER`: waiting for the search pool, or its server or
    worker stopped, which the page says may be."""
    return (
        review.status == "running"
        and ahead is None
        and review.updated_at < utcnow() - STALLED_AFTER
    )


def _room_for(review: Review) -> bool:
    """Whether ``review``'s summary may start now: it is running already,
    or fewer than :data:`MAX_SUMMARIES` are, and fewer wait to run."""
    if review.status == "running":
        return True
    return running_summaries() < MAX_SUMMARIES and not _jobs_full()


def _jobs_full() -> bool:
    """Whether :data:`MAX_SUMMARIES` jobs wait or run already: on the RQ
    queue (waiting there), or in this process (:class:`_Room`)."""
    app = cast(Any, current_app)._get_current_object()
    if jobs.uses_queue(app):
        return jobs.queued(app) >= MAX_SUMMARIES
    return _room(app).full()


def _gone_silent(review: Review) -> bool:
    """Whether ``review``'s job is claimed but its server or worker died:
    on the queue, its worker stopped beating (:func:`app.jobs.worker_beats`;
    one that beats is alive, however slow its step); else, or when that is
    unknown, it has stored nothing for :data:`~app.db.reviews.STALE_AFTER`
    (a step takes about a second at most)."""
    if review.status != "running":
        return False
    app = cast(Any, current_app)._get_current_object()
    beats = jobs.worker_beats(app, review.key, utcnow()) if jobs.uses_queue(app) else None
    if beats is not None:
        return not beats
    return review.updated_at < utcnow() - STALE_AFTER


@bp.get("/<string(length=64):key>/<int:number>")
def step(key: str, number: int) -> str | BaseResponse:
    """Decision ``number`` (from 1); ``?reveal=1`` shows the hidden cards.
    The number written otherwise (``/01``) is sent to its one address.

    Raises:
        app.searches.SearchBusy: the search pool's line is full (503).
    """
    if request.path.rpartition("/")[2] != str(number):
        query = request.query_string.decode()
        to = url_for(".step", key=key, number=number) + (f"?{query}" if query else "")
        return redirect(to, 308)
    review = _review(key)
    record = read_record(review.record)
    state = record.state
    players = record.extra.get("players")
    own = _is_own(review)
    recorded_you = _is_you(players, review.seat)
    you = recorded_you and own
    found = decisions(state, review.seat)
    if not 1 <= number <= len(found):
        abort(404)
    decision = found[number - 1]
    stored = review_steps(review)
    if number <= len(stored):
        reviewed = Step.from_dict(stored[number - 1])
    else:
        reviewed = searches.POOL.run(
            searches.evaluate_step, STEP_BUDGET_MS, decision.observation, decision.played, number
        )
        setattr(g, SEARCHED, True)  # counted in the play limit
        # The next one the summary would evaluate: kept, so it starts past it.
        keep_step(key, number, reviewed.to_dict())
    return render_template(
        "review/step.html",
        review=review,
        rule_name=_rule_name(state.rules, record.extra.get("hand")),
        you=you,
        recorder=recorded_you and not own,
        step=reviewed,
        verdict=verdict(reviewed),
        mistake_points=MISTAKE_POINTS,
        decision=decision,
        seen=_seen(decision, players, own),
        total=len(found),
        reveal=request.args.get("reveal") == "1",
    )


def _open(
    state: GameState, record: dict[str, Any], seat: int, own: bool = False
) -> BaseResponse | tuple[str, int]:
    """Keep ``record``, the record of the finished hand ``state``, for a
    review of ``seat`` and go to its first decision (or to its summary when
    the seat has not played yet: a record may stop before its first card).
    ``own``: the hand is of this browser's game, and the seat the player's,
    so this browser's pages of the review call it "You"
    (:func:`.store.remember_own_review`)."""
    found = decisions(state, seat)
    key = keep_review(record, seat, len(found), current_app.config["REVIEWS_KEPT"])
    if own:
        # A newer game taking the session meanwhile (Stale): the review
        # opens all the same, its seat named as the record names it.
        with contextlib.suppress(store.Stale):
            store.apply(lambda: store.remember_own_review(key))
    if not found:
        return redirect(url_for("review.summary", key=key), 303)
    return redirect(url_for("review.step", key=key, number=1), 303)


#: The 404 of a review's page whose key keeps no review.
REVIEW_GONE = lazy_gettext(
    "There is no review at this address. Reviews are kept while there is room, so an old "
    "one may be gone: review the game again from its record (the file of “Download "
    "record” on its last page)."
)


def _review(key: str, page: bool = True) -> Review:
    """Return the review kept under ``key``, or answer 404: on a page,
    saying that the review is not kept (:data:`REVIEW_GONE`)."""
    review = find_review(key) if KEY.fullmatch(key) else None
    if review is None:
        if page:
            abort(Response(errors.error_page(404, REVIEW_GONE), 404))
        abort(404)
    return review


#: The highest hand number shown from a record (the game form takes three digits).
MAX_HAND = 999


def _rule_name(rules: RuleSet, hand: object = None) -> str:
    """The game and its house rules in the page's language, in the words
    of the table's header (:func:`app.web.rule_words.rules_summary`, no
    match target: a record is one hand), e.g. "Classic · 3 players ·
    Jack pişti 10", then the hand of the match when the record's ``hand``
    field says it (a whole number from 1), e.g. "Classic · hand 2"."""
    line = str(rules_summary(rules, None)["line"])
    number = _hand_number(hand)
    if number is not None:
        line += " · " + gettext("hand %(number)s", number=number)
    return line


def _hand_number(hand: object) -> int | None:
    """A record's ``hand`` field as a hand number (a whole number from 1 to
    :data:`MAX_HAND`), else ``None``."""
    if isinstance(hand, int) and not isinstance(hand, bool) and 1 <= hand <= MAX_HAND:
        return hand
    return None


def _players(data: dict[str, Any], seats: int) -> list[str] | None:
    """Return an uploaded record's ``players`` field (who sat at each seat,
    ``docs/record-format.md``) when it is a list of ``seats`` names of
    which exactly one is "you", else ``None`` (absent, or it says nothing
    usable about the player's seat)."""
    players = data.get("players")
    if not isinstance(players, list) or len(players) != seats:
        return None
    if not all(isinstance(name, str) for name in players) or players.count(YOU) != 1:
        return None
    return players


def _is_you(players: list[str] | None, seat: int) -> bool:
    """Whether a kept record's ``players`` field (as :func:`_open` kept it:
    absent, or naming one seat "you") names ``seat`` "you"."""
    return players is not None and players[seat] == YOU


def _is_own(review: Review) -> bool:
    """Whether ``review`` is of a hand of this browser's own game (opened
    from its final page, or its record uploaded back while the game is the
    browser's): only then is its seat "You" on the pages. A friend's
    record, or a review's link sent by a friend, reviews the recorder's
    seat, who is not the one reading. A review this browser began before
    its reviews were remembered (a session from an older version, or a
    newer game taking the session as it was remembered) is its own when
    it is of a hand of the browser's game."""
    if review.key in store.own_reviews():
        return True
    return review.key in {
        review_key(record, seat) for _, record, seat in _own_hands(store.load_table())
    }


def _result(
    state: GameState, reviewed: int, players: list[str] | None, own: bool
) -> list[tuple[str, int]]:
    """The points each side made in the hand, the reviewed seat's side
    first: (its seats' names as the review pages call them, joined by
    :func:`_side_name` in the order of play from the reviewed seat, as the table says
    "You & North" and "East & West" whatever the seats' numbers, points);
    none for an unfinished hand."""
    if not state.finished:
        return []
    names = _seat_names(state.rules, reviewed, players, own)
    sides = sorted(score_hand(state), key=lambda side: reviewed not in side.seats)
    count = state.rules.players
    # The positions as the names go (seats drawn clockwise swap East and West).
    order = mirrored(list(range(count)), store.clockwise())

    def from_reviewed(seat: int) -> int:
        return order.index((seat - reviewed) % count)

    return [
        (_side_name([names[seat] for seat in sorted(side.seats, key=from_reviewed)]), side.points)
        for side in sides
    ]


def _side_name(names: list[str]) -> str:
    """Return a side's seats' ``names`` joined as the table names a side, in
    the page's language: "You & North" ("Siz ve Kuzey")."""
    joined = names[0]
    for name in names[1:]:
        joined = gettext("%(first)s & %(second)s", first=joined, second=name)
    return joined


def _seat_names(rules: RuleSet, reviewed: int, players: list[str] | None, own: bool) -> list[str]:
    """Return what the review pages call each seat of a hand of ``rules``
    (in seat order, in the page's language) when ``reviewed`` is reviewed
    and the record's ``players`` field is ``players``: the reviewed seat
    is "You" when the record names it so and the hand is of this browser's
    own game (``own``, :func:`_is_own`), "The recorder" when the record
    names it so but it is another's (a friend's record: the player who
    downloaded it), else "Seat 0 (plays first)" (a review not of "you" is
    always of seat 0); the others are named by
    their position from it, as the table names them from the player
    (:func:`app.web.view.position_names`: East plays next, then North,
    then West, or West first with the seats drawn clockwise), and with two
    players "The computer" when the record names it so, else "Opponent"."""
    names = []
    places = position_names(rules.players)
    for seat in range(rules.players):
        position = (seat - reviewed) % rules.players
        if position == 0:
            if not _is_you(players, seat):
                name = gettext("Seat 0 (plays first)")
            elif own:
                name = gettext("You")
            else:
                name = gettext("The recorder")
        elif rules.players == 2 and (players is None or players[seat] != COMPUTER):
            name = gettext("Opponent")
        else:
            name = str(places[position])
        names.append(name)
    return names


def _upload_too_large() -> tuple[str, int]:
    """A file over the server's limit for a whole form (a photo picked by
    mistake): the upload page again, saying so (413)."""
    return _refused(_too_large(), status=413)


errors.TOO_LARGE_PAGES["review.upload"] = _upload_too_large


def _too_large() -> str:
    return gettext(
        "That file is too big to be a game record: a record is about 1 KB, at most "
        "%(limit)s KB. Choose the .json file that “Download record” gave you on a game's "
        "final page.",
        limit=RECORD_LIMIT // 1024,
    )


def _refused(
    message: str, detail: str | None = None, status: int = 400, file: bool = True
) -> tuple[str, int]:
    """The upload page again, with what was wrong (``status``, 400: the
    request's fault) and, for a record the engine refused, its reason
    (``detail``, in English). ``file``: the uploaded file was what was
    wrong, so the file field is marked invalid and takes the focus."""
    return _upload_form(message, detail, file), status


def _upload_form(message: str | None = None, detail: str | None = None, file: bool = False) -> str:
    """The upload page, with what was wrong with the last file if anything
    (``message``, and the record reader's English ``detail``; ``file``:
    the file field's own fault)."""
    return render_template(
        "review/upload.html",
        limit=RECORD_LIMIT // 1024,
        message=message,
        detail=detail,
        file_refused=file,
        too_large=_too_large(),
    )


#: Where each seat sits on the step page's table on a laptop, by its
#: position from the reviewed seat (0): as the table draws them, East on
#: the right, North across, West on the left (mirrored with the seats drawn
#: clockwise, as their names are).
AREAS = {2: ["you", "north"], 3: ["you", "east", "west"], 4: ["you", "east", "north", "west"]}


def _seen(decision: Decision, players: list[str] | None, own: bool) -> dict[str, Any]:
    """What the step page shows of the table, from the seat's observation:
    every seat in seat order (the order of play) with its name
    (:func:`_seat_names`, from the record's ``players`` field), role, place
    at the table (:data:`AREAS`), number of cards and cards in hand; the
    face-down centre cards (``face_down``); the cards known at the bottom
    of the stock (``bottom``) and the face-down cards the seat's side took
    and may see (``seen_face_down``). The other seats' cards and the
    face-down ones come from the hand's state, not the observation: the
    template shows them only when the reader asks (``reveal``), the hand
    being over."""
    observation = decision.observation
    rules = observation.rules
    names = _seat_names(rules, observation.seat, players, own)
    areas = mirrored(AREAS[rules.players], store.clockwise())
    seats = []
    for seat, size in enumerate(observation.hand_sizes):
        if seat == observation.seat:
            role = "you"
        elif rules.team_of(seat) == observation.team:
            role = "partner"
        else:
            role = "opponent"
        cards = decision.state.hands[seat] if seat != observation.seat else list(observation.hand)
        area = areas[(seat - observation.seat) % rules.players]
        seats.append(
            {"name": names[seat], "role": role, "area": area, "size": size, "cards": cards}
        )
    # What the seat knew of the stock's bottom while those cards were
    # still in it (the cut's card shown to all, opening Jacks put under
    # it), and the face-down cards its side took and may look at: the
    # step's counts of cards still unseen leave them out, so the page
    # shows them, as the table did.
    stock = observation.stock
    bottom = list(observation.stock_bottom[-stock:]) if stock else []
    return {
        "seats": seats,
        "face_down": decision.state.pile[: observation.face_down],
        "bottom": bottom,
        "seen_face_down": list(observation.seen_face_down),
        "points": _points_so_far(observation),
    }


def _points_so_far(observation: Observation) -> list[int]:
    """Each team's piştis points so far (card points are counted at the
    end of the hand; the seat knows only how many cards each side took)."""
    rules = observation.rules
    return [
        rules.pisti_points * pisti + rules.jack_pisti_points * jack
        for pisti, jack in zip(observation.pisti, observation.jack_pisti, strict=True)
    ]


def _start(review: Review) -> Literal["started", "busy", "down"]:
    """Start the summary's job unless it is done or running elsewhere (the
    claim in the database decides, once): on the RQ queue when the app
    uses one (:func:`app.jobs.uses_queue`), else in this process. A job
    the queue lost, or whose worker died, is marked failed first, so it
    starts again. Returns ``"started"`` (or done, or running elsewhere),
    ``"busy"`` when :data:`MAX_SUMMARIES` are claimed already (it waits,
    unclaimed), or ``"down"`` when the queue could not be reached (the
    claim is released: nothing started, nothing lost)."""
    if review.total == 0:
        if claim_review(review.key):
            save_steps(review.key, [], finished=True)
        return "started"
    _job_lost(review)
    silent = _gone_silent(review)
    # As it was: giving up the claim below reloads the review.
    since, done = review.updated_at, review.done
    stale = review.status == "running" and review.updated_at < utcnow() - STALE_AFTER
    if stale and not silent:
        return "started"  # its worker beats: a slow step, left to it
    if silent and not stale:
        # Its worker stopped beating: the claim is given up to be taken.
        release_review(review.key, claimed_at=review.updated_at)
    if not claim_review(review.key, limit=MAX_SUMMARIES):
        # Claimed elsewhere, or no room: only the latter leaves it unclaimed.
        waiting = _review(review.key).status in ("new", "failed")
        return "busy" if waiting else "started"
    app = cast(Any, current_app)._get_current_object()
    if not jobs.uses_queue(app):
        room = _room(app)
        if room.holds(review.key):
            return "started"  # its job waits for a thread here: alive, if silent
        if not room.take(review.key):
            release_review(review.key)
            return "busy"
        JOBS.submit(_summarize, app, review.key)
        if silent:
            _taken_over(app, review, since, done)
        return "started"
    try:
        queued = jobs.enqueue_summary(app, review.key, MAX_SUMMARIES)
    except RedisError:
        app.logger.warning(
            "the review queue is not answering; review %s not started", short_key(review.key)
        )
        release_review(review.key)
        return "down"
    if not queued:
        release_review(review.key)
        return "busy"
    if silent:
        _taken_over(app, review, since, done)
    return "started"


def _taken_over(app: Flask, review: Review, since: datetime, done: int) -> None:
    """Log that ``review``'s summary, whose job had stored nothing since
    ``since`` (naive UTC; its server or worker died), was started again
    here, from the ``done`` decisions stored (both as they were before the
    claim was taken again)."""
    app.logger.warning(
        "the review %s's summary had stored nothing since %s UTC (its server or worker "
        "stopped): started again from decision %d of %d",
        short_key(review.key),
        since.strftime("%H:%M:%S"),
        done + 1,
        review.total,
    )


def _job_lost(review: Review) -> bool:
    """Mark ``review`` failed when its job runs on the queue and will never
    finish (:func:`app.jobs.job_lost`); return whether it was."""
    app = cast(Any, current_app)._get_current_object()
    if review.status != "running" or not jobs.uses_queue(app):
        return False
    if not jobs.job_lost(app, review.key, review.updated_at, utcnow()):
        return False
    app.logger.warning(
        "the review %s's job was lost or failed in its worker", short_key(review.key)
    )
    fail_review(review.key)
    return True


def _ahead(review: Review) -> int | None:
    """The jobs ahead of ``review``'s while it waits in the queue, else ``None``."""
    app = cast(Any, current_app)._get_current_object()
    if review.status != "running" or not jobs.uses_queue(app):
        return None
    ahead = jobs.waiting_ahead(app, review.key)
    if ahead is not None:
        jobs.warn_if_no_worker(app)
    return ahead


def stop_summaries(app: Flask) -> None:
    """Have the summaries ``app``'s process works out give their claims
    back before their next decision, or when the one in hand fails (the
    server stops and shuts its search pool down): their pages then load
    themselves again and start them on another replica, or on this server
    once it runs again, rather than say that the review could not be
    finished."""
    _room(app).stopping = True


def _summarize(app: Flask, key: str) -> None:
    """The summary's job in this process: :func:`app.jobs.compute_summary`,
    every step through the search pool (:func:`_pooled`), stopped by
    :func:`stop_summaries`; its place in the app's :class:`_Room` given
    back at the end."""
    room = _room(app)

    def evaluate(decision: Decision, number: int) -> Step:
        if room.stopping:
            raise jobs.SummaryStopped
        try:
            return _pooled(decision, number)
        except Exception as error:
            if room.stopping:
                raise jobs.SummaryStopped from error
            raise

    try:
        jobs.compute_summary(app, key, evaluate)
    finally:
        room.give_back(key)


def _pooled(decision: Decision, number: int) -> Step:
    """Evaluate ``decision`` in the search pool, waiting for a place in its
    line when it is full.

    Raises:
        app.searches.SearchBusy: the line stayed full for
            :data:`BUSY_ATTEMPTS` tries.
    """
    for attempt in range(BUSY_ATTEMPTS):
        try:
            return searches.POOL.run(
                searches.evaluate_step,
                STEP_BUDGET_MS,
                decision.observation,
                decision.played,
                number,
            )
        except searches.SearchBusy:
            if attempt == BUSY_ATTEMPTS - 1:
                raise
            time.sleep(BUSY_PAUSE)
    raise AssertionError("unreachable")
