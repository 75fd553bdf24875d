"""The game pages: home, table, between hands, final score, records."""

from __future__ import annotations

import io
import ipaddress
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from concurrent import futures
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import quote, urlsplit

import redis
from flask import (
    Blueprint,
    Flask,
    Response,
    after_this_request,
    current_app,
    g,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_babel import format_timedelta, get_locale
from flask_limiter import RateLimitExceeded
from markupsafe import Markup
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.urls import iri_to_uri, uri_to_iri
from werkzeug.wrappers import Response as BaseResponse

from app import jobs
from app.ai import DEFAULT_LEVEL, LEVELS
from app.db import db
from app.engine import (
    MATCH_TARGETS,
    RULE_SETS,
    InvalidRules,
    InvalidSeed,
    card_label,
    check_seed,
    make_record,
    new_seed,
    normalize_seed,
    rules_from_json,
    rules_to_query,
)
from app.logs import first_line, log_game_finished
from app.sessions import VersionedSessions
from app.story.cast import CAST

from . import daily, i18n, identity, links, players, regions, security, store, story, templating
from .errors import (
    StoreWriteFailed,
    database_gone,
    note_limit,
    play_limit_message,
    rate_limited_page,
    retry_after,
    stale_page,
)
from .i18n import gettext, isolated, lazy_gettext, markup_gettext, pgettext, quoted
from .identity import current_player
from .rule_words import every_rule, refusal, rules_summary
from .table import Refused, Table
from .view import (
    describe_plays,
    face_down_words,
    hand_before,
    hand_scores,
    last_round,
    match_summary,
    motion_frames,
    motion_view,
    next_hand_words,
    position_names,
    record_players,
    running_totals,
    score_rows,
    shared_top,
    table_context,
    table_names,
)

bp = Blueprint("game", __name__)
# A blueprint is only ever registered on a Flask app; setup.app is typed as the sansio App.
bp.record_once(lambda setup: i18n.init_app(cast(Flask, setup.app)))
bp.record_once(lambda setup: templating.init_app(cast(Flask, setup.app)))
# The browser's count of its unfinished games, kept up to date as they change.
bp.after_app_request(store.count_unfinished)

#: The request header the table page's script sends with a play (``1``),
#: kept by the browser through the redirect to ``GET /game``: that page
#: carries the steps of the plays since the player's move (``<template
#: class="frame">``) for the cards to move through. A plain page (a reload,
#: a browser without the script) shows the table at once and never needs
#: them.
FRAMES_HEADER = "Pisti-Frames"

#: A local path a form may send the player back to: starts with one slash,
#: then only letters and digits (a seed's of any alphabet), ``~`` (a checked
#: deal link's), URL-safe signs and the signs RFC 3986 lets a path or query
#: hold as they are (``+ , ; : @ ! $ ' ( ) *``: what sharing adds to a
#: link, ``utm_campaign=bahar+2026``, or a refused link's own ``).``), so
#: never "//host" or "/\\host", nor a space, a quote or a control character.
SAFE_PATH = re.compile(r"/(?![/\\])[\w/.?=&%~+,;:@!$'()*-]*")

RULE_NAMES = {
    "cardems": lazy_gettext("Single hand (2 players)"),
    "classic": lazy_gettext("Classic match (2 players)"),
    "partners": lazy_gettext("Partners (2 v 2)"),
}
#: The computer level the home page offers a player who has started no
#: game yet: the gentlest (:data:`app.ai.DEFAULT_LEVEL` stays a deal
#: link's and a form's default).
FIRST_LEVEL = "easy"
LEVEL_NAMES = {
    "easy": lazy_gettext("Easy"),
    "medium": lazy_gettext("Medium"),
    "hard": lazy_gettext("Hard"),
    "expert": lazy_gettext("Expert"),
}
#: What the pages call each computer: the levels, and the story's cast by
#: their bots' keys (a result's ``levels`` holds either).
COMPUTER_NAMES = {**LEVEL_NAMES, **{member.key: member.name for member in CAST}}
REFUSALS = {
    "hand_over": lazy_gettext("This hand is over; there is nothing left to play."),
    "no_move": lazy_gettext("The form did not say which move it was for; nothing was played."),
    "no_hand": lazy_gettext("The form did not say which hand it was for; nothing was dealt."),
    "stale": lazy_gettext(
        "That page was out of date (the move was already played, or the game went on in "
        "another tab). Nothing was played; here is the table as it stands."
    ),
    "played_already": lazy_gettext(
        "That card was already played (a lost answer, or another tab). "
        "Here is the table as it stands."
    ),
    "not_a_card": lazy_gettext("That is not a card; nothing was played."),
    "not_in_hand": lazy_gettext("That card is not in your hand; nothing was played."),
    "match_over": lazy_gettext("This match is over. Start a new game to play again."),
}


@bp.app_template_filter("card_label")
def _card_label(card: str) -> str:
    return card_label(card)


@bp.app_template_filter("card_name")
def _card_name(card: str) -> str:
    return i18n.card_name(card)


@bp.app_template_global("replaces_field")
def _replaces_field() -> Markup:
    """The hidden field of a form that starts a game: the game current now
    (:data:`.store.REPLACES`), so a second send of the form changes nothing."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(
        store.REPLACES, store.current_game_id()
    )


@bp.app_template_global("kept_rules")
def _kept_rules(game: dict[str, Any]) -> str:
    """The rules of a kept game (:func:`.store.kept_games`) in words: the
    game's name and, for a match, the points it goes to ("Classic match
    (2 players) · to 101", as the table's bar has it), or under house rules
    their compact line (which names the target)."""
    target = game.get("target")
    try:
        rules = rules_from_json(game.get("rule_set", game.get("rules")))
    except InvalidRules:
        name = str(RULE_NAMES.get(str(game.get("rules")), ""))
    else:
        if rules.overrides:
            return str(rules_summary(rules, target)["line"])
        name = str(RULE_NAMES[rules.name])
    if isinstance(target, int) and not isinstance(target, bool):
        return f"{name} · {gettext('to %(target)s', target=target)}"
    return name


@bp.app_context_processor
def _page_globals() -> dict[str, Any]:
    """What every page needs: the aids, the languages, the level names."""
    return {
        "aids": store.aids(),
        "languages": i18n.LANGUAGES,
        "current_language": str(get_locale() or "en"),
        "level_names": COMPUTER_NAMES,
    }


@bp.get("/healthz")
def healthz() -> Response:
    """Answer container health checks: the process takes requests (it
    reads neither the database nor the session store; see :func:`readyz`)."""
    return Response('{"status": "ok"}', mimetype="application/json")


@bp.get("/readyz")
def readyz() -> tuple[Response, int] | tuple[Response, int, dict[str, str]]:
    """Answer readiness checks: 200 ``{"status": "ready"}`` when the
    database, the session store (Redis, or the sessions folder written to)
    and the review queue's Redis, when there is one, answer within
    :data:`READY_SECONDS` (checked at once, in :data:`_READINESS`'s
    threads); else 503 ``{"status": "unready", "failing": [...]}`` naming
    which of ``"database"``, ``"sessions"``, ``"review queue"`` did not
    (each logged with why), with ``Retry-After``."""
    app = cast(Flask, cast(Any, current_app)._get_current_object())
    checks = {"database": _database_answers, "sessions": _sessions_answer}
    if jobs.uses_queue(app):
        checks["review queue"] = _queue_answers
    running = {name: _READINESS.submit(_in_context, app, check) for name, check in checks.items()}
    futures.wait(running.values(), timeout=READY_SECONDS)
    failing = []
    for name, future in running.items():
        if not future.done():
            future.cancel()  # still waiting for a thread: never started
            why = f"no answer within {READY_SECONDS:g} s"
        elif (error := future.exception()) is not None:
            why = first_line(error)
        else:
            continue
        failing.append(name)
        app.logger.warning("not ready: the %s: %s", name, why)
    if failing:
        body = json.dumps({"status": "unready", "failing": failing})
        return Response(body, mimetype="application/json"), 503, {"Retry-After": "5"}
    return Response('{"status": "ready"}', mimetype="application/json"), 200


#: How long ``/readyz`` waits for its checks, in seconds: a monitor's
#: probe gets its 503 before its own timeout when a store hangs.
READY_SECONDS = 2.0
#: The threads ``/readyz``'s checks run in (one check of each kind at once;
#: the rest wait, and time out, while a store hangs).
_READINESS = futures.ThreadPoolExecutor(max_workers=3, thread_name_prefix="readyz")


def _in_context(app: Flask, check: Callable[[Flask], object]) -> None:
    with app.app_context():
        check(app)


def _database_answers(app: Flask) -> None:
    try:
        db.session.execute(text("SELECT 1"))
    finally:
        db.session.remove()


def _sessions_answer(app: Flask) -> None:
    cast(VersionedSessions, app.session_interface).check_ready()


def _queue_answers(app: Flask) -> None:
    jobs.review_queue(app).connection.ping()


def _current(table: Table | None) -> dict[str, Any] | None:
    """The game in progress in a line (:func:`.store.summary`, with
    :func:`.store.with_starter`), for its "Continue your game" button;
    ``None`` with none or when it is over."""
    if table is None or table.match.over:
        return None
    return store.with_starter(store.summary(table))


@bp.get("/")
def home() -> str:
    """Show the home page: a new game, or a deal from a seed."""
    table = store.load_table()
    remembered = store.settings()
    kept = store.kept_games()
    # Back after their session expired: told how many unfinished games went.
    let_go = store.games_let_go()
    # A player who has started no game yet is pointed to the lesson and the
    # rules, and the New game form offers the gentlest computer (Easy); not
    # one whose name has games, or whose games expired, back after that.
    newcomer = (
        not remembered
        and table is None
        and not kept
        and not let_go
        and not store.named_player_has_played()
    )
    settings = _settings(remembered)
    rules = RULE_SETS[settings["rules"]]
    # The form's target: "" is each game's own (Classic 51, Partners 151);
    # a remembered other target is picked again, after a single hand too.
    match_to = remembered.get(
        "match_to", None if settings["target"] == rules.default_target else settings["target"]
    )
    return render_template(
        "game/home.html",
        settings=settings,
        match_targets=MATCH_TARGETS,
        chosen_target=match_to if match_to in MATCH_TARGETS else None,
        rule_sets=RULE_SETS,
        rule_names=RULE_NAMES,
        levels=LEVELS,
        place_names={
            1: gettext("East (opponent)"),
            2: gettext("North (your partner)"),
            3: gettext("West (opponent)"),
        },
        current=_current(table),
        kept=kept,
        let_go=let_go,
        kept_for=format_timedelta(current_app.permanent_session_lifetime, "minute"),
        newcomer=newcomer,
        new_level=FIRST_LEVEL if newcomer else settings["level"],
        player=store.named_player(),
    )


@bp.post("/new")
def new_game() -> BaseResponse | tuple[str, int]:
    """Start a game with a fresh random deal and the posted settings (the
    home form's ``rules``, ``target``, ``level`` and ``level_N``); a value
    the game does not offer is a 400 page saying so, as for a deal link."""
    try:
        chosen = links.deal_settings(links.link_args(request.form))
    except links.BadLink as error:
        return bad_link(error, gettext("These game settings cannot be used"))
    settings = {name: chosen[name] for name in ("rules", "target", "level", "levels")}
    rules = RULE_SETS[settings["rules"]]
    # The form's choice of target ("match_to", None for each game's own) is
    # kept through a single hand, which has none.
    match_to = settings["target"] if settings["target"] != rules.default_target else None
    if not rules.match_targets:
        match_to = store.settings().get("match_to")
    return _start(
        settings, new_seed(), seed_public=False, remember={**settings, "match_to": match_to}
    )


@bp.get("/deal")
def deal_from_form() -> BaseResponse | tuple[str, int]:
    """Take the home page's seed form to the deal's own link."""
    seed = normalize_seed(request.args.get("seed", ""))
    try:
        check_seed(seed)
    except InvalidSeed:
        return _bad_seed(seed)
    try:
        settings = links.deal_settings(links.link_args(request.args))
    except links.BadLink as error:
        return bad_link(error)
    return redirect(_deal_url(seed, settings), 303)


@bp.get("/deal/<path:seed>")
def deal_page(seed: str) -> BaseResponse | str | tuple[str, int]:
    """Show what the link ``seed`` deals, with a button that starts it
    (a POST to the same address): opening a link never changes anything,
    so a link from another site cannot replace the game in progress. A
    seed written with decomposed letters (``s`` and a combining cedilla)
    goes to its composed link (``ş``), the one seed it means, and a link
    refused only for a chat message's punctuation after it (``.``, ``)``)
    to the link without it."""
    try:
        written = links.read_deal_path(seed, request.args)
    except links.LinkChanged as changed:
        return _meant_link(seed) or link_changed(changed)
    composed = normalize_seed(written)
    settings, problem = _deal_settings(composed)
    if problem is not None:
        return _meant_link(seed) or problem
    # The sharer's language, kept in the one link (its preview's language).
    language = i18n.linked_language(request.args)
    escaped = any(links.escaped_name(name) != name for name in request.args)
    if composed != written or escaped:
        # One link for one deal: a decomposed seed, or "&amp;" for "&".
        return redirect(_deal_url(composed, settings, language=language), 308)
    seed = composed
    table = store.load_table()
    seat_count = settings["rule_set"].players
    return render_template(
        "game/deal.html",
        seed=seed,
        settings=settings,
        seats=list(zip(position_names(seat_count)[1:], settings["levels"], strict=True)),
        summary=rules_summary(settings["rule_set"], settings["target"]),
        rule_names=RULE_NAMES,
        current=_current(table),
        start_url=_deal_url(seed, settings),
        clean_url=_deal_url(seed, settings, external=True, language=language),
        results=players.deal_link_results(seed, settings),
        many_sides=settings["rule_set"].team_count > 2,
    )


@bp.post("/deal/<path:seed>")
def deal(seed: str) -> BaseResponse | tuple[str, int]:
    """Start a game from ``seed``: everyone opening this link gets this deal
    against the same computers (``?rules=classic&target=101&level=hard``,
    see :mod:`.links`); a value the game does not offer is a 400 page. A
    game in progress is kept to go back to. A checked link (``/deal/~<check>/<seed>``)
    whose check does not match deals nothing (:func:`link_changed`)."""
    try:
        seed = links.read_deal_path(seed, request.args)
    except links.LinkChanged as changed:
        return link_changed(changed)
    settings, problem = _deal_settings(seed)
    if problem is not None:
        return problem
    return _start(settings, seed, seed_public=True)


def _meant_link(path: str) -> BaseResponse | None:
    """Return a redirect (308) to the deal link ``path`` (what follows
    ``/deal/``) with this request's query meant, when it is refused only
    for the punctuation a chat message left at its end (a link at the end
    of a sentence, or in brackets: :func:`links.without_trailing_marks`),
    else ``None``."""
    query = request.query_string.decode("utf-8", "replace")
    trimmed = links.without_trailing_marks(path, query)
    if trimmed is None:
        return None
    path, args = trimmed
    try:
        seed = check_seed(normalize_seed(links.read_deal_path(path, args)))
        settings = links.deal_settings(args)
    except (links.LinkChanged, InvalidSeed, links.BadLink):
        return None
    language = i18n.linked_language(args)
    return redirect(_deal_url(seed, settings, language=language), 308)


def _deal_settings(seed: str) -> tuple[dict[str, Any], tuple[str, int] | None]:
    """Return the settings of the deal link ``seed`` (its query arguments,
    see :mod:`.links`), or the 400 page of a bad seed or of a value the
    game does not offer."""
    try:
        check_seed(seed)
    except InvalidSeed:
        return {}, _bad_seed(seed)
    try:
        return links.deal_settings(request.args), None
    except links.BadLink as error:
        return {}, bad_link(error)


@bp.get("/game")
def table() -> tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Show the table, the hand's score between hands, or the final score.

    The page is never kept by the browser (``no-store``): its plays are
    shown in place (the page's script), so a copy kept from when it was
    loaded would be an older table, shown again by Back or Forward (the
    cards played back in hand, the log empty) when the browser does not
    keep the live page itself (its back/forward cache)."""
    table = store.load_table()
    if table is None:
        return _no_game()
    return render_table(table), 200, {"Cache-Control": "no-store"}


@bp.get("/game/rules")
def rules_page() -> tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Show the rules of the game being played, house rules included: how
    to play and score under them, and every rule's value (linked from the
    table, the hand's score and the final score). Reading them changes
    nothing: "Back to the game" (or the browser's Back) shows the table as
    it was."""
    table = store.load_table()
    if table is None:
        return _no_game()
    match = table.match
    rules = match.rules
    return (
        render_template(
            "game/rules.html",
            rules=rules,
            target=match.target,
            base_name=RULE_NAMES[rules.name],
            summary=rules_summary(rules, match.target),
            points=regions.points_said(rules, match.sides, match.target),
            every_rule=every_rule(rules),
        ),
        200,
        {"Cache-Control": "no-store"},
    )


@bp.post("/play")
def play() -> BaseResponse | tuple[str, int]:
    """Play the posted card (fields ``card`` and ``move``; the page also
    sends ``hand`` and ``game``), let the computers answer, and redirect to
    the table; a refused move changes nothing."""
    form = request.form
    return _act(
        lambda table: table.play(
            form.get("card", ""),
            form.get("move", ""),
            hand_text=form.get("hand"),
            game_text=form.get("game"),
        )
    )


@bp.post("/next")
def next_hand() -> BaseResponse | tuple[str, int]:
    """Deal the next hand of the match (fields ``hand`` and ``game``: the
    hand shown and its game's id)."""
    form = request.form
    return _act(lambda table: table.next_hand(form.get("hand", ""), form.get("game")))


@bp.post("/resume")
def resume() -> BaseResponse | tuple[str, int]:
    """Go back to a game in progress that a newer game put aside (field
    ``game``: its id, from the list of kept games)."""
    try:
        found = store.apply(lambda: store.resume(request.form.get("game", "")))
    except store.Stale:
        return _stale()
    if not found:
        # Already resumed (a double click) or gone: a game is current.
        return _stale() if store.moved() or store.has_table() else _no_game()
    return redirect(url_for("game.table"), 303)


#: Why a form that starts a game started none (:func:`start_refused`).
START_REFUSED = lazy_gettext(
    "That form was sent twice, or from a page that was out of date: this game is on the table "
    "now, and no other was started."
)
#: Why today's Daily has no record yet (:func:`record`, and the review).
DAILY_RECORDS_LATER = lazy_gettext(
    "Today’s Daily deal: its seed, share link, records and review open once the day is over "
    "(midnight UTC), as others are still playing it."
)


@bp.get("/record")
def record() -> BaseResponse | tuple[str, int]:
    """Download a finished hand's record (``pisti-record/1`` JSON);
    ``?hand=N`` (from 1) picks a hand of the match, default (or empty) the
    current one: one not over yet is a 409, one the game has not dealt (or
    no number) a 404, each with the table and why."""
    table = store.load_table()
    if table is None:
        return _no_game()
    match = table.match
    if not table.seed_public and daily.seed_secret(match):
        return render_table(table, str(DAILY_RECORDS_LATER)), 409
    # ``?hand=`` with nothing after it is the current hand, as no ``hand``.
    number = _whole_number(request.args.get("hand") or str(match.hand_number + 1))
    if number is None or not 1 <= number <= match.hand_number + 1:
        # Not a hand of this game (``?hand=abc``, 0, one not dealt yet).
        message = gettext(
            "This game has no hand “%(hand)s”.", hand=quoted(request.args.get("hand", ""), 20)
        )
        return render_table(table, message), 404
    if number > len(match.plays_history):
        message = gettext(
            "The record of a hand can be downloaded when that hand is over: it shows every card."
        )
        return render_table(table, message), 409
    index = number - 1
    state = match.finished_hand(index)
    extra: dict[str, Any] = {"players": record_players(match, index)}
    if match.target:
        extra["hand"] = number
    # A random game's seed would deal every later hand: it stays secret
    # until the match is over.
    seed = match.seed if table.seed_public or match.over else None
    if seed and _has_link(table):
        extra["link"] = _table_url(table, external=True)
    body = json.dumps(make_record(state, seed, **extra), indent=2) + "\n"
    name = _record_file_name(table, seed, number)
    # send_file writes a name with letters beyond ASCII (a seed "şans") as
    # RFC 6266 asks, with an ASCII fallback.
    response = send_file(
        io.BytesIO(body.encode()),
        mimetype="application/json",
        as_attachment=True,
        download_name=f"{name}.json",
        conditional=False,
    )
    if "ı" in name:
        # The fallback drops the dotless ı (no ASCII letter under it, as s
        # is under ş): "ılık" would be saved as "lk".
        fallback = unicodedata.normalize("NFKD", f"{name.replace('ı', 'i')}.json")
        response.headers.set(
            "Content-Disposition",
            "attachment",
            filename=fallback.encode("ascii", "ignore").decode("ascii"),
            **{"filename*": "UTF-8''" + quote(f"{name}.json", safe="!#$&+-.^_`|~")},
        )
    return response


def _record_file_name(table: Table, seed: str | None, number: int) -> str:
    """The name, without ``.json``, of the record of ``table``'s hand
    ``number`` (from 1): the game (its seed once it may be shown, else the
    word "game"; the hand in a match), the day (UTC), who downloads it (a
    known player's name) and the game's short id, which its page's forms
    already carry, so friends who play one shared deal keep files of
    different names: ``pisti-şans-hand2-2026-12-05-Ayşe-3f9a1c07``. The
    words are in the page's language (``pisti-oyun-el2-...``)."""
    match = table.match
    hand = pgettext("record file name", "hand%(number)s", number=number) if match.target else ""
    who = ""
    try:
        player = current_player()
    except SQLAlchemyError as error:
        database_gone(error)
        player = None
    if player is not None:
        # A name's letters, digits, "-", "_", "." and "'"; its spaces as "_".
        who = player.name.replace(" ", "_")
    parts = (
        "pisti",
        seed or pgettext("record file name", "game"),
        hand,
        datetime.now(UTC).date().isoformat(),
        who,
        table.game_id,
    )
    return "-".join(part for part in parts if part)


def _whole_number(text: str) -> int | None:
    """Return ``text`` as a number if it is plain ASCII digits, else ``None``."""
    return int(text) if re.fullmatch(r"[0-9]{1,6}", text) else None


def _settings(source: Mapping[str, Any]) -> dict[str, Any]:
    """Return complete, valid game settings from the remembered ``source``
    (:func:`.store.settings`, from the last game started), falling back to
    defaults for anything missing or unknown (a setting from an older
    version)."""
    rules = RULE_SETS.get(str(source.get("rules")), RULE_SETS["cardems"])
    target = rules.default_target
    if rules.match_targets:
        chosen = _whole_number(str(source.get("target", "")))
        if chosen in rules.match_targets:
            target = chosen
    level = source.get("level")
    level = level if level in LEVELS else DEFAULT_LEVEL
    levels = [level]
    if rules.players == 4:
        levels = []
        for position in (1, 2, 3):
            chosen = source.get(f"level_{position}")
            levels.append(chosen if chosen in LEVELS else level)
    return {"rules": rules.name, "target": target, "level": level, "levels": levels}


@bp.post("/settings")
def save_settings() -> BaseResponse | tuple[str, int, dict[str, str]]:
    """Save the playing aids (checkboxes named as ``store.AIDS``) and go
    back to the page the form was on."""
    aids = {name: request.form.get(name) == "on" for name in store.AIDS}
    try:
        store.apply(lambda: store.save_aids(aids))
    except store.Stale:
        return stale_page()
    return redirect(_back(), 303)


@bp.post("/language")
def choose_language() -> BaseResponse | tuple[str, int, dict[str, str]]:
    """Switch the pages' language (field ``language``) and go back."""
    code = request.form.get("language", "")
    if code in i18n.LANGUAGES:
        try:
            store.apply(lambda: store.save_language(code))
        except store.Stale:
            return stale_page()
    return redirect(_back(), 303)


def _back() -> str:
    """The form's ``next`` page if it is a plain path on this site (no
    scheme, no host, no control characters), else the home page. The path
    may hold a checked deal link's ``~`` and a seed's letters as the page
    wrote them (``/deal/~k7m2qx/şans``: ``request.full_path``), which the
    answer's address percent-encodes."""
    target = request.form.get("next", "")
    if SAFE_PATH.fullmatch(target):
        return iri_to_uri(target)
    return url_for("game.home")


def _deal_url(
    seed: str, settings: dict[str, Any], external: bool = False, language: str | None = None
) -> str:
    """Return the share link of a deal with its settings and, with
    ``language``, its preview's language (see :func:`.links.deal_url`)."""
    return links.deal_url(
        seed,
        settings["rule_set"],
        settings["target"],
        settings["levels"],
        external=external,
        language=language,
    )


def _has_link(table: Table) -> bool:
    """Whether the table's deal can be shared as a deal link: its computers
    are all of the four levels (a story match's opponent is none, and a
    link cannot name her: the story is played from its own page)."""
    return all(level in LEVELS for level in table.levels[1:] if level is not None)


def _table_url(table: Table, external: bool = False, language: str | None = None) -> str:
    """Return the share link of the table's deal, with its game and levels
    and, with ``language``, its preview's language."""
    match = table.match
    levels = [level for level in table.levels[1:] if level is not None]
    return links.deal_url(
        match.seed, match.rules, match.target, levels, external=external, language=language
    )


def _start(
    settings: dict[str, Any],
    seed: str,
    seed_public: bool,
    remember: dict[str, Any] | None = None,
) -> BaseResponse | tuple[str, int]:
    """Deal a game and make it the player's; go to the table. ``remember``:
    the settings to keep for the next games (its ``settings`` and the home
    form's choice of target), or ``None``."""
    table = Table.start(
        settings.get("rule_set") or RULE_SETS[settings["rules"]],
        seed,
        settings["levels"],
        seed_public,
        settings["target"],
        expert_ms=float(current_app.config["EXPERT_MS"]),
    )
    return start_game(table, remember)


def start_game(
    table: Table, remember: dict[str, Any] | None = None
) -> BaseResponse | tuple[str, int]:
    """Make the newly dealt ``table`` the player's game
    (:func:`.store.start_table`; ``remember``: settings to keep for the
    next games, in the same stored change) and go to the table (303); a
    start sent twice or from an out-of-date page changes nothing
    (:func:`start_refused`)."""

    def start() -> None:
        store.start_table(table)
        if remember is not None:
            store.save_settings(remember)

    try:
        store.apply(start)
    except store.Stale:
        return start_refused()
    return redirect(url_for("game.table"), 303)


class _NoGame(Exception):
    """There is no game to act on."""


def _act(action: Callable[[Table], None]) -> BaseResponse | tuple[str, int]:
    """Apply ``action`` to the player's table, store it and go back to the
    table (POST/redirect/GET; for the page's script, which sends
    :data:`FRAMES_HEADER`, the page itself with the steps of the plays, 200);
    log the game when this move ended it. When
    the session changed meanwhile, ``action`` is applied again to the fresh
    table, which refuses a play made from an out-of-date page (409)."""

    def change() -> tuple[Table, bool]:
        table = store.load_table()
        if table is None:
            raise _NoGame()
        was_over = table.match.over
        action(table)
        store.save_table(table)
        return table, was_over

    try:
        table, was_over = store.apply(change)
    except _NoGame:
        return _stale() if store.moved() else _no_game()
    except Refused as refusal:
        current = store.load_table()
        if current is None:
            return _no_game()
        return render_table(current, str(REFUSALS[refusal.reason])), refusal.status
    except store.Stale:
        return _stale()
    if table.match.over and not was_over:
        log_game_finished(table)
        players.game_finished(table)
        identity.renew()
        try:
            story.record_result(table)
        except (StoreWriteFailed, redis.RedisError) as error:
            # The move is kept: a 503 would say it was not. Only the story's
            # note of the win is lost.
            current_app.logger.warning("story win not kept: %s", error)
    if request.headers.get(FRAMES_HEADER) == "1":
        # The page's script: the table with the steps of the plays at once,
        # one round trip instead of a redirect and a second request.
        return render_table(table, frames=True), 200
    return redirect(url_for("game.table"), 303)


@bp.errorhandler(RateLimitExceeded)
def _too_fast(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """A play or a next hand over the play limit: nothing was played, and
    the answer (429) is the table as it stands with the message, which the
    page's script shows in place; any other request gets the 429 page."""
    if request.endpoint in security.PLAYING:
        table = store.load_table()
        if table is not None:
            note_limit(error)
            page = render_table(table, play_limit_message(error))
            return page, 429, retry_after(error)
    return rate_limited_page(error)


def start_refused() -> BaseResponse | tuple[str, int]:
    """Answer a form that would start a game but was sent twice or from an
    out-of-date page (:func:`.store.start_table`): nothing was started;
    409 with the game on the table now and why. A browser with no game
    whose first start stored one a moment ago (the answer was lost, or the
    form sent twice) is sent to that game instead (303)."""
    if store.follow_first_start():
        return redirect(url_for("game.table"), 303)
    return _out_of_date(str(START_REFUSED))


def _stale() -> tuple[str, int]:
    """Answer a change computed from an out-of-date session: nothing was
    stored; 409 with the table as it stands now."""
    return _out_of_date(str(REFUSALS["stale"]))


def _out_of_date(message: str) -> tuple[str, int]:
    """409 with the table as stored now and ``message`` (the 409 page when
    no game is stored)."""
    store.reload()
    table = store.load_table()
    if table is None:
        page, status, _ = stale_page()
        return page, status
    return table_out_of_date(table, message)


def table_out_of_date(table: Table, message: str) -> tuple[str, int]:
    """409 with ``table`` and ``message``, at the table's address whichever
    page's form this answers (the Daily page's, the story's, the house
    rules', a review's), so that a reload reads the table."""
    g.answer_page = "game.table"
    return render_table(table, message), 409


def _starter_forgotten(table: Table) -> bool:
    """Whether ``table`` was started under a name forgotten since
    (:func:`.identity.forgotten_starter`): its pages say it is recorded for
    nobody. ``False`` when the database does not answer (the game plays on)."""
    try:
        return identity.forgotten_starter(table.player)
    except SQLAlchemyError as error:
        database_gone(error)
        return False


def render_table(
    table: Table,
    message: str | None = None,
    frames: bool | None = None,
    name_error: str | None = None,
) -> str:
    """Render the table page, the between-hands page or the final page;
    with the steps of the plays since the player's move when ``frames``
    (``None``: when the request is the script's ``GET /game`` after a play,
    see :func:`_wants_frames`); ``name_error``: why the final page's name
    form refused a name, said beside it."""
    aids = store.aids()
    context = table_context(table, aids)
    context.update(
        message=message,
        name_error=name_error,
        rule_names=RULE_NAMES,
        kept=store.kept_games(),
        rules_summary=rules_summary(table.match.rules, table.match.target),
    )
    context.update(story.table_extras(table, aids))
    match = table.match
    context["daily_game"] = _is_daily(table)
    context["unrecorded"] = _starter_forgotten(table)
    # Today's Daily: no seed, link or record (every card) while others play it.
    secret = not table.seed_public and match.hand_counted and daily.seed_secret(match)
    context["records_later"] = DAILY_RECORDS_LATER if secret else None
    if _has_link(table) and (table.seed_public or (match.over and not secret)):
        # Shown as written (an IRI: "/deal/şans"), not percent-encoded; with
        # the page's language unless English, that of the link's preview.
        shared_language = i18n.link_language(str(get_locale() or "en"))
        context["share_url"] = uri_to_iri(
            _table_url(table, external=True, language=shared_language)
        )
        context["share_local"] = _names_this_computer(context["share_url"])
        context["deal_url"] = _table_url(table)
    with_frames = _wants_frames() if frames is None else frames
    steps = motion_frames(table, aids) if with_frames else []
    if not match.hand_counted:
        context["hand_over"] = _hand_over(table, aids)
        return render_template(
            "game/table.html", view=motion_view(table, context), frames=steps, **context
        )
    scores, winner, reason = hand_scores(table)
    context["game_id"] = table.game_id
    context.update(
        scores=scores,
        last_plays=describe_plays(match, last_round(match), table_names(table)),
        score_rows=score_rows(scores, match.rules),
        face_down=face_down_words(table),
        running=running_totals(match.history),
        hand_winner=winner,
        reason=reason,
    )
    if match.over:
        house_fields = {
            name: value for name, value in rules_to_query(match.rules).items() if name != "rules"
        }
        return render_template(
            "game/final.html",
            match_winner=match.winner(),
            house_fields=house_fields,
            shared_top=shared_top(match.history, match.target),
            summary=match_summary(match) if match.target else [],
            frames=steps,
            **context,
        )
    return render_template(
        "game/between.html", next_hand=next_hand_words(table), frames=steps, **context
    )


def _hand_over(table: Table, aids: dict[str, bool]) -> dict[str, Any] | None:
    """With the "deal the next hand at once" aid, what the table says of
    the match's previous hand until the player's first play of the next
    (:func:`.view.hand_before`), as its score's page said it: ``number``
    (from 1), ``scores`` and ``winner`` by side (:func:`.view.hand_scores`),
    its ``last_plays`` (:func:`.view.describe_plays`) and a story
    opponent's ``remark`` on it (or ``None``); ``None`` with the aid off,
    in the first hand or once the player has played. Made from the game
    itself, not from the page that asked for the next hand: a reload just
    after "Next hand" says it too."""
    earlier = hand_before(table) if aids["deal_on"] else None
    if earlier is None:
        return None
    scores, winner, _reason = hand_scores(earlier)
    match = earlier.match
    return {
        "number": match.hand_number + 1,
        "scores": scores,
        "winner": winner,
        "last_plays": describe_plays(match, last_round(match), table_names(earlier)),
        "remark": story.table_extras(earlier, aids)["remark"],
    }


def _names_this_computer(url: str) -> bool:
    """Whether the link ``url`` names the loopback host (``localhost``,
    ``127.0.0.1``, ``[::1]``): the site opened on the machine that serves
    it, whose link a friend's phone takes for itself."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_daily(table: Table) -> bool:
    """Whether ``table`` plays today's Daily deal started from the Daily
    page, said in the page's bar: its seed is not public, unlike a past
    day's deal played again or a deal link (a game begun before midnight
    plays on after it as an ordinary game); ``False`` when the database
    cannot say."""
    if table.seed_public:
        return False
    levels = tuple(level or "" for level in table.levels[1:])
    try:
        return daily.daily_day_of(table.match, levels) is not None
    except SQLAlchemyError as error:
        database_gone(error)
        return False


def _wants_frames() -> bool:
    """Whether this request is the script's ``GET /game`` after a play
    (:data:`FRAMES_HEADER`), whose page carries the steps of the plays.
    The answer varies with that header."""
    after_this_request(_vary_by_frames)
    return request.method == "GET" and request.headers.get(FRAMES_HEADER) == "1"


def _vary_by_frames(response: Response) -> Response:
    response.vary.add(FRAMES_HEADER)
    return response


def _no_game() -> tuple[str, int]:
    return render_template("game/no_game.html"), 404


def _bad_seed(seed: str) -> tuple[str, int]:
    message = markup_gettext(
        "“%(seed)s” cannot be used: a seed is 1 to 64 characters, each a letter (ç ğ ı ö ş ü "
        "too), a digit, a hyphen (-) or an underscore (_), with no spaces or other signs.",
        seed=isolated(quoted(seed, 80)),
    )
    return _bad_request(gettext("That is not a valid seed"), message)


def link_changed(changed: links.LinkChanged) -> tuple[str, int]:
    """The 400 page of a checked deal link that is not as it was written:
    cut short before its seed, or its check not matching the rest (a
    character changed or lost, its end cut off): it would deal another
    game than the friend's, so it deals none and says so."""
    if changed.cut:
        message = gettext(
            "This deal link was cut short on its way: it ends before its seed. Ask for it "
            "again, copied whole (the final page's Copy link button copies all of it)."
        )
    else:
        message = markup_gettext(
            "This deal link was changed or cut short on its way: what is left of it (seed "
            "“%(seed)s”) does not match the check it was written with, so it would deal "
            "another game than the one shared. Ask for it again, copied whole (the final "
            "page's Copy link button copies all of it).",
            seed=isolated(changed.seed),
        )
    return _bad_request(gettext("This deal link is not whole"), message)


def bad_link(error: links.BadLink, title: str | None = None) -> tuple[str, int]:
    """The 400 page of a deal link with a value its game does not offer:
    what was wrong and what is allowed (``title``: the page's heading, when
    the settings came from a form rather than a link)."""
    game = RULE_NAMES[error.rules] if error.rules else ""
    allowed = ", ".join(error.allowed)
    if error.field == "house":
        message = refusal(InvalidRules(error.value), request.args)
    elif error.field == "misspelt":
        message = gettext(
            "This link asks for “%(value)s”, which no game has: did you mean “%(allowed)s”?",
            value=error.value,
            allowed=allowed,
        )
    elif error.field == "repeated":
        message = gettext(
            "This link gives “%(value)s” more than once (%(given)s): a link names each "
            "setting once.",
            value=error.value,
            given=allowed,
        )
    elif error.field == "rules":
        message = gettext(
            "There is no game called “%(value)s”. The games are: %(allowed)s.",
            value=error.value,
            allowed="; ".join(f"{RULE_NAMES[name]}, rules={name}" for name in error.allowed),
        )
    elif error.field == "target":
        message = gettext(
            "%(game)s is played to one of these targets: %(allowed)s; “%(value)s” is not one.",
            game=game,
            allowed=allowed,
            value=error.value,
        )
    elif error.field == "level" or error.allowed == tuple(LEVELS):
        message = gettext(
            "There is no computer level “%(value)s” (%(field)s). The levels are: %(allowed)s.",
            value=error.value,
            field=error.field,
            allowed=allowed,
        )
    elif error.allowed:
        message = gettext(
            "%(game)s has no seat for “%(field)s”: its computers' levels are level and "
            "%(allowed)s.",
            game=game,
            field=error.field,
            allowed=allowed,
        )
    else:
        message = gettext(
            "%(game)s has one computer: its level is set with level, not “%(field)s”.",
            game=game,
            field=error.field,
        )
    return _bad_request(title or gettext("This deal link cannot be used"), message)


def _bad_request(title: str, message: str) -> tuple[str, int]:
    return render_template("game/bad_request.html", title=title, message=message), 400
