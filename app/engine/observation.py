"""What one seat may see: the only view a bot or a page ever gets.

Hidden from a seat: the other seats' hands, the stock (except its bottom card
where the rule set shows it, and opening Jacks put under it) and the
face-down centre cards, also after they are captured (seed 001: "Nobody sees
these cards during the hand") unless the rule set lets the capturing team
look at them (``face_down="capturer"``, seed 003: "we can look at these
cards ... but can't show them to the other team").
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
        stock_bottom: every card known to be at the bottom of the stock,
            last dealt last: the bottom card where shown, then any opening
            Jacks put under the stock (``opening_jack="under"``); they stay
            known after they are dealt.
        hand_sizes: every seat's number of cards in hand.
        captured: each team's number of captured cards.
        pisti, jack_pisti: each team's pişti and Jack pişti counts.
        plays: every card played so far, in order (all are played face up).
        seen_face_down: the face-down centre cards, once the observing
            seat's team has captured them under ``face_down="capturer"``;
            else empty.
        seen: every card this seat has seen face up: the opening face-up
            cards, the plays, :attr:`stock_bottom` and
            :attr:`seen_face_down`.
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
    stock_bottom: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    captured: tuple[int, ...]
    pisti: tuple[int, ...]
    jack_pisti: tuple[int, ...]
    plays: tuple[str, ...]
    seen_face_down: tuple[str, ...]
    seen: frozenset[str]
    last_capturer: int | None
    deal_number: int
    finished: bool

    @property
    def team(self) -> int:
        """The observing seat's team (see :meth:`RuleSet.team_of`)."""
        return self.rules.team_of(self.seat)

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
    rules = state.rules
    bottom = state.stock_bottom[0] if rules.bottom_card_shown else None
    face_down: tuple[str, ...] = ()
    if (
        rules.face_down == "capturer"
        and state.face_down_taker is not None
        and state.face_down_taker == rules.team_of(seat)
    ):
        face_down = state.face_down_cards
    seen = set(state.face_up_at_start)
    seen.update(state.plays)
    seen.update(state.stock_bottom)
    seen.update(face_down)
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
        stock_bottom=state.stock_bottom,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        captured=tuple(len(cards) for cards in state.captured),
        pisti=tuple(state.pisti),
        jack_pisti=tuple(state.jack_pisti),
        plays=tuple(state.plays),
        seen_face_down=face_down,
        seen=frozenset(seen),
        last_capturer=state.last_capturer,
        deal_number=state.deal_number,
        finished=state.finished,
    )
