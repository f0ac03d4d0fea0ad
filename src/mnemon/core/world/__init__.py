"""The world model's pure core: state assertions, predictions, sense matching, action ledger, aliases, radar,
contract and truth policies.

Everything here is a function of rows (frozen dataclasses with `to_row()`/`from_row()`) and an explicit `now` /
`as_of`; nothing reads a clock, touches storage or calls a model. The app layer loads rows, calls these functions
and persists what they return.
"""
from mnemon.core.world.aliases import Alias, MergePlan, add_alias, alias_map, canonical_subject, merge_plan
from mnemon.core.world.assertions import (
    Assertion,
    AssertionChange,
    GateReason,
    GateResult,
    apply_assertion,
    assertion_gate,
    lapsed_assertions,
    parse_assertion,
    retract,
    validity_at,
)
from mnemon.core.world.contract import MANDATORY_RULES, ContractReport, Violation, check_contract
from mnemon.core.world.ledger import Action, VerifySpec, validate_action, verification_prediction
from mnemon.core.world.match import GateSpec, MatchSpec, parse_match, score_event, tokenize
from mnemon.core.world.policies import DEFAULT_POLICIES, PredicatePolicy, policy_for
from mnemon.core.world.predictions import (
    Prediction,
    Transition,
    WatchItem,
    apply_transition,
    due_predictions,
    evaluate_prediction,
    parse_prediction,
    prediction_id,
    watch_radar,
    weaken_on_miss,
)
from mnemon.core.world.radar import Conflict, EvidenceClaim, detect_conflicts, radar_attention
from mnemon.core.world.senses import SENSE_ORIGINS, SENSE_TYPES, SenseEvent, parse_sense_event, parse_sense_events
from mnemon.core.world.truth import truth_policy_for_assertion, truth_policy_for_prediction
from mnemon.core.world.values import parse_duration, parse_instant

__all__ = [
    "DEFAULT_POLICIES",
    "MANDATORY_RULES",
    "SENSE_ORIGINS",
    "SENSE_TYPES",
    "Action",
    "Alias",
    "Assertion",
    "AssertionChange",
    "Conflict",
    "ContractReport",
    "EvidenceClaim",
    "GateReason",
    "GateResult",
    "GateSpec",
    "MatchSpec",
    "MergePlan",
    "PredicatePolicy",
    "Prediction",
    "SenseEvent",
    "Transition",
    "VerifySpec",
    "Violation",
    "WatchItem",
    "add_alias",
    "alias_map",
    "apply_assertion",
    "apply_transition",
    "assertion_gate",
    "canonical_subject",
    "check_contract",
    "detect_conflicts",
    "due_predictions",
    "evaluate_prediction",
    "lapsed_assertions",
    "merge_plan",
    "parse_assertion",
    "parse_duration",
    "parse_instant",
    "parse_match",
    "parse_prediction",
    "parse_sense_event",
    "parse_sense_events",
    "policy_for",
    "prediction_id",
    "radar_attention",
    "retract",
    "score_event",
    "tokenize",
    "truth_policy_for_assertion",
    "truth_policy_for_prediction",
    "validate_action",
    "validity_at",
    "verification_prediction",
    "watch_radar",
    "weaken_on_miss",
]
