"""Deal links that mean one thing: ``/deal/<seed>?rules=…&target=…&level=…``.

A link names the game (``rules``, plus any house rule as a format-2 option,
``jack_pisti=10``, ``players=3``, ``players=4&teams=solo``), the match target
(``target``, where the game is a match) and the computers' levels (``level``
for every computer, ``level_1`` … for a seat of a game with more than one
computer, as the home page's forms name them), so everyone who opens it
plays the same deal against the same computers. A parameter left out takes
its default (the single deal, the game's first target, Medium); a value the
game does not offer is refused (:class:`BadLink`), never replaced.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from flask import url_for
from werkzeug.datastructures import MultiDict

from app.ai import DEFAULT_LEVEL, LEVELS
from app.engine import (
    MATCH_TARGETS,
    OPTIONS,
    RULE_SETS,
    InvalidRules,
    RuleSet,
    rules_from_query,
    rules_to_query,
)
from app.engine.shuffle import normalize_seed

from .i18n import LINK_LANGUAGE, quoted, unescaped_name

#: The game a link without ``rules`` deals.
DEFAULT_RULES = "cardems"


class BadLink(ValueError):
    """A deal link parameter with a value the game does not offer.

    Attributes:
        field: the parameter (``"rules"``, ``"target"``, ``"level"``,
            ``"level_2"`` …).
        value: the value given (cut to 200 characters, as
            :func:`~app.web.i18n.quoted` shows it).
        allowed: the values the game offers for it, empty when the game
            takes no such parameter (for ``"repeated"``, the values given,
            as ``value``).
        rules: the game's rule set name (``None`` when ``rules`` is bad).
    """

    def __init__(self, field: str, value: str, allowed: tuple[str, ...], rules: str | None) -> None:
        super().__init__(f"{field}={value!r}: allowed {allowed}")
        self.field = field
        self.value = quoted(value, 200)
        self.allowed = tuple(quoted(text, 200) for text in allowed)
        self.rules = rules


def seat_fields(rules: RuleSet) -> tuple[str, ...]:
    """Return the per-seat level parameters of ``rules``: ``level_1`` …
    ``level_{n-1}`` when there is more than one computer, else none."""
    if rules.players <= 2:
        return ()
    return tuple(f"level_{position}" for position in range(1, rules.players))


def deal_settings(args: Mapping[str, str]) -> dict[str, Any]:
    """Return the game settings a deal link's query ``args`` ask for:
    ``{"rules": base name, "rule_set": the RuleSet with its house rules,
    "house": those rules as ``name=value`` text ("" for none), "target":
    points or None, "level": level, "levels": [a level per
    computer position]}`` (the home form's settings and the rule set). An
    empty value counts as left out.

    Raises:
        BadLink: an unknown game, a parameter that is a near miss of one of
            these (``jack_pist``, ``targte``, or the start of one's name
            with no value, ``&lev`` of a link copied short: field
            ``"misspelt"``, the name meant in ``allowed``; other unknown parameters, such as the
            ``utm_*`` or ``fbclid`` that sharing adds, are left alone), a
            parameter given twice with different values (field
            ``"repeated"``, the values in ``allowed``), a house rule the
            engine refuses, a target
            that is not a match target, an unknown level, or a per-seat level the game
            has no seat for.
    """
    if isinstance(args, MultiDict):
        args = _one_value_each(unescaped(args))
    rules_name = args.get("rules") or DEFAULT_RULES
    if rules_name not in RULE_SETS:
        raise BadLink("rules", rules_name, tuple(RULE_SETS), None)
    for name, value in args.items():
        near = _misspelt(name) or (None if value else _cut_short(name))
        if near is not None:
            raise BadLink("misspelt", name, (near,), rules_name)
    options = {name: value for name, value in args.items() if name in OPTIONS and value}
    query = {**options, "rules": rules_name}
    try:
        rules = rules_from_args(query)
    except InvalidRules as error:
        raise BadLink("house", str(error), (), rules_name) from None
    options = {name: value for name, value in query.items() if name in OPTIONS}
    # Any base to any target, as the House rules page offers (a house
    # choice, see MATCH_TARGETS):
    # the single deal too, whose matches' records link here.
    offered = MATCH_TARGETS
    target = rules.default_target
    target_text = args.get("target") or ""
    if target_text:
        if target_text not in {str(points) for points in offered}:
            raise BadLink("target", target_text, tuple(map(str, offered)), rules.name)
        target = int(target_text)
    level = _level(args, "level", DEFAULT_LEVEL, rules)
    fields = seat_fields(rules)
    for name, value in args.items():
        if name.startswith("level_") and name not in fields and value:
            raise BadLink(name, value, fields, rules.name)
    levels = [_level(args, name, level, rules) for name in fields] or [level]
    return {
        "rules": rules.name,
        "rule_set": rules,
        "house": " ".join(f"{name}={value}" for name, value in options.items()),
        "target": target,
        "level": level,
        "levels": levels,
    }


def rules_from_args(args: dict[str, str]) -> RuleSet:
    """Build the rule set of ``args`` (:func:`rules_from_query`'s query:
    ``{"rules": base, option: value text}``, as a deal link or the House
    rules form gives them). "Most cards" left as the base plays it, on a
    base that gives them for 27 (``cardems``), means strictly more with
    three or four sides, where 27 cannot be asked (record-format.md, format
    2): ``args`` then gains ``most_cards=more``, so the game's link and
    record say so, rather than the most obvious three-player game being
    refused.

    Raises:
        InvalidRules: the options do not make a rule set (``args`` then
            names ``most_cards`` only if it was given).
    """
    try:
        return rules_from_query(args)
    except InvalidRules as exc:
        if "most_cards" in args or "needs two teams" not in str(exc):
            raise
    args["most_cards"] = "more"
    return rules_from_query(args)


#: What starts a checked link's path (``/deal/~<check>/<seed>``): no seed
#: has it, so a link cut short anywhere after it is still known as one.
CHECK_MARK = "~"
#: A check's letters: Crockford's base 32, in small letters (no i, l, o
#: or u, which are easily misread); 6 of them, 30 bits, so a changed link
#: passes its check once in about a thousand million.
CHECK_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
CHECK_LENGTH = 6
#: Letters a check typed by hand may have for the digit they look like, as
#: Crockford's base 32 reads them: o for 0, i and l for 1.
MISREAD = str.maketrans("oil", "011")


class LinkChanged(ValueError):
    """A checked deal link whose check does not match the rest of it
    (changed or cut short after it was written), or whose path ends before
    its seed (``cut``: ``/deal/~k7m2`` of a link cut short)."""

    def __init__(self, seed: str, cut: bool) -> None:
        super().__init__("cut short before its seed" if cut else "its check does not match")
        self.seed = quoted(seed, 80)
        self.cut = cut


def link_check(seed: str, args: Mapping[str, Any]) -> str:
    """Return the check of the deal link of ``seed`` with the query
    ``args``: :data:`CHECK_LENGTH` letters of :data:`CHECK_ALPHABET` from
    the SHA-256 of ``pisti-link-check/1``, the seed and the link's own
    parameters (the ones :func:`deal_settings` reads: the seats' levels,
    ``rules``, ``target``, ``level`` and the house rules; empty values
    left out) as ``name=value``, sorted, joined by ``&``. It covers what
    the link says, not what the site makes of it, so a link keeps its
    check across releases; what sharing adds (``utm_source``) is not in
    it. Never change it: links carry it."""
    pairs = sorted(
        f"{name}={value}"
        for name, value in _pairs(args)
        if _is_link_parameter(name) and str(value) != ""
    )
    text = "\0".join(["pisti-link-check/1", seed, "&".join(pairs)])
    number = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 2
    letters = []
    for _ in range(CHECK_LENGTH):
        number, digit = divmod(number, 32)
        letters.append(CHECK_ALPHABET[digit])
    return "".join(reversed(letters))


def _pairs(args: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Every ``(name, value)`` of ``args``, each value of a name given
    more than once (a :class:`MultiDict`) too."""
    if isinstance(args, MultiDict):
        return list(args.items(multi=True))
    return list(args.items())


def read_deal_path(path: str, args: Mapping[str, str]) -> str:
    """Return the seed of the deal link's ``path`` (what follows
    ``/deal/``) with the query ``args``: the path itself for a link
    without a check, else the seed after the check, once the check is
    found to match, in capitals or small letters, o read as 0 and i or l
    as 1 (seed and parameters as :func:`link_check` reads them:
    the parameters' names as written before an ``&`` was escaped to
    ``&amp;``, the seed composed, as the link was written).

    Raises:
        LinkChanged: the check does not match, or the path ends before
            its seed.
    """
    if not path.startswith(CHECK_MARK):
        return path
    check, slash, seed = path.removeprefix(CHECK_MARK).partition("/")
    if not slash or not seed:
        raise LinkChanged(path, cut=True)
    if isinstance(args, MultiDict):
        args = unescaped(args)
    composed = normalize_seed(seed)
    if check.lower().translate(MISREAD) != link_check(composed, args):
        raise LinkChanged(seed, cut=False)
    return seed


#: The parameters a deal link may carry, but for the seats' ``level_N``.
LINK_PARAMETERS = ("rules", "target", "level", *OPTIONS)


def unescaped(args: MultiDict[str, str]) -> MultiDict[str, str]:
    """Return a link's query ``args`` with each parameter named as written
    before its ``&`` was escaped as ``&amp;`` on the way (a link copied out
    of a page's source or an e-mail reads ``amp;level=hard``): a link
    parameter's name is taken without its ``amp;`` prefixes, so the link
    deals what it says rather than leave its level or target out."""
    names = [(escaped_name(name), value) for name, value in args.items(multi=True)]
    return MultiDict(names)


def escaped_name(name: str) -> str:
    """Return ``name`` without the ``amp;`` prefixes that escaping a link's
    ``&`` put before it, if what remains is a deal link parameter or its
    language (:data:`.i18n.LINK_LANGUAGE`); else ``name`` as it is."""
    bare = unescaped_name(name)
    return bare if _is_link_parameter(bare) or bare == LINK_LANGUAGE else name


def _one_value_each(args: MultiDict[str, str]) -> dict[str, str]:
    """Return each of a link's parameters with its one value: the one not
    empty when it is given more than once (empty counts as left out).

    Raises:
        BadLink: a parameter of the link given two different values (field
            ``"repeated"``, the values in ``allowed``).
    """
    values = {}
    for name in args:
        given = [value for value in dict.fromkeys(args.getlist(name)) if value]
        if len(given) > 1 and _is_link_parameter(name):
            raise BadLink("repeated", name, tuple(given), None)
        values[name] = given[0] if given else ""
    return values


def _is_link_parameter(name: str) -> bool:
    return name in LINK_PARAMETERS or re.fullmatch(r"level_[0-9]+", name) is not None


def _misspelt(name: str) -> str | None:
    """Return the deal link parameter ``name`` is a near miss of (by
    :func:`difflib.get_close_matches`, at least 80 % alike), or ``None``
    for a parameter of the link or one nothing like them."""
    if _is_link_parameter(name):
        return None
    near = difflib.get_close_matches(name, [*LINK_PARAMETERS, "level_1"], n=1, cutoff=0.8)
    return near[0] if near else None


def _cut_short(name: str) -> str | None:
    """Return the deal link parameter whose name begins with ``name``, a
    parameter given with no value (``&lev``: a link copied short), or
    ``None``. What sharing adds (``t=…``) comes with a value."""
    if not name or _is_link_parameter(name):
        return None  # "pisti=" is left out, not "pisti_on_last_play" cut short
    for parameter in (*LINK_PARAMETERS, "level_1"):
        if parameter.startswith(name) and parameter != name:
            return parameter
    return None


def link_args(form: Mapping[str, str]) -> dict[str, str]:
    """Return the deal link parameters of the home page's seed form: the
    form sends every field, so a target is kept only for a game with a
    choice of targets and a seat's level only for a game with such seats."""
    args = {name: form.get(name, "") for name in ("rules", "level")}
    rules = RULE_SETS.get(args["rules"])
    if rules is not None and len(rules.match_targets) > 1:
        args["target"] = form.get("target", "")
    if rules is not None:
        args.update({name: form.get(name, "") for name in seat_fields(rules)})
    return {name: value for name, value in args.items() if value}


def deal_url(
    seed: str,
    rules: RuleSet,
    target: int | None,
    levels: list[str],
    external: bool = False,
    language: str | None = None,
) -> str:
    """Return the link of the deal ``seed`` with its settings: the game and
    its house rules, the target where there is one, and the computers'
    levels (``levels``, one per computer position): ``level`` the most
    common one, and a seat's ``level_N`` where it differs; checked
    (``/deal/~<check>/<seed>``, :func:`link_check`), and last, with
    ``language``, the language of its preview in a chat app
    (``lang=tr``, :data:`.i18n.LINK_LANGUAGE`, not in the check).
    :func:`deal_settings` reads it back to the same settings."""
    level = max(levels, key=levels.count)
    args: dict[str, Any] = rules_to_query(rules)
    if target is not None:
        args["target"] = target
    args["level"] = level
    for name, seat_level in zip(seat_fields(rules), levels, strict=False):
        if seat_level != level:
            args[name] = seat_level
    path = f"{CHECK_MARK}{link_check(seed, args)}/{seed}"
    if language is not None:
        args[LINK_LANGUAGE] = language
    return url_for("game.deal", seed=path, _external=external, **args)


#: What a chat message's sentence may leave after a link, which the chat
#: app then takes into it ("here: <link>." or "(<link>)"); none of them is
#: a seed's character.
TRAILING_MARKS = ".,;:!?)]}>'\"*”’»…"


def without_trailing_marks(path: str, query: str) -> tuple[str, MultiDict[str, str]] | None:
    """Return the deal link of ``path`` (what follows ``/deal/``, as
    decoded) and ``query`` (the query string as sent) without the
    :data:`TRAILING_MARKS` at the end of the link as shared (of its last
    parameter, or of the path when it has none), which is before what a
    chat app adds to it (``&fbclid=…``, a parameter with a value that is
    not the link's), as ``(path, query arguments)``, or ``None`` when that
    end has no such marks."""
    pairs = parse_qsl(query, keep_blank_values=True)
    end = len(pairs)
    while end and pairs[end - 1][1] and not _is_link_parameter(escaped_name(pairs[end - 1][0])):
        end -= 1
    if not end:
        bare = path.rstrip(TRAILING_MARKS)
        return (bare, MultiDict(pairs)) if bare != path else None
    name, value = pairs[end - 1]
    if value:
        pairs[end - 1] = (name, value.rstrip(TRAILING_MARKS))
    else:
        pairs[end - 1] = (name.rstrip(TRAILING_MARKS), value)
    if pairs[end - 1] == (name, value):
        return None
    return path, MultiDict(pairs)


def _level(args: Mapping[str, str], name: str, default: str, rules: RuleSet) -> str:
    value = args.get(name) or default
    if value not in LEVELS:
        raise BadLink(name, value, tuple(LEVELS), rules.name)
    return value
