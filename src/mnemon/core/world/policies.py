"""Predicate policies: is a predicate single-valued, and does it need explicit validation?

Mneme forces every (subject, predicate) to one current value, so "Alice belongs_to Chess Club" silently ends
"Alice belongs_to Choir" (reference §8.2 #8). Here cardinality is a per-predicate policy:

* `cardinality="one"` — a new value supersedes the previous current value (lives_in, status, …).
* `cardinality="many"` — current values coexist (memberships, purchases, activities, children, …).

Resolution order for one assertion: its own `metadata.cardinality` (`"one"`/`1`/`"many"`) or
`metadata.conflict_policy` (`"exclusive"` → one, `"coexist"`/`"multi"` → many) → the policy table → the default.

**Default for unknown predicates: `one`.** A state assertion answers "what is currently true"; if a multi-valued
predicate is wrongly treated as single-valued, the older row is still kept (superseded, explainable); if a
single-valued predicate were wrongly treated as multi-valued, two contradictory "current" facts would be served as
truth. Evidence-conflict alerts (radar) only fire for *explicit* single-valuedness (table or metadata), never for
the default, so the default cannot flood the attention list.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Cardinality = Literal["one", "many"]
PolicySource = Literal["metadata", "table", "default"]


@dataclass(frozen=True)
class PredicatePolicy:
    predicate: str
    cardinality: Cardinality = "one"
    requires_validation: bool = True
    source: PolicySource = "default"

    @property
    def single_valued(self) -> bool:
        return self.cardinality == "one"

    @property
    def explicitly_exclusive(self) -> bool:
        """Single-valued because someone said so — the only case in which evidence conflicts are raised."""
        return self.cardinality == "one" and self.source != "default"


def _table(*rows: tuple[str, Cardinality, bool]) -> dict[str, PredicatePolicy]:
    return {name: PredicatePolicy(name, cardinality, validation, "table") for name, cardinality, validation in rows}


# Structural/observational predicates need no validation; real-world claims do (as in the relationship ontology).
DEFAULT_POLICIES: Mapping[str, PredicatePolicy] = _table(
    # single-valued real-world state
    ("located_in", "one", True),
    ("lives_in", "one", True),
    ("works_at", "one", True),
    ("employed_by", "one", True),
    ("married_to", "one", True),
    ("born_on", "one", True),
    ("born_in", "one", True),
    ("status", "one", False),
    ("due_on", "one", False),
    ("scheduled_for", "one", False),
    ("owned_by", "one", True),
    ("assigned_to", "one", True),
    # multi-valued: several current objects coexist
    ("belongs_to", "many", True),
    ("member_of", "many", True),
    ("part_of", "many", True),
    ("attends_activity", "many", True),
    ("requested_activity", "many", True),
    ("purchased", "many", True),
    ("owns", "many", True),
    ("father_of", "many", True),
    ("mother_of", "many", True),
    ("parent_of", "many", True),
    ("child_of", "many", True),
    ("knows", "many", True),
    ("works_with", "many", True),
    ("relates_to", "many", True),
    ("likes", "many", True),
    ("has_fact", "many", False),
    ("has_risk", "many", False),
    ("has_blocked", "many", False),
    ("has_done", "many", False),
    ("mentions", "many", False),
    ("links_to", "many", False),
)

_ONE = {"one", "1", "single", "exclusive"}
_MANY = {"many", "multi", "multiple", "n", "coexist"}


def _metadata_cardinality(metadata: Mapping[str, Any] | None) -> Cardinality | None:
    if not metadata:
        return None
    for key in ("cardinality", "conflict_policy"):
        raw = metadata.get(key)
        if raw is None or isinstance(raw, bool):
            continue
        text = str(raw).strip().casefold()
        if text in _ONE:
            return "one"
        if text in _MANY:
            return "many"
    return None


def policy_for(
    predicate: str,
    policies: Mapping[str, PredicatePolicy] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> PredicatePolicy:
    table = DEFAULT_POLICIES if policies is None else policies
    base = table.get(predicate) or PredicatePolicy(predicate)
    override = _metadata_cardinality(metadata)
    if override is not None:
        return PredicatePolicy(predicate, override, base.requires_validation, "metadata")
    return base


def group_policy(
    predicate: str,
    metadatas: list[Mapping[str, Any]],
    policies: Mapping[str, PredicatePolicy] | None = None,
) -> PredicatePolicy:
    """Policy for a whole (subject, predicate) group: any row declaring exclusivity makes the group exclusive."""
    chosen = policy_for(predicate, policies)
    for metadata in metadatas:
        candidate = policy_for(predicate, policies, metadata)
        if candidate.source == "metadata" and (candidate.single_valued or chosen.source != "metadata"):
            chosen = candidate
    return chosen
