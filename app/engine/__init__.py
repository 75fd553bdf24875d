"""The rules engine: pure Python, standard library only, no Flask."""

from .cards import FULL_DECK, InvalidCard, card_label, card_name, card_points, parse_card
from .observation import Observation, observe
from .record import InvalidRecord, load_record, make_record, replay_summary
from .rules import CARDEMS, CLASSIC, PARTNERS, RULE_SETS, RuleSet, UnknownRuleSet, get_rules
from .scoring import TeamScore, hand_winner, score_hand
from .shuffle import InvalidSeed, check_seed, new_seed, seeded_deck
from .state import GameState, IllegalPlay, InvalidState, PlayResult, would_capture

__all__ = [
    "CARDEMS",
    "CLASSIC",
    "FULL_DECK",
    "PARTNERS",
    "RULE_SETS",
    "GameState",
    "IllegalPlay",
    "InvalidCard",
    "InvalidRecord",
    "InvalidSeed",
    "InvalidState",
    "Observation",
    "PlayResult",
    "RuleSet",
    "TeamScore",
    "UnknownRuleSet",
    "card_label",
    "card_name",
    "card_points",
    "check_seed",
    "get_rules",
    "hand_winner",
    "load_record",
    "make_record",
    "new_seed",
    "observe",
    "parse_card",
    "replay_summary",
    "score_hand",
    "seeded_deck",
    "would_capture",
]
