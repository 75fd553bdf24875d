"""Plays told in words, so the player never has to guess what happened."""

from __future__ import annotations

from app.engine import card_label


def seat_names(players: int, human: int) -> list[str]:
    """Return each seat's display name, ``"You"`` for the player's seat."""
    return ["You" if seat == human else "The computer" for seat in range(players)]


def side_name(team: int, human: int) -> str:
    """Return the name of a side: ``"you"`` or ``"the computer"``."""
    return "you" if team == human % 2 else "the computer"


def describe(event: dict, names: list[str], human: int) -> list[str]:
    """Return the sentences telling one play (a ``PlayResult`` as a dict),
    e.g. ``["The computer played J♣ and captured 5 cards."]``."""
    who = names[event["seat"]]
    card = card_label(event["card"])
    if event["jack_pisti"]:
        line = f"{who} played {card}: Jack pişti! 20 points."
    elif event["pisti"]:
        line = f"{who} played {card}: pişti! 10 points."
    elif event["captured"]:
        line = f"{who} played {card} and captured {event['captured']} cards."
    else:
        line = f"{who} played {card}; it stays on the pile."
    lines = [line]
    if event["dealt"]:
        lines.append("Four new cards each were dealt.")
    if event["swept"]:
        taker = side_name(event["swept_to"], human)
        lines.append(f"The {event['swept']} cards left on the table go to {taker}.")
    return lines
