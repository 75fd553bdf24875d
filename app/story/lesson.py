"""Aunt Hayriye's lesson: one stacked deal (fixed cards, never shuffled)
played by a fixed script, in which the player makes the moves that teach
(seed 001: "Aunt Hayriye gives a short lesson before your first game").

The player (seat 0) plays first under the ``classic`` rules, the rules of
the story's matches. Each :class:`Step` is one of the player's plays in
:data:`PLAYS`; between steps the script plays on by itself (Aunt Hayriye's
answers, and the middle deals, which are played for the player). What each
step teaches, from the rules and seed 001's "Common mistakes": capturing by
rank, a pişti, why a Jack on a lone card is not one, capturing with a Jack,
keeping a Jack for the end, the last capture taking the table; the scoring
comes after the last card. ``tests/story/test_story_lesson.py`` plays the script
through the engine and checks every step says what happens.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import LazyString, lazy_gettext

from app.engine import CLASSIC, GameState

#: The stacked deck, top of the stock first: three face-down cards and the
#: 7♣ face up in the centre, then four cards each per deal (player first).
DECK: tuple[str, ...] = (
    *("2H", "6S", "AS", "7C"),
    *("7H", "5D", "JC", "8S"),  # the player's first deal
    *("5S", "9H", "TD", "QC"),  # Aunt Hayriye's first deal
    *("KC", "3D", "KS", "6H", "QD", "JS", "9S", "QH"),
    *("TS", "2S", "3H", "9D", "AD", "6C", "AH", "8H"),
    *("8C", "KD", "2C", "5C", "TH", "8D", "AC", "6D"),
    *("4H", "3S", "2D", "5H", "TC", "4D", "JD", "7D"),
    *("JH", "4C", "9C", "4S"),  # the player's last deal
    *("3C", "7S", "QS", "KH"),  # Aunt Hayriye's last deal
)

#: Every play of the hand, in order (even indices are the player's).
PLAYS: tuple[str, ...] = (
    *("7H", "5S", "5D", "9H", "8S", "TD", "JC", "QC"),
    *("KC", "QD", "3D", "JS", "KS", "9S", "6H", "QH"),
    *("TS", "6C", "2S", "8H", "3H", "AD", "9D", "AH"),
    *("8C", "8D", "KD", "TH", "5C", "6D", "2C", "AC"),
    *("4H", "4D", "3S", "TC", "2D", "7D", "5H", "JD"),
    *("4C", "3C", "9C", "7S", "4S", "QS", "JH", "KH"),
)

RULES = CLASSIC


@dataclass(frozen=True)
class Step:
    """One move the lesson asks of the player.

    Attributes:
        play: the index in :data:`PLAYS` of the player's play.
        title: the step's subject.
        prompt: what Aunt Hayriye asks (``%(top)s``: the pile's top card).
        done: what happened after the right card (``%(card)s``: that card,
            ``%(num)s``: the cards it took).
        jack_wrong: her explanation when the player plays a Jack that is
            not the card asked for.
        reply: what her answer was (``%(card)s``: her card), or ``None``
            when the script plays on to the next step without a word.
    """

    play: int
    title: LazyString
    prompt: LazyString
    done: LazyString
    jack_wrong: LazyString
    reply: LazyString | None = None

    @property
    def card(self) -> str:
        """The card the step asks for."""
        return PLAYS[self.play]


_JACK_LATER = lazy_gettext(
    "A Jack takes any pile, but that is a waste here: the same rank does it, "
    "and your Jack is worth more later."
)

STEPS: tuple[Step, ...] = (
    Step(
        play=0,
        title=lazy_gettext("Capturing by rank"),
        prompt=lazy_gettext(
            "The top card of the pile is the %(top)s. A card of the same rank takes the "
            "whole pile, the three face-down cards too. Which of your cards takes it?"
        ),
        done=lazy_gettext(
            "You took %(num)s cards with your %(card)s: the top card and the three face-down "
            "cards under it. The same rank always takes the pile."
        ),
        jack_wrong=_JACK_LATER,
        reply=lazy_gettext("I put my %(card)s on the empty table, all alone."),
    ),
    Step(
        play=2,
        title=lazy_gettext("A pişti"),
        prompt=lazy_gettext(
            "My %(top)s is alone on the table. Take a lone card with a card of the same "
            "rank and it is a pişti, worth 10 points. Can you?"
        ),
        done=lazy_gettext(
            "Pişti! 10 points for you. Never leave a lone card that your opponent can match."
        ),
        jack_wrong=lazy_gettext(
            "A Jack would take the lone card, but that is no pişti: a pişti needs the same "
            "rank. Look again at your cards."
        ),
        reply=lazy_gettext("I lead my %(card)s onto the empty table."),
    ),
    Step(
        play=4,
        title=lazy_gettext("A Jack on a lone card is no pişti"),
        prompt=lazy_gettext(
            "My %(top)s is alone on the table and you have nothing of its rank. Your Jack "
            "would take it, but a Jack on a lone card is no pişti: a pişti needs the same "
            "rank, and a Jack pişti is a Jack on a lone Jack. Two cards are not worth a "
            "Jack. What will you play?"
        ),
        done=lazy_gettext(
            "Right: your %(card)s stays on the pile, and your Jack waits for a bigger one."
        ),
        jack_wrong=lazy_gettext(
            "That Jack would take just two cards, and it would not be a pişti. Keep it for "
            "a pile worth it: play your other card."
        ),
        reply=lazy_gettext("I put my %(card)s on the pile. Look what I gave you!"),
    ),
    Step(
        play=6,
        title=lazy_gettext("Capturing with a Jack"),
        prompt=lazy_gettext(
            "Now the pile holds three cards, one of them the 10 of diamonds, worth 3 points. "
            "A Jack takes any pile, whatever its top card. Take it!"
        ),
        done=lazy_gettext(
            "Your Jack took %(num)s cards, and the 10 of diamonds' 3 points with them. "
            "That is what a Jack is for."
        ),
        jack_wrong=_JACK_LATER,
        reply=lazy_gettext(
            "I led my %(card)s. Then the middle deals went by, played for you while we "
            "talked: this is already the last deal, and we each have two cards left."
        ),
    ),
    Step(
        play=44,
        title=lazy_gettext("Keeping a Jack for the end"),
        prompt=lazy_gettext(
            "The last deal! When the cards run out, whatever is left on the table goes to "
            "whoever captured last. I still have two cards to play. Your Jack would take the "
            "pile now, but keep it for your very last card. Which card now?"
        ),
        done=lazy_gettext("Good: your %(card)s goes on the pile and your Jack stays in your hand."),
        jack_wrong=lazy_gettext(
            "Not yet! I still have two cards: whatever I put down after your Jack would stay "
            "on the table, and I might take it all back. Keep the Jack for your last card."
        ),
        reply=lazy_gettext("I put my %(card)s on the pile."),
    ),
    Step(
        play=46,
        title=lazy_gettext("The last capture takes the table"),
        prompt=lazy_gettext("Your last card: the Jack takes the whole pile. Play it."),
        done=lazy_gettext("Your Jack took %(num)s cards, the last capture of the hand."),
        jack_wrong=_JACK_LATER,
        reply=lazy_gettext(
            "My last card, the %(card)s, lands on the empty table, and it goes to you: "
            "the cards left at the end go to whoever captured last."
        ),
    ),
)


def position(step: int) -> GameState:
    """Return the hand as it stands when step ``step`` (from 0) asks for its
    card; ``len(STEPS)`` gives the finished hand, ready to be scored.

    Raises:
        IndexError: ``step`` is not between 0 and ``len(STEPS)``.
    """
    if not 0 <= step <= len(STEPS):
        raise IndexError(f"the lesson has no step {step}")
    played = STEPS[step].play if step < len(STEPS) else len(PLAYS)
    return GameState.replay(RULES, DECK, PLAYS[:played])
