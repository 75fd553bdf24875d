"""What a finished match says about the player at position 0: the numbers a
result, the tasks and the statistics are made of. Computed on the server
from the match it played (never from anything a browser sends)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date

from app.engine import GameState, RuleSet, score_hand, seeded_deck
from app.engine.match import Match
from app.engine.rules import POINTS


def outcome(winner: int | None) -> str:
    """Return the player's (side 0's) result from the winning side:
    ``"win"``, ``"loss"`` (any other side, with two, three or four sides)
    or ``"draw"`` (``None``)."""
    if winner is None:
        return "draw"
    return "win" if winner == 0 else "loss"


def points_count(house_rules: str) -> bool:
    """Whether a game with these house-rule options (``"pisti=20
    players=3"``, as :attr:`GameFacts.house_rules` and
    :attr:`app.db.models.Result.house` keep them) scores as its rule set
    does: none of them sets what a pişti, a Jack pişti, the most cards or
    the last cards are worth (:data:`app.engine.rules.POINTS`)."""
    options = {part.partition("=")[0] for part in house_rules.split()}
    return options.isdisjoint(POINTS)


@dataclass(frozen=True)
class GameFacts:
    """One finished match, from the player's side (position 0).

    Attributes:
        game_id: the table's game id (unique per player with the result).
        rules, target, seed: the match's rule set name, target (``None`` for
            a single deal) and seed.
        levels: the computer positions' levels, e.g. ``("hard",)``.
        outcome: ``"win"``, ``"loss"`` or ``"draw"``.
        points, opp_points: the player's side's total and the other side's
            (with three or four sides, the best of the others').
        hands: hands played.
        pistis, jack_pistis: piştis the player made themself (a Jack pişti
            counts only as a Jack pişti).
        most_cards: hands in which the player's side scored the most cards.
        ten_of_diamonds, two_of_clubs: hands in which the player's side took
            that card.
        used_jack: whether the player played a Jack in any hand.
        daily_day: the UTC day whose Daily deal this was, else ``None``.
        known_deal: whether the player could know every card before
            playing: a deal they chose by its seed (a deal link, a past
            day's Daily deal), whose computers answer the same to the same
            plays, so it can be worked out beforehand and replayed.
        house_rules: the house-rule options over the base rule set (record
            format 2), as :attr:`app.engine.rules.RuleSet.label` writes them
            after the base name (``"players=3 teams=solo pisti=20"``); empty for a preset.
    """

    game_id: str
    rules: str
    target: int | None
    seed: str
    levels: tuple[str, ...]
    outcome: str
    points: int
    opp_points: int
    hands: int
    pistis: int
    jack_pistis: int
    most_cards: int
    ten_of_diamonds: int
    two_of_clubs: int
    used_jack: bool
    daily_day: date | None = None
    house_rules: str = ""
    known_deal: bool = False

    @property
    def won(self) -> bool:
        """Whether the player's side won."""
        return self.outcome == "win"

    @property
    def counts_points(self) -> bool:
        """Whether the game's points count on the leaderboards and for the
        points tasks: not when its house rules set what a pişti, a Jack
        pişti, the most cards or the last cards are worth (a pişti of
        999,999 points would top every board), nor for a :attr:`known_deal`
        (a deal worked out beforehand, replayed for its points)."""
        return points_count(self.house_rules) and not self.known_deal

    @property
    def deal_key(self) -> str:
        """The deal's name for the shared-deal lists: 32 hex digits of
        SHA-256 over seed, rules (with their house-rule options), target and
        computer levels (see :func:`deal_key`)."""
        return deal_key(self.seed, self.rules, self.target, self.levels, self.house_rules)


def deal_key(
    seed: str, rules: str, target: int | None, levels: tuple[str, ...], house_rules: str = ""
) -> str:
    """Return the key of a deal: 32 hex digits of SHA-256 over ``seed``,
    the rule set ``rules`` with its ``house_rules`` options (see
    :attr:`GameFacts.house_rules`), ``target`` and the computer ``levels``:
    a shared deal is the same cards against the same computers (seed 004's
    (PlayPendium) Daily deal, "everyone gets the same deals"; the target and
    levels are a house choice, since they change the game played).

    A preset's key is the same as before house rules were part of it, so
    results stored earlier stay listed with their deal.
    """
    label = f"{rules} {house_rules}" if house_rules else rules
    text = f"{seed}|{label}|{target or ''}|{','.join(levels)}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def house_rules(rules: RuleSet) -> str:
    """Return ``rules``' house-rule options as :attr:`GameFacts.house_rules`
    keeps them (empty for a preset)."""
    return rules.label.removeprefix(rules.name).strip()


def game_facts(
    match: Match,
    levels: tuple[str, ...],
    game_id: str,
    daily_day: date | None = None,
    known_deal: bool = False,
) -> GameFacts:
    """Return the facts of a finished ``match`` played by position 0 against
    computers of ``levels``, replaying each hand from its seeded deck
    (``daily_day`` and ``known_deal`` as :class:`GameFacts` has them).

    Raises:
        ValueError: the match is not over.
    """
    if not match.over:
        raise ValueError("the match is not over")
    counts = {"pistis": 0, "jack_pistis": 0, "most": 0, "ten": 0, "two": 0}
    used_jack = False
    for hand, plays in enumerate(match.plays_history):
        state = GameState(match.rules, seeded_deck(match.seed, match.rules, hand))
        seat = match.seat_of(0, hand)
        team = match.rules.team_of(seat)
        for card in plays:
            result = state.play(card)
            if result.seat == seat:
                counts["pistis"] += result.pisti
                counts["jack_pistis"] += result.jack_pisti
                used_jack = used_jack or card[0] == "J"
        counts["most"] += score_hand(state)[team].most_cards > 0
        counts["ten"] += "TD" in state.captured[team]
        counts["two"] += "2C" in state.captured[team]
    totals = match.totals
    return GameFacts(
        game_id=game_id,
        rules=match.rules.name,
        target=match.target,
        seed=match.seed,
        levels=levels,
        outcome=outcome(match.winner()),
        points=totals[0],
        # With three or four sides, the best of the others (a house choice:
        # the side to beat).
        opp_points=max(totals[1:]),
        hands=len(match.plays_history),
        pistis=counts["pistis"],
        jack_pistis=counts["jack_pistis"],
        most_cards=counts["most"],
        ten_of_diamonds=counts["ten"],
        two_of_clubs=counts["two"],
        used_jack=used_jack,
        daily_day=daily_day,
        house_rules=house_rules(match.rules),
        known_deal=known_deal,
    )
