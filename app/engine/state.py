"""One hand of Pişti: dealing, legal plays, applying a play.

The common rules come from ``docs/record-format.md`` (from the seeds
000, 001 and 003): a card of the top card's rank, or any Jack, captures the
whole pile; a pişti is taking a lone card with a card of its rank; a Jack on a
lone Jack is a Jack pişti; the table goes to the last capturer at the end.
Everything that varies is a field of :class:`~app.engine.rules.RuleSet`.

Seats are numbered in playing order for the hand: seat 0 plays first, the
last seat is the dealer. Team of a seat is :meth:`RuleSet.team_of`: the
seat itself, or ``seat % 2`` with partners.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import FULL_DECK, InvalidCard, parse_card
from .rules import InvalidRules, RuleSet, rules_from_json, rules_to_json

HAND_SIZE = 4
CENTRE = 4
PLAYS_PER_HAND = 48


class IllegalPlay(ValueError):
    """Raised by :meth:`GameState.play` when the hand is over or the card is
    not in the hand of the seat whose turn it is. Nothing is changed."""


class InvalidState(ValueError):
    """Raised when a deck, a list of plays or a saved state cannot be a hand
    of Pişti under its rule set (the message names the problem).

    Attributes:
        play: for a play that cannot be made (not a card, or not in the
            hand of the seat to play), its index in ``plays`` (from 0, as
            the message says it); else ``None``.
    """

    def __init__(self, message: str, play: int | None = None) -> None:
        super().__init__(message)
        self.play = play


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What one play did.

    Attributes:
        seat: the seat that played.
        card: the card code played.
        captured: cards taken by this play, the played card included
            (0 when the card stayed on the pile).
        pisti: whether the capture was a pişti (worth the rule set's
            ``pisti_points``).
        jack_pisti: whether it was a Jack pişti (worth its
            ``jack_pisti_points``).
        dealt: whether a new four-card deal followed the play.
        hand_over: whether this was the hand's last play.
        swept: cards left on the table that went to ``swept_to`` at the end.
        swept_to: the team that took the leftovers (and the rule set's
            ``last_sweep_bonus``), or ``None``.
    """

    seat: int
    card: str
    captured: int = 0
    pisti: bool = False
    jack_pisti: bool = False
    dealt: bool = False
    hand_over: bool = False
    swept: int = 0
    swept_to: int | None = None


def would_capture(card: str, pile_top: str | None) -> bool:
    """Return whether ``card`` takes a pile whose top card is ``pile_top``
    (``None`` for an empty table, where nothing is captured)."""
    return pile_top is not None and (card[0] == pile_top[0] or card[0] == "J")


def check_deck(rules: RuleSet, cards: object) -> tuple[str, ...]:
    """Return ``cards`` as a deck of canonical codes, top of the stock first.

    Raises:
        InvalidState: not a list of the 52 distinct cards, or a deck the rule
            set forbids (four centre Jacks, a Jack at the bottom under the
            partners cut).
    """
    if not isinstance(cards, (list, tuple)):
        raise InvalidState("deck is not a list of card codes")
    if len(cards) != len(FULL_DECK):
        raise InvalidState(f"deck has {len(cards)} cards, not 52")
    deck = []
    seen = set()
    for index, text in enumerate(cards):
        try:
            card = parse_card(text)
        except InvalidCard as exc:
            raise InvalidState(f"deck[{index}]: {exc}") from None
        if card in seen:
            raise InvalidState(f"deck[{index}]: {card} appears twice in the deck")
        seen.add(card)
        deck.append(card)
    problem = rules.deck_problem(deck)
    if problem:
        raise InvalidState(f"invalid deck: {problem}")
    return tuple(deck)


class GameState:
    """A hand of Pişti in progress.

    Build one with :meth:`deal` (a new hand from a deck) or :meth:`from_dict`.
    The state is fully determined by its rule set, its deck and the plays so
    far, which is exactly what :meth:`to_dict` saves.

    Attributes (read them, do not change them):
        rules: the :class:`RuleSet`.
        deck: the 52 card codes as dealt (the record's deck), top of the
            stock first.
        order: the same cards in the order they are used: ``order[0..3]``
            the centre (bottom to top), then the stock, top first. The same
            as ``deck`` except under ``opening_jack="under"``, where opening
            Jacks go to the bottom of the stock.
        pile: the centre pile, bottom to top.
        face_down: how many cards at the bottom of ``pile`` are face down.
        face_down_cards: the face-down centre cards of the deal.
        face_down_taker: the team that captured the face-down cards, or
            ``None`` while they are on the table.
        hands: each seat's hand, a list of card codes.
        captured: each team's captured cards.
        pisti, jack_pisti: each team's pişti and Jack pişti counts.
        plays: the card codes played so far, in order.
        last_capturer: the team that captured last, or ``None``.
        swept_to: the team that took the cards left on the table at the end
            of the hand, or ``None`` (no cards were left, or not over yet).
        next_card: index in ``order`` of the top card of the stock.
        face_up_at_start: the centre cards turned face up before the first
            play (the top card, and any Jacks passed over), seen by everyone.
        stock_bottom: the cards at the bottom of the stock that everyone
            knows, last dealt last: the bottom card ``deck[51]`` where the
            rule set shows it, then any opening Jacks put under the stock.
    """

    __slots__ = (
        "_players",
        "_round",
        "_teams",
        "captured",
        "deck",
        "face_down",
        "face_down_cards",
        "face_down_taker",
        "face_up_at_start",
        "hands",
        "jack_pisti",
        "last_capturer",
        "next_card",
        "order",
        "pile",
        "pisti",
        "plays",
        "rules",
        "stock_bottom",
        "swept_to",
    )

    def __init__(self, rules: RuleSet, deck: Sequence[str]) -> None:
        """Start a hand from a checked deck; prefer :meth:`deal`."""
        self.rules = rules
        self.deck = tuple(deck)
        n = self._players = rules.players
        self._round = HAND_SIZE * n
        self._teams = tuple(rules.team_of(seat) for seat in range(n))
        face_down = list(self.deck[: CENTRE - 1])
        face_up = [self.deck[CENTRE - 1]]
        stock = list(self.deck[CENTRE:])
        under: list[str] = []
        # Four centre Jacks (allowed by four_jacks="play"): no rule can find
        # a non-Jack, the pile is played as it is (record-format.md, format 2).
        if face_up[-1][0] == "J" and not all(card[0] == "J" for card in face_down):
            if rules.opening_jack == "swap":
                for i in range(len(face_down) - 1, -1, -1):
                    if face_down[i][0] != "J":
                        face_down[i], face_up[0] = face_up[0], face_down[i]
                        break
            elif rules.opening_jack == "pass":
                while face_up[-1][0] == "J" and face_down:
                    face_up.append(face_down.pop())
            elif rules.opening_jack == "under":
                while face_up[0][0] == "J":
                    under.append(face_up[0])
                    face_up[0] = stock.pop(0)
        self.order = self.deck if not under else (*face_down, *face_up, *stock, *under)
        shown: tuple[str, ...] = (self.deck[-1],) if rules.bottom_card_shown else ()
        self.stock_bottom = shown + tuple(under)
        self.pile = face_down + face_up
        self.face_down = len(face_down)
        self.face_down_cards = tuple(face_down)
        self.face_down_taker: int | None = None
        self.face_up_at_start = tuple(face_up)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        teams = rules.team_count
        self.captured: list[list[str]] = [[] for _ in range(teams)]
        self.pisti = [0] * teams
        self.jack_pisti = [0] * teams
        self.plays: list[str] = []
        self.last_capturer: int | None = None
        self.swept_to: int | None = None
        self.next_card = CENTRE
        self._deal_round()

    @classmethod
    def deal(cls, rules: RuleSet, deck: Iterable[str]) -> GameState:
        """Start a hand with ``deck`` (card codes, top of the stock first).

        Raises:
            InvalidState: the deck is not 52 distinct cards, or the rule set
                forbids it (see :func:`check_deck`).
        """
        return cls(rules, check_deck(rules, list(deck)))

    def copy(self) -> GameState:
        """Return an independent copy (for search: play on the copy)."""
        other = object.__new__(GameState)
        other.rules = self.rules
        other.deck = self.deck
        other.order = self.order
        other.stock_bottom = self.stock_bottom
        other.pile = self.pile[:]
        other.face_down = self.face_down
        other.face_down_cards = self.face_down_cards
        other.face_down_taker = self.face_down_taker
        other.swept_to = self.swept_to
        other.hands = [hand[:] for hand in self.hands]
        other.captured = [cards[:] for cards in self.captured]
        other.pisti = self.pisti[:]
        other.jack_pisti = self.jack_pisti[:]
        other.plays = self.plays[:]
        other.last_capturer = self.last_capturer
        other.next_card = self.next_card
        other.face_up_at_start = self.face_up_at_start
        other._players = self._players
        other._round = self._round
        other._teams = self._teams
        return other

    @classmethod
    def from_position(
        cls,
        rules: RuleSet,
        *,
        hands: list[list[str]],
        pile: list[str],
        face_down: int,
        stock: list[str],
        captured: list[list[str]],
        pisti: list[int],
        jack_pisti: list[int],
        plays: list[str],
        last_capturer: int | None,
        stock_bottom: tuple[str, ...] = (),
        face_up_at_start: tuple[str, ...] = (),
        face_down_taker: int | None = None,
        face_down_cards: tuple[str, ...] | None = None,
    ) -> GameState:
        """Build a hand in progress from its parts, for search over the
        possible worlds behind an observation (see :mod:`.worlds`).

        ``stock`` is top first; ``pile`` bottom to top with ``face_down``
        face-down cards at the bottom; ``captured`` may hold stand-ins
        (``"?"``) for cards whose faces do not matter; ``stock_bottom`` the
        cards at the bottom of the stock everyone knows (as
        :attr:`stock_bottom`), ``face_up_at_start`` the centre cards shown
        before the first play, ``face_down_taker`` the team that took the
        face-down cards and ``face_down_cards`` those cards where known
        (default: the face-down cards of ``pile``). Not checked: the caller builds a consistent
        position.
        """
        state = object.__new__(cls)
        state.rules = rules
        dealt = len(FULL_DECK) - len(stock)
        state.deck = state.order = ("?",) * dealt + tuple(stock)
        state.stock_bottom = stock_bottom
        state.next_card = dealt
        state.pile = list(pile)
        state.face_down = face_down
        state.face_down_cards = (
            tuple(pile[:face_down]) if face_down_cards is None else face_down_cards
        )
        state.face_down_taker = face_down_taker
        state.swept_to = None
        state.hands = [list(hand) for hand in hands]
        state.captured = [list(cards) for cards in captured]
        state.pisti = list(pisti)
        state.jack_pisti = list(jack_pisti)
        state.plays = list(plays)
        state.last_capturer = last_capturer
        state.face_up_at_start = face_up_at_start
        state._players = rules.players
        state._round = HAND_SIZE * rules.players
        state._teams = tuple(rules.team_of(seat) for seat in range(rules.players))
        return state

    def _deal_round(self) -> None:
        deck, start = self.order, self.next_card
        for seat, hand in enumerate(self.hands):
            hand.extend(deck[start + HAND_SIZE * seat : start + HAND_SIZE * (seat + 1)])
        self.next_card = start + HAND_SIZE * len(self.hands)

    @property
    def turn(self) -> int:
        """The seat whose turn it is (seat 0 plays first)."""
        return len(self.plays) % self._players

    @property
    def finished(self) -> bool:
        """Whether all 48 cards have been played (the table is swept)."""
        return len(self.plays) == PLAYS_PER_HAND

    @property
    def stock(self) -> int:
        """Number of cards left in the stock."""
        return len(self.deck) - self.next_card

    @property
    def deal_number(self) -> int:
        """The current deal, 1-based (1 to 6 with two seats, 1 to 4 with
        three, 1 to 3 with four)."""
        return (self.next_card - CENTRE) // (HAND_SIZE * self.rules.players)

    @property
    def pile_top(self) -> str | None:
        """The top card of the pile, or ``None`` for an empty table."""
        return self.pile[-1] if self.pile else None

    def legal_plays(self) -> list[str]:
        """Return the cards the seat to play may play: its whole hand
        (there is no passing and any card may be played); empty when over."""
        return [] if self.finished else list(self.hands[self.turn])

    def play(self, card: str) -> PlayResult:
        """Play ``card`` (a canonical code) for the seat whose turn it is.

        Captures, piştis, the next deal and the final sweep happen here.

        Raises:
            IllegalPlay: the hand is over, or ``card`` is not in the hand of
                the seat to play. The state is left unchanged.
        """
        if len(self.plays) == PLAYS_PER_HAND:
            raise IllegalPlay("the hand is over")
        seat = self.turn
        try:
            index = self.hands[seat].index(card)
        except ValueError:
            raise IllegalPlay(f"{card} is not in seat {seat}'s hand") from None
        team = self._teams[seat]
        pisti, jack_pisti, next_card = self.pisti[team], self.jack_pisti[team], self.next_card
        left_on_table = len(self.pile) + 1
        captured = self.play_index(index)
        hand_over = len(self.plays) == PLAYS_PER_HAND
        swept = left_on_table if hand_over and not captured else 0
        return PlayResult(
            seat,
            card,
            captured,
            pisti=self.pisti[team] != pisti,
            jack_pisti=self.jack_pisti[team] != jack_pisti,
            dealt=self.next_card != next_card,
            hand_over=hand_over,
            swept=swept,
            swept_to=self._sweep_team() if swept else None,
        )

    def play_index(self, index: int) -> int:
        """Play the card at ``index`` in the hand of the seat to play and
        return how many cards it captured (0 if none).

        The fast path under :meth:`play` and the playouts of the searching
        opponent: the caller guarantees the hand is not over and ``index`` is
        valid (an ``IndexError`` otherwise).
        """
        plays = self.plays
        seat = len(plays) % self._players
        card = self.hands[seat].pop(index)
        plays.append(card)
        pile = self.pile
        captured = 0
        rank = card[0]
        if pile and (rank == pile[-1][0] or rank == "J"):
            team = self._teams[seat]
            if len(pile) == 1 and rank == pile[0][0] and self.rules.pisti_counts(len(plays)):
                if rank == "J":
                    self.jack_pisti[team] += 1
                else:
                    self.pisti[team] += 1
            pile.append(card)
            captured = len(pile)
            self.captured[team].extend(pile)
            pile.clear()
            if self.face_down:
                self.face_down = 0
                self.face_down_taker = team
            self.last_capturer = team
        else:
            pile.append(card)
        if len(plays) % self._round:
            return captured
        if self.next_card < 52:
            self._deal_round()
        elif pile:
            team = self.swept_to = self._sweep_team()
            self.captured[team].extend(pile)
            pile.clear()
            if self.face_down:
                self.face_down = 0
                self.face_down_taker = team
        return captured

    def _sweep_team(self) -> int:
        """The team that takes the table at the end: the last capturer, or
        the rule set's choice when nobody captured."""
        if self.last_capturer is not None:
            return self.last_capturer
        if self.rules.leftovers_when_no_capture == "first_seat":
            return self._teams[0]
        return self._teams[-1]

    def random_playout(self, rng: random.Random) -> None:
        """Play uniformly random cards for every seat to the end of the hand
        (the benchmark's random deals; ``rng`` supplies the randomness)."""
        rand = rng.random
        hands, plays, players = self.hands, self.plays, self._players
        play_index = self.play_index
        while len(plays) < PLAYS_PER_HAND:
            hand = hands[len(plays) % players]
            play_index(int(rand() * len(hand)))

    def to_dict(self) -> dict[str, Any]:
        """Return the state as plain data: ``{"rules", "deck", "plays"}``
        (the rule set as in a record, see :func:`~.rules.rules_to_json`, and
        lists of card codes), which determine it fully."""
        return {
            "rules": rules_to_json(self.rules),
            "deck": list(self.deck),
            "plays": list(self.plays),
        }

    @classmethod
    def from_dict(cls, data: object) -> GameState:
        """Rebuild a state saved by :meth:`to_dict` by replaying its plays.

        Raises:
            InvalidState: unknown or invalid rules, an impossible deck, more than 48
                plays, or a play that was not legal (``"play 17: ..."``, the
                index counting from 0).
        """
        if not isinstance(data, dict):
            raise InvalidState("state is not an object")
        try:
            rules = rules_from_json(data.get("rules"))
        except InvalidRules as exc:
            raise InvalidState(str(exc)) from None
        return cls.replay(rules, data.get("deck"), data.get("plays"))

    @classmethod
    def replay(cls, rules: RuleSet, deck: object, plays: object) -> GameState:
        """Deal ``deck`` under ``rules`` and apply ``plays`` (card codes,
        ``10`` and lower case accepted) in order.

        Raises:
            InvalidState: as :meth:`from_dict`.
        """
        state = cls(rules, check_deck(rules, deck))
        if not isinstance(plays, (list, tuple)):
            raise InvalidState("plays is not a list of card codes")
        if len(plays) > PLAYS_PER_HAND:
            raise InvalidState(f"{len(plays)} plays, more than the 48 of a hand")
        for index, text in enumerate(plays):
            try:
                state.play(parse_card(text))
            except (InvalidCard, IllegalPlay) as exc:
                raise InvalidState(f"play {index}: {exc}", play=index) from None
        return state
