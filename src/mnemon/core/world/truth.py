"""Truth policies: the label every world-model row carries into a context pack, so an agent can phrase it right.

Names follow Mneme where it has them (`current_state_assertion`, `lapsed_state_assertion`, `open_prediction`,
`missed_prediction`, `unverifiable_prediction`); the rest extend the same pattern. Both functions take `as_of` and
read nothing else, so `preflight --as-of T` is reproducible: a prediction checked after T is reported as it was at T
(open), a value superseded after T as current.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

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
    "withdrawn": "withdrawn_prediction",
}
# Every truth policy as a person reads it (a card's "why now"): the label itself is for programs, and a footer said
# "truth policy source_contained_observation". The vault's and a context pack's labels are here too (`core.vault
# .lifecycle.truth_policy`, `app.context`): one place says them all.
TRUTH_POLICY_WORDS: Mapping[str, str] = {
    "source_contained_observation": "stated in its source", "active_evidence": "stored by an agent, unchecked",
    "active_validated_claim": "a validated claim", "provenance_not_fact": "says where it came from, not a fact",
    "candidate_only": "an unconfirmed link", "excluded": "a rejected link", "stored_memory": "a stored memory",
    "current_state_assertion": "the current value", "lapsed_state_assertion": "a value that has lapsed",
    "superseded_state_assertion": "a value since replaced", "retracted_state_assertion": "a value taken back",
    "future_state_assertion": "a value not yet in force",
    "unbacked_state_assertion": "a value its source no longer holds",
    "open_prediction": "an open expectation", "confirmed_prediction": "an expectation that came true",
    "missed_prediction": "a missed expectation", "unverifiable_prediction": "an expectation no one can check",
    "withdrawn_prediction": "a withdrawn expectation",
}


def truth_policy_words(policy: str) -> str:
    """`policy` in words (`TRUTH_POLICY_WORDS`); one without words yet reads as its label's words."""
    return TRUTH_POLICY_WORDS.get(policy) or policy.replace("_", " ")


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


# What an edge resolved into a belief says once that belief is no longer in force, most telling first: a value that
# was true and ended (lapsed, superseded) or is not yet true (future) before one that was never true (retracted).
# `unbacked` is left out: it means the edge itself is no longer active, which the edge's own status already says.
_NOT_IN_FORCE_ORDER: tuple[str, ...] = ("lapsed", "future", "superseded", "retracted")


def claim_edges_not_in_force(assertions: Iterable[Assertion], as_of: datetime) -> dict[str, dict[str, Any]]:
    """source_edge_id → what the beliefs resolved from that graph edge say at `as_of`, for the edges none of whose
    beliefs is in force: `{"assertion_id", "validity", "truth_policy", "superseded_by_id"}`.

    A claim edge (`resolve`'s "Mira lives_in Lisbon") stays active in the graph after its belief is superseded by a
    later value or retracted as never true; read alone it would say "active, validated" — a superseded or retracted
    fact presented as current. Context packs and thought walks read this to label (or leave out) such an edge. An edge
    one current belief still rests on is not listed."""
    by_edge: dict[str, list[tuple[str, Assertion]]] = {}
    for row in assertions:
        if row.source_edge_id:
            by_edge.setdefault(str(row.source_edge_id), []).append((validity_at(row, as_of), row))
    out: dict[str, dict[str, Any]] = {}
    for edge_id, rows in by_edge.items():
        validities = {v for v, _ in rows}
        if "current" in validities or "unbacked" in validities:
            continue
        validity = next((v for v in _NOT_IN_FORCE_ORDER if v in validities), None)
        if validity is None:
            continue
        row = sorted((r for v, r in rows if v == validity), key=lambda r: (r.created_at, r.id))[-1]
        out[edge_id] = {"assertion_id": row.id, "validity": validity,
                        "truth_policy": ASSERTION_TRUTH_POLICIES[validity],
                        "superseded_by_id": row.superseded_by_id if validity == "superseded" else None}
    return out
