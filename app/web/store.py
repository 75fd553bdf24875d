"""The one module that touches the session: the player's table and settings.

The session lives server-side (Flask-Session); the cookie holds only its
random id. The whole table is assigned back after every move, because
Flask-Session does not notice changes inside nested data.
"""

from __future__ import annotations

from flask import current_app, session

from app.engine import InvalidState

from .table import Table

_TABLE = "table"
_PREVIOUS = "previous_table"
_SETTINGS = "settings"


def load_table() -> Table | None:
    """Return the player's table, or ``None`` when there is none (or the
    saved one is damaged, which is logged and dropped)."""
    data = session.get(_TABLE)
    if data is None:
        return None
    try:
        return Table.from_dict(data, expert_ms=float(current_app.config["EXPERT_MS"]))
    except InvalidState as exc:
        current_app.logger.warning("dropping a saved game: %s", exc)
        session.pop(_TABLE, None)
        return None


def save_table(table: Table) -> None:
    """Keep ``table`` in the session."""
    session[_TABLE] = table.to_dict()


def start_table(table: Table) -> None:
    """Keep a newly dealt ``table``, under a fresh session id (so an id
    seen before the new game gives no access to it). A game still in
    progress is kept aside, so a deal link opened by mistake loses nothing
    (see :func:`resume_previous`)."""
    current = load_table()
    if current is not None and not current.match.over:
        session[_PREVIOUS] = current.to_dict()
    else:
        session.pop(_PREVIOUS, None)
    if session:
        current_app.session_interface.regenerate(session)
    save_table(table)


def has_previous() -> bool:
    """Whether a game in progress was put aside by a newer one."""
    return _PREVIOUS in session


def resume_previous() -> bool:
    """Swap the current game with the one put aside; return whether there
    was one. The current game is put aside in turn if it is unfinished."""
    previous = session.get(_PREVIOUS)
    if previous is None:
        return False
    current = load_table()
    if current is not None and not current.match.over:
        session[_PREVIOUS] = current.to_dict()
    else:
        session.pop(_PREVIOUS, None)
    session[_TABLE] = previous
    return True


def settings() -> dict:
    """Return the player's game settings from the last game they started
    (rule set, target, computer levels), or ``{}``."""
    value = session.get(_SETTINGS)
    return value if isinstance(value, dict) else {}


def save_settings(value: dict) -> None:
    """Remember the player's game settings (plain data) for later games."""
    session[_SETTINGS] = value


#: The playing aids and their defaults (seed 001 and 004's aids).
AIDS = {
    "highlight": True,  # mark the cards in hand that would capture
    "counter": False,  # played-cards counter per rank
    "four_colour": False,  # four-colour deck
    "hints": False,  # a short note on your turn
    "bottom_card": True,  # show the stock's bottom card where the rules do
    "fan": True,  # fan the pile's top cards
    "remarks": True,  # a story opponent's remarks at the table
}
_AIDS = "aids"


def aids() -> dict[str, bool]:
    """Return the player's aids, each on or off (defaults in :data:`AIDS`;
    until the player sets the aids, the counter is on against Easy, as seed
    001 has it)."""
    saved = session.get(_AIDS)
    if not isinstance(saved, dict):
        return {**AIDS, "counter": settings().get("level") == "easy"}
    return {name: bool(saved.get(name, default)) for name, default in AIDS.items()}


def save_aids(value: dict[str, bool]) -> None:
    """Remember the player's aids (names of :data:`AIDS` to booleans)."""
    session[_AIDS] = {name: bool(value.get(name, False)) for name in AIDS}


_LANGUAGE = "language"


def language() -> str | None:
    """Return the language the player chose on a page, if any."""
    value = session.get(_LANGUAGE)
    return value if isinstance(value, str) else None


def save_language(code: str) -> None:
    """Remember the player's language (a key of ``i18n.LANGUAGES``)."""
    session[_LANGUAGE] = code


_STORY = "story"


def story_progress() -> dict:
    """Return the player's Mansion Evenings progress as plain data (see
    ``app/web/story.py`` for its fields), or ``{}``. Kept in the session
    for now; the pair of this and :func:`save_story_progress` is the one
    place to change when progress moves to the database."""
    value = session.get(_STORY)
    return value if isinstance(value, dict) else {}


def save_story_progress(value: dict) -> None:
    """Keep the player's Mansion Evenings progress (plain data)."""
    session[_STORY] = value
