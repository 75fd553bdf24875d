"""What one seat may see: the only view a bot or a page ever gets.

Hidden from a seat: the other seats' hands, the stock (except its bottom card
where the rule set shows it) and the face-down centre cards, also after they
are captured (seed 001: "Nobody sees these cards during the hand").
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RuleSet
from .state import PLAYS_PER_HAND, GameState


@dataclass(frozen=True)
class Observation:
    """A seat's view of a hand in progress.

    Attributes:
        rules: the rule set.
        seat: the observing seat (0 plays first; the last seat deals).
        turn: the seat to play.
        hand: the observing seat's own cards (card codes).
        pile_face_up: the face-up cards of the pile, bottom to top (the top
            card is last).
        pile_size: all cards in the pile, face-down ones included.
        face_down: face-down cards at the bottom of the pile.
        stock: cards left in the stock.
        bottom_card: the stock's bottom card (``deck[51]``) when the rule set
            shows it to everyone, else ``None``; it stays known after it is
            dealt to the dealer.
        hand_sizes: every seat's number of cards in hand.
        captured: each team's number of captured cards.
        pisti, jack_pisti: each team's pişti and Jack pişti counts.
        plays: every card played so far, in order (all are played face up).
        seen: every card this seat has seen face up: the opening face-up
            cards, the plays, and the bottom card where shown.
        last_capturer: the team that captured last, or ``None``.
        deal_number: the current deal, 1-based.
        finished: whether the hand is over.
    """

    rules: RuleSet
    seat: int
    turn: int
    hand: tuple[str, ...]
    pile_face_up: tuple[str, ...]
    pile_size: int
    face_down: int
    stock: int
    bottom_card: str | None
    hand_sizes: tuple[int, ...]
    captured: tuple[int, ...]
    pisti: tuple[int, ...]
    jack_pisti: tuple[int, ...]
    plays: tuple[str, ...]
    seen: frozenset[str]
    last_capturer: int | None
    deal_number: int
    finished: bool

    @property
    def team(self) -> int:
        """The observing seat's team (``seat % 2``)."""
        return self.seat % 2

    @property
    def pile_top(self) -> str | None:
        """The pile's top card, or ``None`` for an empty table."""
        return self.pile_face_up[-1] if self.pile_face_up else None

    @property
    def plays_left(self) -> int:
        """Plays left in the hand, this seat's and everyone else's."""
        return PLAYS_PER_HAND - len(self.plays)


def observe(state: GameState, seat: int) -> Observation:
    """Return what ``seat`` may see of ``state``."""
    bottom = None
    if state.rules.bottom_card_shown:
        bottom = state.deck[-1]
    seen = set(state.face_up_at_start)
    seen.update(state.plays)
    if bottom:
        seen.add(bottom)
    return Observation(
        rules=state.rules,
        seat=seat,
        turn=state.turn,
        hand=tuple(state.hands[seat]),
        pile_face_up=tuple(state.pile[state.face_down :]),
        pile_size=len(state.pile),
        face_down=state.face_down,
        stock=state.stock,
        bottom_card=bottom,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        captured=tuple(len(cards) for cards in state.captured),
        pisti=tuple(state.pisti),
        jack_pisti=tuple(state.jack_pisti),
        plays=tuple(state.plays),
        seen=frozenset(seen),
        last_capturer=state.last_capturer,
        deal_number=state.deal_number,
        finished=state.finished,
    )
