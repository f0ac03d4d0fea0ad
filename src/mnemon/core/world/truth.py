"""Truth policies: the label every world-model row carries into a context pack, so an agent can phrase it right.

Names follow Mneme where it has them (`current_state_assertion`, `lapsed_state_assertion`, `open_prediction`,
`missed_prediction`, `unverifiable_prediction`); the rest extend the same pattern. Both functions take `as_of` and
read nothing else, so `preflight --as-of T` is reproducible: a prediction checked after T is reported as it was at T
(open), a value superseded after T as current.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from mnemon.core.world.assertions import Assertion, validity_at
from mnemon.core.world.predictions import Prediction
from mnemon.core.world.values import require_aware

ASSERTION_TRUTH_POLICIES: Mapping[str, str] = {
    "current": "current_state_assertion",
    "lapsed": "lapsed_state_assertion",
    "superseded": "superseded_state_assertion",
    "retracted": "retracted_state_assertion",
    "future": "future_state_assertion",
    "unbacked": "unbacked_state_assertion",
}
PREDICTION_TRUTH_POLICIES: Mapping[str, str] = {
    "open": "open_prediction",
    "confirmed": "confirmed_prediction",
    "missed": "missed_prediction",
    "unverifiable": "unverifiable_prediction",
}
# Only these may be phrased as "is true now"; everything else is context, history or expectation.
AUTHORITATIVE_TRUTH_POLICIES: frozenset[str] = frozenset({"current_state_assertion"})


def truth_policy_for_assertion(assertion: Assertion, as_of: datetime) -> str:
    return ASSERTION_TRUTH_POLICIES[validity_at(assertion, as_of)]


def prediction_status_at(prediction: Prediction, as_of: datetime) -> str:
    as_of = require_aware(as_of, "as_of")
    if prediction.status != "open" and prediction.checked_at is not None and prediction.checked_at > as_of:
        return "open"
    return prediction.status


def truth_policy_for_prediction(prediction: Prediction, as_of: datetime) -> str:
    return PREDICTION_TRUTH_POLICIES[prediction_status_at(prediction, as_of)]
