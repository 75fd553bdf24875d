"""The rules engine: pure Python on the standard library (and numpy for the
Expert's batched playouts, :mod:`.batch`); no Flask, bots, web or database."""

from .cards import FULL_DECK, InvalidCard, card_label, card_name, card_points, parse_card
from .observation import Observation, observe
from .record import InvalidRecord, Record, load_record, make_record, read_record, replay_summary
from .rules import (
    CARDEMS,
    CLASSIC,
    MATCH_TARGETS,
    OPTIONS,
    PARTNERS,
    RULE_SETS,
    InvalidRules,
    RuleSet,
    UnknownRuleSet,
    get_rules,
    parse_rules_text,
    rules_from_json,
    rules_from_query,
    rules_to_json,
    rules_to_query,
    with_options,
)
from .scoring import TeamScore, hand_winner, most_cards_sure, score_hand
from .shuffle import InvalidSeed, check_seed, new_seed, normalize_seed, seeded_deck
from .state import GameState, IllegalPlay, InvalidState, PlayResult, would_capture

__all__ = [
    "CARDEMS",
    "CLASSIC",
    "FULL_DECK",
    "MATCH_TARGETS",
    "OPTIONS",
    "PARTNERS",
    "RULE_SETS",
    "GameState",
    "IllegalPlay",
    "InvalidCard",
    "InvalidRecord",
    "InvalidRules",
    "InvalidSeed",
    "InvalidState",
    "Observation",
    "PlayResult",
    "Record",
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
    "most_cards_sure",
    "new_seed",
    "normalize_seed",
    "observe",
    "parse_card",
    "parse_rules_text",
    "read_record",
    "replay_summary",
    "rules_from_json",
    "rules_from_query",
    "rules_to_json",
    "rules_to_query",
    "score_hand",
    "seeded_deck",
    "with_options",
    "would_capture",
]
