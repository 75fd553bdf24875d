"""The table's regions drawn in Python: the scoreboard, the felt (the
computers' seats, the centre, your hand), what just happened and the
played-cards counter, each from a view ``v`` (:func:`.view.motion_view`, a
dict). The table page draws the table as it stands, and one ``<template>``
per play since your move draws the table just after that play, which
``static/pisti.js`` steps through while it moves the cards (FLIP). Cards
the script moves carry ``data-flip`` (the card code); regions it swaps
carry ``data-region``.

They return the markup the Jinja macros that came before them returned,
byte for byte (compared for thousands of positions: BENCHMARKS.md, "Cost
of a page"): a table page draws its
regions twice or more, and a macro call, with its escapes and context
lookups, cost several times the lookup of a ready-made text. Every value
put in the page goes through :func:`markupsafe.escape`, as ``{{ value }}``
does; texts are the templates' own, in the page's language
(:func:`.i18n.markup_gettext`). The templates call them as
``table_scoreboard``, ``table_felt``, ``table_log`` and ``table_counter``
(template globals, see :mod:`.templating`), the steps as ``table_steps``
(:func:`steps`, which leaves out of a step what it does not change), and
the playing aids' form (:func:`aids_form`, on the table and home pages)
likewise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from flask import request
from markupsafe import Markup, escape

from .faces import back, face
from .i18n import card_name
from .i18n import markup_gettext as _
from .i18n import markup_ngettext as ngettext

if TYPE_CHECKING:
    from app.engine import RuleSet

    from .view import Place

#: The templates' ``url_for`` (endpoint, then the URL's values) and
#: ``csrf_token``.
UrlFor = Callable[..., str]
CsrfToken = Callable[[], str]


#: Before each of a side's chips, for a screen reader: a comma, so that
#: "You, 26 cards, 2 piştis, 43 points" is read with pauses, not as one
#: run of figures ("You 26 cards 2 piştis 43 points").
PAUSE = '<span class="visually-hidden">, </span>'


def scoreboard(v: Mapping[str, Any]) -> Markup:
    """The score so far, a line per side (``data-region="score"``), after
    a line of the counts' headings hidden from a screen reader (``.heads``,
    shown only where the chips show their numbers alone: a phone held
    sideways with large text, pisti.css)."""
    target = v["match"].target
    running = v["running"]
    unseen = v["unseen_taken"]
    title = _("Score so far")
    heads = [_("Cards"), _("Piştis"), _("Points")] + ([_("Match")] if target else [])
    cells = "".join(f"<span>{escape(head)}</span>" for head in heads)
    parts = [
        f'<ul class="scoreboard" data-region="score" aria-label="{title}">\n  '
        f'<li class="heads" aria-hidden="true"><span></span>{cells}</li>\n  '
    ]
    last = len(v["sides"]) - 1
    for index, side in enumerate(v["sides"]):
        jack = side["jack_pisti"]
        # The "·" between the counts stays on the line of the count before
        # it (in Turkish at 360 px it stood alone on a line of its own).
        said = ngettext("%(num)s pişti", "%(num)s piştis", side["pisti"])
        pistis = _bound(said, after=" ·") if jack else _counted(_bound(said))
        jacks = (
            " " + _bound(ngettext("%(num)s Jack pişti", "%(num)s Jack piştis", jack))
            if jack
            else ""
        )
        # "pts" is for the eye; a screen reader is given the words.
        # A button too, showing the points chip's popover (which says how
        # the hands' points add up to the match).
        total = ""
        if target:
            short = _("%(points)s / %(target)s pts", points=side["total"], target=target)
            spoken = _("%(points)s of %(target)s points", points=side["total"], target=target)
            total = (
                '<button type="button" class="chip total" popovertarget="key-points">'
                f'<span aria-hidden="true">{_counted(short, last=True)}</span>'
                f'<span class="visually-hidden">, {spoken}</span></button>'
            )
        cards = _counted(ngettext("%(num)s card", "%(num)s cards", side["captured"]))
        if side.get("most_cards"):
            # The side already sure of the most-cards points (whatever
            # becomes of the cards not taken yet), marked as on the hand's
            # glance ("31 +3", templates/game/_score.html).
            sure = ngettext(
                "sure of the most cards: %(num)s point when the hand is scored",
                "sure of the most cards: %(num)s points when the hand is scored",
                side["most_cards"],
            )
            cards += Markup(
                ' <span class="bonus" title="{}" aria-hidden="true">+{}</span>'
                '<span class="visually-hidden">, {}</span>'
            ).format(sure, side["most_cards"], sure)
        what = _("Card points and piştis so far in this hand")
        points = ngettext("%(num)s point", "%(num)s points", running[index])
        parts.append(
            f'\n  <li class="side side-{index}"><span class="who">{_who(side)}</span>\n'
            f'    <span class="chip">{PAUSE}{cards}</span>\n'
            f'    <span class="chip">{PAUSE}'
            f"{pistis}{jacks}</span>\n"
            # A button that shows what it counts (the page's "key-points"
            # popover, :func:`keys`): a phone shows no title.
            f'    <button type="button" class="chip points" popovertarget="key-points" title="'
            f'{what}">{PAUSE}{_counted(points)}</button>\n'
            f"    {total}{_unseen_chip(unseen[index], to_come=last == index and not any(unseen))}"
            "\n  </li>\n  "
        )
    parts.append("\n</ul>")
    return Markup("".join(parts))


def _who(side: Mapping[str, Any]) -> Markup:
    """A side's name on the score; with a ``short`` one (partners' "We",
    "They") the whole name (``.said-whole``) and, hidden from a screen
    reader, the short one (``.said-short``, the whole as its title), which
    a phone held sideways with large text shows: there "You & North"
    took two lines a side, "Doğu ve Batı" needing 108 px of 78 (pisti.css)."""
    if not side.get("short"):
        return escape(side["name"])
    return Markup(
        '<span class="said-whole">{}</span>'
        '<span class="said-short" aria-hidden="true" title="{}">{}</span>'
    ).format(side["name"], side["name"], side["short"])


def _counted(count: str | Markup, last: bool = False) -> Markup:
    """``count`` ("27 cards", "0 / 51 pts") whole (``.said-whole``) and,
    hidden from a screen reader, its number alone (``.said-short``: up to
    its first space, or its last one when ``last``), which a phone held
    sideways with large text shows in place of the whole under the
    counts' headings (pisti.css). ``count`` may be markup ("0 piştis" in
    a ``.nowrap`` span): its number is read from its text."""
    text = count.striptags() if isinstance(count, Markup) else count
    number = text.rpartition(" ")[0] if last else text.partition(" ")[0]
    return Markup(
        '<span class="said-whole">{}</span><span class="said-short" aria-hidden="true">{}</span>'
    ).format(count, number)


def _bound(count: str, after: str = "") -> Markup:
    """``count`` ("2 piştis", "1 Jack pişti") with its number and first
    word in a span that does not wrap (``.nowrap``), so a chip that wraps
    on a phone breaks between its counts, never after the number ("2
    piştis · 1" over "Jack pişti" at 390 px). The text keeps its plain
    spaces. Only the first word: more made the chips too wide for a 360 px
    phone. ``after`` (a separator, " ·") is kept with the last word."""
    number, _, words = str(count).partition(" ")
    first, _, rest = words.partition(" ")
    if not rest:
        return Markup('<span class="nowrap">{} {}{}</span>').format(number, first, after)
    kept = Markup('<span class="nowrap">{} {}</span>').format(number, first)
    if not after:
        return kept + Markup(" {}").format(rest)
    head, _, last = rest.rpartition(" ")
    between = Markup(" {} ").format(head) if head else Markup(" ")
    return kept + between + Markup('<span class="nowrap">{}{}</span>').format(last, after)


def _unseen_chip(count: int, to_come: bool = False) -> str:
    """The chip of a side's captured cards not seen face up (the face-down
    centre cards): their points are not in its points so far. ``to_come``
    (the last side, while no side has any): an empty one, which keeps that
    line under the chips on a phone, where the sides' chips are rows of one
    grid, so the rows do not grow when a side takes those cards
    (pisti.css)."""
    if to_come:
        return '<span class="chip unseen to-come" aria-hidden="true">&nbsp;</span>'
    if not count:
        return ""
    title = _("Taken face down: their points count when the hand is scored")
    counted = ngettext("%(num)s of them face down", "%(num)s of them face down", count)
    # A button showing the points popover, which says so: a phone shows no
    # title.
    return (
        f'<button type="button" class="chip unseen" popovertarget="key-points" title="{title}">'
        f"{PAUSE}{counted}"
        "</button>\n    "
    )


Tag = tuple[str, str, str]
"""A tag beside a seat's name: its words, its kind (a CSS class, or "") and
its title (a tooltip, or ""). A tag with a title is a button showing the
page's popover ``key-<kind>`` (:func:`keys`)."""


def _tag(tag: Tag) -> str:
    """A tag; one with a title is a button that shows the page's popover
    ``key-<kind>`` (:func:`keys`) saying what it means, for a phone, which
    shows no title."""
    text, kind, title = tag
    classes = f"tag {kind}" if kind else "tag"
    if title:
        return (
            f'<button type="button" class="{classes}" popovertarget="key-{kind}" '
            f'title="{title}">{text}</button>'
        )
    return f'<span class="{classes}">{text}</span>'


def _place_name(heading_id: str, name: str, tags: list[Tag]) -> str:
    """A seat's heading: its name, then its tags, named for a screen reader
    as one phrase with commas ("North, partner, dealer"). The name is the
    heading's ``aria-label``: the heading is a flex row, whose items a
    browser reads with a space before each comma ("North , partner")."""
    label = ", ".join(str(text) for text in [name, *(tag[0] for tag in tags)])
    # The tags in a wrapper: on a phone held upright the seat across puts
    # them on a line of their own under the name (pisti.css).
    shown = "".join(f" {_tag(tag)}" for tag in tags)
    if shown:
        shown = f' <span class="tags">{shown.lstrip()}</span>'
    return (
        f'<h2 class="place-name" id="{heading_id}" aria-label="{escape(label)}">'
        f"{escape(name)}{shown}</h2>"
    )


def _turn_tag(v: Mapping[str, Any], position: int) -> list[Tag]:
    if v["turn"] != position:
        return []
    return [(_("your turn") if position == 0 else _("to play"), "turn-tag", "")]


def _dealer_tag(dealer: bool) -> list[Tag]:
    return [(_("dealer"), "dealer", _("Dealer: plays the last card"))] if dealer else []


def _seat(
    v: Mapping[str, Any], place: Place, level_names: Mapping[str | None, Any], url_for: UrlFor
) -> str:
    match = v["match"]
    position = place.position
    top = " place-top" if match.players == 2 else ""
    turn = " turn" if v["turn"] == position else ""
    partner: list[Tag] = (
        [(_("partner"), "", "")] if match.rules.teams == "partners" and position == 2 else []
    )
    # After the level: read as "Medium, to play".
    turn_tag = "".join(
        f'<span class="visually-hidden">,</span> {_tag(tag)}' for tag in _turn_tag(v, position)
    )
    if place.crest:
        level = (
            f'<img class="crest" src="{escape(url_for("static", filename=place.crest))}" alt="" '
            'width="28" height="28">'
        )
    else:
        level = escape(level_names.get(place.level, ""))
    cards = place.cards
    in_hand = ngettext("%(num)s card in hand", "%(num)s cards in hand", cards)
    last = ""
    if place.last:
        card = place.last["card"]
        last = (
            f'\n  <p class="last-play">{face(card, "tiny")} <span><span class="visually-hidden">'
            f"{escape(card_name(card))}: </span>{escape(place.last['said'])}</span></p>\n  "
        )
    return (
        f'<section class="place seat place-{position}{top}{turn}"\n'
        f'         data-region="seat-{position}" data-seat="{position}" '
        f'aria-labelledby="place-{position}">\n'
        f"  {_place_name(f'place-{position}', place.name, partner + _dealer_tag(place.dealer))}\n"
        f'  <p class="place-level">{level}{turn_tag}</p>\n'
        f'  <div class="backs backs-{cards}" role="img" aria-label="{in_hand}">\n'
        f"    {back('small') * cards}\n"
        f'    <span class="backs-count" aria-hidden="true">{cards}</span>\n'
        f"  </div>\n  {last}\n</section>"
    )


def _terse(said: str, short: str) -> str:
    """The centre's words ``said`` as a screen reader hears them, with their
    ``short`` form beside ("Empty", "Pile: 6", the stock's "32"), hidden
    from it: a phone held sideways with larger text shows the short one,
    its centre too narrow for the whole (see the style sheet); other
    layouts show ``said``."""
    return (
        f'<span class="said-whole">{said}</span>'
        f'<span class="said-short" aria-hidden="true">{short}</span>'
    )


def _centre(v: Mapping[str, Any], aids: Mapping[str, bool]) -> str:
    obs = v["obs"]
    taken = v["taken"]
    stock = (
        '<span class="card back" data-flip="stock" aria-hidden="true"></span>'
        if obs.stock
        else '<span class="card empty" aria-hidden="true"></span>'
    )
    bottom = ""
    # Pictured while in the stock: the dealer is dealt them last. The cut's
    # card, then any opening Jacks put under it ("under"), the real bottom.
    if obs.bottom_card and obs.stock and aids["bottom_card"]:
        known = obs.stock_bottom[-obs.stock :]
        said = ngettext("bottom card", "bottom cards", len(known))
        faces = "".join(str(face(card, "tiny")) for card in known)
        names = ", ".join(str(escape(card_name(card))) for card in known)
        bottom = (
            f'<span class="bottom-card"><span class="bottom-faces">{faces}</span> '
            f'<span class="count">'
            f'<span aria-hidden="true">{said}</span><span class="visually-hidden">{said}: '
            f"{names}</span></span></span>"
        )
    fan = v["fan"]
    last = len(fan) - 1
    cards = "".join(
        str(face(card, "top" if index == last else "", card)) for index, card in enumerate(fan)
    )
    mark = ""
    if taken and (taken["pisti"] or taken["jack_pisti"]):
        said = _("Jack pişti!") if taken["jack_pisti"] else _("Pişti!")
        mark = f'<span class="pisti-mark">{said}</span>'
    if taken:
        if taken["position"] == 0:
            took = ngettext("You take %(num)s card", "You take %(num)s cards", taken["cards"])
        else:
            took = ngettext(
                "%(who)s takes %(num)s card",
                "%(who)s takes %(num)s cards",
                taken["cards"],
                who=taken["name"],
            )
        short = ngettext("+%(num)s card", "+%(num)s cards", taken["cards"])
        count = f"{_terse(took, short)}\n      \n      "
    else:
        top = ""
        if obs.pile_top:
            named = _("Top card: %(card)s.", card=card_name(obs.pile_top))
            top = f'<span class="visually-hidden">{named} </span>'
        if obs.pile_size:
            face_down = ", " + _("%(num)s face down", num=obs.face_down) if obs.face_down else ""
            more = ""
            if v["under"] > obs.face_down:
                more = " ({})".format(
                    ngettext(
                        "%(num)s more face up underneath",
                        "%(num)s more face up underneath",
                        v["under"] - obs.face_down,
                    )
                )
            pile = ngettext("Pile: %(num)s card", "Pile: %(num)s cards", obs.pile_size)
            short = _("Pile: %(num)s", num=obs.pile_size)
            count = f"{top}\n      {_terse(f'{pile}{face_down}{more}', short)}\n      "
        else:
            empty = _terse(_("The table is empty"), _("Empty"))
            count = f"{top}\n      {empty}"
    taken_by = f' data-taken-by="{taken["position"]}"' if taken else ""
    seen = ""
    if obs.seen_face_down:
        # Read apart: "Ace of clubs, Jack of diamonds, 3 of clubs".
        last_seen = len(obs.seen_face_down) - 1
        shown = "".join(
            f'{face(card, "tiny")}<span class="visually-hidden">{escape(card_name(card))}'
            f"{', ' if index < last_seen else ''}</span>"
            for index, card in enumerate(obs.seen_face_down)
        )
        said = _("Your side took the face-down cards; only your side sees them:")
        short = _("Your side’s face‑down cards:")
        # Short on the table (a phone has no room for the sentence), whole
        # for a screen reader and on hover; "face‑down" with a non-breaking
        # hyphen (U+2011), not split over two lines on a phone.
        seen = (
            f'<p class="count seen-face-down" title="{said}">'
            f'<span aria-hidden="true">{short}</span>'
            f'<span class="visually-hidden">{said}</span>\n'
            f'      <span class="seen-cards">{shown}</span></p>'
        )
    centre = _("The centre")
    in_stock = _("Stock: %(num)s", num=obs.stock)
    return (
        f'\n<section class="centre" data-region="centre" aria-label="{centre}">\n'
        '  <div class="stock">\n'
        f"    {stock}\n"
        f'    <span class="count">{_terse(in_stock, str(obs.stock))}</span>\n'
        f"    {bottom}\n"
        "  </div>\n"
        f'  <div class="pile"{taken_by}>\n'
        f'    <div class="fan{" taken" if taken else ""}">\n'
        "      "
        + (
            '<span class="card back under" data-flip="under" aria-hidden="true"></span>'
            if v["under_face_down"]
            else ""
        )
        + "\n      "
        + (
            '<span class="card face-up-edge under edges-'
            f'{min(v["under"] - v["under_face_down"], 8)}" aria-hidden="true"></span>'
            if v["under"] > v["under_face_down"]
            else ""
        )
        + f"\n      {cards}\n      "
        + ("" if fan else '<span class="card empty" aria-hidden="true"></span>')
        + f"\n      {mark}\n"
        "    </div>\n"
        '    <p class="count" id="pile-count">\n'
        f"      {count}\n"
        "    </p>\n"
        "    \n"
        f"    {seen}\n"
        "  </div>\n"
        "</section>"
    )


def _you(
    v: Mapping[str, Any], live: bool, aids: Mapping[str, bool], token: str, action: str
) -> str:
    me = v["places"][0]
    last = ""
    if me.last:
        card = me.last["card"]
        played = _("You played")
        last = (
            f'\n    <p class="last-play">{played} <span class="played">'
            f'{face(card, "tiny")}<span aria-hidden="true">:</span></span> <span>'
            f'<span class="visually-hidden">{escape(card_name(card))}: </span>'
            f"{escape(me.last['said'])}</span></p>\n    "
        )
    items = []
    if live:
        pile_size = v["obs"].pile_size
        fields = (
            f'\n    <form method="post" action="{escape(action)}">\n'
            f'      <input type="hidden" name="csrf_token" value="{escape(token)}">\n'
            f'      <input type="hidden" name="move" value="{v["move"]}">\n'
            f'      <input type="hidden" name="hand" value="{v["match"].hand_number}">\n'
            f'      <input type="hidden" name="game" value="{escape(v["game_id"])}">\n'
        )
        for item in v["hand"]:
            card = item["card"]
            marked = item["captures"] and aids["highlight"]
            if marked:
                # The mark's words are in the name, as shown: a player
                # driving the browser by voice says "click takes 5".
                label = ngettext(
                    "%(card)s — takes %(num)s: captures the pile’s only card",
                    "%(card)s — takes %(num)s: captures all the pile’s cards",
                    pile_size,
                    card=card_name(card),
                )
                mark = _("takes %(num)s", num=pile_size)
                takes = f'<span class="take-mark" aria-hidden="true">{mark}</span>'
            else:
                label, takes = escape(card_name(card)), ""
            key = item["key"]
            items.append(
                f"\n    {fields}"
                f'      <button class="card-button{" captures" if marked else ""}" type="submit" '
                f'name="card" value="{escape(card)}"\n'
                f'              data-key="{key}" aria-keyshortcuts="{key}"\n'
                f'              aria-label="{label}">\n'
                f"        {face(card, '', card)}\n"
                f"        {takes}\n"
                "      </button>\n"
                "    </form>\n    \n    "
            )
    else:
        for item in v["hand"]:
            card = item["card"]
            items.append(
                f'\n    \n    <span class="card-button">{face(card, "", card)}</span>\n    \n    '
            )
    heading = _place_name("your-hand", _("Your hand"), _dealer_tag(me.dealer) + _turn_tag(v, 0))
    return (
        f'\n<section class="place place-0 you{" turn" if v["turn"] == 0 else ""}" '
        'data-region="you" data-seat="0" aria-labelledby="your-hand">\n'
        '  <div class="you-head">\n'
        f"    {heading}\n"
        f"    {last}\n"
        "  </div>\n"
        '  <div class="hand">\n'
        f"    {''.join(items)}\n"
        "  </div>\n"
        "</section>"
    )


def felt(
    v: Mapping[str, Any],
    live: bool,
    aids: Mapping[str, bool],
    level_names: Mapping[str | None, Any],
    url_for: UrlFor,
    csrf_token: CsrfToken,
) -> Markup:
    """The table's felt: the computers' seats, the centre and your hand,
    with a form per card when ``live`` (the page's table; its steps are
    not). ``aids``: the player's (:func:`.store.aids`); ``level_names``,
    ``url_for`` and ``csrf_token`` the templates'."""
    seats = "".join(_seat(v, place, level_names, url_for) for place in v["places"][1:])
    token = csrf_token() if live else ""
    action = url_for("game.play") if live else ""
    return Markup(
        f'<div class="table">\n  {seats}\n  {_centre(v, aids)}\n'
        f"  {_you(v, live, aids, token, action)}\n</div>"
    )


def steps(
    views: list[dict[str, Any]],
    aids: Mapping[str, bool],
    level_names: Mapping[str | None, Any],
    url_for: UrlFor,
) -> Markup:
    """The steps of the plays since the player's move, a ``<template
    class="frame" data-position="<position that played>">`` per view of
    ``views`` (:func:`.view.motion_frames`), each holding the regions of
    the table just after that play (``score``, ``seat-<position>``,
    ``centre``, ``you``, ``log``, and ``counter`` when that aid is on).
    With the sounds aid on, a step also says in ``data-sound`` what the
    script is to play as its card lands: ``card``, ``capture`` (a capture
    or the final sweep), ``pisti`` or ``jack-pisti``.

    The first step holds every region. A later step leaves out a region
    drawn exactly as in the step before it (the other seats, your hand, a
    score no capture changed): the page's script keeps a region a step
    does not bring (``showFrame`` in ``static/pisti.js``). A partners play's
    answer, four steps and the page, is some 45 KB of HTML instead of 55,
    its steps 28 KB instead of 38."""
    frames = []
    before: dict[str, str] = {}
    for v in views:
        drawn = {"score": str(scoreboard(v))}
        for place in v["places"][1:]:
            drawn[f"seat-{place.position}"] = _seat(v, place, level_names, url_for)
        drawn["centre"] = _centre(v, aids)
        drawn["you"] = _you(v, False, aids, "", "")
        drawn["log"] = str(log(v, aids))
        if aids["counter"]:
            drawn["counter"] = str(counter(v))
        changed = "".join(markup for name, markup in drawn.items() if before.get(name) != markup)
        sound = f' data-sound="{_sound(v.get("taken"))}"' if aids["sound"] else ""
        frames.append(
            f'\n<template class="frame" data-position="{escape(v["position"])}"{sound}>\n  '
            f"{changed}\n</template>\n"
        )
        before = drawn
    return Markup("".join(frames))


def _sound(taken: Mapping[str, Any] | None) -> str:
    """The sound of a step (:func:`steps`) whose play took ``taken`` (the
    view's ``taken``, ``None`` when the card stayed on the pile)."""
    if not taken:
        return "card"
    if taken["jack_pisti"]:
        return "jack-pisti"
    return "pisti" if taken["pisti"] else "capture"


def log(
    v: Mapping[str, Any],
    aids: Mapping[str, bool],
    remark: Markup | None = None,
    heard: Markup | None = None,
) -> Markup:
    """What just happened, a line per play (``data-region="log"``), after
    ``heard`` (HTML, read out before the lines: the last hand's note with
    the "deal the next hand at once" aid) when given, and after it a story
    opponent's ``remark`` (HTML) when given, then the hints
    (``v["hints"]``: texts, none when the aid is off) in a box of their own:
    all inside the live region, so the hints are read out with the plays.
    An aids change that only turns the hints on or off refills the box
    alone (pisti.js), so a screen reader reads the hint, not the plays
    again."""
    if v["happened"]:
        lines = "".join(f"<li>{escape(line)}</li>" for _step, line in v["happened"])
        told = f'\n  <ol class="log">{lines}</ol>\n  '
    else:
        marked = (
            " " + _("Cards marked “takes” would capture the pile.") if aids["highlight"] else ""
        )
        asked = _("Your move: choose a card to play it.")
        told = f'\n  <p class="log-empty">{asked}{marked}</p>\n  '
    said = f"{told}{remark}" if remark else told
    if heard:
        said = f"{heard}{said}"
    tag = _("Hint")
    hints = "".join(
        f'<li><span class="hint-tag">{tag}</span> {escape(hint)}</li>' for hint in v["hints"]
    )
    named = _("Hints")
    listed = f'<ul class="hints" aria-label="{named}">{hints}</ul>' if hints else ""
    # The box is there without hints too, for pisti.js to fill.
    said += f'<div class="hint-box">{listed}</div>'
    return Markup(f'<div aria-live="polite" class="live" data-region="log">\n  {said}\n</div>')


def points_said(rules: RuleSet, sides: int, target: int | None = None) -> list[Markup]:
    """How points are scored under ``rules`` (:class:`app.engine.RuleSet`),
    in sentences: what each card and pişti is worth, what the hand's
    scoring adds (most cards, with ``sides`` sides; a house rule's
    last-cards bonus) and, with a match's ``target``, how the hands add
    up to the match. The points popover (:func:`keys`) and the rules page
    say them."""
    # The cards in words, not by their signs ("2♣"): a page naming a card
    # by its sign or its name would look, to the secrecy tests, like a
    # hidden card shown.
    worth = _(
        "Each Ace and Jack is worth 1 point, the two of clubs 2, the ten of diamonds 3, a "
        "pişti %(pisti)s and a Jack pişti %(jack)s.",
        pisti=rules.pisti_points,
        jack=rules.jack_pisti_points,
    )
    most = rules.most_cards_points
    if rules.most_cards == "27_or_more":
        later = _(
            "When the hand is scored, %(most)s points more go to the side that has taken 27 or "
            "more of the 52 cards, and the points of the cards taken face down are added.",
            most=most,
        )
    elif sides > 2:
        later = _(
            "When the hand is scored, %(most)s points more go to the side that has taken the "
            "most of the 52 cards (none when the most is shared), and the points of the cards "
            "taken face down are added.",
            most=most,
        )
    else:
        later = _(
            "When the hand is scored, %(most)s points more go to the side that has taken more "
            "of the 52 cards (none on 26–26), and the points of the cards taken face down are "
            "added.",
            most=most,
        )
    if rules.last_sweep_bonus:
        # A house rule's bonus (the score table's "Last cards bonus" row).
        later += " " + _(
            "The side that takes the cards left on the table at the end of the hand gets "
            "%(bonus)s points more.",
            bonus=rules.last_sweep_bonus,
        )
    said = [worth, later]
    if target:
        said.append(
            _(
                "At the end of each hand they are added to each side's match total (the dark "
                "chip, out of %(target)s): a side that has then reached %(target)s wins (if "
                "both have, the higher total).",
                target=target,
            )
        )
    return said


def keys(rules: RuleSet, sides: int, target: int | None = None, over: bool = False) -> Markup:
    """What the dealer tag and the points chip mean, each in a popover that
    the tag or chip (a button) shows when tapped or clicked: their titles
    are for a mouse, and a phone has none. ``rules``: the game's
    (:class:`app.engine.RuleSet`), whose points are said
    (:func:`points_said`); ``sides``: how many sides score; ``target``:
    the match's, if any. Once on the table page, outside the regions the
    script swaps (``data-region``); ``over``: on the pages between hands
    and after the game, whose score tables' totals and next dealer are
    such buttons too, the points are the hand's, not so far."""
    label = _("Close this message")
    close = (
        '<button type="button" class="key-close" popovertargetaction="hide" '
        f'popovertarget="{{}}" aria-label="{label}">×</button>'
    )
    dealer = _(
        "The dealer deals the cards and plays last: the last card of each deal is the dealer's."
    )
    if over:
        so_far = _(
            "Each side's points in this hand: its card points, its piştis, and what was added "
            "when the hand was scored."
        )
    else:
        so_far = _("The points each side has so far in this hand: its card points and its piştis.")
    points = "".join(f"<p>{line}</p>" for line in [so_far, *points_said(rules, sides, target)])
    tag = _("dealer")
    return Markup(
        '<div class="key" id="key-dealer" popover>'
        f'<p><span class="tag dealer">{tag}</span> {dealer}</p>'
        f"{close.format('key-dealer')}</div>\n"
        '<div class="key" id="key-points" popover>'
        f"{points}"
        f"{close.format('key-points')}</div>"
    )


def counter(v: Mapping[str, Any]) -> Markup:
    """The played-cards counter: how many of each rank were seen face up,
    each rank shown by its card's index (A, 2 ... 10, J, Q, K) and read as
    words ("Jacks: 2 of 4", "Valeler: 4 karttan 2 tanesi çıktı")."""
    words = {"A": _("Aces"), "J": _("Jacks"), "Q": _("Queens"), "K": _("Kings")}
    items = []
    for rank, seen in v["counter"]:
        said = _("%(rank)s: %(seen)s of 4", rank=words.get(rank, rank), seen=seen)
        items.append(
            f'<li class="{"all" if seen == 4 else ""}"><span class="rank" aria-hidden="true">'
            f'{escape(rank)}</span><span class="seen" aria-hidden="true">{seen}</span>'
            f'<span class="visually-hidden">{said}</span></li>'
        )
    title = _("Cards seen face up")
    return Markup(
        '<section class="counter" data-region="counter" aria-labelledby="counter-title">\n'
        f'  <h2 id="counter-title">{title}</h2>\n'
        f"  <ol>{''.join(items)}</ol>\n"
        "</section>"
    )


def aids_form(aids: Mapping[str, bool], url_for: UrlFor, csrf_token: CsrfToken) -> Markup:
    """The playing aids, each a checkbox kept with the player's settings
    (``aids``, :func:`.store.aids`), folded under "Playing aids"; saving
    goes back to this page (after a POST, to the page it answers for). ``url_for`` and
    ``csrf_token`` are the templates'."""
    labels = (
        ("highlight", _("Highlight the cards that would capture")),
        ("counter", _("Played-cards counter")),
        ("four_colour", _("Four-colour deck")),
        ("hints", _("Hints on your turn")),
        ("bottom_card", _("Show the stock's bottom card (partners)")),
        ("fan", _("Fan the pile's top cards")),
        ("remarks", _("Opponents' remarks (Mansion Evenings)")),
        ("slow", _("The others play slower: each card rests a moment on the pile")),
        ("fast", _("Fast play: the cards move quickly, the hand's score comes sooner")),
        ("deal_on", _("Deal the next hand at once: the last hand's points at the table")),
        ("sound", _("Sounds: a tap as each card lands, a chime for a pişti")),
        ("clockwise", _("Play goes clockwise: the next player sits on your left")),
    )
    toggles = "".join(
        f'\n    <label class="toggle"><input type="checkbox" name="{name}" value="on"'
        f"{' checked' if aids[name] else ''}> {label}</label>\n    "
        for name, label in labels
    )
    back = this_page()
    summary, save = _("Playing aids"), _("Save")
    return Markup(
        '<details class="settings">\n'
        f"  <summary>{summary}</summary>\n"
        f'  <form method="post" action="{escape(url_for("game.save_settings"))}" class="aids">\n'
        f'    <input type="hidden" name="csrf_token" value="{escape(csrf_token())}">\n'
        f'    <input type="hidden" name="next" value="{escape(back)}">\n'
        f"    {toggles}\n"
        f'    <button class="button" type="submit">{save}</button>\n'
        "  </form>\n"
        "</details>"
    )


def this_page() -> str:
    """The address a form on this page comes back to (its ``next``): the
    page's own, with the path the site is served under and the query, for
    a page read with GET (or HEAD, as a link's preview asks for it); for a
    form's answer, the address of the page it stands for (the table, a
    deal link's: :func:`.templating.answer_address`)."""
    if request.method not in ("GET", "HEAD"):
        # Imported here: the template globals module imports this one.
        from .templating import answer_address

        return answer_address()
    return request.script_root + request.full_path
