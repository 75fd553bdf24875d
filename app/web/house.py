"""The House rules page: a game under any combination of the format-2
options (``shared/spec/record-format.md``, :mod:`app.engine.rules`) on one
of the three bases, against the computer.

Only two-player and partners tables are offered: the table has no layout
for three players or four each for themselves yet, which the engine, the
computers and the records already play.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from werkzeug.wrappers import Response

from app.ai import DEFAULT_LEVEL, LEVELS
from app.engine import (
    MATCH_TARGETS,
    RULE_SETS,
    InvalidRules,
    new_seed,
    rules_from_query,
)
from app.engine.rules import CHOICES, POINTS

from . import store
from .game import LEVEL_NAMES, RULE_NAMES
from .table import Table

bp = Blueprint("house", __name__)

#: The options the page offers (players and teams are the base's), each
#: with its label and, for a choice, its values' words, in the spec's order.
LABELS: dict[str, Any] = {
    "opening_jack": lazy_gettext("An opening Jack"),
    "four_jacks": lazy_gettext("Four Jacks in the centre"),
    "bottom_card": lazy_gettext("The stock's bottom card"),
    "pisti_on_last_play": lazy_gettext("A pişti with the hand's last card"),
    "pisti": lazy_gettext("Points for a pişti"),
    "jack_pisti": lazy_gettext("Points for a Jack pişti"),
    "most_cards": lazy_gettext("Most cards"),
    "most_cards_points": lazy_gettext("Points for most cards"),
    "last_sweep_bonus": lazy_gettext("Bonus for taking the last cards"),
    "no_capture_leftovers": lazy_gettext("Table cards when nobody captured"),
    "tie_break": lazy_gettext("Equal points in a single deal"),
    "face_down": lazy_gettext("The face-down centre cards"),
}
VALUES: dict[str, Any] = {
    "swap": lazy_gettext("swapped with a card under it"),
    "stay": lazy_gettext("stays on top"),
    "pass": lazy_gettext("passed over: the next card is turned up"),
    "under": lazy_gettext("put under the stock: the dealer gets it last"),
    "redeal": lazy_gettext("deal again"),
    "play": lazy_gettext("play them"),
    "any": lazy_gettext("any card, not shown"),
    "no_jack": lazy_gettext("never a Jack, shown to all"),
    "true": lazy_gettext("counts"),
    "false": lazy_gettext("does not count"),
    "27": lazy_gettext("27 or more cards"),
    "more": lazy_gettext("more cards than the other side"),
    "first": lazy_gettext("to the first player"),
    "dealer": lazy_gettext("to the dealer"),
    "cards": lazy_gettext("more cards win"),
    "none": lazy_gettext("a draw"),
    "hidden": lazy_gettext("nobody sees them"),
    "capturer": lazy_gettext("the side that takes them may look"),
}


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _options() -> list[dict[str, Any]]:
    """The page's fields: each option's name, label and values as text
    (``None`` for a number of points)."""
    return [
        {
            "name": option,
            "label": label,
            "values": None if option in POINTS else [_text(v) for v in CHOICES[option]],
        }
        for option, label in LABELS.items()
    ]


def _page(message: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template(
        "game/house.html",
        options=_options(),
        value_names=VALUES,
        rule_sets=RULE_SETS,
        rule_names=RULE_NAMES,
        targets=MATCH_TARGETS,
        levels=LEVELS,
        level_names=LEVEL_NAMES,
        default_level=store.settings().get("level", DEFAULT_LEVEL),
        form=request.form,
        message=message,
    ), status


@bp.get("/house")
def form() -> tuple[str, int]:
    """Show the House rules form."""
    return _page()


@bp.post("/house")
def start() -> Response | tuple[str, int]:
    """Start a game from a fresh seed under the posted house rules: field
    ``rules`` (the base), ``target`` (empty: the base's), ``level`` and any
    option of :data:`LABELS` (empty: the base's). A value the page does not
    offer is a 400 naming the option; nothing is started."""
    args = {"rules": request.form.get("rules", "")}
    args.update({name: request.form[name] for name in LABELS if request.form.get(name)})
    try:
        rules = rules_from_query(args)
    except InvalidRules as exc:
        return _page(gettext("These house rules cannot be played: %(problem)s", problem=exc), 400)
    target_text = request.form.get("target", "")
    target = int(target_text) if target_text in {str(t) for t in MATCH_TARGETS} else None
    if target_text and target is None:
        return _page(gettext("A match is played to 51, 101, 121 or 151 points."), 400)
    level = request.form.get("level", "")
    if level not in LEVELS:
        return _page(gettext("Choose a computer level."), 400)
    table = Table.start(
        rules,
        new_seed(),
        [level] * (rules.players - 1),
        seed_public=False,
        target=target,
        expert_ms=float(current_app.config["EXPERT_MS"]),
    )
    try:
        store.apply(lambda: store.start_table(table))
    except store.Stale:
        return redirect(url_for("game.home"), 303)
    return redirect(url_for("game.table"), 303)
