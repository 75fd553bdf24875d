"""The House rules page: a game under any combination of the format-2
options (``docs/record-format.md``, :mod:`app.engine.rules`) on one
of the three bases, against the computer.

Two, three or four players, four as partners or each for themselves; the
computers all play at the chosen level, or each at its own (``level_1`` …,
as a deal link names them: the final page's Play again sends them).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from app.ai import DEFAULT_LEVEL, LEVELS
from app.engine import (
    MATCH_TARGETS,
    RULE_SETS,
    InvalidRules,
    RuleSet,
    new_seed,
    rules_from_query,
)
from app.engine.rules import POINTS, option_text, option_value

from . import store
from .game import LEVEL_NAMES, RULE_NAMES, start_refused
from .links import seat_fields
from .rule_words import BASE_NAMES, EXPLAINED, LABELS, VALUES, choices, refusal
from .table import Table

bp = Blueprint("house", __name__)


def _options() -> list[dict[str, Any]]:
    """The page's fields: each option's name, label, values as text
    (``None`` for a number of points), its sentence with its source, and
    what "as the game plays it" is in each game."""
    return [
        {
            "name": option,
            "label": label,
            "values": choices(option),
            "explained": EXPLAINED[option],
            "defaults": _defaults(option),
        }
        for option, label in LABELS.items()
    ]


def _defaults(option: str) -> str:
    """What each base game plays for ``option``, in the words of the page's
    choices: "Single hand: swapped with a card under it; Classic: stays on
    top; …", or "Every game: 10." when they agree."""
    words = {}
    for name, rules in RULE_SETS.items():
        value = option_value(rules, option)
        words[name] = str(value) if option in POINTS else str(VALUES[option_text(value)])
    if len(set(words.values())) == 1:
        return gettext("Every game: %(value)s.", value=words["classic"])
    each = "; ".join(f"{BASE_NAMES[name]}: {word}" for name, word in words.items())
    return gettext("As the games play it: %(each)s.", each=each)


def _target_defaults() -> str:
    """The match each base game plays, as :func:`_defaults` says it."""
    each = "; ".join(
        f"{BASE_NAMES[name]}: "
        + (
            gettext("%(points)s points", points=rules.default_target)
            if rules.default_target
            else gettext("one hand")
        )
        for name, rules in RULE_SETS.items()
    )
    return gettext("As the games play it: %(each)s.", each=each)


def _page(message: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template(
        "game/house.html",
        target_defaults=_target_defaults(),
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


def _house_rules(args: dict[str, str]) -> RuleSet:
    """Build the rule set of the form's ``args`` (:func:`rules_from_query`'s
    query). "Most cards" left as the base plays it, on a base that gives
    them for 27 (``cardems``), means strictly more with three or four sides,
    where 27 cannot be asked (record-format.md, format 2): the page's note
    says so, rather than refusing the most obvious three-player game.

    Raises:
        InvalidRules: the options do not make a rule set (``args`` then
            names ``most_cards`` if it was filled in here).
    """
    try:
        return rules_from_query(args)
    except InvalidRules as exc:
        if "most_cards" in args or "needs two teams" not in str(exc):
            raise
    args["most_cards"] = "more"
    return rules_from_query(args)


@bp.get("/house")
def form() -> tuple[str, int]:
    """Show the House rules form."""
    return _page()


@bp.post("/house")
def start() -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Start a game from a fresh seed under the posted house rules: field
    ``rules`` (the base), ``target`` (empty: the base's), ``level``, any
    option of :data:`LABELS` (empty: the base's; ``players`` and ``teams``
    too) and, optionally, a computer's own level ``level_1`` … (empty: the
    ``level``). A value the page does not offer, or options that do not go
    together (partners with three players), is a 400 naming the option;
    nothing is started."""
    args = {"rules": request.form.get("rules", "")}
    args.update({name: request.form[name] for name in LABELS if request.form.get(name)})
    try:
        rules = _house_rules(args)
    except InvalidRules as exc:
        return _page(refusal(exc, args), 400)
    target_text = request.form.get("target", "")
    target = int(target_text) if target_text in {str(t) for t in MATCH_TARGETS} else None
    if target_text and target is None:
        return _page(gettext("A match is played to 51, 101, 121 or 151 points."), 400)
    level = request.form.get("level", "")
    levels = [request.form.get(name) or level for name in seat_fields(rules)] or [level]
    if any(chosen not in LEVELS for chosen in levels):
        return _page(gettext("Choose a computer level."), 400)
    table = Table.start(
        rules,
        new_seed(),
        levels,
        seed_public=False,
        target=target,
        expert_ms=float(current_app.config["EXPERT_MS"]),
    )
    try:
        store.apply(lambda: store.start_table(table))
    except store.Stale:
        return start_refused()
    return redirect(url_for("game.table"), 303)
