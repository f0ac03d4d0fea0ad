"""Contradiction radar: read-only alerts where stored state disagrees with itself or with newer evidence.

"Suppression applies to recall, not perception": current state stays authoritative until new evidence passes the
assertion gate, but disagreeing graph evidence is *reported*. Nothing here changes a row.

* `world_state_collision` (high) — two or more distinct current objects for a single-valued (subject, predicate):
  stored as current, or in force at `as_of` (a value whose successor takes over only later is still in force, so
  two such values — rows written before writes re-chained the whole pair — contradict each other now).
  Multi-valued predicates are exempt: several current memberships are the point, not a collision.
* `evidence_conflict` — an active (high) or candidate (review) graph claim names a different object for a predicate
  that is *explicitly* single-valued (table entry or assertion metadata). Claims already represented by superseded or
  retracted assertions are history and stay quiet, unless the claim is newer than the current value.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from mnemon.core.world.assertions import Assertion, validity_at
from mnemon.core.world.policies import PredicatePolicy, group_policy
from mnemon.core.world.values import (
    instant_or_none,
    iso_or_none,
    norm_name,
    optional_str,
    require_mapping,
    required_str,
    unit_float,
)


@dataclass(frozen=True)
class EvidenceClaim:
    """A graph edge seen as a claim: `subject --relation--> object` with its lifecycle status."""

    edge_id: str
    subject: str
    relation: str
    object: str
    status: str  # active | candidate | killed
    confidence: float = 0.0
    strength: float = 0.0
    source_path: str = ""
    source_type: str = ""
    evidence: str = ""
    observed_at: datetime | None = None
    # other names of the same two nodes (a note's title beside the name the research wrote): the claim is about any
    subject_aliases: tuple[str, ...] = ()
    object_aliases: tuple[str, ...] = ()

    @property
    def subject_keys(self) -> set[str]:
        return {norm_name(name) for name in (self.subject, *self.subject_aliases)}

    @property
    def object_keys(self) -> set[str]:
        return {norm_name(name) for name in (self.object, *self.object_aliases)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EvidenceClaim:
        row = require_mapping(data, "evidence claim")
        what = "evidence claim"
        return EvidenceClaim(
            edge_id=required_str(row, "edge_id", what),
            subject=required_str(row, "subject", what),
            relation=required_str(row, "relation", what),
            object=required_str(row, "object", what),
            status=required_str(row, "status", what),
            confidence=unit_float(row, "confidence", what, 0.0),
            strength=unit_float(row, "strength", what, 0.0),
            source_path=optional_str(row, "source_path", what, "") or "",
            source_type=optional_str(row, "source_type", what, "") or "",
            evidence=optional_str(row, "evidence", what, "") or "",
            observed_at=instant_or_none(row.get("observed_at"), "observed_at"),
        )


@dataclass(frozen=True)
class Conflict:
    kind: str  # world_state_collision | evidence_conflict
    severity: str  # high | review
    subject: str
    predicate: str
    summary: str
    assertion_ids: tuple[str, ...]
    current: Mapping[str, Any] | None = None
    challenger: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "subject": self.subject,
            "predicate": self.predicate,
            "summary": self.summary,
            "assertion_ids": list(self.assertion_ids),
            "current": None if self.current is None else dict(self.current),
            "challenger": None if self.challenger is None else dict(self.challenger),
        }


def _current_view(row: Assertion) -> dict[str, Any]:
    return {
        "assertion_id": row.id,
        "object": row.object,
        "confidence": row.confidence,
        "source_path": row.source_path,
        "evidence": row.evidence,
        "valid_from": iso_or_none(row.valid_from),
    }


def _challenger_view(claim: EvidenceClaim) -> dict[str, Any]:
    return {
        "edge_id": claim.edge_id,
        "status": claim.status,
        "object": claim.object,
        "confidence": claim.confidence,
        "strength": claim.strength,
        "source_path": claim.source_path,
        "source_type": claim.source_type,
        "evidence": claim.evidence,
    }


def _is_history(claim: EvidenceClaim, history: Sequence[Assertion], current: Assertion) -> bool:
    for row in history:
        if claim.edge_id and row.source_edge_id == claim.edge_id:
            return True
        newer_than_current = claim.observed_at is not None and claim.observed_at > current.starts_at
        if row.object_key in claim.object_keys and not newer_than_current:
            return True
    return False


def _colliding(rows: Sequence[Assertion], as_of: datetime | None) -> list[Assertion]:
    """The rows of one pair that claim to be its value together: the stored heads if they disagree, else the rows
    in force at `as_of` if those disagree; [] when the pair is consistent."""
    heads = [r for r in rows if r.status == "current"]
    if len({r.object_key for r in heads}) > 1:
        return heads
    if as_of is not None:
        now = [r for r in rows if validity_at(r, as_of) == "current"]
        if len({r.object_key for r in now}) > 1:
            return now
    return []


def detect_conflicts(
    assertions: Iterable[Assertion],
    policies: Mapping[str, PredicatePolicy] | None = None,
    evidence_claims: Iterable[EvidenceClaim] = (),
    *,
    as_of: datetime | None = None,
) -> list[Conflict]:
    """Conflicts of stored state with itself and with graph evidence; `as_of` also checks which values are in force
    at that instant (without it, only the stored statuses are compared)."""
    groups: dict[tuple[str, str], list[Assertion]] = defaultdict(list)
    for row in assertions:
        groups[row.pair_key].append(row)
    claims_by_pair: dict[tuple[str, str], list[EvidenceClaim]] = defaultdict(list)
    for claim in evidence_claims:
        if claim.status in ("active", "candidate"):
            for subject_key in claim.subject_keys:
                claims_by_pair[(subject_key, claim.relation)].append(claim)

    conflicts: list[Conflict] = []
    for (_, predicate), rows in sorted(groups.items()):
        current = sorted((r for r in rows if r.status == "current"), key=lambda r: (r.starts_at, r.id))
        if not current:
            continue
        policy = group_policy(predicate, [r.metadata for r in current], policies)
        if not policy.single_valued:
            continue
        latest = current[-1]
        objects = sorted({r.object_key for r in current})
        clash = sorted(_colliding(rows, as_of), key=lambda r: (r.starts_at, r.id))
        if clash:
            count = len({r.object_key for r in clash})
            conflicts.append(
                Conflict(
                    kind="world_state_collision",
                    severity="high",
                    subject=latest.subject,
                    predicate=predicate,
                    summary=f"{latest.subject} {predicate} has {count} current values: "
                    + ", ".join(sorted({r.object for r in clash})),
                    assertion_ids=tuple(r.id for r in clash),
                    current=_current_view(clash[-1]),
                )
            )
        if not policy.explicitly_exclusive:
            continue
        history = [r for r in rows if r.status in ("superseded", "retracted")]
        own_edges = {r.source_edge_id for r in current if r.source_edge_id}
        current_objects = set(objects)
        for claim in sorted(claims_by_pair.get(latest.pair_key, []), key=lambda c: (c.status, c.edge_id)):
            if claim.edge_id in own_edges or claim.object_keys & current_objects:
                continue
            if _is_history(claim, history, latest):
                continue
            severity = "high" if claim.status == "active" else "review"
            conflicts.append(
                Conflict(
                    kind="evidence_conflict",
                    severity=severity,
                    subject=latest.subject,
                    predicate=predicate,
                    summary=f"current {latest.subject} {predicate} {latest.object!r} is challenged by "
                    f"{claim.status} evidence {claim.object!r}"
                    + (f" ({claim.source_path})" if claim.source_path else ""),
                    assertion_ids=(latest.id,),
                    current=_current_view(latest),
                    challenger=_challenger_view(claim),
                )
            )
    return conflicts


def radar_attention(conflicts: Iterable[Conflict]) -> list[dict[str, Any]]:
    """The `world tick` attention entries for conflicts (kind, severity, subject, predicate, summary)."""
    return [
        {"kind": c.kind, "severity": c.severity, "subject": c.subject, "predicate": c.predicate, "summary": c.summary}
        for c in conflicts
    ]

