"""House rules in words: each format-2 option's label and values for the
House rules page, the compact line and the details list that the table,
between-hands and final pages show of a game's rules, and a refused rule set
told in the page's language (``docs/record-format.md``, format 2;
:mod:`app.engine.rules`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask_babel import format_decimal, lazy_gettext

from app.engine import InvalidRules, RuleSet
from app.engine.rules import (
    CHOICES,
    MAX_PLAYED_POINTS,
    OPTIONS,
    POINTS,
    OptionValue,
    UnknownRuleSet,
    option_text,
    option_value,
)

from .i18n import gettext, ngettext, quoted, translations

#: Every option the House rules page offers, in the spec's order, with its
#: label.
LABELS: dict[str, Any] = {
    "players": lazy_gettext("Players"),
    "teams": lazy_gettext("Sides"),
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
    "tie_break": lazy_gettext("Equal points in a single hand"),
    "face_down": lazy_gettext("The face-down centre cards"),
}
#: The House rules page's options in folds, each with its options in the
#: spec's order: who plays, how the cards are dealt and shown, what scores,
#: and how a hand ends.
GROUPS: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (lazy_gettext("Players and sides"), ("players", "teams")),
    (lazy_gettext("The deal"), ("opening_jack", "four_jacks", "bottom_card", "face_down")),
    (
        lazy_gettext("Points"),
        ("pisti", "jack_pisti", "pisti_on_last_play", "most_cards", "most_cards_points"),
    ),
    (
        lazy_gettext("The end of a hand"),
        ("last_sweep_bonus", "no_capture_leftovers", "tie_break"),
    ),
)
#: Each option in a sentence, for the House rules page.
EXPLAINED: dict[str, Any] = {
    "players": lazy_gettext(
        "How many sit at the table; with three, four deals of four cards each make a hand."
    ),
    "teams": lazy_gettext(
        "With four players: partners sitting opposite share their captures, or each plays alone."
    ),
    "opening_jack": lazy_gettext("What happens when the top centre card is a Jack."),
    "four_jacks": lazy_gettext("Four Jacks dealt to the centre: deal again, or play on."),
    "bottom_card": lazy_gettext(
        "Whether the cut makes sure the stock's last card is not a Jack and shows it to all."
    ),
    "pisti_on_last_play": lazy_gettext(
        "Whether a pişti made with the hand's very last card scores."
    ),
    "pisti": lazy_gettext("Points for taking a lone card with the same rank."),
    "jack_pisti": lazy_gettext("Points for taking a lone Jack with a Jack."),
    "most_cards": lazy_gettext(
        "Who earns the most-cards points: the side with 27 cards or more, or the side with "
        "more cards than any other. 27 works with two sides only; with three or four, the "
        "side with more cards than any other earns them."
    ),
    "most_cards_points": lazy_gettext("Points for the most cards."),
    "last_sweep_bonus": lazy_gettext(
        "Extra points for the side that takes the cards left on the table at the end."
    ),
    "no_capture_leftovers": lazy_gettext("Who takes the table when nobody captured all hand."),
    "tie_break": lazy_gettext("A single hand with equal points: more cards wins, or it is a draw."),
    "face_down": lazy_gettext(
        "Whether the side that takes the three face-down centre cards may look at them."
    ),
}
#: Where each option's variants are played: the rule texts the product
#: follows and the house variants found in Turkish, German and English rule
#: pages (the House rules page's "Where these rules come from").
SOURCES: dict[str, Any] = {
    "players": lazy_gettext(
        "Two players in the app and game-site rules, four in the partnership "
        "rules, three on Turkish and German house tables."
    ),
    "teams": lazy_gettext(
        "Partners in the partnership rules, each for themselves on house tables."
    ),
    "opening_jack": lazy_gettext(
        "Swapped in the app's rules, kept in the game-site rules, turned over in "
        "the partnership rules, put under the stock on Turkish house tables."
    ),
    "four_jacks": lazy_gettext(
        "Deal again in the partnership rules; played on in the game-site rules."
    ),
    "bottom_card": lazy_gettext("The partnership rules."),
    "pisti_on_last_play": lazy_gettext(
        "It counts in the two-player rules, not in the partnership rules."
    ),
    "pisti": lazy_gettext("10 in every rule text."),
    "jack_pisti": lazy_gettext("20 in the rule texts, 10 on some Turkish house tables."),
    "most_cards": lazy_gettext(
        "27 in the app's rules, more cards in the game-site and partnership rules."
    ),
    "most_cards_points": lazy_gettext("3 in every rule text."),
    "last_sweep_bonus": lazy_gettext(
        "3 points on some Turkish and German house tables, none in the rule texts."
    ),
    "no_capture_leftovers": lazy_gettext(
        "The first player in the app's rules; the other rule texts do not say, "
        "and the Classic and Partners games here give it to the dealer."
    ),
    "tie_break": lazy_gettext(
        "Cards in the app's rules; the other rule texts do not say, and the "
        "Classic and Partners games here call it a draw."
    ),
    "face_down": lazy_gettext("Shown to the taker in the partnership rules, hidden elsewhere."),
}
#: The words of each choice, by its value as text (as in a deal link).
VALUES: dict[str, Any] = {
    "2": lazy_gettext("two: you and the computer"),
    "3": lazy_gettext("three: you, East and West"),
    "4": lazy_gettext("four: you, East, North and West"),
    "solo": lazy_gettext("each for themselves"),
    "partners": lazy_gettext("partners: you and North against East and West (four players)"),
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
    "27": lazy_gettext("27 or more cards (two sides only)"),
    "more": lazy_gettext("strictly more cards than every other side"),
    "first": lazy_gettext("to the first player"),
    "dealer": lazy_gettext("to the dealer"),
    "cards": lazy_gettext("more cards win"),
    "none": lazy_gettext("a draw"),
    "hidden": lazy_gettext("nobody sees them"),
    "capturer": lazy_gettext("the side that takes them may look"),
}
#: A choice in a few words where its words (:data:`VALUES`) would not fit
#: a phone's select (a select cannot wrap): the House rules page's lists
#: show these, and the whole words under the field for the one chosen.
BRIEF: dict[str, Any] = {
    "2": lazy_gettext("two"),
    "3": lazy_gettext("three"),
    "4": lazy_gettext("four"),
    "solo": lazy_gettext("each plays alone"),
    "partners": lazy_gettext("partners"),
    "swap": lazy_gettext("swapped"),
    "pass": lazy_gettext("passed over"),
    "under": lazy_gettext("under the stock"),
    "redeal": lazy_gettext("redeal"),
    "any": lazy_gettext("hidden"),
    "no_jack": lazy_gettext("shown to all"),
    "27": lazy_gettext("27 or more"),
    "more": lazy_gettext("strictly more"),
    "cards": lazy_gettext("more cards"),
    "capturer": lazy_gettext("the taker may look"),
}
#: The base games in a word, for the compact line.
BASE_NAMES: dict[str, Any] = {
    "cardems": lazy_gettext("Single hand"),
    "classic": lazy_gettext("Classic"),
    "partners": lazy_gettext("Partners"),
}
#: The Partners base named in the line when its game has no partners.
PARTNERSHIP_RULES = lazy_gettext("Partnership rules")
#: A choice in a few words for the compact line, by option and value text.
SHORT: dict[tuple[str, str], Any] = {
    ("opening_jack", "swap"): lazy_gettext("opening Jack swapped"),
    ("opening_jack", "stay"): lazy_gettext("opening Jack stays"),
    ("opening_jack", "pass"): lazy_gettext("opening Jack passed over"),
    ("opening_jack", "under"): lazy_gettext("opening Jack under the stock"),
    ("four_jacks", "redeal"): lazy_gettext("four Jacks redealt"),
    ("four_jacks", "play"): lazy_gettext("four Jacks played"),
    ("bottom_card", "any"): lazy_gettext("bottom card hidden"),
    ("bottom_card", "no_jack"): lazy_gettext("bottom card shown"),
    ("pisti_on_last_play", "true"): lazy_gettext("pişti on the last card"),
    ("pisti_on_last_play", "false"): lazy_gettext("no pişti on the last card"),
    ("most_cards", "27"): lazy_gettext("most cards: 27+"),
    ("most_cards", "more"): lazy_gettext("most cards: strictly more"),
    ("no_capture_leftovers", "first"): lazy_gettext("leftovers to the first player"),
    ("no_capture_leftovers", "dealer"): lazy_gettext("leftovers to the dealer"),
    ("tie_break", "cards"): lazy_gettext("ties to more cards"),
    ("tie_break", "none"): lazy_gettext("ties drawn"),
    ("face_down", "hidden"): lazy_gettext("face-down cards hidden"),
    ("face_down", "capturer"): lazy_gettext("face-down cards seen by the taker"),
}


def choices(option: str) -> list[str] | None:
    """Return the values of ``option`` as text, or ``None`` for a number of
    points."""
    return None if option in POINTS else [option_text(value) for value in CHOICES[option]]


def _seating(rules: RuleSet) -> str:
    """The players and sides in a few words: "3 players", "4 players, each
    for themselves", "2 v 2"."""
    if rules.teams == "partners":
        return gettext("2 v 2")
    if rules.players == 4:
        return gettext("4 players, each for themselves")
    return gettext("%(num)s players", num=rules.players)


def _short(option: str, value: OptionValue) -> str:
    """One option's value in a few words ("Jack pişti 10", "last cards +3")."""
    if option == "pisti":
        return gettext("pişti %(points)s", points=value)
    if option == "jack_pisti":
        return gettext("Jack pişti %(points)s", points=value)
    if option == "most_cards_points":
        return gettext("most cards +%(points)s", points=value)
    if option == "last_sweep_bonus":
        return gettext("last cards +%(points)s", points=value)
    return str(SHORT[option, option_text(value)])


def rules_summary(rules: RuleSet, target: int | None) -> dict[str, Any]:
    """Return a game's rules as the pages show them: ``{"line": the compact
    line, e.g. "Classic · 3 players · Jack pişti 10 · last cards +3 · to 151",
    "details": ["<option label>: <value in words>", ...] for every option
    that differs from the base (empty for a base game), "house": whether
    there are such options}``, in the page's language (a house choice: house
    rules differ from table to table, so every page of a game shows them).

    The line names the base, the players where they differ, each other
    override, and the match target (none for a single deal). Each table
    page shows it, so it is kept per rule set, target and catalogue (some
    20 µs to make); each caller gets its own dict and list."""
    summary = _summary(rules, target, translations())
    return {**summary, "details": list(summary["details"])}


#: Summaries kept (a few hundred bytes each).
SUMMARIES_KEPT = 512


@lru_cache(maxsize=SUMMARIES_KEPT)
def _summary(rules: RuleSet, target: int | None, catalogue: object) -> dict[str, Any]:
    """:func:`rules_summary` in ``catalogue``, the request's (a key only)."""
    overrides = rules.overrides
    base = BASE_NAMES[rules.name]
    if rules.name == "partners" and rules.teams != "partners":
        # Not "Partners · 4 players, each for themselves": the partnership rules,
        # played without partners.
        base = PARTNERSHIP_RULES
    parts = [str(base)]
    if "players" in overrides or "teams" in overrides:
        parts.append(_seating(rules))
    parts.extend(
        _short(option, value)
        for option, value in overrides.items()
        if option not in ("players", "teams")
    )
    if target is not None:
        parts.append(gettext("to %(target)s", target=target))
    details = []
    for option, value in overrides.items():
        words = value if option in POINTS else VALUES[option_text(value)]
        details.append(gettext("%(option)s: %(value)s", option=LABELS[option], value=words))
    return {"line": " · ".join(parts), "details": details, "house": bool(overrides)}


def every_rule(rules: RuleSet) -> list[dict[str, Any]]:
    """Return every option of ``rules`` as its rules page lists them, in
    the House rules page's folds: ``[{"title": the fold's title, "rules":
    [{"label": the option's label, "value": its value in words,
    "house": whether it differs from the base game}, ...]}, ...]``, in the
    page's language."""
    overrides = rules.overrides
    groups = []
    for title, options in GROUPS:
        listed = []
        for option in options:
            value = option_value(rules, option)
            if option in POINTS:
                points = int(value)
                words = ngettext("%(num)s point", "%(num)s points", points)
            else:
                words = str(VALUES[option_text(value)])
            listed.append(
                {"label": str(LABELS[option]), "value": words, "house": option in overrides}
            )
        groups.append({"title": str(title), "rules": listed})
    return groups


def refused_option(error: InvalidRules) -> str | None:
    """Return the option a refused rule set (``error``) names, by its name
    in a deal link ("teams"), or ``None`` when it names none (an unknown
    base game)."""
    option = str(error).split(":", 1)[0]
    return option if option in OPTIONS and not isinstance(error, UnknownRuleSet) else None


def refusal(error: InvalidRules, args: Mapping[str, str], *, named: bool = True) -> str:
    """Return why a rule set was refused (``error``, raised for the query
    ``args``), in the page's language: "These house rules cannot be played:"
    and the option, by its label, with a value it does not have or the
    options it does not go with (record-format.md, format 2). ``named``
    adds the option's name in a deal link, "Sides (teams): …", for a
    link's reader; the House rules form, whose fields have no such names
    on the page, leaves it out."""
    problem = refused_problem(error, args)
    option = refused_option(error)
    if option is not None and named:
        problem = gettext(
            "%(label)s (%(option)s): %(problem)s",
            label=LABELS[option],
            option=option,
            problem=problem,
        )
    elif option is not None:
        problem = gettext("%(label)s: %(problem)s", label=LABELS[option], problem=problem)
    return gettext("These house rules cannot be played: %(problem)s", problem=problem)


def refused_problem(error: InvalidRules, args: Mapping[str, str]) -> str:
    """:func:`refusal`'s problem alone, which the House rules form also
    shows by the refused option's field: "partners need four players; …"."""
    text = str(error)
    option = refused_option(error)
    if isinstance(error, UnknownRuleSet):
        return gettext(
            "the game “%(value)s” is not one of %(games)s.",
            value=quoted(args.get("rules", ""), 40),
            games=", ".join(str(name) for name in BASE_NAMES.values()),
        )
    if option is None:
        return text
    if "needs players 4" in text:
        return gettext("partners need four players; choose four players or each for themselves.")
    if "needs two teams" in text:
        return gettext(
            "“27 or more cards” needs two sides; with three or four sides choose “strictly "
            "more cards than every other side”."
        )
    if option in POINTS:
        allowed = gettext(
            "a whole number of points from 0 to %(most)s",
            most=format_decimal(MAX_PLAYED_POINTS),
        )
    else:
        allowed = ", ".join(option_text(value) for value in CHOICES[option])
    return gettext(
        "“%(value)s” is not one of its values (%(allowed)s).",
        value=quoted(args.get(option, ""), 40),
        allowed=allowed,
    )
