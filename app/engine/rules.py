"""Rule sets as data.

Each preset is one column of the table in ``shared/spec/record-format.md``;
the source documents are in ``shared/seeds/``. A variant is a field here,
never an ``if rules.name == ...`` in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

OpeningJack = Literal["swap", "stay", "pass"]
MostCards = Literal["27_or_more", "more_than_other"]
Leftovers = Literal["first_seat", "dealer"]


@dataclass(frozen=True)
class RuleSet:
    """The rules of one hand (and match) of Pişti.

    Attributes:
        name: the rule-set name used in records (``"cardems"`` ...).
        players: number of seats, 2 or 4; with 4, seats ``s`` and ``s + 2``
            are partners (team ``s % 2``).
        opening_jack: what happens when the face-up centre card is a Jack:
            ``"swap"`` it with the nearest non-Jack below it, let it
            ``"stay"`` on top, or ``"pass"`` over it by turning up the next
            card down onto it until the top is not a Jack.
        four_jacks_in_centre: whether a deck with Jacks in all four centre
            places is playable (otherwise it is a redeal / invalid record).
        jack_at_bottom: whether the stock's bottom card (``deck[51]``) may be
            a Jack (the partners cut forbids it).
        bottom_card_shown: whether the stock's bottom card is shown face up
            to every seat.
        pisti_on_first_play: whether the hand's first play can be a pişti.
        pisti_on_last_play: whether the hand's last play can be a pişti.
        leftovers_when_no_capture: who takes the table when nobody captured:
            the ``"first_seat"`` (seat 0) or the ``"dealer"`` (last seat).
        most_cards: ``"27_or_more"`` gives the bonus for 27+ cards;
            ``"more_than_other"`` for strictly more than the other side.
        most_cards_points: the most-cards bonus, in points.
        pisti_points: points for a pişti.
        jack_pisti_points: points for a Jack pişti (a Jack on a lone Jack).
        cards_break_ties: whether equal points are decided by captured cards.
        match_targets: the match targets offered, default first; empty for a
            single hand.
    """

    name: str
    players: int
    opening_jack: OpeningJack
    four_jacks_in_centre: bool
    jack_at_bottom: bool
    bottom_card_shown: bool
    pisti_on_first_play: bool
    pisti_on_last_play: bool
    leftovers_when_no_capture: Leftovers
    most_cards: MostCards
    cards_break_ties: bool
    match_targets: tuple[int, ...]
    most_cards_points: int = 3
    pisti_points: int = 10
    jack_pisti_points: int = 20

    @property
    def deals(self) -> int:
        """Number of four-card deals in a hand: 6 with 2 seats, 3 with 4."""
        return 48 // (4 * self.players)

    def pisti_counts(self, number: int) -> bool:
        """Whether a pişti made by the hand's play ``number`` (1 to 48)
        counts: the first and last plays may not (seeds 003/004)."""
        return (number > 1 or self.pisti_on_first_play) and (number < 48 or self.pisti_on_last_play)

    def deck_problem(self, deck: list[str] | tuple[str, ...]) -> str | None:
        """Return why a 52-card deck cannot be played under these rules.

        ``deck`` is top of the stock first (``deck[0..3]`` go to the centre,
        ``deck[51]`` is the bottom card). Returns ``None`` when playable.
        """
        if not self.four_jacks_in_centre and all(card[0] == "J" for card in deck[:4]):
            return f"four Jacks in the centre are a redeal under {self.name}"
        if not self.jack_at_bottom and deck[51][0] == "J":
            return f"a Jack at the bottom of the stock (deck[51]) is not allowed under {self.name}"
        return None


CARDEMS = RuleSet(
    name="cardems",  # shared/seeds/000_3e89a0b434c38557.txt
    players=2,
    opening_jack="swap",
    four_jacks_in_centre=False,
    jack_at_bottom=True,
    bottom_card_shown=False,
    pisti_on_first_play=True,
    pisti_on_last_play=True,
    leftovers_when_no_capture="first_seat",
    most_cards="27_or_more",
    cards_break_ties=True,
    match_targets=(),
)

CLASSIC = RuleSet(
    name="classic",  # shared/seeds/001_e62ae351561be254.txt
    players=2,
    opening_jack="stay",
    four_jacks_in_centre=True,
    jack_at_bottom=True,
    bottom_card_shown=False,
    pisti_on_first_play=True,
    pisti_on_last_play=True,
    leftovers_when_no_capture="dealer",
    most_cards="more_than_other",
    cards_break_ties=False,
    match_targets=(51, 101),
)

PARTNERS = RuleSet(
    name="partners",  # shared/seeds/003_cd72ab4dd8a96af0.txt, 004_c85e043559658e52.txt
    players=4,
    opening_jack="pass",
    four_jacks_in_centre=False,
    jack_at_bottom=False,
    bottom_card_shown=True,
    pisti_on_first_play=False,
    pisti_on_last_play=False,
    leftovers_when_no_capture="dealer",
    most_cards="more_than_other",
    cards_break_ties=False,
    match_targets=(151,),
)

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (CARDEMS, CLASSIC, PARTNERS)}


class UnknownRuleSet(ValueError):
    """Raised by :func:`get_rules` for a name that is not a rule set."""


def get_rules(name: object) -> RuleSet:
    """Return the preset called ``name``.

    Raises:
        UnknownRuleSet: ``name`` is not one of :data:`RULE_SETS`.
    """
    if not isinstance(name, str) or name not in RULE_SETS:
        raise UnknownRuleSet(f"unknown rule set {name!r}")
    return RULE_SETS[name]
