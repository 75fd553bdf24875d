"""The House rules page: a game under any combination of the format-2
options (``docs/record-format.md``, :mod:`app.engine.rules`) on one
of the three bases, against the computer.

Two, three or four players, four as partners or each for themselves; the
computers all play at the chosen level, or each at its own (``level_1`` …,
as a deal link names them: the final page's Play again sends them).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import Blueprint, current_app, render_template, request
from flask_babel import format_decimal, gettext
from werkzeug.wrappers import Response

from app.ai import DEFAULT_LEVEL, LEVELS
from app.engine import (
    MATCH_TARGETS,
    RULE_SETS,
    InvalidRules,
    new_seed,
    with_options,
)
from app.engine.rules import MAX_PLAYED_POINTS, POINTS, option_text, option_value

from . import store
from .game import LEVEL_NAMES, RULE_NAMES, start_game
from .links import rules_from_args, seat_fields
from .rule_words import (
    BRIEF,
    EXPLAINED,
    GROUPS,
    LABELS,
    SOURCES,
    VALUES,
    choices,
    refusal,
    refused_option,
    refused_problem,
)
from .table import Table

bp = Blueprint("house", __name__)


def _groups(refused: str | None, base: str) -> list[dict[str, Any]]:
    """The page's folds (:data:`GROUPS`): each one's title, its options
    (:func:`_option`, on the form's ``base``), how many of them the form
    changes, and whether it is open (a change or the refused option in
    it)."""
    groups = []
    for title, names in GROUPS:
        changed = sum(1 for name in names if request.form.get(name))
        groups.append(
            {
                "title": title,
                "options": [_option(name, base) for name in names],
                "changed": changed,
                "open": bool(changed) or refused in names,
            }
        )
    return groups


def _option(name: str, base: str) -> dict[str, Any]:
    """One field: its name, label, values as text (``None`` for a number of
    points) and, for a select, its ``choices`` (:func:`_choice`), its
    sentence, where it is played, what "as the game plays it" is in each
    base game (:func:`_as_played`) and, for ``teams``, with a number of
    players chosen (``by_players``); what it is for the form's choices
    (``shown``, on ``base``), and the whole words of the choice the form
    makes (``chosen``, :func:`_choice`), shown under the field."""
    as_played = _as_played(name)
    values = choices(name)
    option: dict[str, Any] = {
        "name": name,
        "label": LABELS[name],
        "values": values,
        "choices": [{"value": value, **_choice(value)} for value in values or ()],
        "explained": EXPLAINED[name],
        "source": SOURCES[name],
        "as_played": as_played,
        "by_players": {},
        "shown": as_played[base],
    }
    if name == "teams":
        # Sides left alone with a number of players chosen: what the engine
        # deals then, whatever the base game plays (partners for four, each
        # for themselves otherwise; record-format.md, format 2).
        option["by_players"] = {
            "players-four": _teams_for(4),
            "players-other": _teams_for(3),
        }
        players = request.form.get("players", "")
        if players:
            option["shown"] = option["by_players"][
                "players-four" if players == "4" else "players-other"
            ]
    value = request.form.get(name, "")
    chosen = next((choice for choice in option["choices"] if choice["value"] == value), None)
    option["chosen"] = (chosen or option["shown"])["words"]
    return option


def _choice(value: str) -> dict[str, str]:
    """A choice (``value`` as text) as the page shows it: ``label``, in its
    field's list (:data:`BRIEF`, else its words), and ``words``, its whole
    words (:data:`VALUES`) for the line under the field, or "" when the
    label says them all."""
    words = str(VALUES[value])
    label = str(BRIEF.get(value, words))
    return {"label": label, "words": "" if label == words else words}


def _teams_for(players: int) -> dict[str, str]:
    """The sides that ``players`` players get when the sides are left alone,
    as :func:`with_options` sets them, in :func:`_left_alone`'s words."""
    rules = with_options(RULE_SETS["classic"], {"players": players})
    return _left_alone(option_text(option_value(rules, "teams")))


def _left_alone(value: str) -> dict[str, str]:
    """The choice "as the game plays it" when the game plays ``value`` (as
    text): ``label``, in its field's list, the choice's label marked "(as
    played)" ("stays on top (as played)"), and ``words``, the choice's
    whole words "— as the game plays it" for the line under the field, or
    "" when the label says them all (:func:`_choice`)."""
    choice = _choice(value)
    return {
        "label": _as_played_label(choice["label"]),
        "words": _as_played_words(choice["words"]) if choice["words"] else "",
    }


def _as_played_label(label: str) -> str:
    """A choice's ``label`` as the choice "as the game plays it" shows it in
    a field, short enough for a phone: "stays on top (as played)"."""
    return gettext("%(value)s (as played)", value=label)


def _as_played_words(words: str) -> str:
    """A choice's whole ``words`` as the line under a field says them when
    the choice is "as the game plays it": "stays on top — as the game plays
    it"."""
    return gettext("%(value)s — as the game plays it", value=words)


def _as_played(option: str) -> dict[str, dict[str, str]]:
    """What each base game plays for ``option``, by the base's name, as
    :func:`_left_alone` says it (a number of points: its ``label`` only).
    The page shows the chosen base's; its script changes it when another
    base is chosen."""
    played = {}
    for name, rules in RULE_SETS.items():
        value = option_value(rules, option)
        if option in POINTS:
            played[name] = {"label": _as_played_label(str(value)), "words": ""}
        else:
            played[name] = _left_alone(option_text(value))
    return played


def _target_as_played() -> dict[str, str]:
    """The match each base game plays, as :func:`_as_played_label` says it."""
    return {
        name: _as_played_label(
            gettext("%(points)s points", points=rules.default_target)
            if rules.default_target
            else gettext("one hand")
        )
        for name, rules in RULE_SETS.items()
    }


def _page(
    message: str | None = None, status: int = 200, refused: tuple[str, str] | None = None
) -> tuple[str, int]:
    """The form, with the posted choices kept; ``message`` at the top and,
    for a refused option, ``refused`` (its name, the problem) by its
    field."""
    base = request.form.get("rules", "classic")
    base = base if base in RULE_SETS else "classic"
    return render_template(
        "game/house.html",
        base=base,
        target_as_played=_target_as_played(),
        groups=_groups(refused[0] if refused else None, base),
        rule_sets=RULE_SETS,
        rule_names=RULE_NAMES,
        targets=MATCH_TARGETS,
        most_points=format_decimal(MAX_PLAYED_POINTS),
        levels=LEVELS,
        level_names=LEVEL_NAMES,
        default_level=store.settings().get("level", DEFAULT_LEVEL),
        form=request.form,
        message=message,
        refused=refused,
    ), status


def ascii_digits(text: str) -> str:
    """Return ``text`` with its digits in ASCII when it is digits only, of
    any script (``٣٠`` of an Arabic keyboard, ``３０`` of a Japanese one:
    ``30``), else ``text`` as it is."""
    if not text.isdecimal():
        return text
    return "".join(str(unicodedata.decimal(char)) for char in text)


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
    for name in POINTS.keys() & args.keys():
        args[name] = ascii_digits(args[name])
    try:
        rules = rules_from_args(args)
    except InvalidRules as exc:
        option = refused_option(exc)
        refused = (option, refused_problem(exc, args)) if option else None
        return _page(refusal(exc, args, named=False), 400, refused)
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
    return start_game(table)
