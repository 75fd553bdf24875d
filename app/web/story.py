"""Mansion Evenings pages: the path of opponents, Aunt Hayriye's lesson,
starting a story match, and what an opponent says at the table.

Progress is plain data (``app/story/progress.py``) kept by
:func:`store.story_progress` / :func:`store.update_story_progress`: in the
database for a known player, in the session for an anonymous one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext

from app.db import queries
from app.engine import CLASSIC, card_points, new_seed, score_hand
from app.story import lesson
from app.story.cast import CAST, TARGET, Opponent, opponent

from . import game, store
from .errors import stale_page
from .i18n import card_name
from .identity import current_player
from .table import Table

bp = Blueprint("story", __name__, url_prefix="/story")


def beaten() -> list[str]:
    """Return the keys of the opponents the player has beaten, in cast order."""
    done = store.story_progress().get("beaten")
    done = done if isinstance(done, list) else []
    return [member.key for member in CAST if member.key in done]


def next_opponent() -> Opponent | None:
    """Return the first opponent not yet beaten, or ``None`` when the story
    is finished."""
    return _next_in(store.story_progress())


def _next_in(progress: dict[str, Any]) -> Opponent | None:
    """The first opponent not beaten in ``progress`` (cleaned progress)."""
    return next((member for member in CAST if member.key not in progress["beaten"]), None)


def lesson_settled() -> bool:
    """Whether the lesson was finished or skipped."""
    return _settled(store.story_progress())


def _settled(progress: dict[str, Any]) -> bool:
    """Whether ``progress`` (cleaned progress) has the lesson finished or skipped."""
    return progress["lesson"] in ("done", "skipped")


def _update(**changes: object) -> None:
    store.update_story_progress(lambda kept: {**kept, **changes})


def _store(change: Callable[[], object]) -> ResponseReturnValue | None:
    """Make ``change`` through :func:`store.apply`; return the 409 page when
    the session went away meanwhile, or when a known player's progress kept
    changing under it (:class:`app.db.queries.StoryBusy`: many requests of
    theirs at once), else ``None``."""
    try:
        store.apply(change)
    except store.Stale:
        return stale_page()
    except queries.StoryBusy as busy:
        current_app.logger.warning("%s", busy)
        return stale_page()
    return None


@bp.get("")
def path() -> str:
    """Show the cast as a row of places: who is beaten, who is next, and
    what it takes to go on; a known player also sees how their story
    matches (classic, to :data:`TARGET`) against each opponent went. Only
    the story starts a game against a cast member (deal links, New game
    and house rules take the four levels alone), so her results are the
    story's. A story match in progress comes first, with the way back to
    it (``in_progress``: its opponent and :func:`store.summary`)."""
    done = beaten()
    upcoming = next_opponent()
    player = current_player()
    keys = [member.key for member in CAST]
    tallies = queries.games_against(player.id, keys, CLASSIC.name, TARGET) if player else {}
    places = []
    for member in CAST:
        if member.key in done:
            state = "beaten"
        elif upcoming is not None and member.key == upcoming.key:
            state = "next"
        else:
            state = "locked"
        games, wins = tallies.get(member.key, (0, 0))
        places.append({"opponent": member, "state": state, "games": games, "wins": wins})
    return render_template(
        "story/path.html",
        places=places,
        finished=upcoming is None,
        lesson_settled=lesson_settled(),
        lesson_started=_lesson_step() > 0,
        target=TARGET,
        in_progress=_in_progress(),
    )


def _in_progress() -> dict[str, Any] | None:
    """The player's current game when it is an unfinished story match:
    ``{"opponent": Opponent, "game": store.summary(table)}`` (with
    :func:`store.with_starter`: whose name it was started under when not this
    device's player's), else ``None``."""
    table = store.load_table()
    if table is None or table.match.over or table.seed_public or table.match.players != 2:
        return None
    member = opponent(table.levels[-1])
    return (
        None
        if member is None
        else {"opponent": member, "game": store.with_starter(store.summary(table))}
    )


@bp.post("/play")
def play() -> ResponseReturnValue:
    """Start a story match (field ``opponent``) against the next opponent,
    or anyone once the story is finished: a classic match to :data:`TARGET`.
    Before the first match comes the lesson (or skipping it)."""
    member = opponent(request.form.get("opponent"))
    if member is None:
        return _refuse(gettext("There is nobody of that name in the mansion."), 400)
    if not lesson_settled():
        return redirect(url_for("story.lesson_page"), 303)
    progress = store.story_progress()
    upcoming = _next_in(progress)
    if upcoming is not None and member.key in progress["beaten"]:
        # A Play from a page shown before the win (another tab, Back).
        return _refuse(
            gettext(
                "You have beaten %(name)s already: %(next)s is next.",
                name=member.name,
                next=upcoming.name,
            ),
            409,
        )
    if upcoming is not None and member.key != upcoming.key:
        return _refuse(
            gettext(
                "%(name)s is not waiting for you yet: beat %(next)s first.",
                name=member.name,
                next=upcoming.name,
            ),
            409,
        )
    table = Table.start(
        CLASSIC,
        new_seed(),
        [member.key],
        seed_public=False,
        target=TARGET,
        expert_ms=float(current_app.config["EXPERT_MS"]),
    )
    return game.start_game(table)


def _refuse(message: str, status: int) -> tuple[str, int]:
    """The refusal page of a story form, with the way back to the story."""
    way_back = (url_for("story.path"), gettext("Back to Mansion Evenings"))
    page = render_template(
        "game/bad_request.html", title=gettext("Not now"), message=message, way_back=way_back
    )
    return page, status


def record_result(table: Table) -> None:
    """Count a finished story match: a win over the next opponent beats
    her or him (called once, when a move ends the match). Only a match
    started from the story counts: a deal link's game (its seed public,
    so its cards can be known in advance) against her or him does not."""
    member = opponent(table.levels[-1])
    if member is None or table.seed_public or table.match.winner() != 0:
        return

    def beat(kept: dict[str, Any]) -> dict[str, Any] | None:
        upcoming = _next_in(kept)
        if upcoming is None or member.key != upcoming.key:
            return None
        return {**kept, "beaten": [*kept["beaten"], member.key]}

    _store(lambda: store.update_story_progress(beat))


def table_extras(table: Table, aids: dict[str, bool]) -> dict[str, object]:
    """Return what the table, between-hands and final pages show of a story
    match: ``story_opponent`` (or ``None``), her or his ``remark`` (or
    ``None``: no story, remarks turned off, or nothing to say), and for the
    final page ``story_next`` (the next opponent to meet, or ``None``) and
    ``story_rematch`` (whether the same opponent may be played again: she or
    he is still the next one, or the story is finished)."""
    member = opponent(table.levels[-1])
    if member is None or table.match.players != 2:
        return {"story_opponent": None, "remark": None}
    line = _remark(table, member) if aids.get("remarks", True) else None
    extras: dict[str, object] = {"story_opponent": member, "remark": line}
    if table.match.over:
        upcoming = next_opponent()
        extras["story_next"] = upcoming
        extras["story_rematch"] = upcoming is None or upcoming.key == member.key
    return extras


def _remark(table: Table, member: Opponent) -> str | None:
    """One short line: at the end of the match, on its result (whoever won
    the last hand); between hands, on the hand; during a hand, after a
    pişti or a capture of the opponent's, or (the teacher) explaining the
    opponent's play (a card left on the pile only in the first hand). A
    drawn hand gets none, and so would a drawn match
    (only a single deal can be drawn; a story match to 51 has a winner)."""
    match = table.match
    if match.over:
        winner = match.winner()
        if winner is None:
            return None
        return str(member.lost_match if winner == 0 else member.won_match)
    if match.hand_counted:
        yours, theirs = match.history[-1]
        if yours == theirs:
            return None
        return str(member.won_hand if theirs > yours else member.lost_hand)
    plays = [event for event in table.log if event["position"] != 0]
    if not plays:
        return None
    event = plays[-1]
    if event["pisti"] or event["jack_pisti"]:
        return str(member.pisti)
    if not member.explains:
        if not event["captured"]:
            return None
        if member.capture_points is not None and _points_in_sight(table, event):
            return str(member.capture_points)
        return str(member.capture)
    card = card_name(event["card"])
    if event["captured"]:
        if event["card"][0] == "J":
            return str(gettext("A Jack takes any pile, so my %(card)s took it.", card=card))
        return str(
            gettext("My %(card)s is the same rank as the top card, so I took it.", card=card)
        )
    if match.hand_number > 0:
        # Why a card stays on the pile is taught in the first hand; said at
        # every throw of a match it became the same line seventy times.
        return None
    if table.observation().pile_size == 1:
        return str(gettext("The table was empty, so I led my %(card)s.", card=card))
    # Said of the card alone: she plays a random card half the time, so
    # "nothing of mine matched" was at times false, and a word on what her
    # hand held, true or not, is one on a hidden card.
    return str(
        gettext("My %(card)s is not of the top card's rank, so it stays on the pile.", card=card)
    )


def _points_in_sight(table: Table, event: dict[str, Any]) -> bool:
    """Whether the pile the opponent's capture ``event`` (the last play of
    the hand so far) took held a point in its face-up cards, the card that
    took it left out: what the player saw on the table, never the
    face-down cards."""
    state = table.state
    team = state.rules.team_of(table.match.seat_of(event["position"]))
    taken = state.captured[team][-event["captured"] : -1]
    return any(card_points(card) for card in taken if card not in state.face_down_cards)


def _lesson_step() -> int:
    step = store.story_progress().get("lesson_step", 0)
    return step if isinstance(step, int) and 0 <= step <= len(lesson.STEPS) else 0


@bp.get("/lesson")
def lesson_page() -> str:
    """Show the lesson where the player left it."""
    return _lesson(_lesson_step())


#: A lesson form from a page the lesson has left (a repeat, another tab).
LESSON_MOVED_ON = lazy_gettext(
    "That page was out of date: the lesson had moved on (in another tab, or the card was "
    "already played). Nothing was played; here is the lesson as it stands."
)


class _MovedOn(Exception):
    """The lesson is no longer at the step the form was for."""


@bp.post("/lesson")
def lesson_play() -> ResponseReturnValue:
    """Play the posted card (fields ``card`` and ``step``) in the lesson:
    the right card moves on, another card of the hand gets a gentle word
    and another try; a stale or bad form changes nothing."""
    step = _lesson_step()
    if step >= len(lesson.STEPS) or request.form.get("step") != str(step):
        return _lesson(step, str(LESSON_MOVED_ON)), 409
    asked = lesson.STEPS[step]
    state = lesson.position(step)
    card = request.form.get("card", "")
    if card == asked.card:

        def answer(kept: dict[str, Any]) -> dict[str, Any]:
            # Made again on fresh progress if another tab moved the lesson on.
            if kept["lesson_step"] != step:
                raise _MovedOn()
            done = {"lesson": "done"} if step + 1 == len(lesson.STEPS) else {}
            return {**kept, "lesson_step": step + 1, **done}

        def change() -> None:
            store.update_story_progress(answer)

        try:
            refused = _store(change)
        except _MovedOn:
            return _lesson(_lesson_step(), str(LESSON_MOVED_ON)), 409
        return refused or redirect(url_for("story.lesson_page"), 303)
    if card not in state.hands[0]:
        return _lesson(step, gettext("That card is not in your hand; nothing was played.")), 400
    top = state.pile_top
    if card[0] == "J":
        return _lesson(step, str(asked.jack_wrong))
    if top is not None and card[0] != top[0] and asked.card[0] == top[0]:
        word = gettext(
            "The %(card)s does not take the %(top)s: only a card of the same rank, or a Jack, "
            "takes the pile. Try again.",
            card=card_name(card),
            top=card_name(top),
        )
    else:
        word = gettext("Not that one, dear. Read what I said again and try once more.")
    return _lesson(step, word)


def _lesson(step: int, wrong: str | None = None) -> str:
    """Render lesson step ``step`` (``len(STEPS)``: the scoring)."""
    state = lesson.position(step)
    said = []
    if step > 0:
        before = lesson.STEPS[step - 1]
        after = lesson.position(step - 1)
        after.play(before.card)
        taken = len(after.captured[0]) - len(lesson.position(step - 1).captured[0])
        said.append(str(before.done) % {"card": card_name(before.card), "num": taken})
        if before.reply is not None:
            said.append(str(before.reply) % {"card": card_name(lesson.PLAYS[before.play + 1])})
    context = {
        "step": step,
        "steps": lesson.STEPS,
        "said": said,
        "wrong": wrong,
        "teacher": CAST[0],
        "obs_pile": state.pile[state.face_down :],
        "face_down": state.face_down,
        "hand": state.hands[0] if step < len(lesson.STEPS) else [],
        "her_cards": len(state.hands[1]),
        "settled": lesson_settled(),
    }
    if step < len(lesson.STEPS):
        asked = lesson.STEPS[step]
        top = state.pile_top
        context["asked"] = asked
        context["prompt"] = str(asked.prompt) % {"top": card_name(top) if top else ""}
    else:
        context["scores"] = score_hand(state)
    return render_template("story/lesson.html", **context)


@bp.post("/lesson/restart")
def lesson_restart() -> ResponseReturnValue:
    """Play the lesson again from its first step."""
    refused = _store(lambda: _update(lesson_step=0))
    return refused or redirect(url_for("story.lesson_page"), 303)


@bp.post("/lesson/skip")
def lesson_skip() -> ResponseReturnValue:
    """Skip the lesson (it stays on the story page to play later)."""

    def change() -> None:
        store.update_story_progress(
            lambda kept: None if _settled(kept) else {**kept, "lesson": "skipped"}
        )

    refused = _store(change)
    return refused or redirect(url_for("story.path"), 303)
