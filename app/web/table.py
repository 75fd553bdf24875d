"""A player's game at the table: the hand, the computer seats, and what
happened since the player's last move. No Flask here; :mod:`.store` keeps it
in the session as plain data."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field

from app.ai import make_bot
from app.engine import (
    CARDEMS,
    GameState,
    IllegalPlay,
    InvalidCard,
    InvalidState,
    RuleSet,
    observe,
    parse_card,
    seeded_deck,
)


class Refused(Exception):
    """A move the table will not take; nothing was changed.

    Attributes:
        message: what to tell the player.
        status: the HTTP status that fits (400 bad input, 409 out of date).
    """

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Table:
    """One game against the computer.

    Attributes:
        state: the hand being played.
        seed: the seed the deck came from (every deal has one).
        seed_public: whether the player chose the seed, so it may be shown
            during the hand; a random game's seed stays secret until the end.
        level: the computer's level (a key of :data:`app.ai.LEVELS`).
        human: the player's seat.
        log: the plays since the player's last move, as
            :class:`~app.engine.PlayResult` fields (plain dicts).
    """

    state: GameState
    seed: str
    seed_public: bool
    level: str
    human: int = 0
    log: list[dict] = field(default_factory=list)

    @classmethod
    def start(cls, seed: str, level: str, seed_public: bool, rules: RuleSet = CARDEMS) -> Table:
        """Deal a new hand from ``seed`` and let the computer play up to the
        player's first turn. ``seed`` must be valid (see ``check_seed``)."""
        state = GameState(rules, seeded_deck(seed, rules))
        table = cls(state=state, seed=seed, seed_public=seed_public, level=level)
        table._computer_plays()
        return table

    @property
    def move(self) -> int:
        """The number of plays made so far: a form's move number."""
        return len(self.state.plays)

    def play(self, card_text: object, move_text: object) -> None:
        """Play the player's card, then the computer's answers.

        ``card_text`` is a card code (``"7H"``, ``"10d"``); ``move_text`` the
        move number the page was showing, as text.

        Raises:
            Refused: the hand is over, the move number is missing or not the
                current one (a stale page, a repeated POST), or the card is
                not a card in the player's hand.
        """
        if self.state.finished:
            raise Refused("This hand is over. Start a new game to play again.", 409)
        try:
            move = int(str(move_text))
        except ValueError:
            raise Refused("The form did not say which move it was for; nothing was played.", 400) from None
        if move != self.move:
            raise Refused(
                "That page was out of date (the move was already played, or the game went on "
                "in another tab). Nothing was played; here is the table as it stands.",
                409,
            )
        try:
            card = parse_card(card_text)
        except InvalidCard:
            raise Refused(f"{str(card_text)[:20]!r} is not a card; nothing was played.", 400) from None
        try:
            result = self.state.play(card)
        except IllegalPlay:
            raise Refused("That card is not in your hand; nothing was played.", 400) from None
        self.log = [asdict(result)]
        self._computer_plays()

    def _computer_plays(self) -> None:
        state = self.state
        while not state.finished and state.turn != self.human:
            seat = state.turn
            rng = random.Random(f"{self.seed}:{seat}:{len(state.plays)}")
            card = make_bot(self.level, rng).choose(observe(state, seat))
            self.log.append(asdict(state.play(card)))

    def to_dict(self) -> dict:
        """Return the table as plain data for the session."""
        return {
            "state": self.state.to_dict(),
            "seed": self.seed,
            "seed_public": self.seed_public,
            "level": self.level,
            "human": self.human,
            "log": self.log,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Table:
        """Rebuild a table saved by :meth:`to_dict`.

        Raises:
            InvalidState: the saved game is damaged.
        """
        try:
            return cls(
                state=GameState.from_dict(data["state"]),
                seed=str(data["seed"]),
                seed_public=bool(data["seed_public"]),
                level=str(data["level"]),
                human=int(data["human"]),
                log=list(data["log"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidState(f"damaged saved game: {exc}") from None
