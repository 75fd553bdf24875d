"""Rule sets as data, and house rules: a base rule set plus overrides.

Each preset is one column of the table in ``docs/record-format.md``; the
source documents are listed in ``docs/rules.md``. A variant is a field
here, never an ``if rules.name == ...`` in the engine.

House rules (format 2 of the record format, "Format 2: house rules") name a
base preset and override some of its points with *options*; :data:`OPTIONS`
lists them with their values, in the record's JSON types. The same rule set
has three spellings:

- JSON (records, saved games): ``"classic"`` or
  ``{"base": "classic", "players": 3, "jack_pisti": 10}``
  (:func:`rules_from_json`, :func:`rules_to_json`);
- a query string (deal links): ``rules=classic&players=3&jack_pisti=10``,
  the same option names with their values as text
  (:func:`rules_from_query`, :func:`rules_to_query`, :func:`parse_rules_text`).

Every error is an :class:`InvalidRules` whose message names the option.

Adding an option (a house rule the app does not play yet) takes, besides
its tests (a stacked deck in ``tests/engine/test_house_rules.py``):

- here, a :class:`RuleSet` field with the presets' value as its default,
  the option in :data:`CHOICES` (its values and the fields each sets) or
  :data:`POINTS`, in :data:`OPTIONS`, and in :func:`combination_problem`
  when it does not go with some others;
- the rule itself in both engines, the scalar one (:mod:`.state`,
  :mod:`.scoring`) and the batched one (:mod:`.batch`, the Expert's
  playouts): ``tests/engine/test_batch.py`` plays random options in both
  and fails when they differ;
- what the computers and hints count on (``app/ai/facts.py``, the pişti
  values of ``app/ai/hard.py`` and ``hints.py``), which no test compares;
- its words in ``app/web/rule_words.py`` (a label, a sentence, where it
  is played, each value's words and short words, a fold of the House
  rules page) in English and Turkish: ``tests/web/test_house_page.py``
  and ``tests/web/test_translations.py`` name what is missing;
- a row in the format-2 table of ``docs/record-format.md`` and in the
  README's House rules table. A record with the option is refused by
  versions before it (an unknown option), as the format says.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl

from .cards import written

OpeningJack = Literal["swap", "stay", "pass", "under"]
MostCards = Literal["27_or_more", "more_than_other"]
Leftovers = Literal["first_seat", "dealer"]
Teams = Literal["solo", "partners"]
FaceDown = Literal["hidden", "capturer"]

#: Match targets every base may be played to: points that end it. Seed 001
#: (CetinsGame guide) plays to 51 or 101, seeds 003 (four-player article) and
#: 004 (PlayPendium) to 151; a house choice offers each to every base (the
#: seeds disagree, so none is picked quietly), with 121 between them.
MATCH_TARGETS = (51, 101, 121, 151)


@dataclass(frozen=True)
class RuleSet:
    """The rules of one hand (and match) of Pişti.

    Attributes:
        name: the base rule-set name used in records (``"cardems"`` ...);
            a house-rule set keeps its base's name (see :attr:`overrides`).
        players: number of seats, 2, 3 or 4, in playing order; the last seat
            deals.
        teams: ``"solo"``: each seat is its own team (team = seat);
            ``"partners"`` (four players only): seats ``s`` and ``s + 2``
            are team ``s % 2``.
        opening_jack: what happens when the face-up centre card is a Jack:
            ``"swap"`` it with the nearest non-Jack below it, let it
            ``"stay"`` on top, ``"pass"`` over it by turning up the next
            card down onto it until the top is not a Jack, or put it
            ``"under"`` the stock (the dealer gets it last) and turn up the
            stock's top card instead, while that is a Jack.
        four_jacks_in_centre: whether a deck with Jacks in all four centre
            places is playable (otherwise it is a redeal / invalid record).
        jack_at_bottom: whether the stock's bottom card (``deck[51]``) may be
            a Jack (the partners cut forbids it).
        bottom_card_shown: whether the stock's bottom card is shown face up
            to every seat.
        pisti_on_first_play: whether the hand's first play can be a pişti.
        pisti_on_last_play: whether the hand's last play can be a pişti.
        leftovers_when_no_capture: who takes the table when nobody captured:
            the ``"first_seat"``'s team (seat 0) or the ``"dealer"``'s.
        most_cards: ``"27_or_more"`` gives the bonus for 27+ cards (two
            teams only); ``"more_than_other"`` for strictly more than every
            other team (none when the most is shared).
        cards_break_ties: whether equal points are decided by captured cards.
        match_targets: the match targets offered, default first; empty when
            the default is a single hand (any of :data:`MATCH_TARGETS` may
            still be chosen, see :class:`~app.engine.match.Match`).
        most_cards_points: the most-cards bonus, in points.
        pisti_points: points for a pişti.
        jack_pisti_points: points for a Jack pişti (a Jack on a lone Jack).
        last_sweep_bonus: points for the team that takes the cards left on
            the table at the end of the hand, when there are any.
        face_down: who may look at the face-down centre cards once they are
            captured: nobody (``"hidden"``) or the capturing team
            (``"capturer"``, seed 003).
    """

    name: str
    players: int
    opening_jack: OpeningJack
    four_jacks_in_centre: bool
    jack_at_bottom: bool
    bottom_card_shown: bool
    pisti_on_first_play: bool
    pisti_on_last_play: bool
    leftovers_when_no_capture: Leftovers
    most_cards: MostCards
    cards_break_ties: bool
    match_targets: tuple[int, ...]
    most_cards_points: int = 3
    pisti_points: int = 10
    jack_pisti_points: int = 20
    teams: Teams = "solo"
    last_sweep_bonus: int = 0
    face_down: FaceDown = "hidden"

    @property
    def deals(self) -> int:
        """Number of four-card deals in a hand: 6 with 2 seats, 4 with 3,
        3 with 4."""
        return 48 // (4 * self.players)

    @property
    def default_target(self) -> int | None:
        """The points a game is played to unless another target is chosen:
        the first of :attr:`match_targets`, or ``None`` (a single hand)
        when the rule set offers none."""
        return self.match_targets[0] if self.match_targets else None

    @property
    def team_count(self) -> int:
        """Number of teams: 2 with partners, else one per seat."""
        return 2 if self.teams == "partners" else self.players

    def team_of(self, seat: int) -> int:
        """Return the team of ``seat`` (``seat % 2`` with partners, else the seat)."""
        return seat % self.team_count

    def seats_of(self, team: int) -> tuple[int, ...]:
        """Return the seats of ``team``, in playing order."""
        return tuple(range(team, self.players, self.team_count))

    def pisti_counts(self, number: int) -> bool:
        """Whether a pişti made by the hand's play ``number`` (1 to 48)
        counts: the first and last plays may not (seeds 003/004)."""
        return (number > 1 or self.pisti_on_first_play) and (number < 48 or self.pisti_on_last_play)

    def deck_problem(self, deck: list[str] | tuple[str, ...]) -> str | None:
        """Return why a 52-card deck cannot be played under these rules.

        ``deck`` is top of the stock first (``deck[0..3]`` go to the centre,
        ``deck[51]`` is the bottom card). Returns ``None`` when playable.
        """
        if not self.four_jacks_in_centre and all(card[0] == "J" for card in deck[:4]):
            return f"four Jacks in the centre are a redeal under {self.label}"
        if not self.jack_at_bottom and deck[51][0] == "J":
            return f"a Jack at the bottom of the stock (deck[51]) is not allowed under {self.label}"
        return None

    @property
    def overrides(self) -> dict[str, OptionValue]:
        """The options whose values differ from the base preset's, in
        :data:`OPTIONS` order, as format-2 JSON values (empty for a preset).
        ``teams`` is written whenever ``players`` is, since its default
        follows the number of players."""
        return dict(_overrides(self))

    @property
    def label(self) -> str:
        """The rule set in short, e.g. ``classic`` or ``classic players=3``."""
        query = rules_to_query(self)
        del query["rules"]
        return " ".join([self.name, *(f"{key}={value}" for key, value in query.items())])


CARDEMS = RuleSet(
    name="cardems",  # source 000 (docs/rules.md)
    players=2,
    opening_jack="swap",
    four_jacks_in_centre=False,
    jack_at_bottom=True,
    bottom_card_shown=False,
    pisti_on_first_play=True,
    pisti_on_last_play=True,
    leftovers_when_no_capture="first_seat",
    most_cards="27_or_more",
    cards_break_ties=True,
    match_targets=(),
)

CLASSIC = RuleSet(
    name="classic",  # source 001 (docs/rules.md)
    players=2,
    opening_jack="stay",
    four_jacks_in_centre=True,
    jack_at_bottom=True,
    bottom_card_shown=False,
    pisti_on_first_play=True,
    pisti_on_last_play=True,
    leftovers_when_no_capture="dealer",
    most_cards="more_than_other",
    cards_break_ties=False,
    match_targets=(51, 101, 121, 151),
)

PARTNERS = RuleSet(
    name="partners",  # sources 003 and 004 (docs/rules.md)
    players=4,
    teams="partners",
    opening_jack="pass",
    four_jacks_in_centre=False,
    jack_at_bottom=False,
    bottom_card_shown=True,
    pisti_on_first_play=False,
    pisti_on_last_play=False,
    leftovers_when_no_capture="dealer",
    most_cards="more_than_other",
    cards_break_ties=False,
    match_targets=(151, 51, 101, 121),
    # Seed 003: "we can look at these cards ... but can't show them to the other team".
    face_down="capturer",
)

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (CARDEMS, CLASSIC, PARTNERS)}


class InvalidRules(ValueError):
    """A rule set that cannot be built: an unknown base or option, a value
    outside an option's values, or options that do not go together. The
    message is one line naming the option."""


class UnknownRuleSet(InvalidRules):
    """Raised by :func:`get_rules` for a name that is not a rule set."""


def get_rules(name: object) -> RuleSet:
    """Return the preset called ``name``.

    Raises:
        UnknownRuleSet: ``name`` is not one of :data:`RULE_SETS`.
    """
    if not isinstance(name, str) or name not in RULE_SETS:
        raise UnknownRuleSet(f"unknown rule set {written(name)}")
    return RULE_SETS[name]


# --- options (record format 2) ---------------------------------------------------

#: A format-2 option value: a JSON string, integer or boolean.
OptionValue = str | int | bool

#: Options with a fixed list of values: each value (its JSON form) and the
#: :class:`RuleSet` fields it sets.
CHOICES: dict[str, dict[OptionValue, dict[str, object]]] = {
    "players": {n: {"players": n} for n in (2, 3, 4)},
    "teams": {t: {"teams": t} for t in ("solo", "partners")},
    "opening_jack": {j: {"opening_jack": j} for j in ("swap", "stay", "pass", "under")},
    "four_jacks": {
        "redeal": {"four_jacks_in_centre": False},
        "play": {"four_jacks_in_centre": True},
    },
    "bottom_card": {
        "any": {"jack_at_bottom": True, "bottom_card_shown": False},
        "no_jack": {"jack_at_bottom": False, "bottom_card_shown": True},
    },
    "pisti_on_last_play": {b: {"pisti_on_last_play": b} for b in (True, False)},
    "most_cards": {
        27: {"most_cards": "27_or_more"},
        "more": {"most_cards": "more_than_other"},
    },
    "no_capture_leftovers": {
        "first": {"leftovers_when_no_capture": "first_seat"},
        "dealer": {"leftovers_when_no_capture": "dealer"},
    },
    "tie_break": {"cards": {"cards_break_ties": True}, "none": {"cards_break_ties": False}},
    "face_down": {f: {"face_down": f} for f in ("hidden", "capturer")},
}
#: Options that are a number of points (an integer ≥ 0): the field each sets.
POINTS: dict[str, str] = {
    "pisti": "pisti_points",
    "jack_pisti": "jack_pisti_points",
    "most_cards_points": "most_cards_points",
    "last_sweep_bonus": "last_sweep_bonus",
}
#: Every option of format 2, in the order of the spec's table.
OPTIONS: tuple[str, ...] = (
    "players",
    "teams",
    "opening_jack",
    "four_jacks",
    "bottom_card",
    "pisti_on_last_play",
    "pisti",
    "jack_pisti",
    "most_cards",
    "most_cards_points",
    "last_sweep_bonus",
    "no_capture_leftovers",
    "tie_break",
    "face_down",
)


@functools.lru_cache(maxsize=256)
def _overrides(rules: RuleSet) -> tuple[tuple[str, OptionValue], ...]:
    """:attr:`RuleSet.overrides` as pairs, worked out once per rule set (a
    page's share links ask for them on every request)."""
    base = RULE_SETS[rules.name]
    return tuple(
        (option, value)
        for option in OPTIONS
        if (value := option_value(rules, option)) != option_value(base, option)
        or (option == "teams" and rules.players != base.players)
    )


def option_value(rules: RuleSet, option: str) -> OptionValue:
    """Return the value of ``option`` (a name in :data:`OPTIONS`) in
    ``rules``, as its format-2 JSON value."""
    if option in POINTS:
        points: int = getattr(rules, POINTS[option])
        return points
    for value, fields in CHOICES[option].items():
        if all(getattr(rules, name) == wanted for name, wanted in fields.items()):
            return value
    raise AssertionError(f"{option} has no value for {rules}")  # pragma: no cover


def _same(a: object, b: object) -> bool:
    """Equal and of the same JSON type (``True`` is not ``1``)."""
    return type(a) is type(b) and a == b


def _describe(option: str) -> str:
    if option in POINTS:
        return "a whole number of points ≥ 0"
    return "one of " + ", ".join(_json_text(value) for value in CHOICES[option])


def _json_text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else f'"{value}"'


def with_options(base: RuleSet, options: Mapping[str, object]) -> RuleSet:
    """Return ``base`` with ``options`` (format-2 option names and JSON
    values) applied, checked.

    ``teams`` defaults to ``"partners"`` for four players and ``"solo"``
    otherwise when ``players`` is given without it.

    Raises:
        InvalidRules: an unknown option, a value outside its values, or an
            invalid combination (see :func:`combination_problem`).
    """
    changes: dict[str, Any] = {}
    for option, value in options.items():
        if option not in OPTIONS:
            raise InvalidRules(f"unknown option {written(option)}")
        if option in POINTS:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidRules(f"{option}: {written(value)} is not {_describe(option)}")
            changes[POINTS[option]] = value
            continue
        for choice, fields in CHOICES[option].items():
            if _same(choice, value):
                changes.update(fields)
                break
        else:
            raise InvalidRules(f"{option}: {written(value)} is not {_describe(option)}")
    if "players" in options and "teams" not in options:
        changes["teams"] = "partners" if options["players"] == 4 else "solo"
    rules = dataclasses.replace(base, **changes)
    problem = combination_problem(rules)
    if problem:
        raise InvalidRules(problem)
    return rules


def combination_problem(rules: RuleSet) -> str | None:
    """Return why the options of ``rules`` do not go together, or ``None``:
    ``teams: partners`` needs four players; ``most_cards: 27`` needs two
    teams (record-format.md, format 2)."""
    if rules.teams == "partners" and rules.players != 4:
        return f'teams: "partners" needs players 4, not {rules.players}'
    if rules.most_cards == "27_or_more" and rules.team_count > 2:
        return (
            f"most_cards: 27 needs two teams, not {rules.team_count}; "
            'use "more" (strictly more cards than every other team)'
        )
    return None


def rules_from_json(spec: object) -> RuleSet:
    """Return the rule set of a record's ``rules`` field: a preset name, or
    an object ``{"base": name, option: value, ...}`` (format 2).

    Raises:
        InvalidRules: an unknown base (:class:`UnknownRuleSet`) or option, a
            bad value or combination, or neither a string nor an object.
    """
    if isinstance(spec, str):
        return get_rules(spec)
    if not isinstance(spec, dict):
        raise InvalidRules("rules is neither a rule-set name nor an object")
    if "base" not in spec:
        raise InvalidRules('rules: the option "base" is missing')
    base = get_rules(spec["base"])
    return with_options(base, {key: value for key, value in spec.items() if key != "base"})


def rules_to_json(rules: RuleSet) -> str | dict[str, OptionValue]:
    """Return the record's ``rules`` field: the name for a preset, else
    ``{"base": name, ...overrides}``."""
    overrides = rules.overrides
    if not overrides:
        return rules.name
    return {"base": rules.name, **overrides}


#: The most points a pişti, Jack pişti, most cards or last sweep may give
#: in a game played or reviewed here (the web's forms take six digits): the
#: batched search (:mod:`app.engine.batch`) adds points in 64-bit integers.
#: A record's own values may be larger; its replay does not mind.
MAX_PLAYED_POINTS = 999_999
_WHOLE = re.compile(rf"[0-9]{{1,{len(str(MAX_PLAYED_POINTS))}}}")


def option_text(value: OptionValue) -> str:
    """An option's value as a deal link writes it: ``true``, ``10``, ``swap``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_from_query(args: Mapping[str, str], default: str = "cardems") -> RuleSet:
    """Return the rule set of a deal link's query arguments: ``rules`` (the
    base; ``default`` when absent) and any option of :data:`OPTIONS` with its
    value as text (``players=3``, ``pisti_on_last_play=false``,
    ``most_cards=more``). Other arguments are ignored. Points are whole
    numbers from 0 to :data:`MAX_PLAYED_POINTS` here (a game is played
    with them), where a record's may be any whole number ≥ 0.

    Raises:
        InvalidRules: an unknown base, a value that is not one of the
            option's (points past :data:`MAX_PLAYED_POINTS` too), or a bad
            combination; the message names the option.
    """
    base = get_rules(args.get("rules", default))
    options: dict[str, object] = {}
    for option in OPTIONS:
        if option not in args:
            continue
        text = args[option]
        if option in POINTS:
            if not _WHOLE.fullmatch(text):
                raise InvalidRules(
                    f"{option}: {written(text)} is not a whole number of points "
                    f"from 0 to {MAX_PLAYED_POINTS}"
                )
            options[option] = int(text)
            continue
        for choice in CHOICES[option]:
            if option_text(choice) == text:
                options[option] = choice
                break
        else:
            raise InvalidRules(f"{option}: {written(text)} is not {_describe(option)}")
    return with_options(base, options)


def rules_to_query(rules: RuleSet) -> dict[str, str]:
    """Return the query arguments of ``rules``: ``rules`` (the base) and
    each override as text, e.g. ``{"rules": "classic", "players": "3"}``."""
    return {
        "rules": rules.name,
        **{key: option_text(value) for key, value in rules.overrides.items()},
    }


def parse_rules_text(text: str) -> RuleSet:
    """Return the rule set written as a query string, e.g. ``classic``,
    ``classic&players=3&jack_pisti=10`` or ``rules=classic&players=3``
    (the command line's ``--rules``).

    Raises:
        InvalidRules: as :func:`rules_from_query`; also an unknown option or
            an option given twice.
    """
    if text and "=" not in text.split("&", 1)[0]:
        text = "rules=" + text
    args: dict[str, str] = {}
    for key, value in parse_qsl(text, keep_blank_values=True):
        if key != "rules" and key not in OPTIONS:
            raise InvalidRules(f"unknown option {written(key)}")
        if key in args:
            raise InvalidRules(f"option {written(key)} given twice")
        args[key] = value
    if "rules" not in args:
        raise InvalidRules("no base rule set (cardems, classic or partners)")
    return rules_from_query(args)
