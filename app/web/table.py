"""A player's game at the table: a match, the computer seats, and what
happened since the player's last move. No Flask here; :mod:`.store` keeps it
in the session as plain data.

The player is always position 0 (the bottom of the screen); the computers
sit at the other positions (see :mod:`app.engine.match`).
"""

from __future__ import annotations

import copy
import json
import secrets
import threading
from dataclasses import dataclass, field, fields
from typing import Any

from cachetools import LRUCache

from app import searches
from app.ai import BOTS, is_searching
from app.ai.expert import BUDGET_MS
from app.engine import (
    GameState,
    IllegalPlay,
    InvalidCard,
    InvalidState,
    Observation,
    PlayResult,
    RuleSet,
    observe,
    parse_card,
)
from app.engine.match import Match

HUMAN = 0
#: Thinking time the searching computers share in one answer to a play, in
#: milliseconds, so a POST answers within 400 ms even with three Experts.
TURN_BUDGET_MS = 330.0
#: Matches kept rebuilt (see :class:`_Matches`); a match's plain data is
#: some 0.3 to 15 kB and the match about 5 kB.
MATCHES_KEPT = 1024


class _Matches:
    """The most recently saved or loaded matches, by their plain data
    (:meth:`Match.to_dict` as canonical JSON), so a request does not replay
    its match from the seed (a match's finished hands cost some 0.5 ms
    each). A match is deterministic in its data, so a kept one is the
    replay's twin; each caller gets its own copy. Shared by the server's
    threads (a lock; ``cachetools`` caches are not thread-safe)."""

    def __init__(self, size: int) -> None:
        self.kept: LRUCache[str, Match] = LRUCache(maxsize=size)
        self.lock = threading.Lock()

    @staticmethod
    def key(data: object) -> str:
        """The canonical JSON of a match's plain data.

        Raises:
            TypeError: ``data`` is not plain data.
        """
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def get(self, key: str) -> Match | None:
        """Return a copy of the match kept under ``key``, or ``None``."""
        with self.lock:
            match = self.kept.get(key)
        return None if match is None else _copy(match)

    def put(self, key: str, match: Match) -> None:
        """Keep a copy of ``match`` under ``key`` (dropping the least
        recently used beyond the size)."""
        twin = _copy(match)
        with self.lock:
            self.kept[key] = twin


def _copy(match: Match) -> Match:
    """An independent copy of ``match`` (its hand in play and its lists)."""
    twin = copy.copy(match)
    twin.state = match.state.copy()
    twin.history = [list(points) for points in match.history]
    twin.plays_history = [list(plays) for plays in match.plays_history]
    return twin


_MATCHES = _Matches(MATCHES_KEPT)


#: A play's fields (all plain values), in order.
_RESULT_FIELDS = tuple(item.name for item in fields(PlayResult))


def logged(result: PlayResult, position: int) -> dict[str, object]:
    """Return a play as the log keeps it: ``result``'s fields (what
    ``dataclasses.asdict`` gives, without its deep copies: they are plain
    values) plus ``position``, the position that played."""
    entry: dict[str, object] = {name: getattr(result, name) for name in _RESULT_FIELDS}
    entry["position"] = position
    return entry


class Refused(Exception):
    """A request the table will not take; nothing was changed.

    Attributes:
        reason: why, one of ``"hand_over"``, ``"no_move"``, ``"stale"``,
            ``"played_already"``,
            ``"not_a_card"``, ``"not_in_hand"``, ``"no_hand"``,
            ``"match_over"`` (the pages word them in the player's language).
        status: the HTTP status that fits (400 bad input, 409 out of date).
    """

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass
class Table:
    """One game against the computer.

    Attributes:
        match: the match being played (a single hand for ``cardems``).
        seed_public: whether the player chose the seed, so it may be shown
            during play; a random game's seed stays secret until the end.
        levels: each position's computer level, ``None`` for the player.
        log: the plays since the player's last move: ``PlayResult`` fields
            plus ``position``, as plain dicts.
        expert_ms: an Expert's thinking time per move, in milliseconds (a
            setting, not saved); several Experts share :data:`TURN_BUDGET_MS`.
        game_id: a short random id of this game, sent with each play so a
            page of an earlier game cannot play into this one.
        known_deal: whether the deal was dealt before in this browser (a
            Daily deal dealt again), so its cards may be known: its points
            do not count (:attr:`app.db.facts.GameFacts.known_deal`).
        player: whose name the game was started under
            (:func:`app.web.identity.player_key`; ``""`` for none): its
            result is theirs, whoever has the device when it ends.
    """

    match: Match
    seed_public: bool
    levels: list[str | None]
    log: list[dict[str, Any]] = field(default_factory=list)
    expert_ms: float = BUDGET_MS
    game_id: str = field(default_factory=lambda: secrets.token_hex(4))
    known_deal: bool = False
    player: str = ""

    @classmethod
    def start(
        cls,
        rules: RuleSet,
        seed: str,
        levels: list[str],
        seed_public: bool,
        target: int | None = None,
        expert_ms: float = BUDGET_MS,
    ) -> Table:
        """Deal a new match and let the computers play up to the player's
        first turn.

        ``levels`` gives the computer positions' levels (one name of
        :data:`app.ai.BOTS` per computer seat: levels or story opponents).

        Raises:
            InvalidSeed: ``seed`` is not a seed.
            ValueError: a bad target, or not one level per computer seat.
            app.searches.SearchBusy: too many searches in line for a
                computer's first plays.
        """
        if len(levels) != rules.players - 1 or any(level not in BOTS for level in levels):
            raise ValueError(f"{rules.name} needs {rules.players - 1} computer levels")
        table = cls(
            match=Match(rules, seed, target),
            seed_public=seed_public,
            levels=[None, *levels],
            expert_ms=expert_ms,
        )
        table._computer_plays()
        return table

    @property
    def state(self) -> GameState:
        """The current hand."""
        return self.match.state

    @property
    def seat(self) -> int:
        """The player's seat in the current hand."""
        return self.match.seat_of(HUMAN)

    @property
    def move(self) -> int:
        """The number of plays made in this hand: a form's move number."""
        return len(self.state.plays)

    def observation(self) -> Observation:
        """What the player may see of the current hand."""
        return observe(self.state, self.seat)

    def play(
        self,
        card_text: object,
        move_text: object,
        hand_text: object = None,
        game_text: object = None,
    ) -> None:
        """Play the player's card, then the computers' answers.

        ``card_text`` is a card code (``"7H"``, ``"10d"``); ``move_text`` the
        move number the page was showing, as text; ``hand_text`` and
        ``game_text``, when sent, the hand number and :attr:`game_id` of
        that page (a page of another hand or game is out of date).

        Raises:
            Refused: the hand is over, the move number is missing or not the
                current one (a stale page, a repeated POST), or the card is
                not a card in the player's hand.
            app.searches.SearchBusy: too many searches in line for a
                computer's answer; the table must not be saved.
        """
        if self.state.finished:
            raise Refused("hand_over", 409)
        move = _number(move_text, "no_move")
        if move != self.move:
            same_hand = game_text in (None, self.game_id) and hand_text in (
                None,
                str(self.match.hand_number),
            )
            again = same_hand and self._played(move, card_text)
            raise Refused("played_already" if again else "stale", 409)
        if game_text is not None and game_text != self.game_id:
            raise Refused("stale", 409)
        if hand_text is not None and _number(hand_text, "no_hand") != self.match.hand_number:
            raise Refused("stale", 409)
        try:
            card = parse_card(card_text)
        except InvalidCard:
            raise Refused("not_a_card", 400) from None
        try:
            result = self.state.play(card)
        except IllegalPlay:
            raise Refused("not_in_hand", 400) from None
        self.log = [logged(result, HUMAN)]
        self._computer_plays()

    def _played(self, move: int, card_text: object) -> bool:
        """Whether ``card_text`` is the card played at ``move`` of this
        hand: that very play sent again (its answer was late and the page
        sent it the ordinary way, or the form went twice). A card is played
        once in a hand, so it was the player's own."""
        plays = self.state.plays
        try:
            return 0 <= move < len(plays) and parse_card(card_text) == plays[move]
        except InvalidCard:
            return False

    def next_hand(self, hand_text: object, game_text: object = None) -> None:
        """Deal the next hand of the match.

        ``hand_text`` is the number of the hand the page was showing;
        ``game_text``, when sent, that page's :attr:`game_id` (a score page
        of another game is out of date, even between the same hands).

        Raises:
            Refused: the hand is not over, the match is over, or the page
                was out of date.
        """
        hand = _number(hand_text, "no_hand")
        if hand != self.match.hand_number or not self.match.hand_counted:
            raise Refused("stale", 409)
        if game_text is not None and game_text != self.game_id:
            raise Refused("stale", 409)
        if self.match.over:
            raise Refused("match_over", 409)
        self.match.next_hand()
        self.log = []
        self._computer_plays()

    def _computer_plays(self) -> None:
        match, state = self.match, self.match.state
        experts = sum(1 for level in self.levels if level is not None and is_searching(level))
        budget_ms = min(self.expert_ms, TURN_BUDGET_MS / experts) if experts else None
        while not state.finished and state.turn != self.seat:
            seat = state.turn
            position = match.position_of(seat)
            level = self.levels[position]
            assert level is not None  # only the player's position has none
            seed = f"{match.seed}:{match.hand_number}:{len(state.plays)}"
            card = searches.choose(level, seed, budget_ms, observe(state, seat))
            self.log.append(logged(state.play(card), position))
        if state.finished:
            match.count_hand()

    def to_dict(self) -> dict[str, Any]:
        """Return the table as plain data for the session (its match is kept
        rebuilt for the next request, see :class:`_Matches`)."""
        match = self.match.to_dict()
        _MATCHES.put(_Matches.key(match), self.match)
        return {
            "match": match,
            "seed_public": self.seed_public,
            "game_id": self.game_id,
            "known_deal": self.known_deal,
            "player": self.player,
            "levels": self.levels,
            "log": self.log,
        }

    @classmethod
    def from_dict(cls, data: object, expert_ms: float = BUDGET_MS) -> Table:
        """Rebuild a table saved by :meth:`to_dict` (``expert_ms`` as in
        :meth:`start`).

        Raises:
            InvalidState: the saved game is damaged.
        """
        if not isinstance(data, dict):
            raise InvalidState("damaged saved game: not an object")
        try:
            key = _Matches.key(data["match"])
            match = _MATCHES.get(key)
            if match is None:
                match = Match.from_dict(data["match"])
                _MATCHES.put(key, match)
            levels = list(data["levels"])
            if len(levels) != match.players or any(level not in BOTS for level in levels[1:]):
                raise InvalidState("bad computer levels")
            return cls(
                match=match,
                seed_public=bool(data["seed_public"]),
                game_id=str(data["game_id"]),
                known_deal=bool(data.get("known_deal", False)),
                player=str(data.get("player", "")),
                levels=levels,
                log=list(data["log"]),
                expert_ms=expert_ms,
            )
        except (KeyError, TypeError) as exc:
            raise InvalidState(f"damaged saved game: {exc}") from None


def _number(text: object, reason: str) -> int:
    try:
        return int(str(text))
    except ValueError:
        raise Refused(reason, 400) from None
