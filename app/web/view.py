"""What a page shows of a table, built from the player's observation only,
and plays told in words so the player never has to guess what happened."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

from app.ai.hints import Hint, hints_for
from app.engine import (
    GameState,
    TeamScore,
    card_label,
    card_points,
    hand_winner,
    score_hand,
    would_capture,
)
from app.engine.cards import RANKS

from .i18n import card_name, gettext, lazy_gettext, ngettext
from .table import HUMAN, Table

#: How many face-up cards of the pile are drawn fanned on the table.
PILE_FAN = 4

POSITION_NAMES = {
    2: [lazy_gettext("You"), lazy_gettext("The computer")],
    4: [lazy_gettext("You"), lazy_gettext("East"), lazy_gettext("North"), lazy_gettext("West")],
}
#: Position names as written into records (never translated).
POSITION_NAMES_EN = {2: ["you", "computer"], 4: ["you", "East", "North", "West"]}
SIDE_NAMES = {
    2: [lazy_gettext("You"), lazy_gettext("Computer")],
    4: [lazy_gettext("You & North"), lazy_gettext("East & West")],
}
SIDE_OBJECTS = {
    2: [lazy_gettext("you"), lazy_gettext("the computer")],
    4: [lazy_gettext("you and North"), lazy_gettext("East and West")],
}


@dataclass(frozen=True)
class Place:
    """A position at the table as the player sees it."""

    position: int
    name: str
    level: str | None
    cards: int
    dealer: bool
    last: dict | None  # the position's last play in the log: card, said


def _result_words(event: dict) -> str:
    if event["jack_pisti"]:
        return gettext("Jack pişti! 20 points")
    if event["pisti"]:
        return gettext("pişti! 10 points")
    if event["captured"]:
        return ngettext("captured %(num)s card", "captured %(num)s cards", event["captured"])
    return gettext("it stays on the pile")


def describe(table: Table, event: dict) -> list[str]:
    """Return the sentences telling one logged play, e.g.
    ``["East played J♣: captured 5 cards."]``."""
    players = table.match.players
    card, result = card_label(event["card"]), _result_words(event)
    if event["position"] == HUMAN:
        lines = [gettext("You played %(card)s: %(result)s.", card=card, result=result)]
    else:
        who = POSITION_NAMES[players][event["position"]]
        lines = [gettext("%(who)s played %(card)s: %(result)s.", who=who, card=card, result=result)]
    if event["dealt"]:
        lines.append(gettext("Four new cards each were dealt."))
    if event["swept"]:
        side = table.match.side_of_team(event["swept_to"])
        lines.append(
            ngettext(
                "The %(num)s card left on the table goes to %(side)s.",
                "The %(num)s cards left on the table go to %(side)s.",
                event["swept"],
                side=SIDE_OBJECTS[players][side],
            )
        )
    return lines


def hint_text(hint: Hint) -> str:
    """Return a hint as a sentence in the page's language."""
    card = card_name(hint.card)
    if hint.kind == "pisti":
        return gettext("Pişti chance: your %(card)s takes the lone card for 10 points.", card=card)
    if hint.kind == "jack_pisti":
        return gettext(
            "Jack pişti chance: your %(card)s takes the lone Jack for 20 points.", card=card
        )
    if hint.kind == "keep_jack":
        return ngettext(
            "Keep your Jack: the pile is only %(num)s card.",
            "Keep your Jack: the pile is only %(num)s cards.",
            hint.number,
        )
    if hint.kind == "jack_worth":
        return gettext("Your %(card)s would take %(num)s cards now.", card=card, num=hint.number)
    if hint.kind == "risky_lead":
        return gettext(
            "Risky lead: the next player holds a card of the rank of your %(card)s "
            "about %(percent)s%% of the time (a pişti for them).",
            card=card,
            percent=hint.number,
        )
    return gettext("The Hard level would play your %(card)s.", card=card)


def table_context(table: Table, aids: dict[str, bool]) -> dict:
    """Return the template context for the table, between-hands and final
    pages. Only the player's observation is used, never the state."""
    match = table.match
    obs = table.observation()
    players = match.players
    sides = []
    for side in (0, 1):
        team = match.team_of_side(side)
        sides.append(
            {
                "name": SIDE_NAMES[players][side],
                "captured": obs.captured[team],
                "pisti": obs.pisti[team],
                "jack_pisti": obs.jack_pisti[team],
                "total": match.totals[side],
            }
        )
    last = {}
    for step, event in enumerate(table.log):
        last[event["position"]] = {
            "card": event["card"],
            "said": _result_words(event),
            "step": step,
        }
    places = [
        Place(
            position=position,
            name=POSITION_NAMES[players][position],
            level=table.levels[position],
            cards=obs.hand_sizes[match.seat_of(position)],
            dealer=match.dealer == position,
            last=last.get(position),
        )
        for position in range(players)
    ]
    fan = obs.pile_face_up[-PILE_FAN:] if aids["fan"] else obs.pile_face_up[-1:]
    seen = [card[0] for card in obs.seen]
    return {
        "obs": obs,
        "match": match,
        "places": places,
        "sides": sides,
        "happened": [
            (step, line) for step, event in enumerate(table.log) for line in describe(table, event)
        ],
        "hand": [
            {"card": card, "captures": would_capture(card, obs.pile_top), "key": index + 1}
            for index, card in enumerate(obs.hand)
        ],
        "fan": fan,
        "under": obs.pile_size - len(fan),
        "counter": [("10" if rank == "T" else rank, seen.count(rank)) for rank in RANKS],
        "hints": [hint_text(hint) for hint in hints_for(obs)] if aids["hints"] else [],
        "move": table.move,
        "game_id": table.game_id,
        "human": HUMAN,
    }


def hand_scores(table: Table) -> tuple[list[TeamScore], int | None, str]:
    """Return the finished hand's scores by side, the winning side (or
    ``None``) and why (``"points"``, ``"cards"`` or ``"draw"``)."""
    match = table.match
    winner, reason = hand_winner(match.state, score_hand(match.state))
    return match.side_scores(), None if winner is None else match.side_of_team(winner), reason


def running_points(table: Table) -> list[int]:
    """Return each side's points so far in the current hand, as the player
    may know them: the card points of the face-up cards the side captured
    (Aces and Jacks 1, 2♣ 2, 10♦ 3; seeds 000 and 001) plus its piştis.

    The captured cards are read from the state, but only those the player
    has seen face up count, so a face-down card's points stay hidden until
    the hand's score; the most-cards bonus also waits for it. Indexed by
    side (``0`` is the player's).
    """
    match, state = table.match, table.match.state
    seen = table.observation().seen
    rules = match.rules
    points = []
    for side in (0, 1):
        team = match.team_of_side(side)
        points.append(
            sum(card_points(card) for card in state.captured[team] if card in seen)
            + rules.pisti_points * state.pisti[team]
            + rules.jack_pisti_points * state.jack_pisti[team]
        )
    return points


def turn_position(table: Table) -> int | None:
    """Return the position to play (``0`` is the player), ``None`` once the
    hand is over."""
    state = table.match.state
    return None if state.finished else table.match.position_of(state.turn)


def _table_at(table: Table, state: GameState, log: list[dict[str, Any]]) -> Table:
    """The table as it stood at ``state`` (an earlier moment of the current
    hand), with ``log`` as what had happened since the player's move."""
    match = copy.copy(table.match)
    match.state = state
    return replace(table, match=match, log=log)


def motion_view(table: Table, context: dict[str, Any]) -> dict[str, Any]:
    """Return what the table regions show (``templates/game/_table.html``):
    ``context`` (the table's :func:`table_context`) plus the position to
    play and the running points."""
    return {
        **context,
        "turn": turn_position(table),
        "running": running_points(table),
        "taken": None,
    }


def motion_frames(table: Table, aids: dict[str, bool]) -> list[dict[str, Any]]:
    """Return one view per play since the player's move: the table just
    after that play, for the browser to move the cards step by step
    (``static/pisti.js``). A capturing play's view still shows the taken
    cards on the pile, with ``taken`` saying by whom (``position``,
    ``name``, ``cards``, ``pisti``, ``jack_pisti``).

    Each view has ``position``, the position that played. Only the player's
    observation of each moment is used, so nothing hidden is shown. Empty
    when the hand is over (the page is then the hand's score).
    """
    state = table.match.state
    start = len(state.plays) - len(table.log)
    if state.finished or start < 0:
        return []
    quiet = {**aids, "hints": False}
    frames = []
    # Replayed once to the player's move, then one play at a time.
    moment = GameState.replay(table.match.rules, state.deck, state.plays[:start])
    before = _table_at(table, moment, []).observation()
    for step, event in enumerate(table.log):
        moment = moment.copy()
        moment.play(state.plays[start + step])
        after = _table_at(table, moment, table.log[: step + 1])
        view = motion_view(after, table_context(after, quiet))
        view["position"] = event["position"]
        if event["captured"]:
            cards = (*before.pile_face_up, event["card"])
            fan = cards[-(PILE_FAN if aids["fan"] else 2) :]
            view["fan"] = fan
            view["under"] = before.pile_size + 1 - len(fan)
            view["taken"] = {
                "position": event["position"],
                "name": POSITION_NAMES[table.match.players][event["position"]],
                "cards": event["captured"],
                "pisti": event["pisti"],
                "jack_pisti": event["jack_pisti"],
            }
        frames.append(view)
        before = after.observation()
    return frames
