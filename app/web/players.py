"""Players without sign-up: a display name, the profile (tasks, transfer
code, forget me, the players of a shared device), leaderboards,
statistics, and recording a finished game.

A player becomes known when they first choose a display name (on the final
page or the profile page); anonymous play is as before and is not recorded.
The device cookie is :mod:`.identity`'s.
"""

from __future__ import annotations

import io
import json
import math
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from babel.lists import format_list
from flask import (
    Blueprint,
    current_app,
    g,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_babel import get_locale, gettext, lazy_gettext, pgettext
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.wrappers import Response

from app.db import db, queries
from app.db.facts import deal_key, game_facts, house_rules
from app.db.models import Player
from app.db.tasks import week_start
from app.engine import RULE_SETS, InvalidRules, parse_rules_text
from app.logs import first_line

from . import charts, daily, game, store
from .errors import database_gone
from .i18n import isolated, markup_gettext
from .identity import (
    DEVICE_PLAYERS,
    current_player,
    device_players,
    drop_stale_cookie,
    forget,
    player_by_key,
    player_key,
    remember,
    step_aside,
    switch_to,
)
from .rule_words import BASE_NAMES, rules_summary
from .table import Table

bp = Blueprint("players", __name__)
bp.after_app_request(drop_stale_cookie)

NAME_REFUSALS = {
    "empty": lazy_gettext("Please type a name."),
    "long": lazy_gettext("A name is at most 24 characters."),
    "spelled": lazy_gettext("That name is too long once its letters are spelled out."),
    "characters": lazy_gettext(
        "A name may have letters, digits, spaces, hyphens (-), underscores (_), full "
        "stops (.), apostrophes (') and middle dots (·) only (no other signs)."
    ),
    "taken": lazy_gettext("That name is taken (names are unique whatever their case)."),
    "accents": lazy_gettext(
        "An accent or vowel sign goes on a letter: at most four on one letter, and not the "
        "same one twice in a row."
    ),
    "dots": lazy_gettext("A middle dot (·) goes between two letters."),
    "marks": lazy_gettext("A name needs at least one letter or digit."),
    "scripts": lazy_gettext(
        "A name keeps to one alphabet: letters of two that look alike (a Cyrillic А among "
        "Latin letters, say) would pass for another player's name."
    ),
}
#: The leaderboards: all time, this week and last week (the week before
#: this one, whose final standing stays to be seen after Monday 00:00 UTC).
PERIODS = ("all", "week", "last")


def game_finished(table: Table) -> None:
    """Record ``table``'s finished match for the player it was started
    under (:attr:`Table.player`), whoever has the device now, or, started
    under no name, for this device's player; started under a name
    forgotten since, for nobody (who pressed Forget me keeps nothing, and
    the next player is not credited with their game); once (a second call
    for the same game changes nothing); anonymous games are not kept. Call
    it when a move ends the match. When the database fails, the error is
    logged and the move stands (the game is safe in the session):
    the final page records the result when it is next shown
    (:func:`finished_game_panel`)."""
    if not table.match.over:
        return
    try:
        # This device's player is looked up first, so its cookie is renewed
        # (:func:`.identity.renew`) whoever's game it is.
        here = current_player()
        starter = player_by_key(table.player)
        if table.player and starter is None:
            # Started under a name forgotten since: nobody's.
            return
        player = starter or here
        if player is None:
            return
        levels = tuple(level or "" for level in table.levels[1:])
        day = daily.daily_day_of(table.match, levels)
        # A deal whose seed the player chose (a link, a past Daily deal),
        # a Daily deal dealt before in this browser, or one finished after
        # its day (its seed public by then) can be worked out beforehand:
        # its points do not count.
        known = table.seed_public or table.known_deal or _late_daily(table, levels, day)
        facts = game_facts(table.match, levels, table.game_id, day, known_deal=known)
        queries.record_result(player.id, facts)
    except (OperationalError, PoolTimeout) as error:
        # The database is down, full or read-only, or so slow that every
        # pooled connection stayed taken: what to do, not a traceback (one
        # per view of the final page while it lasts).
        current_app.logger.warning(
            "could not record a finished game: %s; the game is kept, and its final page "
            "records it when next shown with the database back (GET /readyz says when)",
            first_line(error),
        )
        db.session.rollback()
    except SQLAlchemyError:
        current_app.logger.exception("could not record a finished game")
        db.session.rollback()


def _late_daily(table: Table, levels: tuple[str, ...], day: date | None) -> bool:
    """Whether ``table`` (its computers' ``levels``) is a Daily game played
    on after its day (``day``: the Daily day it counts for now, ``None``
    when none), whose seed and every card were public by its end
    (:func:`app.web.daily.late_daily_day`).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    if day is not None or table.seed_public:
        return False
    return daily.late_daily_day(table.match, levels) is not None


def _from_game() -> bool:
    """Whether the posted form came from the game's page (``next=game``)."""
    return request.form.get("next") == "game"


def _back(default: str, anchor: str | None = None) -> str:
    """The game's page (at ``anchor``, if given) when the form came from it, else ``default``."""
    return url_for("game.table", _anchor=anchor) if _from_game() else default


@bp.app_template_global()
def finished_game_panel() -> dict[str, Any]:
    """What the final page shows below the score: the player (or the name
    form), whether this game is recorded and ranked (with the player's place
    on that day's Daily leaderboard, and ``daily_link``, that day's Daily
    page), whether it is a Daily game finished
    after its day (``late_day``: no points), the player's tasks it did not
    advance because its deal could be known beforehand (``held_back``, the tasks'
    words as a list, and ``held_back_count``), and everyone's results of
    this deal. A game started under another name on this shared device
    has ``recorded_for``, that name once its result is recorded, else
    ``pending_for``, that name while the database does not take it; one
    started under a name forgotten since has ``forgotten`` (recorded for
    nobody)."""
    table = store.load_table()
    panel: dict[str, Any] = {
        "player": None,
        "deal": [],
        "daily_day": None,
        "daily_link": None,
        "ranked": None,
        "place": None,
        "late_daily": None,
        "unavailable": False,
        "recorded_for": None,
        "pending_for": None,
        "forgotten": False,
    }
    if table is None or not table.match.over:
        return panel
    try:
        _fill_panel(panel, table)
    except SQLAlchemyError as error:
        # The score stands on the page; the result is recorded when the
        # page is shown with the database back.
        database_gone(error)
        panel.update(
            player=None, deal=[], ranked=None, place=None, late_daily=None, unavailable=True
        )
    return panel


def _fill_panel(panel: dict[str, Any], table: Table) -> None:
    """Fill :func:`finished_game_panel`'s ``panel`` for the finished
    ``table`` from the database, recording the result if it is not yet.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    player = current_player()
    panel["player"] = player
    starter = player_by_key(table.player)
    # Started under a name forgotten since: recorded for nobody.
    panel["forgotten"] = forgotten = bool(table.player) and starter is None
    holder = None
    if player is not None or table.player:
        holder = queries.result_holder(table.game_id)
    if holder is None and not forgotten and (player is not None or starter is not None):
        # A result the database could not take when the game ended is
        # recorded now, unless it is anyone's already (a game is one
        # player's: the one it was started under, not another who took
        # over this device since, nor one with no name who finishes it);
        # the page says "Recorded" only once it is.
        game_finished(table)
        holder = queries.result_holder(table.game_id)
    if holder is None and starter is not None and (player is None or starter.id != player.id):
        # Still not recorded: for its starter, not for whoever has the device.
        panel["pending_for"] = starter.name
    if player is not None:
        panel["recorded"] = holder == player.id
        panel["pending"] = holder is None and not forgotten
        # A deal chosen by its seed adds no points (:attr:`GameFacts.known_deal`).
        panel["known_deal"] = table.seed_public
    if holder is not None and (player is None or holder != player.id):
        # Started under another name on this shared device: theirs.
        owner = db.session.get(Player, holder)
        panel["recorded_for"] = owner.name if owner is not None else None
    match = table.match
    levels = tuple(level or "" for level in table.levels[1:])
    panel["daily_day"] = daily.daily_day_of(match, levels)
    if player is not None and panel["recorded"]:
        # As it was recorded: a Daily game finished before midnight stays
        # one on its final page after it.
        panel["daily_day"] = queries.result_daily_day(table.game_id)
    if panel["daily_day"] is not None and player is not None:
        entry = queries.daily_entry(player.id, panel["daily_day"], match.rules.name)
        panel["ranked"] = entry is not None and entry.game_id == table.game_id
        # Dealt again (here, or by this player before): no points, as
        # :func:`app.db.queries.record_result` has it.
        panel["known_daily"] = panel["recorded"] and (
            table.known_deal or (entry is not None and entry.game_id != table.game_id)
        )
        if panel["ranked"]:
            board = queries.daily_leaderboard(panel["daily_day"], match.rules.name, 1, player.id)
            panel["place"] = (
                {"rank": board.mine["rank"], "total": board.total} if board.mine else None
            )
    if player is not None and panel["recorded"]:
        # Finished after its day, its deal public: no points.
        panel["late_day"] = _late_daily(table, levels, panel["daily_day"])
    if (
        player is not None
        and panel["recorded"]
        and (table.seed_public or panel["daily_day"] or panel.get("late_day"))
    ):
        # The tasks about playing well that a deal known beforehand did not
        # advance (a deal link, a past Daily deal, today's dealt again, one
        # finished after its day), as :func:`game_finished` and
        # :func:`app.db.queries.record_result` have it.
        known = (
            table.seed_public
            or table.known_deal
            or bool(panel.get("known_daily"))
            or bool(panel.get("late_day"))
        )
        facts = game_facts(match, levels, table.game_id, known_deal=known)
        held = queries.held_back_tasks(player.id, facts)
        panel["held_back"] = format_list(
            [f"“{task.title}”" for task in held], locale=get_locale() or "en"
        )
        panel["held_back_count"] = len(held)
    if panel["daily_day"] is not None:
        # Its own day's board, where its place is (today's is /daily).
        panel["daily_link"] = (
            url_for("daily.page", rules=match.rules.name)
            if panel["daily_day"] == daily.today()
            else url_for(
                "daily.past", day_text=panel["daily_day"].isoformat(), rules=match.rules.name
            )
        )
    elif player is not None and panel["recorded"]:
        # A ranked Daily game begun before midnight and finished after it
        # was recorded unranked (its deal was public by then): say so.
        panel["late_daily"] = queries.unfinished_daily_day(player.id, table.game_id)
    if not daily.seed_secret(match):
        panel["deal"] = queries.deal_results(
            deal_key(match.seed, match.rules.name, match.target, levels, house_rules(match.rules))
        )


def deal_link_results(seed: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Return who finished the deal of the link ``seed`` with ``settings``
    (:func:`app.web.links.deal_settings`'), for its page, so friends can
    compare their results on it after the final page is gone: ``{"rows":
    queries.deal_results' rows, "player": this device's player or None}``;
    no rows when the database does not answer (the link still deals)."""
    rule_set = settings["rule_set"]
    key = deal_key(
        seed, rule_set.name, settings["target"], tuple(settings["levels"]), house_rules(rule_set)
    )
    try:
        return {"rows": queries.deal_results(key), "player": current_player()}
    except SQLAlchemyError as error:
        database_gone(error)
        return {"rows": [], "player": None}


@bp.get("/me")
def profile() -> tuple[str, int]:
    """Show the player's profile: name, totals, tasks, transfer code and
    forget me; or, to an anonymous visitor, the name form and the form to
    continue from another device."""
    return _profile_page()


def _profile_page(
    message: str | None = None, code: str | None = None, status: int = 200, about: str = ""
) -> tuple[str, int]:
    """The profile page; ``message`` said at the top, or beside the form it
    is ``about`` ("name", "forget" or "continue"), whose field it marks,
    when the page has that form (forget for a known player, continue for
    someone without a name: another tab may have changed which)."""
    player = current_player()
    if about == ("continue" if player is not None else "forget"):
        about = ""
    tasks = []
    now = datetime.now(UTC)
    if player is not None:
        tasks = queries.player_tasks(player.id, now.date())
    # The tasks change at 00:00 UTC and the challenge on Monday at 00:00
    # UTC, which is not the player's midnight: the page says how long is
    # left (rounded up, so never "0 min" before the change).
    tomorrow = datetime.combine(now.date() + timedelta(days=1), time.min, UTC)
    monday = datetime.combine(week_start(now.date()) + timedelta(days=7), time.min, UTC)
    page = render_template(
        "players/profile.html",
        player=player,
        tasks=tasks,
        message=message,
        about=about if message else "",
        transfer_code=code,
        others=device_players(),
        forgotten=request.args.get("forgotten") == "1",
        aside=request.args.get("aside") == "1",
        tasks_left=math.ceil((tomorrow - now).total_seconds()),
        challenge_left=math.ceil((monday - now).total_seconds()),
        tasks_at=tomorrow,
        challenge_at=monday,
    )
    return page, status


def _page_of_another() -> bool:
    """Whether the posted form was shown for another player than this
    device's now (field ``player``: the id of the player the page was for,
    ``""`` for none): a page left open in one tab while another switched
    players, or stepped aside. A form without the field is taken as this
    player's (a page shown before forms carried it)."""
    if "player" not in request.form:
        return False
    player = current_player()
    return request.form["player"] != ("" if player is None else str(player.id))


def _refuse_page_of_another() -> tuple[str, int]:
    """The answer to a form of another player's page (:func:`_page_of_another`):
    409, nothing changed, and the page of the player on this device now."""
    message = gettext("This page was for another player: nothing changed.")
    table = store.load_table() if _from_game() else None
    if table is not None:
        g.answer_page = "game.table"
        return game.render_table(table, message), 409
    return _profile_page(message, status=409)


def _named(player: Player, name: str) -> bool:
    """Whether ``name``, as a name form sends it, is ``player``'s name."""
    try:
        return queries.check_name(name) == player.name
    except queries.NameRefused:
        return False


@bp.post("/me/name")
def choose_name() -> Response | tuple[str, int]:
    """Choose (or change) the display name (field ``name``). A first name
    makes the player known, records the game just finished, if any, and
    moves the session's story progress to the database. A form shown for
    another player (field ``player``, :func:`_page_of_another`) is refused,
    409, unless it is the same form sent again (a double click on a page
    with no name, whose first press made this very player)."""
    player = current_player()
    name = request.form.get("name", "")
    if _page_of_another():
        if player is not None and request.form["player"] == "" and _named(player, name):
            return redirect(_back(url_for("players.profile"), anchor="your-result"), 303)
        return _refuse_page_of_another()
    try:
        if player is not None:
            queries.rename_player(player, name)
            return redirect(_back(url_for("players.profile")), 303)
        player, token = queries.create_player(name)
    except queries.NameRefused as refusal:
        message = str(NAME_REFUSALS[refusal.reason])
        if refusal.like is not None:
            message = markup_gettext(
                "That name is taken: it looks like “%(name)s”, the name of another player.",
                name=isolated(refusal.like),
            )
        table = store.load_table() if _from_game() else None
        if table is not None:
            # From the final page: stay there, the score and the form in
            # view, the refusal beside the form, or at the top when the page
            # now has none (a new game, or a name chosen in another tab).
            g.answer_page = "game.table"
            if table.match.over and current_player() is None:
                return game.render_table(table, name_error=message), 400
            return game.render_table(table, message), 400
        return _profile_page(message, status=400, about="name")
    g.player = player
    store.adopt_story_progress(player.id)
    table = store.load_table()
    # The game just finished becomes the new player's, unless it is
    # anyone's already (a game is one player's: choosing another name on
    # the same final page, the first one's cookie dropped, records nothing).
    if table is not None and table.match.over and queries.result_holder(table.game_id) is None:
        game_finished(table)
    # From the final page: back to it at the result now recorded, which
    # takes the focus (the page's script), so it is seen and read out.
    done = _back(url_for("players.profile"), anchor="your-result")
    return remember(redirect(done, 303), token)


@bp.post("/me/transfer")
def transfer() -> tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Show a new one-time code to continue as this player on another
    device. A form shown for another player (field ``player``,
    :func:`_page_of_another`) makes no code: 409."""
    if _page_of_another():
        return _refuse_page_of_another()
    player = current_player()
    if player is None:
        return _profile_page(gettext("Choose a name first."), status=400)
    page, status = _profile_page(code=queries.open_transfer(player))
    # The code is shown once: never kept by a browser or proxy cache.
    return page, status, {"Cache-Control": "no-store"}


@bp.post("/me/continue")
def continue_here() -> Response | tuple[str, int]:
    """Continue as the player of a transfer code (field ``code``) on this
    device; this device's story progress is merged into the player's."""
    claimed = queries.redeem_transfer(request.form.get("code", ""))
    if claimed is None:
        message = gettext(
            "That code is unknown, used or expired. Make a new one on your other device's profile."
        )
        return _profile_page(message, status=400, about="continue")
    player, token = claimed
    store.adopt_story_progress(player.id)
    return remember(redirect(url_for("players.profile"), 303), token)


@bp.post("/me/aside")
def someone_else() -> Response | tuple[str, int]:
    """Let someone else play on this device (:func:`.identity.step_aside`):
    back to the profile page, anonymous, whose name form, transfer code
    form and switch buttons are theirs; nothing is deleted. Sent again
    once done (a double click), it changes nothing; sent from a page shown
    for another player than this device's now (field ``player``,
    :func:`_page_of_another`), or when the device remembers
    :data:`.identity.DEVICE_PLAYERS` others already, it is refused, 409."""
    if current_player() is not None and _page_of_another():
        return _refuse_page_of_another()
    if current_player() is not None and len(device_players()) >= DEVICE_PLAYERS:
        # One more would push the oldest off the device, their name kept
        # where no device could take it back.
        message = gettext(
            "This device remembers %(count)s other players, the most it can: nothing "
            "changed. To make room, play as one of them and press Forget me.",
            count=DEVICE_PLAYERS,
        )
        return _profile_page(message, status=409)
    return step_aside(redirect(url_for("players.profile", aside=1), 303))


@bp.post("/me/switch")
def switch() -> Response | tuple[str, int]:
    """Play as the player this device remembers whose id is the field
    ``player`` (:func:`.identity.switch_to`), back to their profile; one it
    does not remember (forgotten meanwhile, or never here) is refused, 400
    with the profile page saying so."""
    chosen = request.form.get("player", "")
    done = None
    if chosen.isascii() and chosen.isdigit() and len(chosen) < 12:
        done = switch_to(redirect(url_for("players.profile"), 303), int(chosen))
    if done is None:
        message = gettext("This device does not remember that player any more. Nothing changed.")
        return _profile_page(message, status=400)
    return done


@bp.post("/me/forget")
def forget_me() -> Response | tuple[str, int]:
    """Delete this player, their results and tasks (field ``confirm`` must
    be ``yes``), and drop the cookie; this session's games started under
    the name, or finished with no name and recorded under it, are recorded
    for nobody from then on (:func:`game_finished`). A form shown for another player
    (field ``player``, :func:`_page_of_another`) is refused, 409; so is
    one sent when this device plays under no name (another tab forgot the
    name, or a second press did), whose page says there was nothing to
    forget; a form of a player this device remembers (stepped aside in
    another tab) is another player's."""
    player = current_player()
    if player is None:
        if request.form.get("player") in {str(other.id) for other in device_players()}:
            return _refuse_page_of_another()
        message = gettext(
            "There was nothing to forget: this device plays under no name now (it was "
            "forgotten already, in another tab or by a second press). Nothing changed."
        )
        return _profile_page(message, status=409)
    if _page_of_another():
        return _refuse_page_of_another()
    if request.form.get("confirm") != "yes":
        message = gettext("Tick the box to confirm; nothing was deleted.")
        return _profile_page(message, status=400, about="forget")
    table = store.load_table()
    if table is not None and not table.player and queries.result_holder(table.game_id) == player.id:
        # A game begun with no name and recorded under this one at its end:
        # nobody's once the name is forgotten, not the next name's.
        table.player = player_key(player)
        store.save_table(table)
    queries.forget_player(player.id)
    return forget(redirect(url_for("players.profile", forgotten=1), 303))


@bp.get("/me/data")
def my_data() -> Response | tuple[str, int]:
    """Download, as a JSON file, everything the database keeps about this
    device's player (:func:`app.db.queries.player_data`): their name and
    totals, every result, Daily entry, task, weekly score, their story
    progress and when each of their devices joined. Never cached; without
    a name there is nothing to download (404, the profile page saying so)."""
    player = current_player()
    data = queries.player_data(player.id) if player is not None else None
    if data is None:
        message = gettext("Nothing is kept about you until you choose a name.")
        return _profile_page(message, status=404)
    body = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    name = pgettext("data file name", "pisti-my-data")
    response = send_file(
        io.BytesIO(body.encode()),
        mimetype="application/json",
        as_attachment=True,
        download_name=f"{name}.json",
        conditional=False,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/leaderboard")
def leaderboard() -> str:
    """Show the all-time (``?period=all``), this week's (``week``) or last
    week's (``last``) leaderboard, a page at a time (``?page=``), with the
    player's own row."""
    period = request.args.get("period", "all")
    period = period if period in PERIODS else "all"
    player = current_player()
    player_id = player.id if player is not None else None
    week = week_start(datetime.now(UTC).date())
    if period == "last":
        week -= timedelta(days=7)
    if period in ("week", "last"):
        board = queries.weekly_leaderboard(week, daily.page_number(), player_id)
    else:
        board = queries.alltime_leaderboard(daily.page_number(), player_id)
    return render_template(
        "players/leaderboard.html",
        board=board,
        period=period,
        player=player,
        week=week,
        week_end=week + timedelta(days=6),
    )


@bp.get("/me/stats")
def stats() -> str:
    """Show the player's statistics as charts with their numbers."""
    player = current_player()
    if player is None:
        return render_template("players/stats.html", player=None)
    results = queries.player_results(player.id)
    return render_template(
        "players/stats.html",
        player=player,
        by_rules=queries.games_by_rules_and_level(player.id),
        totals=queries.hand_totals(player.id),
        results=results,
        points_chart=charts.points_per_hand(results),
        scored=charts.scored_as_set(results),
        pisti_chart=charts.pistis_per_hand(results),
        game_label=_game_label,
    )


def _game_label(rules: str, house: str, levels: str) -> str:
    """Name a result's game (``rules``, a rule set's name, with its
    ``house`` options as :attr:`app.db.models.Result.house` keeps them) and
    computers (``levels``, ``"hard,hard,medium"``) in the page's language:
    the game's name and the computers, or for house rules the rules' line
    as the table shows it ("Classic · 3 players · pişti 20 · Easy"). A
    result kept before results had their options shows the players where
    their number was not the rule set's ("Classic · 3 players · Easy")."""
    seats = len(levels.split(",")) + 1
    preset = RULE_SETS.get(rules)
    if house and preset is not None:
        try:
            played = parse_rules_text(f"{rules}&{house.replace(' ', '&')}")
        except InvalidRules:  # an option this version no longer has
            game_name = f"{BASE_NAMES[rules]} · " + gettext("house rules")
        else:
            game_name = rules_summary(played, None)["line"]
    elif preset is None or preset.players == seats:
        game_name = str(game.RULE_NAMES.get(rules, rules))
    else:
        players = gettext("%(num)s players", num=seats)
        game_name = f"{BASE_NAMES[rules]} · {players}"
    return f"{game_name} · {_level_label(levels)}"


def _level_label(levels: str) -> str:
    """Name a result's computer levels (``"hard,hard,medium"``) in the
    page's language: each level once, in order."""
    names = dict.fromkeys(levels.split(","))
    return " + ".join(str(game.COMPUTER_NAMES.get(name, name)) for name in names)
