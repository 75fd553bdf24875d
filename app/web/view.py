"""What a page shows of a table, and plays told in words so the player
never has to guess what happened.

During a hand a page shows only what the player's observation does: where
the state is read (the running points, the cards taken unseen, the steps
replayed from the deal), only the cards the player has seen count, or only
how many. Once the hand is over, every card may be named (the hand's
score, the face-down centre cards)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from babel.lists import format_list
from flask_babel import get_locale
from markupsafe import Markup

from app.ai.hints import Hint, hints_for
from app.engine import (
    GameState,
    PlayResult,
    RuleSet,
    TeamScore,
    card_label,
    card_points,
    hand_winner,
    most_cards_sure,
    score_hand,
    seeded_deck,
    would_capture,
)
from app.engine.cards import RANKS
from app.story.cast import opponent as story_opponent

from . import store
from .i18n import (
    card_name,
    gettext,
    lazy_gettext,
    lazy_pgettext,
    markup_gettext,
    markup_ngettext,
    ngettext,
)
from .table import HUMAN, Table, logged

if TYPE_CHECKING:
    from app.engine.match import Match

T = TypeVar("T")

#: How many face-up cards of the pile are drawn fanned on the table.
PILE_FAN = 4

POSITION_NAMES = {
    2: [lazy_gettext("You"), lazy_gettext("The computer")],
    3: [lazy_gettext("You"), lazy_gettext("East"), lazy_gettext("West")],
    4: [lazy_gettext("You"), lazy_gettext("East"), lazy_gettext("North"), lazy_gettext("West")],
}
#: Position names as written into records (never translated).
POSITION_NAMES_EN = {
    2: ["you", "computer"],
    3: ["you", "East", "West"],
    4: ["you", "East", "North", "West"],
}


def mirrored(names: list[T], clockwise: bool) -> list[T]:
    """Return a table's position names (``names``, by position) as the
    player sees the seats: ``clockwise`` (the aid, :func:`.store.clockwise`)
    puts the seat after theirs on their left, so with three or four players
    the first and last computers swap names ("West" plays after you)."""
    names = list(names)
    if clockwise and len(names) > 2:
        names[1], names[-1] = names[-1], names[1]
    return names


def position_names(players: int) -> list[Any]:
    """The names of a table of ``players``' positions, in the page's
    language, as the player sees the seats (:func:`mirrored`)."""
    return mirrored(POSITION_NAMES[players], store.clockwise())


def record_players(match: Match, hand: int) -> list[str]:
    """Return who sat at each seat of ``match``'s hand ``hand`` (from 0), in
    seat order, as records write it (the ``players`` field of
    ``docs/record-format.md``: ``["computer", "you"]`` when the computer
    dealt first; East, North, West in the order of play whichever way the
    player has the seats drawn, so every record of a deal is the same)."""
    names = POSITION_NAMES_EN[match.players]
    return [names[match.position_of(seat, hand)] for seat in range(match.players)]


#: Position names as the subject inside a sentence ("... East took it").
TAKER_NAMES = {
    2: [lazy_pgettext("taker", "you"), lazy_pgettext("taker", "the computer")],
    3: [
        lazy_pgettext("taker", "you"),
        lazy_pgettext("taker", "East"),
        lazy_pgettext("taker", "West"),
    ],
    4: [
        lazy_pgettext("taker", "you"),
        lazy_pgettext("taker", "East"),
        lazy_pgettext("taker", "North"),
        lazy_pgettext("taker", "West"),
    ],
}
#: Side names of two sides: you and the computer, or the two partnerships.
#: With three or four each for themselves a side is a position, named as
#: the position (:func:`names_for`).
SIDE_NAMES = {
    2: [lazy_gettext("You"), lazy_gettext("Computer")],
    4: [lazy_gettext("You & North"), lazy_gettext("East & West")],
}
#: Partners' teams on the score where a line has no room for their names
#: (a phone held sideways with large text, :func:`.regions.scoreboard`):
#: a scorepad's "We" and "They", the seats saying who sits where.
TEAM_SHORT_NAMES = [
    lazy_pgettext("team on the score", "We"),
    lazy_pgettext("team on the score", "They"),
]
SIDE_OBJECTS = {
    2: [lazy_gettext("you"), lazy_gettext("the computer")],
    4: [lazy_gettext("you and North"), lazy_gettext("East and West")],
}


#: With three or four each for themselves, each side (a position) inside a
#: sentence as where the cards go ("... go to East"; Turkish: "Doğu'ya").
SOLO_OBJECTS = {
    3: [
        lazy_pgettext("goes to", "you"),
        lazy_pgettext("goes to", "East"),
        lazy_pgettext("goes to", "West"),
    ],
    4: [
        lazy_pgettext("goes to", "you"),
        lazy_pgettext("goes to", "East"),
        lazy_pgettext("goes to", "North"),
        lazy_pgettext("goes to", "West"),
    ],
}


@dataclass(frozen=True)
class Names:
    """What the pages call each position and side of a table, by position
    (``who``: a seat's heading and a sentence's start; ``taker``: the
    subject inside a sentence) and by side (``sides``: on the score;
    ``to``: the object of "goes to ...", a dative in Turkish)."""

    who: list[Any]
    taker: list[Any]
    sides: list[Any]
    to: list[Any]


def names_for(players: int, opponent_key: object = None, sides: int = 2) -> Names:
    """Return the names of a table of ``players`` and ``sides``: "The
    computer" and such; with three or four each for themselves (``sides``
    > 2) each side is named as its position ("You", "East", "West" ...,
    as seed 004 (PlayPendium) names the seats); in a two-player story match
    against ``opponent_key`` (a cast key), the opponent's own name (seed
    001's (CetinsGame guide) Mansion Evenings: "opponents who each have
    their own style")."""
    solo = sides > 2
    clockwise = store.clockwise()
    who = mirrored(POSITION_NAMES[players], clockwise)
    names = Names(
        who=who,
        taker=mirrored(TAKER_NAMES[players], clockwise),
        sides=list(who) if solo else list(SIDE_NAMES[players]),
        to=mirrored(SOLO_OBJECTS[players], clockwise) if solo else list(SIDE_OBJECTS[players]),
    )
    member = story_opponent(opponent_key) if players == 2 else None
    if member is not None:
        names.who[1] = names.taker[1] = names.sides[1] = member.name
        names.to[1] = member.to_name
    return names


def table_names(table: Table) -> Names:
    """Return the names of ``table``'s positions and sides (see :func:`names_for`)."""
    return names_for(table.match.players, table.levels[-1], table.match.sides)


@dataclass(frozen=True)
class Place:
    """A position at the table as the player sees it."""

    position: int
    name: str
    level: str | None
    cards: int
    dealer: bool
    last: dict[str, Any] | None  # the position's last play in the log: card, said
    crest: str | None = None  # a story opponent's portrait under static/


def spoken_card(card: str) -> Markup:
    """A card (``"7H"``) in a sentence of the table's log: its short label
    for the eye (``7♥``, hidden from screen readers, which read a suit's
    symbol as anything or nothing) and its name for the ear ("7 of hearts",
    "Kupa 7")."""
    return Markup('<span aria-hidden="true">%s</span><span class="visually-hidden">%s</span>') % (
        card_label(card),
        card_name(card),
    )


def _taker_words(
    event: dict[str, Any],
    taker: dict[str, Any] | None,
    names: Names,
    match: Match,
    sweep_told: bool = False,
    buried: bool = False,
    lone: str | None = None,
) -> Markup:
    """Say what became of a logged play's card: the pişti or capture it
    made, or, for a card that stayed on the pile, who took it later in the
    log (``taker``: the play that captured it, or the play that ended the
    hand and swept the table) — else that it still lies on the pile. A
    card ``buried`` under later cards when the pile was taken "went with
    the pile" (an Ace taking an Ace took the 9 under it: "West took it
    with A♦" read as an Ace taking a 9). With ``sweep_told`` (a list of
    plays whose sweep has its own line) a card the sweep took only "stayed
    on the table to the end". ``lone``: the card played before this one
    (the pile's only card when this play took two), so a lone card taken
    with no pişti says why: a Jack on a card of another rank, or the hand's
    last card where the rules do not count it (seeds 000, 001, 003, 004)."""
    rules = match.rules
    if event["jack_pisti"]:
        return markup_ngettext(
            "Jack pişti! %(num)s point", "Jack pişti! %(num)s points", rules.jack_pisti_points
        )
    if event["pisti"]:
        return markup_ngettext("pişti! %(num)s point", "pişti! %(num)s points", rules.pisti_points)
    if event["captured"] == 2 and lone is not None:
        if event["card"][0] == "J" and lone[0] != "J":
            return markup_gettext(
                "captured the pile's only card (a Jack on a lone card is no pişti)"
            )
        if event["hand_over"]:
            return markup_gettext(
                "captured the pile's only card (no pişti with the hand's last card)"
            )
    if event["captured"]:
        # The pile before the play, so the count agrees with "Pile: N cards".
        return markup_ngettext(
            "captured the pile's only card",
            "captured the pile's %(num)s cards",
            event["captured"] - 1,
        )
    if taker is None:
        return markup_gettext("it stays on the pile")
    if taker["captured"] and buried and taker["position"] == HUMAN:
        return markup_gettext(
            "it went with the pile you took with %(card)s", card=spoken_card(taker["card"])
        )
    if taker["captured"] and buried:
        return markup_gettext(
            "it went with the pile %(taker)s took with %(card)s",
            taker=names.taker[taker["position"]],
            card=spoken_card(taker["card"]),
        )
    if taker["captured"] and taker["position"] == HUMAN:
        # Its own sentence: the verb agrees with "you" (Turkish "aldınız").
        return markup_gettext("you took it with %(card)s", card=spoken_card(taker["card"]))
    if taker["captured"]:
        return markup_gettext(
            "%(taker)s took it with %(card)s",
            taker=names.taker[taker["position"]],
            card=spoken_card(taker["card"]),
        )
    if sweep_told:  # the sweep's own line says where the table went
        return markup_gettext("it stayed on the table to the end")
    side = match.side_of_team(taker["swept_to"])
    return markup_gettext(
        "it stayed on the table, and the table went to %(side)s at the end", side=names.to[side]
    )


def _played_before(match: Match, log: list[dict[str, Any]]) -> list[str | None]:
    """For each logged play, the card played just before it in the hand
    (``None`` for the hand's first play): the log holds the current hand's
    last plays."""
    plays = match.state.plays
    start = len(plays) - len(log)
    if start < 0:  # not this hand's plays: say nothing more
        return [None] * len(log)
    return [plays[start + step - 1] if start + step > 0 else None for step in range(len(log))]


def _takers(log: list[dict[str, Any]]) -> list[tuple[dict[str, Any] | None, bool]]:
    """For each logged play, the later play that took its card off the
    pile (a capture, or the hand's last play sweeping the table; a play
    that sweeps takes its own card), or ``None``; and whether other cards
    lay on it by then (plays between the two, none of which captured)."""
    takers: list[tuple[dict[str, Any] | None, bool]] = []
    for step, event in enumerate(log):
        taker, buried = None, False
        if not event["captured"]:
            for later_step in range(step, len(log)):
                later = log[later_step]
                if (later is not event and later["captured"]) or later["swept"]:
                    taker, buried = later, later_step > step + 1
                    break
        takers.append((taker, buried))
    return takers


def describe_plays(
    match: Match, log: list[dict[str, Any]], names: Names | None = None
) -> list[tuple[int, Markup]]:
    """Return the sentences telling the plays of ``log`` (``PlayResult``
    fields plus ``position``), each with its step in the log, e.g.
    ``(0, "You played 4♥: the computer took it with 4♣.")``, ``(1, "The
    computer played 4♣: captured the pile's only card.")``: a card that stayed on
    the pile is told with what became of it. ``names``: the table's
    (:func:`table_names`), by default the computer's."""
    names = names or names_for(match.players, sides=match.sides)
    lines = []
    lone = _played_before(match, log)
    for step, (event, (taker, buried)) in enumerate(zip(log, _takers(log), strict=True)):
        card = spoken_card(event["card"])
        who = names.who[event["position"]]
        if taker is event:
            # The hand's last card, swept with the table: the sweep line says where.
            if event["position"] == HUMAN:
                line = markup_gettext("You played %(card)s: the hand's last card.", card=card)
            else:
                line = markup_gettext(
                    "%(who)s played %(card)s: the hand's last card.", who=who, card=card
                )
        else:
            result = _taker_words(
                event, taker, names, match, sweep_told=True, buried=buried, lone=lone[step]
            )
            if event["position"] == HUMAN:
                line = markup_gettext("You played %(card)s: %(result)s.", card=card, result=result)
            else:
                line = markup_gettext(
                    "%(who)s played %(card)s: %(result)s.", who=who, card=card, result=result
                )
        lines.append((step, line))
        if event["dealt"]:
            lines.append((step, markup_gettext("Four new cards each were dealt.")))
        if event["swept"]:
            side = match.side_of_team(event["swept_to"])
            line = markup_ngettext(
                "The %(num)s card left on the table goes to %(side)s.",
                "The %(num)s cards left on the table go to %(side)s.",
                event["swept"],
                side=names.to[side],
            )
            lines.append((step, line))
    return lines


def last_round(match: Match) -> list[dict[str, Any]]:
    """Return the finished current hand's last round: the last play of
    every position, in order (``PlayResult`` fields plus ``position``),
    the sweep of the table included. Replayed from the deal, it holds only
    played cards, all seen face up, and counts.
    """
    results = _hand_results(match)[-match.players :]
    return [logged(result, match.position_of(result.seat)) for result in results]


def _hand_results(match: Match) -> list[PlayResult]:
    """Return every play of the current hand so far, as the engine told
    it (seat, card, captures, piştis, sweep), replayed from its deal."""
    state = GameState(match.rules, seeded_deck(match.seed, match.rules, match.hand_number))
    return [state.play(card) for card in match.state.plays]


def hint_text(hint: Hint) -> str:
    """Return a hint as a sentence in the page's language: a note about a
    card to keep, or the recommendation ("The Hard level would play ...")
    with its reason (:data:`app.ai.hints.REASONS`), in one sentence."""
    card = card_name(hint.card)
    if hint.kind == "keep_jack":
        return ngettext(
            "Keep your Jack: the pile is only %(num)s card.",
            "Keep your Jack: the pile is only %(num)s cards.",
            hint.number,
        )
    if hint.kind == "risky_lead":
        return gettext(
            "Risky lead: the next player holds a card of the rank of your %(card)s "
            "about %(percent)s%% of the time (a pişti for them).",
            card=card,
            percent=hint.number,
        )
    if hint.kind == "pisti":
        return ngettext(
            "The Hard level would play your %(card)s: a pişti, %(num)s point.",
            "The Hard level would play your %(card)s: a pişti, %(num)s points.",
            hint.number,
            card=card,
        )
    if hint.kind == "jack_pisti":
        return ngettext(
            "The Hard level would play your %(card)s: a Jack pişti, %(num)s point.",
            "The Hard level would play your %(card)s: a Jack pişti, %(num)s points.",
            hint.number,
            card=card,
        )
    if hint.kind == "capture":
        return _capture_text(hint, card)
    return _leave_text(hint, card)


def _capture_text(hint: Hint, card: str) -> str:
    """The recommendation of a card that takes the pile, with its reason."""
    if hint.reason == "keep_jack":
        return ngettext(
            "The Hard level would play your %(card)s: it takes the pile's %(num)s card "
            "(points in sight: %(points)s) and keeps your Jack for a bigger pile.",
            "The Hard level would play your %(card)s: it takes the pile's %(num)s cards "
            "(points in sight: %(points)s) and keeps your Jack for a bigger pile.",
            hint.number,
            card=card,
            points=hint.points,
        )
    if hint.reason == "last_capture":
        return ngettext(
            "The Hard level would play your %(card)s: it takes the pile's %(num)s card "
            "(points in sight: %(points)s), and the last capture gets the cards left at "
            "the end.",
            "The Hard level would play your %(card)s: it takes the pile's %(num)s cards "
            "(points in sight: %(points)s), and the last capture gets the cards left at "
            "the end.",
            hint.number,
            card=card,
            points=hint.points,
        )
    return ngettext(
        "The Hard level would play your %(card)s: it takes the pile's %(num)s card "
        "(points in sight: %(points)s).",
        "The Hard level would play your %(card)s: it takes the pile's %(num)s cards "
        "(points in sight: %(points)s).",
        hint.number,
        card=card,
        points=hint.points,
    )


def _leave_text(hint: Hint, card: str) -> str:
    """The recommendation of a card that stays on the table, with its reason."""
    if hint.reason == "all_seen" and hint.number == 0:
        return gettext(
            "The Hard level would play your %(card)s: the other cards of its rank are "
            "all seen, so nobody else can make a pişti on it.",
            card=card,
        )
    if hint.reason == "all_seen":
        return gettext(
            "The Hard level would play your %(card)s: the other cards of its rank are "
            "all seen, so nobody else can take the pile with one.",
            card=card,
        )
    if hint.reason == "fewest_unseen":
        return ngettext(
            "The Hard level would play your %(card)s: only %(num)s card of its rank is "
            "unseen, the fewest in your hand, so it is the hardest to match.",
            "The Hard level would play your %(card)s: only %(num)s cards of its rank are "
            "unseen, the fewest in your hand, so it is the hardest to match.",
            hint.unseen,
            card=card,
        )
    if hint.reason == "no_points":
        return gettext(
            "The Hard level would play your %(card)s: it is worth no points, so your "
            "scoring cards stay in hand.",
            card=card,
        )
    if hint.reason == "no_value":
        return gettext(
            "The Hard level would play your %(card)s: a card of no value, and none of "
            "your others is harder to match.",
            card=card,
        )
    return gettext("The Hard level would play your %(card)s.", card=card)


def table_context(table: Table, aids: dict[str, bool]) -> dict[str, Any]:
    """Return the template context for the table, between-hands and final
    pages. Every card in it comes from the player's observation; ``match``
    is there for its rules, target, totals and history (no template reads
    its state)."""
    match = table.match
    obs = table.observation()
    players = match.players
    names = table_names(table)
    sides = []
    # Seed 001's "keep an eye on most cards": the side already sure of the
    # most-cards points is marked on the score (:func:`.regions.scoreboard`).
    sure = None if obs.finished else most_cards_sure(match.rules, list(obs.captured))
    for side in range(match.sides):
        team = match.team_of_side(side)
        sides.append(
            {
                "name": names.sides[side],
                # Partners' team named short where the score has no room.
                "short": TEAM_SHORT_NAMES[side] if match.rules.teams == "partners" else None,
                # As a sentence's subject: "The computer took the hand".
                "subject": names.who[side] if players == 2 else names.sides[side],
                "captured": obs.captured[team],
                "pisti": obs.pisti[team],
                "jack_pisti": obs.jack_pisti[team],
                "total": match.totals[side],
                "most_cards": match.rules.most_cards_points if team == sure else 0,
            }
        )
    last = {}
    lone = _played_before(match, table.log)
    for step, (event, (taker, buried)) in enumerate(
        zip(table.log, _takers(table.log), strict=True)
    ):
        last[event["position"]] = {
            "card": event["card"],
            "said": _taker_words(event, taker, names, match, buried=buried, lone=lone[step]),
            "step": step,
        }
    places = [
        Place(
            position=position,
            name=names.who[position],
            level=table.levels[position],
            cards=obs.hand_sizes[match.seat_of(position)],
            dealer=match.dealer == position,
            last=last.get(position),
            crest=_crest(table, position),
        )
        for position in range(players)
    ]
    fan = obs.pile_face_up[-PILE_FAN:] if aids["fan"] else obs.pile_face_up[-1:]
    # Seed 001: the counter counts only the cards shown openly, not the
    # face-down ones the player's side looked at.
    seen = [card[0] for card in obs.seen.difference(obs.seen_face_down)]
    return {
        "obs": obs,
        "match": match,
        "places": places,
        "sides": sides,
        "happened": describe_plays(match, table.log, names),
        "hand": [
            {"card": card, "captures": would_capture(card, obs.pile_top), "key": index + 1}
            for index, card in enumerate(obs.hand)
        ],
        "fan": fan,
        "under": obs.pile_size - len(fan),
        # Of the cards under the fan, the face-down ones (always at the
        # bottom): drawn as a back; the rest are face up.
        "under_face_down": obs.face_down,
        "counter": [("10" if rank == "T" else rank, seen.count(rank)) for rank in RANKS],
        # No hint for a forced move: a last card has nothing to choose.
        "hints": [hint_text(hint) for hint in hints_for(obs)]
        if aids["hints"] and len(obs.hand) > 1
        else [],
        "move": table.move,
        "game_id": table.game_id,
    }


def _crest(table: Table, position: int) -> str | None:
    """The portrait of a story match's opponent at ``position``, else ``None``."""
    member = story_opponent(table.levels[-1]) if table.match.players == 2 else None
    return member.portrait if member is not None and position == 1 else None


def hand_scores(table: Table) -> tuple[list[TeamScore], int | None, str]:
    """Return the finished hand's scores by side, the winning side (or
    ``None``) and why (``"points"``, ``"cards"`` or ``"draw"``)."""
    match = table.match
    winner, reason = hand_winner(match.state, score_hand(match.state))
    return match.side_scores(), None if winner is None else match.side_of_team(winner), reason


@dataclass(frozen=True)
class ScoreRow:
    """One line of a hand's score table: what was counted and what it is
    worth, per side.

    Attributes:
        label: what the line counts (``"Aces"`` ...), in the page's language.
        counts: per side, how many (cards, Aces, piştis ...).
        points: per side, the points they earned; the rows' points add up
            to each side's hand total (``TeamScore.points``).
        said: the label as a screen reader should say it where it is a
            card's short label ("2♣": "2 of clubs"), else ``None``.
    """

    label: str
    counts: list[int]
    points: list[int]
    said: str | None = None


def score_rows(scores: list[TeamScore], rules: RuleSet) -> list[ScoreRow]:
    """Return the lines of a hand's score table, by side, each with its
    count and its points (record-format "Replay output": ``points = aces +
    jacks + 2*two_of_clubs + 3*ten_of_diamonds + most_cards + pişti points
    + Jack pişti points + last_sweep_bonus``; the pişti values are the rule
    set's, and the last-cards line is there only under that house rule)."""
    lines: list[tuple[str, str, Callable[[TeamScore], int]]] = [
        (gettext("Cards (most cards)"), "cards", lambda score: score.most_cards),
        (gettext("Aces"), "aces", lambda score: score.aces),
        (gettext("Jacks"), "jacks", lambda score: score.jacks),
        ("2♣", "two_of_clubs", lambda score: 2 * score.two_of_clubs),
        ("10♦", "ten_of_diamonds", lambda score: 3 * score.ten_of_diamonds),
        (gettext("Piştis"), "pisti", lambda score: rules.pisti_points * score.pisti),
        (
            gettext("Jack piştis"),
            "jack_pisti",
            lambda score: rules.jack_pisti_points * score.jack_pisti,
        ),
    ]
    # The two cards' rows are labelled by their symbols; a screen reader
    # hears their names.
    said_cards = {"two_of_clubs": card_name("2C"), "ten_of_diamonds": card_name("TD")}
    rows = [
        ScoreRow(
            label=label,
            counts=[getattr(score, field) for score in scores],
            points=[points(score) for score in scores],
            said=said_cards.get(field),
        )
        for label, field, points in lines
    ]
    if rules.last_sweep_bonus:
        # House rules (format 2): a bonus for taking the cards left at the end.
        rows.append(
            ScoreRow(
                label=gettext("Last cards bonus"),
                counts=[int(score.last_sweep_bonus > 0) for score in scores],
                points=[score.last_sweep_bonus for score in scores],
            )
        )
    return rows


def running_totals(history: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    """Return each finished hand's points per side with the match total
    after it: ``[(hand points, running totals), ...]``, with as many sides
    as the match has (two, three or four)."""
    totals = [0] * len(history[0]) if history else []
    rows = []
    for points in history:
        totals = [total + point for total, point in zip(totals, points, strict=True)]
        rows.append((list(points), totals))
    return rows


def match_summary(match: Match) -> list[tuple[str, list[int]]]:
    """Return the final page's summary of ``match``'s finished hands, per
    side (``0`` is the player's): ``[(label, [value per side]), ...]``,
    labels in the page's language, with the piştis, the Jack piştis, the
    hands in which the side took more cards than every other side, and the
    card points (Aces and Jacks 1, 2♣ 2, 10♦ 3; seeds 000 and 001) over
    all the hands. Each hand is replayed from its plays: every card was
    taken by its end, so nothing hidden is shown."""
    pisti = [0] * match.sides
    jack_pisti = [0] * match.sides
    most = [0] * match.sides
    card_points = [0] * match.sides
    for index in range(len(match.plays_history)):
        scores = score_hand(match.finished_hand(index))
        counts = [score.cards for score in scores]
        for score in scores:
            side = match.side_of_team(score.team, index)
            pisti[side] += score.pisti
            jack_pisti[side] += score.jack_pisti
            most[side] += all(
                score.cards > other for team, other in enumerate(counts) if team != score.team
            )
            card_points[side] += (
                score.aces + score.jacks + 2 * score.two_of_clubs + 3 * score.ten_of_diamonds
            )
    return [
        (gettext("Piştis"), pisti),
        (gettext("Jack piştis"), jack_pisti),
        (gettext("Hands with most cards"), most),
        (gettext("Card points"), card_points),
    ]


def next_hand_words(table: Table) -> str:
    """Say who deals ``table``'s next hand and who plays first in it (the
    dealer moves on one place, seeds 001 and 003): "Next hand: East
    deals, and you play first."."""
    match = table.match
    taker = table_names(table).taker
    hand = match.hand_number + 1
    dealer = match.position_of(match.players - 1, hand)
    leader = match.position_of(0, hand)
    if dealer == HUMAN:
        return gettext("Next hand: you deal, and %(leader)s plays first.", leader=taker[leader])
    if leader == HUMAN:
        return gettext("Next hand: %(dealer)s deals, and you play first.", dealer=taker[dealer])
    return gettext(
        "Next hand: %(dealer)s deals, and %(leader)s plays first.",
        dealer=taker[dealer],
        leader=taker[leader],
    )


def face_down_words(table: Table) -> Markup | None:
    """Say, once ``table``'s hand is over, which face-down centre cards
    there were and which side they went to with their card points (seed
    001: "when the hand is over, the captured piles are turned over ...
    the 3 face-down opening cards belong to whichever pile they ended up
    in"), e.g. "The face-down centre cards, 7♠, A♥, and 4♦, went to the
    computer, with 1 point among them." (the list as Babel writes it in the
    page's language, each card as :func:`spoken_card` says it); ``None``
    while the hand is on (the cards are hidden even once taken) and when
    the opening left none face down (Jacks passed over can turn them all
    up)."""
    match = table.match
    state = match.state
    cards = state.face_down_cards
    if not state.finished or not cards or state.face_down_taker is None:
        return None
    side = table_names(table).to[match.side_of_team(state.face_down_taker)]
    # Each card as the log says it: its label for the eye, its name for the ear.
    spoken = [str(spoken_card(card)) for card in cards]
    listed = Markup(format_list(spoken, locale=get_locale() or "en"))
    points = sum(card_points(card) for card in cards)
    if len(cards) == 1:
        if not points:
            return markup_gettext(
                "The face-down centre card, %(cards)s, went to %(side)s, with no points.",
                cards=listed,
                side=side,
            )
        return markup_ngettext(
            "The face-down centre card, %(cards)s, went to %(side)s, with %(num)s point.",
            "The face-down centre card, %(cards)s, went to %(side)s, with %(num)s points.",
            points,
            cards=listed,
            side=side,
        )
    if not points:
        return markup_gettext(
            "The face-down centre cards, %(cards)s, went to %(side)s, with no points among them.",
            cards=listed,
            side=side,
        )
    return markup_ngettext(
        "The face-down centre cards, %(cards)s, went to %(side)s, with %(num)s point among them.",
        "The face-down centre cards, %(cards)s, went to %(side)s, with %(num)s points among them.",
        points,
        cards=listed,
        side=side,
    )


def shared_top(history: list[list[int]], target: int | None) -> tuple[int, int] | None:
    """Return ``(hand, total)`` for the last finished hand (from 1) after
    which the highest total had reached ``target`` but was shared, so one
    more hand was played (seeds 001 and 004); ``None`` when none was."""
    found = None
    for hand, (_, totals) in enumerate(running_totals(history), start=1):
        best = max(totals)
        if target is not None and best >= target and totals.count(best) > 1:
            found = (hand, best)
    return found


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
    for side in range(match.sides):
        team = match.team_of_side(side)
        points.append(
            sum(card_points(card) for card in state.captured[team] if card in seen)
            + rules.pisti_points * state.pisti[team]
            + rules.jack_pisti_points * state.jack_pisti[team]
        )
    return points


def unseen_taken(table: Table) -> list[int]:
    """Return, per side (``0`` is the player's), how many cards it captured
    that the player never saw face up: face-down centre cards, whose points
    :func:`running_points` leaves out until the hand's score (who took them
    is seen by all; what they are, by nobody or their side, seed 003)."""
    match, state = table.match, table.match.state
    seen = table.observation().seen
    return [
        sum(1 for card in state.captured[match.team_of_side(side)] if card not in seen)
        for side in range(match.sides)
    ]


def turn_position(table: Table) -> int | None:
    """Return the position to play (``0`` is the player), ``None`` once the
    hand is over."""
    state = table.match.state
    return None if state.finished else table.match.position_of(state.turn)


def _table_at(table: Table, state: GameState, log: list[dict[str, Any]]) -> Table:
    """The table as it stood at ``state`` (an earlier moment of the current
    hand), with ``log`` as what had happened since the player's move: the
    match's totals without the current hand, even once it is counted."""
    match = copy.copy(table.match)
    match.state = state
    match.history = match.history[: match.hand_number]
    match.plays_history = match.plays_history[: match.hand_number]
    return replace(table, match=match, log=log)


def hand_before(table: Table) -> Table | None:
    """The table as it stood at the end of the match's previous hand (its
    match at that hand, counted, as its score's page shows it; an empty
    log), while the player has not played in the current hand yet (the
    others may have); else ``None`` (the match's first hand, or once the
    player has played). Replayed from that hand's plays: every card of it
    was played, so nothing hidden is there."""
    match = table.match
    started = len(match.state.plays) > match.seat_of(HUMAN)
    if match.hand_number == 0 or match.hand_counted or started:
        return None
    hand = match.hand_number - 1
    earlier = copy.copy(match)
    earlier.hand_number = hand
    earlier.state = match.finished_hand(hand)
    earlier.history = match.history[: hand + 1]
    earlier.plays_history = match.plays_history[: hand + 1]
    return replace(table, match=earlier, log=[])


def motion_view(table: Table, context: dict[str, Any]) -> dict[str, Any]:
    """Return what the table regions show (:mod:`.regions`):
    ``context`` (the table's :func:`table_context`) plus the position to
    play, the running points and the captured cards not seen."""
    return {
        **context,
        "turn": turn_position(table),
        "running": running_points(table),
        "unseen_taken": unseen_taken(table),
        "taken": None,
    }


def _sweeper(table: Table, team: int) -> int:
    """The position shown taking the final sweep for ``team``: the seat
    that made the hand's last capture (its team takes the table, seed 001),
    or when nobody captured, the player's own position if the table goes
    to the player's team, else that team's first position."""
    match = table.match
    captures = [result.seat for result in _hand_results(match) if result.captured]
    if captures:
        return match.position_of(captures[-1])
    positions = [
        position
        for position in range(match.players)
        if match.rules.team_of(match.seat_of(position)) == team
    ]
    return HUMAN if HUMAN in positions else positions[0]


def motion_frames(table: Table, aids: dict[str, bool]) -> list[dict[str, Any]]:
    """Return one view per play since the player's move: the table just
    after that play, for the browser to move the cards step by step
    (``static/pisti.js``). A capturing play's view still shows the taken
    cards on the pile, with ``taken`` saying by whom (``position``,
    ``name``, ``cards``, ``pisti``, ``jack_pisti``).

    Each view has ``position``, the position that played. Only the player's
    observation of each moment is used, so nothing hidden is shown. When
    the hand is over (the page is then the hand's score), the last view is
    the table just before its last cards leave: the hand's last card on
    the pile, taken by its capture or by the final sweep of the table
    (``taken`` then names the position that made the last capture, whose
    side sweeps, and counts every card swept).
    """
    state = table.match.state
    start = len(state.plays) - len(table.log)
    if start < 0:
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
        if event["captured"] or event["swept"]:
            cards = (*before.pile_face_up, event["card"])
            fan = cards[-(PILE_FAN if aids["fan"] else 2) :]
            view["fan"] = fan
            view["under"] = before.pile_size + 1 - len(fan)
            view["under_face_down"] = before.face_down
            taker = event["position"]
            # The pile before the play, as the log and "Pile: N cards" count it.
            count = event["captured"] - 1
            if not event["captured"]:
                # The final sweep: every card left, the last one with them.
                taker, count = _sweeper(table, event["swept_to"]), event["swept"]
            view["taken"] = {
                "position": taker,
                "name": table_names(table).who[taker],
                "cards": count,
                "pisti": event["pisti"],
                "jack_pisti": event["jack_pisti"],
            }
        frames.append(view)
        before = after.observation()
    return frames
