"""The game pages: home, table, final score, plays, records."""

from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for

from app.ai import DEFAULT_LEVEL, LEVELS
from app.engine import (
    InvalidSeed,
    card_label,
    card_name,
    check_seed,
    hand_winner,
    make_record,
    new_seed,
    observe,
    score_hand,
    would_capture,
)

from . import store
from .narrate import describe, seat_names
from .table import Refused, Table

bp = Blueprint("game", __name__)

#: How many face-up cards of the pile are drawn fanned on the table.
PILE_FAN = 4


@bp.app_template_filter("card_label")
def _card_label(card: str) -> str:
    return card_label(card)


@bp.app_template_filter("card_name")
def _card_name(card: str) -> str:
    return card_name(card)


@bp.get("/healthz")
def healthz() -> Response:
    """Answer container health checks."""
    return Response('{"status": "ok"}', mimetype="application/json")


@bp.get("/")
def home() -> str:
    """Show the home page: a new game, or a deal from a seed."""
    table = store.load_table()
    return render_template(
        "game/home.html",
        levels=LEVELS,
        level=_level(),
        in_progress=table is not None and not table.state.finished,
    )


@bp.post("/new")
def new_game() -> Response:
    """Start a game with a fresh random deal."""
    level = request.form.get("level", "")
    if level not in LEVELS:
        level = _level()
    store.set_preferred_level(level)
    store.start_table(Table.start(new_seed(), level, seed_public=False))
    return redirect(url_for("game.table"), 303)


@bp.get("/deal")
def deal_from_form() -> Response | tuple[str, int]:
    """Take the home page's seed field to the deal's own link."""
    seed = request.args.get("seed", "").strip()
    try:
        check_seed(seed)
    except InvalidSeed:
        return _bad_seed(seed)
    return redirect(url_for("game.deal", seed=seed), 303)


@bp.get("/deal/<path:seed>")
def deal(seed: str) -> Response | tuple[str, int]:
    """Start a game from ``seed``: everyone opening this link gets this deal."""
    try:
        check_seed(seed)
    except InvalidSeed:
        return _bad_seed(seed)
    store.start_table(Table.start(seed, _level(), seed_public=True))
    return redirect(url_for("game.table"), 303)


@bp.get("/game")
def table() -> str | tuple[str, int]:
    """Show the table, or the final score once the hand is over."""
    table = store.load_table()
    if table is None:
        return _no_game()
    return _render_table(table)


@bp.post("/play")
def play() -> Response | tuple[str, int]:
    """Play the posted card (fields ``card`` and ``move``), let the computer
    answer, and redirect to the table; a refused move changes nothing."""
    table = store.load_table()
    if table is None:
        return _no_game()
    try:
        table.play(request.form.get("card", ""), request.form.get("move", ""))
    except Refused as refusal:
        return _render_table(store.load_table(), refusal.message), refusal.status
    store.save_table(table)
    return redirect(url_for("game.table"), 303)


@bp.get("/record")
def record() -> Response | tuple[str, int]:
    """Download the finished hand's record (``pisti-record/1`` JSON)."""
    table = store.load_table()
    if table is None:
        return _no_game()
    if not table.state.finished:
        message = "The record can be downloaded when the hand is over: it shows every card."
        return _render_table(table, message), 409
    body = json.dumps(make_record(table.state, table.seed), indent=2) + "\n"
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="pisti-{table.seed}.json"'},
    )


def _level() -> str:
    level = store.preferred_level()
    return level if level in LEVELS else DEFAULT_LEVEL


def _render_table(table: Table, message: str | None = None) -> str:
    """Render the player's view: the table page, or the final page. Only
    the player's observation reaches the template, never the state."""
    state = table.state
    obs = observe(state, table.human)
    names = seat_names(state.rules.players, table.human)
    happened = [line for event in table.log for line in describe(event, names, table.human)]
    context = {
        "obs": obs,
        "names": names,
        "happened": happened,
        "message": message,
        "level": table.level,
        "levels": LEVELS,
        "seed": table.seed if table.seed_public or obs.finished else None,
        "move": table.move,
    }
    if obs.finished:
        scores = score_hand(state)
        winner, reason = hand_winner(state, scores)
        return render_template("game/final.html", scores=scores, winner=winner, reason=reason, **context)
    fan = obs.pile_face_up[-PILE_FAN:]
    hand = [
        {"card": card, "captures": would_capture(card, obs.pile_top), "key": index + 1}
        for index, card in enumerate(obs.hand)
    ]
    return render_template(
        "game/table.html",
        fan=fan,
        under=obs.pile_size - len(fan),
        hand=hand,
        opponent=(obs.seat + 1) % state.rules.players,
        **context,
    )


def _no_game() -> tuple[str, int]:
    return render_template("game/no_game.html"), 404


def _bad_seed(seed: str) -> tuple[str, int]:
    return render_template("game/bad_seed.html", seed=seed[:80]), 400
