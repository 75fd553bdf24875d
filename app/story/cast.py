"""The cast of Mansion Evenings, weakest first, as data.

Each opponent is a bot of :data:`app.ai.OPPONENTS` (its style switches are
in :mod:`app.ai.styles`; the last two are the Hard and Expert levels under a
name), with a portrait, an introduction and short remarks in English and
Turkish (Flask-Babel; the Turkish is in ``app/translations``). The order is
the measured strength (BENCHMARKS.md, "Mansion Evenings"): each opponent
beats the one before over 2,000 duplicate deals by an interval clear of zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import LazyString, lazy_gettext, lazy_pgettext

#: A story match is a classic match (seed 001) to this many points.
TARGET = 51


@dataclass(frozen=True)
class Opponent:
    """One opponent of the story.

    Attributes:
        key: the bot's name in :data:`app.ai.OPPONENTS` (and the table's level).
        name: how the pages call her or him.
        to_name: the name as the object of "goes to ..." (a dative in
            Turkish, ``pgettext`` context ``"to"``).
        style: one sentence on how she or he plays (what the arena measured).
        intro: the line of introduction on the story page.
        intro_locked: the line shown instead while she or he is locked
            (``None``: ``intro`` always), for an intro that is true only
            once the player reaches her or him.
        capture, pisti: the remark after her or his capture or pişti.
        capture_points: said instead of ``capture`` when the face-up cards
            taken from the pile (not the face-down ones, which stay hidden)
            hold a point; ``None``: ``capture`` always.
        won_hand, lost_hand: the remark between hands, after a hand she or
            he won or lost.
        won_match, lost_match: the remark at the end of a match she or he
            won or lost, whoever won its last hand.
        explains: whether the remarks explain each play (the teacher's way).
    """

    key: str
    name: LazyString
    to_name: LazyString
    style: LazyString
    intro: LazyString
    capture: LazyString
    pisti: LazyString
    won_hand: LazyString
    lost_hand: LazyString
    won_match: LazyString
    lost_match: LazyString
    explains: bool = False
    capture_points: LazyString | None = None
    intro_locked: LazyString | None = None

    @property
    def portrait(self) -> str:
        """The portrait's file under ``static/``."""
        return f"story/{self.key}.svg"


CAST: tuple[Opponent, ...] = (
    Opponent(
        key="hayriye",
        name=lazy_gettext("Aunt Hayriye"),
        to_name=lazy_pgettext("to", "Aunt Hayriye"),
        style=lazy_gettext(
            "Plays gently: takes what matches, and half the time just lays a card down."
        ),
        intro=lazy_gettext("Come, sit by me, dear. We play slowly here, and I will tell you why."),
        capture=lazy_gettext("There, I take the pile."),
        pisti=lazy_gettext("Oh my, a pişti! Don't leave a lone card for me, dear."),
        won_hand=lazy_gettext("That hand was mine, but you are learning fast."),
        lost_hand=lazy_gettext("Well played, dear! You took that hand."),
        won_match=lazy_gettext(
            "The match is mine this time, dear. Come back and we will play again."
        ),
        lost_match=lazy_gettext("You won the match, dear! The whole family will hear of it."),
        explains=True,
    ),
    Opponent(
        key="sevim",
        name=lazy_gettext("Cousin Sevim"),
        to_name=lazy_pgettext("to", "Cousin Sevim"),
        style=lazy_gettext(
            "Plays for piştis: clears every pile with a Jack and boldly leads lone cards "
            "whose mates are all still out. Her table sees the most piştis, though more "
            "of them go to you than to her."
        ),
        intro=lazy_gettext("Piştis or nothing, cousin! Let's make it exciting."),
        capture=lazy_gettext("Cleared! Now lead something, I dare you."),
        pisti=lazy_gettext("Pişti! That's the only way to play."),
        won_hand=lazy_gettext("Told you, fortune favours the bold."),
        lost_hand=lazy_gettext("Bah, you play it safe. Next hand!"),
        won_match=lazy_gettext("The match is mine! Boldness wins in the end."),
        lost_match=lazy_gettext("You won the match, cousin. Next time I'll be bolder still."),
    ),
    Opponent(
        key="cevdet",
        name=lazy_gettext("Uncle Cevdet"),
        to_name=lazy_pgettext("to", "Uncle Cevdet"),
        style=lazy_gettext(
            "Hoards his Jacks: never spends one while another card will do, so it comes "
            "last in its deal, and in the last deal it most often takes the table."
        ),
        intro=lazy_gettext("A Jack in the hand is worth two on the table, young one."),
        # Nothing of his hand: after most of his captures he holds no Jack.
        capture=lazy_gettext("Mine. Slow and steady, young one."),
        pisti=lazy_gettext("Heh, a pişti for the old man."),
        won_hand=lazy_gettext("Patience wins, every time."),
        # Nothing of his Jacks: in most hands he loses, every Jack of his took a pile.
        lost_hand=lazy_gettext("Hmph. That hand is yours, young one. Patience will pay yet."),
        won_match=lazy_gettext("The match is mine. Patience, young one, patience."),
        lost_match=lazy_gettext(
            "Hmph. The match is yours, young one. Patience did not pay this time."
        ),
    ),
    Opponent(
        key="nevin",
        name=lazy_gettext("Nevin Hanım"),
        to_name=lazy_pgettext("to", "Nevin Hanım"),
        style=lazy_gettext(
            "Gives nothing away: keeps her scoring cards off the pile, takes any pile with "
            "points in it, and leads the ranks already seen."
        ),
        intro=lazy_gettext("I never leave a point on the table. Shall we?"),
        # "Those points" only when the cards she took in sight hold one.
        capture=lazy_gettext("Mine, thank you. Nothing left lying about."),
        capture_points=lazy_gettext("I'll keep those points safe, thank you."),
        pisti=lazy_gettext("A pişti. You should have counted that rank."),
        won_hand=lazy_gettext("Careful play pays."),
        lost_hand=lazy_gettext("Nicely done. I shall be more careful."),
        won_match=lazy_gettext("The match is mine. Careful play always pays."),
        lost_match=lazy_gettext("The match is yours. Well played, I must say."),
    ),
    Opponent(
        key="ferit",
        name=lazy_gettext("Ferit Hoca"),
        to_name=lazy_pgettext("to", "Ferit Hoca"),
        style=lazy_gettext(
            "Counts every card: weighs each play against the odds that you can answer it "
            "(the Hard level)."
        ),
        intro=lazy_gettext("Fifty-two cards, four of each rank. I remember all of them."),
        capture=lazy_gettext("As calculated."),
        # Nothing he cannot know for sure: the lone card's mate was his.
        pisti=lazy_gettext(
            "A pişti. Count before you lead a lone card, my friend: I held its mate."
        ),
        won_hand=lazy_gettext("Arithmetic, my friend, simple arithmetic."),
        lost_hand=lazy_gettext("Interesting. I must recount."),
        won_match=lazy_gettext("The match is mine: arithmetic, my friend."),
        lost_match=lazy_gettext("You won the match. I must recount everything."),
    ),
    Opponent(
        key="muruvvet",
        name=lazy_gettext("Mürüvvet Hanım"),
        to_name=lazy_pgettext("to", "Mürüvvet Hanım"),
        style=lazy_gettext(
            "The lady of the mansion, the strongest player in the house: she thinks each "
            "card through to the end of the hand (the Expert level)."
        ),
        intro=lazy_gettext("So you have beaten my whole household. Sit down."),
        intro_locked=lazy_gettext("Beat my whole household first; then you may sit at my table."),
        capture=lazy_gettext("Of course."),
        pisti=lazy_gettext("Pişti. Did you expect anything else?"),
        won_hand=lazy_gettext("The mansion keeps its secrets."),
        lost_hand=lazy_gettext("Hm. You may yet deserve a seat at my table."),
        # Not "as it always is": a player who beat her plays her again after the story.
        won_match=lazy_gettext("The match is mine, as it so often is."),
        lost_match=lazy_gettext("You have beaten me. Take your seat at my table."),
    ),
)

BY_KEY: dict[str, Opponent] = {opponent.key: opponent for opponent in CAST}


def opponent(key: object) -> Opponent | None:
    """Return the opponent called ``key``, or ``None`` if there is none."""
    return BY_KEY.get(key) if isinstance(key, str) else None
