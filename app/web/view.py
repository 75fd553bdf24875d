"""What a page shows of a table, built from the player's observation only,
and plays told in words so the player never has to guess what happened."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import TeamScore, card_label, hand_winner, score_hand, would_capture

from .table import HUMAN, Table

#: How many face-up cards of the pile are drawn fanned on the table.
PILE_FAN = 4

POSITION_NAMES = {2: ["You", "The computer"], 4: ["You", "East", "North", "West"]}
SIDE_NAMES = {2: ["You", "Computer"], 4: ["You & North", "East & West"]}
SIDE_OBJECTS = {2: ["you", "the computer"], 4: ["you and North", "East and West"]}


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
        return "Jack pişti! 20 points"
    if event["pisti"]:
        return "pişti! 10 points"
    if event["captured"]:
        return f"captured {event['captured']} cards"
    return "it stays on the pile"


def describe(table: Table, event: dict) -> list[str]:
    """Return the sentences telling one logged play, e.g.
    ``["East played J♣: captured 5 cards."]``."""
    players = table.match.players
    who = POSITION_NAMES[players][event["position"]]
    lines = [f"{who} played {card_label(event['card'])}: {_result_words(event)}."]
    if event["dealt"]:
        lines.append("Four new cards each were dealt.")
    if event["swept"]:
        side = table.match.side_of_team(event["swept_to"])
        lines.append(f"The {event['swept']} cards left on the table go to {SIDE_OBJECTS[players][side]}.")
    return lines


def table_context(table: Table) -> dict:
    """Return the template context for the table, between-hands and final
    pages. Only the player's observation is used, never the state."""
    match = table.match
    obs = table.observation()
    players = match.players
    sides = []
    for side in (0, 1):
        team = (side + match.hand_number) % 2
        sides.append({
            "name": SIDE_NAMES[players][side],
            "captured": obs.captured[team],
            "pisti": obs.pisti[team],
            "jack_pisti": obs.jack_pisti[team],
            "total": match.totals[side],
        })
    last = {}
    for event in table.log:
        last[event["position"]] = {"card": event["card"], "said": _result_words(event)}
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
    fan = obs.pile_face_up[-PILE_FAN:]
    return {
        "obs": obs,
        "match": match,
        "places": places,
        "sides": sides,
        "happened": [line for event in table.log for line in describe(table, event)],
        "hand": [
            {"card": card, "captures": would_capture(card, obs.pile_top), "key": index + 1}
            for index, card in enumerate(obs.hand)
        ],
        "fan": fan,
        "under": obs.pile_size - len(fan),
        "move": table.move,
        "seed": match.seed if table.seed_public or match.over else None,
        "human": HUMAN,
    }


def hand_scores(table: Table) -> tuple[list[TeamScore], int | None, str]:
    """Return the finished hand's scores by side, the winning side (or
    ``None``) and why (``"points"``, ``"cards"`` or ``"draw"``)."""
    match = table.match
    winner, reason = hand_winner(match.state, score_hand(match.state))
    return match.side_scores(), None if winner is None else match.side_of_team(winner), reason
