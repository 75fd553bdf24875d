"""Game records, format ``pisti-record/1`` (``shared/spec/record-format.md``).

A record pins down one hand: the rule set, the deck (top first) and the plays.
"""

from __future__ import annotations

import json
from typing import Any

from .rules import UnknownRuleSet, get_rules
from .scoring import hand_winner, score_hand
from .state import GameState, InvalidState

FORMAT = "pisti-record/1"


class InvalidRecord(ValueError):
    """Raised by :func:`load_record` for a record that is not a valid hand;
    the message is one line naming the problem (and the play's index)."""


def make_record(state: GameState, seed: str | None = None, **extra: object) -> dict[str, Any]:
    """Return the record of ``state`` as a JSON-ready dict, canonical codes.

    ``seed`` is written when given; ``extra`` fields (e.g. ``created``) are
    added as they are, which replay ignores.
    """
    record: dict[str, Any] = {"format": FORMAT, "rules": state.rules.name}
    if seed is not None:
        record["seed"] = seed
    record["deck"] = list(state.deck)
    record["plays"] = list(state.plays)
    record.update(extra)
    return record


def load_record(text: str | bytes) -> GameState:
    """Parse a record and replay it into a state.

    Raises:
        InvalidRecord: bad JSON, not an object, a wrong ``format``, an
            unknown rule set, a deck that is not 52 distinct cards or that
            the rule set forbids, ``plays`` not a list or longer than 48, or a
            play not in the hand of the seat to play (``play 17: 7H is not
            in seat 1's hand``).
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRecord(f"bad JSON: {exc}") from None
    except RecursionError:
        raise InvalidRecord("bad JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise InvalidRecord("the record is not a JSON object")
    for field in ("format", "rules", "deck", "plays"):
        if field not in data:
            raise InvalidRecord(f"missing field {field!r}")
    if data["format"] != FORMAT:
        raise InvalidRecord(f"unknown format {data['format']!r}, expected {FORMAT!r}")
    try:
        rules = get_rules(data["rules"])
        return GameState.replay(rules, data["deck"], data["plays"])
    except (UnknownRuleSet, InvalidState) as exc:
        raise InvalidRecord(str(exc)) from None


def replay_summary(state: GameState) -> dict[str, Any]:
    """Return the replay output object of ``shared/spec/record-format.md``:
    rules, finished, plays, teams (each a score object) and winner."""
    scores = score_hand(state)
    winner, _reason = hand_winner(state, scores)
    return {
        "rules": state.rules.name,
        "finished": state.finished,
        "plays": len(state.plays),
        "teams": [score.to_dict() for score in scores],
        "winner": winner,
    }
