"""Game records, formats ``pisti-record/1`` and ``pisti-record/2``
(``docs/record-format.md``).

A record pins down one hand: the rule set, the deck (top first) and the
plays. Format 2 is format 1 whose ``rules`` may also be an object naming a
base rule set and house-rule overrides (:func:`~.rules.rules_from_json`).
A plain rule set is written as format 1, house rules as format 2.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .cards import InvalidCard, parse_card, written
from .rules import InvalidRules, rules_from_json, rules_to_json
from .scoring import hand_winner, score_hand
from .state import GameState, InvalidState, check_deck

FORMAT = "pisti-record/1"
FORMAT_2 = "pisti-record/2"
FORMATS = {FORMAT: 1, FORMAT_2: 2}
#: The fields every record has; any other is kept as it was written.
REQUIRED = ("format", "rules", "deck", "plays")


class InvalidRecord(ValueError):
    """Raised by :func:`load_record` for a record that is not a valid hand;
    the message is one line naming the problem (and the play's index).

    Attributes:
        problem: the part that is wrong: ``"record"`` (not JSON, not an
            object, a field missing, an unknown format), ``"rules"``,
            ``"deck"``, ``"plays"`` (not a list, or more than 48),
            ``"card"`` (a play that is no card code) or ``"hand"`` (a
            card not in the hand of the seat to play).
        play: the index in ``plays`` (from 0) of the play that cannot be
            made, for ``"card"`` and ``"hand"``; else ``None``.
    """

    def __init__(self, message: str, problem: str = "record", play: int | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.play = play


@dataclass(frozen=True)
class Record:
    """A record read by :func:`read_record`.

    Attributes:
        state: the hand, replayed.
        version: the record's format, 1 or 2.
        rules: the record's ``rules`` field as it was written: a rule-set
            name, or (format 2) an object with ``base`` and the options.
        extra: the record's other fields as they were written (e.g.
            ``seed``, ``players``, ``created``), which replay ignores.
    """

    state: GameState
    version: int
    rules: str | dict[str, Any]
    extra: dict[str, Any]


def make_record(state: GameState, seed: str | None = None, **extra: object) -> dict[str, Any]:
    """Return the record of ``state`` as a JSON-ready dict, canonical codes:
    format 1 for a preset rule set, format 2 (``rules`` an object of the
    overrides) for house rules.

    ``seed`` is written when given; ``extra`` fields (e.g. ``created``) are
    added as they are, which replay ignores.
    """
    rules = rules_to_json(state.rules)
    record: dict[str, Any] = {"format": FORMAT if isinstance(rules, str) else FORMAT_2}
    record["rules"] = rules
    if seed is not None:
        record["seed"] = seed
    record["deck"] = list(state.deck)
    record["plays"] = list(state.plays)
    record.update(extra)
    return record


def read_record(text: str | bytes) -> Record:
    """Parse a record of format 1 or 2 and replay it.

    Raises:
        InvalidRecord: bad JSON, a number longer than :data:`MAX_DIGITS`
            digits, not an object, an unknown ``format``, an
            unknown rule set, house rules in a format-1 record, an unknown
            option, a bad option value or combination (the message names
            the option), a deck that is not 52 distinct cards or that the
            rules forbid, ``plays`` not a list or longer than 48, or a play
            not in the hand of the seat to play (``play 17: 7H is not in
            seat 1's hand``).
    """
    if isinstance(text, bytes):
        # json.loads would decode bytes with "surrogatepass", taking a
        # surrogate written as UTF-8 bytes (not UTF-8: bad JSON, as a Latin-1
        # byte is) for a character; the same detection, decoded strictly.
        try:
            text = text.decode(json.detect_encoding(text))
        except UnicodeDecodeError as exc:
            raise InvalidRecord(f"bad JSON: {exc}") from None
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_whole_number)
    except _TooLong as exc:
        raise InvalidRecord(str(exc)) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRecord(f"bad JSON: {exc}") from None
    except RecursionError:
        raise InvalidRecord("bad JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise InvalidRecord("the record is not a JSON object")
    for field in REQUIRED:
        if field not in data:
            raise InvalidRecord(f"missing field {written(field)}")
    version = FORMATS.get(data["format"]) if isinstance(data["format"], str) else None
    if version is None:
        raise InvalidRecord(
            f"unknown format {written(data['format'])}, "
            f"expected {written(FORMAT)} or {written(FORMAT_2)}"
        )
    if version == 1 and isinstance(data["rules"], dict):
        raise InvalidRecord(f"rules: {FORMAT} names a rule set; house rules need {FORMAT_2}")
    if version == 1 and not isinstance(data["rules"], str):
        raise InvalidRecord(f"rules is not a rule-set name: {written(data['rules'])[:40]}")
    try:
        rules = rules_from_json(data["rules"])
    except InvalidRules as exc:
        raise InvalidRecord(str(exc), "rules") from None
    try:
        deck = check_deck(rules, data["deck"])
    except InvalidState as exc:
        raise InvalidRecord(str(exc), "deck") from None
    try:
        state = GameState.replay(rules, deck, data["plays"])
    except InvalidState as exc:
        if exc.play is None:
            raise InvalidRecord(str(exc), "plays") from None
        problem = "hand" if _is_card(data["plays"][exc.play]) else "card"
        raise InvalidRecord(str(exc), problem, exc.play) from None
    extra = {key: value for key, value in data.items() if key not in REQUIRED}
    return Record(state, version, data["rules"], extra)


def _is_card(text: object) -> bool:
    try:
        parse_card(text)
    except InvalidCard:
        return False
    return True


#: The most digits a whole number of a record is read with: Python's own
#: limit for reading a number (longer ones take quadratic time), which JSON
#: itself does not have, so a longer one is refused by name rather than as
#: bad JSON.
MAX_DIGITS = 4_300


class _TooLong(ValueError):
    """A whole number longer than :data:`MAX_DIGITS` digits."""


def _whole_number(text: str) -> int:
    """Read a JSON integer (``"-12"``).

    Raises:
        _TooLong: more than :data:`MAX_DIGITS` digits, naming how many.
    """
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _TooLong(f"a number of {digits:,} digits: no value of a record is that long")
    return int(text)


def _no_constant(name: str) -> None:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``, which Python's JSON
    reader accepts but JSON (RFC 8259) does not have.

    Raises:
        ValueError: always, naming the constant.
    """
    raise ValueError(f"{name} is not a JSON value")


def load_record(text: str | bytes) -> GameState:
    """Parse a record of format 1 or 2 and replay it into a state.

    Raises:
        InvalidRecord: as :func:`read_record`.
    """
    return read_record(text).state


def replay_summary(
    state: GameState, version: int | None = None, rules: str | dict[str, Any] | None = None
) -> dict[str, Any]:
    """Return the replay output object of ``docs/record-format.md``:
    rules, finished, plays, teams (one score object per team; with
    ``version`` 2 each has ``last_sweep_bonus``) and winner.

    ``version`` is the record's format (:attr:`Record.version`); without
    it, the format :func:`make_record` writes for the state's rules: 1 for
    a preset, 2 for house rules, whose ``points`` may hold a last-sweep
    bonus. ``rules`` is echoed as the record wrote it (:attr:`Record.rules`);
    without it, the rule set's own spelling (:func:`rules_to_json`: the
    name of a preset, else its base and the options that differ)."""
    own_rules = rules_to_json(state.rules)
    if version is None:
        version = 1 if isinstance(own_rules, str) else 2
    scores = score_hand(state)
    winner, _reason = hand_winner(state, scores)
    return {
        "rules": own_rules if rules is None else rules,
        "finished": state.finished,
        "plays": len(state.plays),
        "teams": [score.to_dict(sweep_bonus=version == 2) for score in scores],
        "winner": winner,
    }
