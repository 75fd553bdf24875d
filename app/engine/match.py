"""A match: hands in sequence, the dealer rotating, running totals per side.

Seats (``docs/record-format.md``) are numbered per hand in playing
order, seat 0 first and the last seat dealing. A match also needs fixed
places at the table, *positions*: position 0 is the player at the bottom of
the screen, then the others in playing order (anticlockwise with four, seed
003). *Sides* are the match's fixed teams: with partners the partnerships
``position % 2``; otherwise each position is a side (side = position).

The dealer moves on one place every hand (seed 001: "The dealer changes every
hand"; seed 003: "the dealer position will pass to the right"). The first
dealer of a match is drawn from its seed (seed 003: "The first dealer is
chosen randomly"; seed 001: the dealer's advantage "goes to each side in
turn", so neither side always starts with it), the same for everyone who
plays the seed: position ``(n - 1 + r) % n`` deals hand 0, where ``r`` is
:attr:`Match.rotation`, and in hand ``h`` the seat of position ``p`` is
``(p - h - r) % n``. A single hand has ``r = 0``: position ``n - 1`` deals,
so position 0 plays first; so does a match of a rule set played as a
single hand by default (``cardems``: seed 000, "The human player takes the
first turn"), whose dealer then changes every hand.

End of a match (seed 001 for ``classic``, seeds 003/004 for ``partners``;
for the three and four sides of ``docs/record-format.md`` format 2, a house
choice that extends seed 001's "the higher score wins; if the scores are
level, one more hand" to every side): points are counted at the end of a
hand only; once a side has reached the target, the side with the highest
total wins; when the highest total is shared, one more hand is played. Every base
may be played to any of :data:`~.rules.MATCH_TARGETS`; without a target a
match is a single hand.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from .rules import MATCH_TARGETS, InvalidRules, RuleSet, rules_from_json, rules_to_json
from .scoring import TeamScore, hand_winner, score_hand
from .shuffle import InvalidSeed, check_seed, seeded_deck
from .state import GameState, InvalidState


def first_rotation(seed: str, players: int) -> int:
    """Return the :attr:`Match.rotation` of a match dealt from ``seed``
    with ``players`` positions: from SHA-256 of ``pisti-first-dealer/1|``
    and the seed, 0 to ``players - 1``, each as likely."""
    digest = hashlib.sha256(f"pisti-first-dealer/1|{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % players


@lru_cache(maxsize=4096)
def _hand_deck(seed: str, rules: RuleSet, hand: int) -> tuple[str, ...]:
    """Return :func:`seeded_deck` as a tuple, shuffled once per seed, rules
    and hand and then kept: a match is rebuilt from its seed on every web
    request (the 4,096 most recent decks, about 1 MB).

    Raises:
        InvalidSeed: as :func:`seeded_deck` (not kept).
    """
    return tuple(seeded_deck(seed, rules, hand))


class Match:
    """A match of ``rules`` dealt from ``seed`` (hand ``h`` uses
    ``seeded_deck(seed, rules, h)``).

    Attributes:
        rules: the rule set.
        seed: the seed every hand's deck comes from.
        target: points that end the match, or ``None`` for a single hand.
        hand_number: the current hand, from 0.
        state: the current hand.
        history: each finished hand's points per side, ``[[a, b, ...], ...]``.
        plays_history: each finished hand's plays (its record's ``plays``).
        rotation: how many places the seats are turned from position 0
            playing first in hand 0 (:func:`first_rotation` of the seed in
            a match; 0 for a single hand, and for a match of a rule set
            whose default is a single hand, where position 0 plays first in
            hand 0 as in its single hand: seed 000, "The human player takes
            the first turn"; see the module's notes).
    """

    def __init__(self, rules: RuleSet, seed: str, target: int | None = None) -> None:
        """Start a match with its first hand.

        ``target`` is one of :data:`~.rules.MATCH_TARGETS`, or ``None`` for
        the rule set's default (its first ``match_targets``, or a single
        hand when it offers none).

        Raises:
            InvalidSeed: ``seed`` is malformed.
            ValueError: ``target`` is not a match target.
        """
        check_seed(seed)
        if target is None:
            target = rules.default_target
        if target is not None and (
            not isinstance(target, int) or isinstance(target, bool) or target not in MATCH_TARGETS
        ):
            raise ValueError(f"{rules.name} is not played to {target!r}")
        self.rules = rules
        self.seed = seed
        self.target = target
        self.hand_number = 0
        self.history: list[list[int]] = []
        self.plays_history: list[list[str]] = []
        drawn = target is not None and bool(rules.match_targets)
        self.rotation = first_rotation(seed, rules.players) if drawn else 0
        self.state = GameState(rules, _hand_deck(seed, rules, 0))

    @property
    def players(self) -> int:
        """Number of positions at the table."""
        return self.rules.players

    def seat_of(self, position: int, hand_number: int | None = None) -> int:
        """Return the seat that ``position`` plays from in the current hand
        (or in hand ``hand_number``)."""
        hand = self.hand_number if hand_number is None else hand_number
        return (position - hand - self.rotation) % self.players

    def position_of(self, seat: int, hand_number: int | None = None) -> int:
        """Return the position playing ``seat`` in the current hand (or in
        hand ``hand_number``)."""
        hand = self.hand_number if hand_number is None else hand_number
        return (seat + hand + self.rotation) % self.players

    @property
    def sides(self) -> int:
        """Number of sides: the rule set's number of teams."""
        return self.rules.team_count

    def side_of_team(self, team: int, hand_number: int | None = None) -> int:
        """Return the side of a hand's ``team`` (its first seat's position,
        ``% 2`` with partners)."""
        return self.position_of(team, hand_number) % self.sides

    def team_of_side(self, side: int) -> int:
        """Return the current hand's team that ``side`` plays as."""
        return self.rules.team_of(self.seat_of(side))

    @property
    def dealer(self) -> int:
        """The position dealing the current hand."""
        return self.position_of(self.players - 1)

    @property
    def totals(self) -> list[int]:
        """Each side's points from the finished hands."""
        return [sum(points[side] for points in self.history) for side in range(self.sides)]

    def side_scores(self) -> list[TeamScore]:
        """The current hand's scores, indexed by side."""
        scores = score_hand(self.state)
        return [scores[self.team_of_side(side)] for side in range(self.sides)]

    @property
    def hand_counted(self) -> bool:
        """Whether the current hand is over and added to the totals."""
        return len(self.history) > self.hand_number

    def count_hand(self) -> None:
        """Add the finished current hand to the totals (once).

        Raises:
            InvalidState: the current hand is not finished.
        """
        if not self.state.finished:
            raise InvalidState("the hand is not finished")
        if not self.hand_counted:
            self.history.append([score.points for score in self.side_scores()])
            self.plays_history.append(list(self.state.plays))

    @property
    def over(self) -> bool:
        """Whether the match is decided (after a counted hand)."""
        if not self.hand_counted:
            return False
        if self.target is None:
            return True
        totals = self.totals
        best = max(totals)
        return best >= self.target and totals.count(best) == 1

    def winner(self) -> int | None:
        """Return the winning side once :attr:`over`, else ``None``.

        A single-hand match is won as the hand is (``None`` for a draw).
        """
        if not self.over:
            return None
        if self.target is None:
            team, _ = hand_winner(self.state, score_hand(self.state))
            return None if team is None else self.side_of_team(team)
        totals = self.totals
        return totals.index(max(totals))

    def next_hand(self) -> None:
        """Deal the next hand: the dealer moves on one place.

        Raises:
            InvalidState: the current hand is not counted, or the match is over.
        """
        if not self.hand_counted or self.over:
            raise InvalidState("the next hand comes after a counted hand of an unfinished match")
        self.hand_number += 1
        self.state = GameState(self.rules, _hand_deck(self.seed, self.rules, self.hand_number))

    def finished_hand(self, index: int) -> GameState:
        """Return finished hand ``index`` (from 0) as it ended.

        Raises:
            IndexError: that hand is not finished.
        """
        plays = self.plays_history[index]
        return GameState.replay(self.rules, _hand_deck(self.seed, self.rules, index), plays)

    def to_dict(self) -> dict[str, Any]:
        """Return the match as plain data (lists, strings and numbers)."""
        return {
            "rules": rules_to_json(self.rules),
            "seed": self.seed,
            "target": self.target,
            "hands": [list(plays) for plays in self.plays_history[: self.hand_number]],
            "plays": list(self.state.plays),
            "rotation": self.rotation,
        }

    @classmethod
    def from_dict(cls, data: object) -> Match:
        """Rebuild a match saved by :meth:`to_dict` by replaying its hands.

        Raises:
            InvalidState: the data is not a possible match.
        """
        if not isinstance(data, dict):
            raise InvalidState("match is not an object")
        seed = data.get("seed")
        if not isinstance(seed, str):
            raise InvalidState("match has no seed")
        try:
            match = cls(rules_from_json(data.get("rules")), seed, data.get("target"))
        except (InvalidRules, InvalidSeed, ValueError) as exc:
            raise InvalidState(f"bad match: {exc}") from None
        # Matches saved before the first dealer was drawn have none: 0.
        rotation = data.get("rotation", 0)
        if type(rotation) is not int or not 0 <= rotation < match.players:
            raise InvalidState("bad match: rotation")
        match.rotation = rotation
        hands = data.get("hands")
        if not isinstance(hands, list):
            raise InvalidState("bad match: hands is not a list")
        for plays in hands:
            match.state = GameState.replay(match.rules, match.state.deck, plays)
            if not match.state.finished:
                raise InvalidState("bad match: an earlier hand is not finished")
            match.count_hand()
            match.next_hand()
        match.state = GameState.replay(match.rules, match.state.deck, data.get("plays"))
        if match.state.finished:
            match.count_hand()
        return match
