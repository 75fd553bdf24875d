"""The Hard level's choices in positions where its reasoning changed (the
figures behind each change are in BENCHMARKS.md, "Strength: the arena")."""

from __future__ import annotations

import random

from app.ai.hard import HardBot
from app.engine import Observation, get_rules


def third_deal(hand: tuple[str, ...], pile: tuple[str, ...], plays: tuple[str, ...]) -> Observation:
    """Seat 0's view at the start of the third deal of a ``cardems`` hand
    (16 plays made, 24 cards in the stock), ``pile`` face up on the table
    after the other side's last capture, the three face-down opening cards
    taken."""
    assert len(plays) == 16 and set(pile) <= set(plays)
    return Observation(
        rules=get_rules("cardems"),
        seat=0,
        turn=0,
        hand=hand,
        pile_face_up=pile,
        pile_size=len(pile),
        face_down=0,
        stock=24,
        bottom_card=None,
        stock_bottom=(),
        hand_sizes=(4, 4),
        captured=(6, 6),
        pisti=(0, 0),
        jack_pisti=(0, 0),
        plays=plays,
        seen_face_down=(),
        seen=frozenset(plays) | {"5S"},
        last_capturer=1,
        deal_number=3,
        finished=False,
    )


def test_hard_spends_a_jack_on_a_four_card_pile_rather_than_risk_it():
    # Four cards without points (1.6 points with the Jack, counting cards
    # towards most cards) and the Queen, King and Five all still out: before,
    # Hard valued keeping a Jack at 2.5 points while the stock lasts and threw
    # the King; now at 1.5 it takes the pile (seed 001, tip 2: a Jack for a
    # pile of many cards), the change worth most in the arena.
    pile = ("3C", "9D", "4S", "6H")
    plays = ("KH", "8S", "8H", "TC", "AS", "AD", "2D", "2H")
    plays += ("7H", "7S", "TS", "TH", *pile)
    observation = third_deal(("QD", "KC", "5H", "JS"), pile, plays)
    assert HardBot(random.Random(0)).choose(observation) == "JS"


def test_hard_throws_a_card_whose_rank_it_holds_again():
    # One Nine, one Four and one Seven are still out, so each is as likely
    # to be taken by the next seat; Hard holds two Sevens, so if the next
    # seat cannot take the pile the second Seven can. Before, the tie went to
    # the first card in hand (the Nine).
    pile = ("KS", "6D")
    plays = ("9S", "9C", "4C", "4D", "7S", "QH", "5D", "3H", "QC", "QS", "8D", "8C")
    plays += ("AH", "AC", *pile)
    observation = third_deal(("9H", "4S", "7C", "7D"), pile, plays)
    assert HardBot(random.Random(0)).choose(observation) == "7C"
