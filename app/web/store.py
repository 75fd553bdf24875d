"""The one module that touches the session: the player's table and the
games put aside, the settings of the last game started, the playing aids,
the language, the first games (hints on), the Daily deals dealt, the
reviews of the player's own games and the story progress (a known
player's story progress is in the database).

The session lives server-side (Flask-Session); the cookie holds only its
random id. The whole table is assigned back after every move, because
Flask-Session does not notice changes inside nested data.

Changes are stored atomically against the version of the session the
request loaded (:mod:`app.sessions`). Pages make them through
:func:`apply`: when another request changed the session meanwhile, the
change is made again on the fresh session, where it checks what it depends
on (a play, its move number: a stale page is refused with 409); when the
session went away (a newer game replaced its id), :class:`Stale` is raised
and the page answers 409 with the table as it stands.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any, TypeVar, cast

import redis
from flask import after_this_request, current_app, g, has_request_context, request, session
from flask_babel import format_timedelta
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from app.db import queries
from app.db.models import Player
from app.engine import InvalidState, rules_to_json
from app.logs import note_game
from app.sessions import CSRF_COOKIE, Stale, VersionedSession, VersionedSessions
from app.story import progress

from .errors import StoreWriteFailed, database_gone
from .identity import COOKIE as PLAYER_COOKIE
from .identity import current_player, keep_cookie, player_by_key, player_key
from .security import cookie_path
from .table import Table

__all__ = ["Stale"]

T = TypeVar("T")

_TABLE = "table"
#: The games in progress put aside by newer ones, most recent first.
_KEPT = "kept"
#: Where one put-aside game was kept before the list (read, then replaced).
_PREVIOUS = "previous_table"
_SETTINGS = "settings"
#: The ids of the first :data:`FIRST_GAMES` games this session started
#: (``None``: a session from before they were kept, past its first games).
_FIRST = "first_games"
#: The first games, in which hints are on until the player sets the aids
#: (seed 001: "in your first games, when it is your turn, a short note").
FIRST_GAMES = 3
#: How many unfinished games are kept to go back to.
KEEP = 5
#: How many times :func:`apply` re-applies a change to a fresh session.
ATTEMPTS = 5


def commit() -> None:
    """Store this request's changes now, against the session it loaded.

    Raises:
        Stale: the session changed since this request loaded it (another
            tab, a repeated click); nothing was stored.
    """
    if "let_go_due" not in g:
        # Before the first change of the request: whether the session it
        # loaded was an expired one's successor (nothing stored).
        g.let_go_due = _let_go_due()
    _interface().commit(current_app, _session())


def moved() -> bool:
    """Whether the player's session id was replaced by a newer game's (so
    a page of the old id is out of date)."""
    return _session().moved


def reload() -> None:
    """Drop this request's changes and read the session as stored now."""
    _interface().reload(_session())


def follow_first_start() -> bool:
    """After a start refused as sent twice (:func:`start_table`): when the
    browser has no game and its first start, a moment ago, stored one,
    make that game this request's session (its cookie goes with the
    answer) and return ``True``. The first answer was lost on its way, or
    is still on it (a double click): either way the browser is to see
    that game.

    Raises:
        redis.RedisError: Redis did not answer (the Redis store).
    """
    browser = request.cookies.get(CSRF_COOKIE)
    if _session().stored_sid is not None or moved() or not browser:
        return False
    return _interface().follow_first_start(_session(), browser, _start_form())


def _start_form() -> str:
    """A digest of the form that starts a game, to tell the same form sent
    again from another start: its address (a deal link's seed and
    settings) and its fields, but the CSRF token."""
    fields = sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")
    text = json.dumps([request.path, sorted(request.args.items(multi=True)), fields])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _interface() -> VersionedSessions:
    return cast(VersionedSessions, current_app.session_interface)


def _session() -> VersionedSession:
    return cast(VersionedSession, session._get_current_object())  # type: ignore[attr-defined]


def apply(change: Callable[[], T]) -> T:
    """Make ``change`` (a function of the session, through this module),
    store it, and return what it returned. When another request changed
    the session meanwhile, ``change`` is made again on the fresh session,
    so it must check there what it depends on (a play checks its move
    number, hand and game) and raise to refuse.

    Raises:
        Stale: the session went away meanwhile (another tab started a game
            under a new id), or kept changing (:data:`ATTEMPTS` tries).
        Exception: whatever ``change`` raises; nothing is stored.
    """
    for attempt in range(ATTEMPTS):
        result = change()
        try:
            commit()
            return result
        except Stale:
            existed = _session().stored_sid is not None
            reload()
            if attempt == ATTEMPTS - 1 or (existed and _session().stored_sid is None):
                raise
    raise AssertionError("unreachable")


def _table(data: Any) -> Table | None:
    try:
        return Table.from_dict(data, expert_ms=float(current_app.config["EXPERT_MS"]))
    except InvalidState as exc:
        current_app.logger.warning("ignoring a damaged saved game: %s", exc)
        return None


def load_table() -> Table | None:
    """Return the player's table, or ``None`` when there is none (or the
    saved one is damaged, which is logged); the request's log line names
    the game (:func:`app.logs.note_game`)."""
    data = session.get(_TABLE)
    table = None if data is None else _table(data)
    if table is not None:
        note_game(table.game_id)
    return table


def holds_nothing() -> bool:
    """Whether nothing is stored for this request's visitor (who has no
    game); ``False`` when that is unknown (a session the store could not
    load, or none opened)."""
    return bool(getattr(session, "holds_nothing", False))


def has_table() -> bool:
    """Whether the session holds a game (in progress or finished), without
    reading it."""
    return _TABLE in session


def save_table(table: Table) -> None:
    """Keep ``table`` in the session; the request's log line names it."""
    session[_TABLE] = table.to_dict()
    note_game(table.game_id)


def summary(table: Table) -> dict[str, Any]:
    """What the pages show of a game ``table`` in a line (plain data): the
    list of kept games, and the current game's "Continue" button."""
    match = table.match
    return {
        "game_id": table.game_id,
        "rules": match.rules.name,
        # The whole rule set, house rules included (a name or a format-2 object).
        "rule_set": rules_to_json(match.rules),
        "target": match.target,
        "levels": table.levels[1:],
        "hand": match.hand_number + 1,
        "move": table.move,
        "plays": match.rules.deals * 4 * match.players,
        "totals": match.totals if match.target else [],
        "seed": match.seed if table.seed_public else None,
        "player": table.player,
    }


def kept_games() -> list[dict[str, Any]]:
    """Return the unfinished games put aside by newer ones, most recent
    first: plain summaries (``game_id``, ``rules``, ``target``, ``levels``,
    ``hand`` from 1, ``move``, ``plays`` in a hand, ``totals`` of a match,
    ``seed`` when public, and ``put_aside``, how long ago in words in the
    page's language, "12 minutes ago", for games kept since that was
    recorded: games alike in everything else are told apart by it), and
    ``started_by`` (:func:`with_starter`)."""
    now = time.time()
    return [with_starter(_with_age(entry["summary"], now)) for entry in _kept()]


def with_starter(summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` (:func:`summary`) with ``started_by``: the name its game
    was started under when that is not this device's player's (another
    player of a shared device, whose result it will be), else ``None``
    (also when the database does not answer); and ``starter_forgotten``:
    whether that name was forgotten since (the game is recorded for
    nobody)."""
    key = summary.get("player")
    starter = None
    forgotten = False
    if isinstance(key, str) and key and key != player_key(named_player()):
        try:
            starter = player_by_key(key)
            forgotten = starter is None
        except SQLAlchemyError as error:
            database_gone(error)
    return {
        **summary,
        "started_by": starter.name if starter is not None else None,
        "starter_forgotten": forgotten,
    }


def _with_age(summary: dict[str, Any], now: float) -> dict[str, Any]:
    """``summary`` with ``put_aside`` worked out from its ``kept_at`` (Unix
    time in seconds), unchanged without one."""
    kept_at = summary.get("kept_at")
    if not isinstance(kept_at, int | float):
        return summary
    # At least a second ago: in the very second it was put aside (or shown
    # by a server whose clock is behind the one that put it aside) the
    # words would be "in 0 minutes", a time to come.
    ago = timedelta(seconds=min(-1.0, kept_at - now))
    return {**summary, "put_aside": format_timedelta(ago, "minute", add_direction=True)}


def _kept() -> list[dict[str, Any]]:
    kept = session.get(_KEPT)
    entries = [e for e in kept if isinstance(e, dict)] if isinstance(kept, list) else []
    previous = session.get(_PREVIOUS)
    if previous is not None and (table := _table(previous)) is not None:
        entries.insert(0, {"table": previous, "summary": summary(table)})
    return [e for e in entries if isinstance(e.get("summary"), dict) and "table" in e][:KEEP]


def _keep_current(kept: list[dict[str, Any]]) -> None:
    """Put the current game at the head of ``kept`` when it is unfinished,
    and store the list (at most :data:`KEEP`)."""
    current = load_table()
    if current is not None and not current.match.over:
        kept_at = int(time.time())
        kept.insert(
            0, {"table": current.to_dict(), "summary": {**summary(current), "kept_at": kept_at}}
        )
    session[_KEPT] = kept[:KEEP]
    session.pop(_PREVIOUS, None)


#: The field of a form that starts a game: the id of the game that was
#: current when the form was shown ("" for none), see :func:`start_table`.
REPLACES = "replaces"


def current_game_id() -> str:
    """Return the id of the player's current game (in progress or over),
    or ``""`` with none, without rebuilding the game."""
    data = session.get(_TABLE)
    game_id = data.get("game_id") if isinstance(data, dict) else None
    return game_id if isinstance(game_id, str) else ""


def start_table(table: Table) -> None:
    """Keep a newly dealt ``table``, under a fresh session id (so an id
    seen before the new game gives no access to it). A game still in
    progress is put aside (the last :data:`KEEP`), so a deal link opened by
    mistake loses nothing (see :func:`resume`).

    Every form that starts a game sends :data:`REPLACES`, the game that
    was current when the form was shown; it is checked here, for every such
    form at once (a request without the field skips the check). With no
    game stored now (a session expired or lost since the page was shown)
    the form starts its game: there is nothing to keep.

    Raises:
        Stale: another game is current now, or a newer game took this
            session's id, or (a browser with no game yet) this browser
            started its first game a moment ago: the form was sent twice (a
            double click, a retry) or comes from an out-of-date page, and
            nothing is changed.
    """
    replaces = request.form.get(REPLACES)
    if replaces is not None and (moved() or current_game_id() not in ("", replaces)):
        raise Stale("the game this form would replace is no longer the current one")
    browser = request.cookies.get(CSRF_COOKIE)
    new_browser = replaces == "" and _session().stored_sid is None and not moved()
    _interface().regenerate(_session())
    if new_browser and browser:
        form = _start_form()
        if (
            not _interface().claim_first_start(browser, _session().sid, form)
            and _interface().first_start_form(browser) == form
        ):
            raise Stale("this browser's first game was started a moment ago: sent twice")
        # Another form (other settings, another deal) starts a game of its
        # own: the player changed their mind after a first answer was lost.
    table.player = player_key(named_player())
    _keep_current(_kept())
    first = _first_games()
    if first is not None and len(first) < FIRST_GAMES:
        first = [*first, table.game_id]
    session[_FIRST] = first
    save_table(table)


def _first_games() -> list[str] | None:
    """The ids of the first :data:`FIRST_GAMES` games this session started,
    or ``None`` for a session kept from before they were (a game or settings
    but no list), or a new one of a player whose name has finished games:
    it is past its first games."""
    first = session.get(_FIRST)
    if isinstance(first, list):
        return first
    if _FIRST in session or _TABLE in session or _SETTINGS in session:
        return None
    # A new session of a player whose name has games (back after theirs
    # expired): past their first games too.
    return None if named_player_has_played() else []


#: The request's answer of :func:`named_player_has_played` (its environ's key).
_NAMED_PLAYER = "pisti.named_player"


def named_player_has_played() -> bool:
    """Whether this device's player cookie names a player who has finished
    a game (:func:`named_player`); ``False`` without one, or when the
    database does not answer."""
    if not has_request_context():
        return False
    player = named_player()
    return player is not None and player.games > 0


def named_player() -> Player | None:
    """The player this device's player cookie names; ``None`` without one,
    or when the database does not answer. Looked up without
    :func:`.identity.current_player`, so that a page that does not look for
    the player (home, the table) never drops a cookie that names nobody;
    and once a request (the home page asks for its newcomer's page, its
    hints and whose device it is), so a database that does not answer is
    waited for once."""
    # Kept in the request's environ: flask.g outlives a request made
    # inside an app context of its own (a test's, a command's).
    if _NAMED_PLAYER not in request.environ:
        request.environ[_NAMED_PLAYER] = _look_up_player()
    player: Player | None = request.environ[_NAMED_PLAYER]
    return player


def _look_up_player() -> Player | None:
    token = request.cookies.get(PLAYER_COOKIE)
    if not token:
        return None
    try:
        return queries.player_by_token(token)
    except SQLAlchemyError as error:
        database_gone(error)
        return None


def _hints_by_default() -> bool:
    """Whether hints are on before the player sets the aids: in one of the
    session's first :data:`FIRST_GAMES` games (kept aside and resumed too),
    or, with no game in progress, when the next one will be."""
    first = _first_games()
    if first is None:
        return False
    table = load_table()
    if table is not None and not table.match.over:
        return table.game_id in first
    return len(first) < FIRST_GAMES


def resume(game_id: str) -> bool:
    """Go back to the kept game ``game_id``; the current game is put aside
    in turn if it is unfinished. Return whether there was such a game."""
    kept = _kept()
    chosen = next((e for e in kept if e["summary"].get("game_id") == game_id), None)
    if chosen is None:
        return False
    kept.remove(chosen)
    _keep_current(kept)
    session[_TABLE] = chosen["table"]
    note_game(game_id)
    return True


#: Today's Daily deals this browser dealt, and under whom: ``{"YYYY-MM-DD/rules":
#: [dealer, ...]}`` (:func:`note_daily`).
_DAILY_DEALT = "daily_dealt"


def daily_dealers(day: date, rules: str) -> set[str]:
    """Return under whom this browser dealt ``day``'s Daily deal of
    ``rules`` (:func:`note_daily`'s ``dealer``s); empty when it never did
    (or the session is gone)."""
    dealt = session.get(_DAILY_DEALT)
    dealers = dealt.get(_daily_key(day, rules)) if isinstance(dealt, dict) else None
    if not isinstance(dealers, list):
        return set()
    return {dealer for dealer in dealers if isinstance(dealer, str)}


def note_daily(day: date, rules: str, dealer: str) -> None:
    """Remember that this browser dealt ``day``'s Daily deal of ``rules``
    under ``dealer`` (who played it: a player, or ``""`` for no name), so
    that a name taken later in it (a first name, the same name again after
    Forget me, another player's by a transfer code) knows the deal's cards
    were seen here. Only ``day``'s deals are kept."""
    dealt = session.get(_DAILY_DEALT)
    prefix = f"{day.isoformat()}/"
    kept = {
        key: dealers
        for key, dealers in (dealt.items() if isinstance(dealt, dict) else ())
        if key.startswith(prefix) and isinstance(dealers, list)
    }
    dealers = kept.get(_daily_key(day, rules), [])
    if dealer not in dealers:
        kept[_daily_key(day, rules)] = [*dealers, dealer]
    session[_DAILY_DEALT] = kept


def _daily_key(day: date, rules: str) -> str:
    return f"{day.isoformat()}/{rules}"


def settings() -> dict[str, Any]:
    """Return the player's game settings from the last game they started
    (rule set, target, computer levels), or ``{}``."""
    value = session.get(_SETTINGS)
    return value if isinstance(value, dict) else {}


def save_settings(value: dict[str, Any]) -> None:
    """Remember the player's game settings (plain data) for later games."""
    session[_SETTINGS] = value


_OWN_REVIEWS = "own_reviews"
#: How many reviews of the player's own games the session remembers.
OWN_REVIEWS = 20


def own_reviews() -> list[str]:
    """Return the keys of the reviews this browser opened of its own games'
    hands (newest first): on their pages the reviewed seat is "You"; a
    review opened from a record file of another's game, or from a link a
    friend sent, names it as the record does."""
    keys = session.get(_OWN_REVIEWS)
    return [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []


def remember_own_review(key: str) -> None:
    """Remember that review ``key`` is of a hand of this browser's own game
    (the last :data:`OWN_REVIEWS`); nothing is stored for a visitor who has
    no game (who has no own game to review)."""
    if _session().holds_nothing:
        return
    keys = own_reviews()
    if keys[:1] != [key]:
        session[_OWN_REVIEWS] = [key, *(other for other in keys if other != key)][:OWN_REVIEWS]


#: The playing aids and their defaults (seed 001 and 004's aids).
AIDS = {
    "highlight": True,  # mark the cards in hand that would capture
    "counter": False,  # played-cards counter per rank
    "four_colour": False,  # four-colour deck
    "hints": False,  # a short note on your turn
    "bottom_card": True,  # show the stock's bottom card where the rules do
    "fan": True,  # fan the pile's top cards
    "remarks": True,  # a story opponent's remarks at the table
    # The computers' cards move slower and each rests a moment on the pile
    # before the next (static/pisti.js), to follow every reply's card.
    "slow": False,
    # Fast play: every card moves in 40 % of its usual time and the hand's
    # last cards stay 0.3 s rather than 0.9 s before its score
    # (static/pisti.js), for a player who follows the game at a glance.
    "fast": False,
    # The next hand dealt at once after a hand's last play (the match going
    # on; static/pisti.js), the hand's points said at the new table until
    # the player's first play of it (game._hand_over): no "Next hand" to
    # press between hands. Pages without the script keep it.
    "deal_on": False,
    # A sound as each card lands (a tap; a sweep for a capture, a chime for
    # a pişti), made by the page's script (static/pisti.js), no sound files.
    "sound": False,
    # Play goes clockwise on the screen: the seat after yours on your left
    # (seed 001's partners); else anticlockwise, on your right (seeds 003
    # and 004). Only where the seats are drawn and what they are called.
    "clockwise": False,
}
_AIDS = "aids"


#: The cookies that keep the player's latest aids and language, so nothing
#: is stored on the server for a visitor who has no game, and the choice
#: stands after a session is gone: the aids that are on, by name, joined
#: by "."; the language's code.
AIDS_COOKIE = "pisti_aids"
LANGUAGE_COOKIE = "pisti_language"


def aids() -> dict[str, bool]:
    """Return the player's aids, each on or off: as saved in the session,
    else in the aids cookie (:data:`AIDS_COOKIE`), else the defaults
    of :data:`AIDS`, but until the player sets the aids, two follow seed
    001: the counter is on when every computer of the current game is Easy,
    or with no game when the last New game was against Easy ("switched on
    from the start on Easy"); hints are on in the first :data:`FIRST_GAMES`
    games ("in your first games", :func:`_hints_by_default`))."""
    chosen = _chosen_aids()
    if chosen is not None:
        return chosen
    return {**AIDS, "counter": _against_easy(), "hints": _hints_by_default()}


def _chosen_aids() -> dict[str, bool] | None:
    """The aids the player set, as saved in the session or else in the aids
    cookie; ``None`` until they set them."""
    saved = session.get(_AIDS)
    if isinstance(saved, dict):
        return {name: bool(saved.get(name, default)) for name, default in AIDS.items()}
    cookie = request.cookies.get(AIDS_COOKIE)
    if cookie is not None:
        on = set(cookie.split("."))
        return {name: name in on for name in AIDS}
    return None


def clockwise() -> bool:
    """Whether this request's player has the seats drawn clockwise (the
    ``clockwise`` aid, whose default never changes, so the defaults that
    do are not worked out); ``False`` outside a request."""
    if not has_request_context():
        return False
    chosen = _chosen_aids()
    return AIDS["clockwise"] if chosen is None else chosen["clockwise"]


def _against_easy() -> bool:
    """Whether the current game's computers are all Easy (with no game: the
    level of the last New game), read from the saved game's plain data."""
    data = session.get(_TABLE)
    levels = data.get("levels") if isinstance(data, dict) else None
    if isinstance(levels, list) and levels[1:]:
        return all(level == "easy" for level in levels[1:])
    return bool(settings().get("level") == "easy")


def save_aids(value: dict[str, bool]) -> None:
    """Remember the player's aids (names of :data:`AIDS` to booleans): in a
    cookie, and in the session when it holds a game (nothing is stored on
    the server for someone who has not started one).

    Raises:
        Stale: a newer game replaced this session's id (another tab).
    """
    aids = {name: bool(value.get(name, False)) for name in AIDS}
    _refuse_when_moved()
    # The cookie always holds the latest choice, so it stands when the
    # session is gone (expired, or pushed out of the store).
    _set_cookie(AIDS_COOKIE, ".".join(name for name, on in aids.items() if on))
    if not _session().holds_nothing:
        session[_AIDS] = aids


def _refuse_when_moved() -> None:
    """Refuse a choice sent with an id a newer game replaced: the newer
    game's session keeps the choices it took over, and they would outweigh
    the cookie, so the choice would be answered as done and not be seen.

    Raises:
        Stale: a newer game replaced this session's id.
    """
    if moved():
        raise Stale("a newer game replaced this session: the choice would not be seen")


def _set_cookie(name: str, value: str) -> None:
    """Send the cookie ``name`` with this request's answer
    (:func:`.identity.keep_cookie`)."""
    after_this_request(lambda response: keep_cookie(response, name, value))


_LANGUAGE = "language"


def language() -> str | None:
    """Return the language the player chose on a page, if any: as saved in
    the session, else in the language cookie (:data:`LANGUAGE_COOKIE`)."""
    value = session.get(_LANGUAGE)
    if isinstance(value, str):
        return value
    return request.cookies.get(LANGUAGE_COOKIE)


def save_language(code: str) -> None:
    """Remember the player's language (a key of ``i18n.LANGUAGES``): in a
    cookie, and in the session when it holds a game.

    Raises:
        Stale: a newer game replaced this session's id (another tab).
    """
    _refuse_when_moved()
    _set_cookie(LANGUAGE_COOKIE, code)  # the latest choice, as for the aids
    if not _session().holds_nothing:
        session[_LANGUAGE] = code


_STORY = "story"


def story_progress() -> dict[str, Any]:
    """Return the player's Mansion Evenings progress
    (``app/story/progress.py``'s shape): a known player's from the
    database, an anonymous one's from the session."""
    player = current_player()
    if player is not None:
        return queries.story_progress(player.id)
    return progress.clean(session.get(_STORY))


def update_story_progress(change: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
    """Change the player's Mansion Evenings progress: ``change`` gets it as
    kept and returns the new one (``None``: no change). A known player's is
    changed in the database at once and atomically
    (:func:`app.db.queries.update_story_progress`: made again on the fresh
    progress when another request wrote it meanwhile); an anonymous one's
    in the session (which :func:`apply` stores atomically)."""
    player = current_player()
    if player is not None:
        queries.update_story_progress(player.id, change)
        return
    value = change(progress.clean(session.get(_STORY)))
    if value is None:
        return
    cleaned = progress.clean(value)
    # No progress yet (restarting a lesson never begun) stores nothing.
    if _STORY in session or cleaned != progress.clean(None):
        session[_STORY] = cleaned


def adopt_story_progress(player_id: int) -> None:
    """Merge this session's story progress into the player ``player_id``'s
    in the database (the furthest of both is kept) and drop it from the
    session: call it when an anonymous player becomes known, by a name or
    a transfer code. The session's change is stored at once, made again
    on the fresh session when another request (a play in another tab)
    changed it meanwhile: the name or the code, taken already, must not be
    answered as out of date."""

    def merge() -> None:
        story = session.get(_STORY)
        if story is not None:
            queries.merge_story_progress(player_id, story)
            session.pop(_STORY, None)

    if session.get(_STORY) is None:
        return
    try:
        apply(merge)
    except queries.StoryBusy as busy:
        # The player's own requests kept writing it: this device's copy
        # stays in the session rather than the name being lost to a 500.
        current_app.logger.warning("%s", busy)
    except Stale:
        # A new game took the session's id meanwhile, and its copy of the
        # progress with it; the player is known all the same.
        current_app.logger.warning("story progress not adopted: the session moved meanwhile")
    except (StoreWriteFailed, redis.RedisError) as failure:
        # The session cannot be written now: the answer (a 503 when the
        # session is saved at the end) must still carry the player's cookie.
        current_app.logger.warning("story progress not dropped from the session: %s", failure)


#: The cookie that remembers, in the browser, how many unfinished games its
#: session held (the current game and those put aside) and when that was
#: last sent: ``"<count>.<seconds since the epoch>"``, and
#: ``".<count let go>"`` after them while a returning player has not seen
#: the home page yet. The session itself is gone once it expires
#: (``PERMANENT_SESSION_LIFETIME`` after its last change), and with it any
#: trace of the games; the home page then tells a returning player, once,
#: how many were let go (:func:`games_let_go`), also when they came back
#: through another page that stored a new game first (the count let go is
#: carried, :func:`count_unfinished`). Only a browser whose session holds
#: an unfinished game, or whose player has not been told yet, gets it:
#: nothing is stored for a visitor, nor on the server.
UNFINISHED_COOKIE = "pisti_unfinished"


def _seconds_now() -> int:
    """Whole seconds since the epoch, the clock of :data:`UNFINISHED_COOKIE`."""
    return int(time.time())


def unfinished_games() -> int:
    """How many unfinished games the session holds: the current game when
    it is not over, and the games put aside."""
    current = load_table()
    return len(_kept()) + (1 if current is not None and not current.match.over else 0)


def _unfinished_cookie() -> tuple[int, int, int] | None:
    """The browser's :data:`UNFINISHED_COOKIE` as (games, seconds, games
    let go not told yet), or ``None`` without one (or with one that does
    not read as two or three whole numbers, the first or the third at
    least 1)."""
    fields = request.cookies.get(UNFINISHED_COOKIE, "").split(".")
    if not 2 <= len(fields) <= 3 or not all(field.isdigit() for field in fields):
        return None
    games, sent, let_go = (int(field) for field in (*fields, "0")[:3])
    if games == 0 and let_go == 0:
        return None
    return games, sent, let_go


def _let_go_due() -> int:
    """How many unfinished games this browser's player is to be told were
    let go (:func:`games_let_go`): those the cookie carries (let go
    before and not told yet), and those it counts when nothing is stored
    for the browser any more and it was sent a lifetime ago or more (the
    session, changed then or later, may have expired; sooner, it was lost
    some other way, which this does not claim). Read it before the
    request changes the session."""
    held = _unfinished_cookie()
    if held is None:
        return 0
    games, sent, carried = held
    lifetime = current_app.permanent_session_lifetime.total_seconds()
    expired = holds_nothing() and _seconds_now() - sent >= lifetime
    return carried + (games if expired else 0)


def _forget_unfinished(response: Response) -> Response:
    """Drop :data:`UNFINISHED_COOKIE` from the browser."""
    secure = bool(current_app.config["SESSION_COOKIE_SECURE"])
    response.delete_cookie(
        UNFINISHED_COOKIE, path=cookie_path(), httponly=True, samesite="Lax", secure=secure
    )
    return response


def count_unfinished(response: Response) -> Response:
    """After a request that stored the session: send :data:`UNFINISHED_COOKIE`
    when the count of unfinished games changed, or when the session's own
    cookies are sent again (once a day at most, so the time it holds is at
    most a day older than the session's last change); drop it once no game
    is unfinished; games let go that a returning player was not told of
    yet (a deal link's game started before the home page was seen) are
    carried in it until the home page says so. An ``after_request`` hook."""
    stored = _session()
    if getattr(stored, "detached", True) or not getattr(stored, "committed", False):
        return response
    games = unfinished_games()
    held = _unfinished_cookie()
    carried = 0 if g.get("let_go_told") else int(g.get("let_go_due", 0))
    if games == 0 and carried == 0:
        return _forget_unfinished(response) if UNFINISHED_COOKIE in request.cookies else response
    if held is None or held[0] != games or held[2] != carried or stored.cookies_due:
        kept = f"{games}.{_seconds_now()}" + (f".{carried}" if carried else "")
        keep_cookie(response, UNFINISHED_COOKIE, kept)
    return response


def games_let_go() -> int:
    """How many unfinished games this returning player's expired session
    held, for the home page to say so, once (:func:`_let_go_due`: also
    those carried since another page stored a new game first). The
    cookie is dropped with this answer whenever nothing is stored (or no
    game is unfinished), else sent again without the count told; 0
    without a cookie."""
    held = _unfinished_cookie()
    if held is None:
        return 0
    due = int(g.let_go_due) if "let_go_due" in g else _let_go_due()
    g.let_go_told = True
    games, sent, carried = held
    if holds_nothing() or (carried and games == 0):
        after_this_request(_forget_unfinished)
    elif carried:
        after_this_request(lambda answer: keep_cookie(answer, UNFINISHED_COOKIE, f"{games}.{sent}"))
    return due
