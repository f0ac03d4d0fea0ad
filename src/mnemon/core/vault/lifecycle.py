"""Edge lifecycle: the write gate every edge passes before it is stored, promotion, weakening, rebuild survival.

Statuses are ``candidate`` (stored for audit, tentative), ``active`` (may be walked and stated) and
``killed`` (a tombstone). The gate follows Mneme's contract (reference §2.3) with its holes closed:

* **killed is terminal**: any write over a killed edge returns killed (Mneme's `blocked_recreation`) unless
  the caller passes ``revive=True`` — and a revived edge is gated again like a new one, never straight back
  to active just because it once was.
* **straight to active**: source-contained observations (``has_fact``/``has_risk``/…, including
  ``has_correction``, which Mneme left unregistered and therefore candidate), mnemon's association edges
  (temporal/entity/causal/semantic built by its rules or an agent's ``link``), and provenance edges
  (reference/structure/extraction) when a non-ingest caller asks for them.
* **candidate by default**: provenance edges parsed at ingest (links, headings, dates, emails, tags) — a parsed
  link is navigation, not a fact.
* **candidate until validated**: semantic / semantic_pending relations and every unknown relation need explicit
  validation *and* evidence text *and* confidence ≥ 0.90 (`ACTIVE_THRESHOLD`); a person confirming
  (origin ``user``) is the validation, so the threshold does not apply to them. Vault text and automatic rules
  cannot validate a claim — Mneme's ingest could not either.
* ``supersedes`` is never created by automatic rules (as in mnemon); only an explicit caller makes it active.
* **decisions survive rebuilds**: a kill, a validation and a promotion are decisions about an edge, and no re-parse
  of its note undoes them. A promotion is recorded apart from a validation (``promoted`` in the edge's metadata,
  the mode that made it active): `promote-candidates --mode all` activates what the gate lets through, it never
  vouches for a claim, so it must not read as a person's confirmation.

Every decision carries stable reason codes; the app writes them to the edge event log (`explain-edge`) and, for a
decision about one edge, to the oplog (`mnemon log`).
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Protocol, get_args

from mnemon.core.errors import InvalidInput
from mnemon.core.ontology import DEFAULT_ONTOLOGY, PROVENANCE_CATEGORIES, Ontology

EdgeStatus = Literal["candidate", "active", "killed"]
EdgeOrigin = Literal["ingest", "auto", "link", "resolve", "scoped", "user", "promote"]
PromotionMode = Literal["validated-only", "all"]
STATUSES: tuple[str, ...] = get_args(EdgeStatus)
ORIGINS: tuple[str, ...] = get_args(EdgeOrigin)
PROMOTION_MODES: tuple[str, ...] = get_args(PromotionMode)

ACTIVE_THRESHOLD = 0.90
# An active edge weakened below this strength is demoted to candidate (Mneme's weaken-edge/feedback rule).
DEMOTE_BELOW = 0.10
DEFAULT_WEAKEN_FACTOR = 0.5
PROMOTED = "promoted"  # edge metadata key: the `promote-candidates` mode that made the edge active
_CANNOT_VALIDATE: frozenset[str] = frozenset({"ingest", "auto"})


@dataclass(frozen=True, slots=True)
class GateDecision:
    status: EdgeStatus
    reasons: tuple[str, ...]
    relation: str
    category: str | None  # None: the relation is not in the ontology
    requires_validation: bool

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status, "reasons": list(self.reasons), "relation": self.relation,
            "category": self.category or "unknown", "requires_validation": self.requires_validation,
        }


class EdgeLike(Protocol):
    """What the lifecycle needs to know about a stored edge; the app's edge rows satisfy it."""

    @property
    def id(self) -> str: ...
    @property
    def relation(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def evidence(self) -> str | None: ...
    @property
    def validated(self) -> bool: ...
    @property
    def origin(self) -> str: ...


@dataclass(frozen=True, slots=True)
class EdgeFacts:
    id: str
    relation: str
    status: EdgeStatus
    confidence: float
    evidence: str | None
    validated: bool
    origin: EdgeOrigin
    promoted: bool = False


@dataclass(frozen=True, slots=True)
class Promotion:
    edge_id: str
    relation: str
    from_status: str
    to_status: EdgeStatus
    reasons: tuple[str, ...]

    @property
    def activates(self) -> bool:
        return self.to_status == "active"


def _check_unit(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidInput(f"{name} must be a number between 0 and 1", **{name: repr(value)})
    if not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, got {value}", **{name: value})
    return float(value)


def _check_choice(name: str, value: object, choices: tuple[str, ...], optional: bool = False) -> None:
    if optional and value is None:
        return
    if value not in choices:
        raise InvalidInput(f"{name} must be one of {', '.join(choices)}; got {value!r}", **{name: repr(value)})


def gate_edge(
    relation: str,
    confidence: float,
    evidence: str | None,
    validated: bool,
    origin: EdgeOrigin,
    *,
    requested: EdgeStatus | None = None,
    existing: EdgeStatus | None = None,
    revive: bool = False,
    active_threshold: float = ACTIVE_THRESHOLD,
    ontology: Ontology = DEFAULT_ONTOLOGY,
) -> GateDecision:
    """Decide the status an edge write may have. `requested` None means "what this origin normally asks for"."""
    if not isinstance(relation, str) or not relation.strip():
        raise InvalidInput("relation must be a non-empty string", relation=repr(relation))
    confidence = _check_unit("confidence", confidence)
    active_threshold = _check_unit("active_threshold", active_threshold)
    _check_choice("origin", origin, ORIGINS)
    _check_choice("requested", requested, STATUSES, optional=True)
    _check_choice("existing", existing, STATUSES, optional=True)
    if evidence is not None and not isinstance(evidence, str):
        raise InvalidInput("evidence must be text or None", evidence=repr(evidence))

    spec = ontology.classify(relation)
    category = spec.category if spec else None
    needs_validation = spec is None or spec.requires_validation

    def decide(status: EdgeStatus, *reasons: str) -> GateDecision:
        prefix = ("unknown_relation",) if spec is None else ()
        revived = ("revived",) if revive and existing == "killed" else ()
        return GateDecision(status, prefix + revived + reasons, relation, category, needs_validation)

    if existing == "killed" and not revive:
        return decide("killed", "already_killed" if requested == "killed" else "killed_tombstone_blocks_recreation")
    if requested == "killed":
        return decide("killed", "explicit_kill")
    if requested == "candidate":
        return decide("candidate", "requested_candidate")

    if spec is None or spec.requires_validation:
        missing: list[str] = []
        if origin in _CANNOT_VALIDATE:
            missing.append(f"{origin}_cannot_validate")
        elif not validated:
            missing.append("requires_explicit_validation")
        if not (evidence and evidence.strip()):
            missing.append("missing_evidence")
        if origin != "user" and confidence < active_threshold:
            missing.append("below_active_threshold")
        if missing:
            return decide("candidate", *missing)
        return decide("active", "user_confirmed" if origin == "user" else "validated_claim")

    if spec.category == "lineage":
        if origin in _CANNOT_VALIDATE:
            return decide("candidate", "supersedes_must_be_explicit")
        return decide("active", "explicit_lineage")
    if spec.category in PROVENANCE_CATEGORIES:
        if origin == "ingest" and requested is None:
            return decide("candidate", "parsed_provenance_stays_candidate")
        return decide("active", "provenance_requested_active")
    if spec.category == "observation":
        return decide("active", "source_contained_observation")
    return decide("active", "memory_association")


def evidence_blind_relations(ontology: Ontology = DEFAULT_ONTOLOGY) -> frozenset[str]:
    """The relations whose edges `gate_edge` decides without looking at their evidence: those that need no
    validation (a caller deciding many edges can leave their evidence unread)."""
    return frozenset(spec.name for spec in ontology.specs()
                     if (known := ontology.classify(spec.name)) is not None and not known.requires_validation)


def truth_policy(relation: str, status: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> str:
    """Mneme's per-edge truth_policy label, so callers never phrase a candidate or a link as a fact."""
    if status == "killed":
        return "excluded"
    if status != "active":
        return "candidate_only"
    spec = ontology.classify(relation)
    if spec is None or spec.requires_validation:
        return "active_validated_claim"
    if spec.category in PROVENANCE_CATEGORIES:
        return "provenance_not_fact"
    if spec.category == "observation":
        return "source_contained_observation"
    return "active_evidence"


def promotion_plan(
    edges: Iterable[EdgeLike],
    mode: PromotionMode = "validated-only",
    *,
    active_threshold: float = ACTIVE_THRESHOLD,
    ontology: Ontology = DEFAULT_ONTOLOGY,
) -> list[Promotion]:
    """What `promote-candidates` would do, without doing it. Only candidates are considered.

    ``validated-only`` (the default) considers candidates that were validated by something other than ingest —
    research writebacks, user confirmations; ``all`` considers every candidate as an explicit bulk request
    (origin ``promote``). Either way each edge is re-checked by `gate_edge`, so ``all`` still cannot make an
    unvalidated claim active; it only activates provenance edges, which is why it is noisy and opt-in.
    """
    _check_choice("mode", mode, PROMOTION_MODES)
    plan: list[Promotion] = []
    # the gate's decision depends on the evidence only through whether it has text: a vault's tens of thousands of
    # candidates take a few dozen distinct decisions
    decisions: dict[tuple[Any, ...], GateDecision] = {}
    for edge in edges:
        if edge.status != "candidate":
            continue
        if mode == "validated-only" and not (edge.validated and edge.origin != "ingest"):
            continue
        origin = "promote" if mode == "all" else edge.origin
        if origin not in ORIGINS:
            origin = "promote"
        evidence = edge.evidence
        key = None  # (a value the gate refuses is never a key: it raises)
        if isinstance(edge.relation, str) and isinstance(edge.confidence, (int, float)) and (
                evidence is None or isinstance(evidence, str)):
            key = (edge.relation, edge.confidence, bool(evidence and evidence.strip()), bool(edge.validated), origin)
        decision = decisions.get(key) if key is not None else None
        if decision is None:
            decision = gate_edge(
                edge.relation, edge.confidence, evidence, edge.validated, origin,  # type: ignore[arg-type]
                requested="active", active_threshold=active_threshold, ontology=ontology,
            )
            if key is not None:
                decisions[key] = decision
        plan.append(Promotion(edge.id, edge.relation, edge.status, decision.status, decision.reasons))
    return plan


def kept_active(status: str, metadata: Mapping[str, Any] | str | None) -> bool:
    """Whether an edge is active by a decision a re-parse must keep: validated, or promoted by `promote-candidates`.
    `metadata` may be the stored JSON text: a rebuild asks this of every edge of a changed note, and most hold
    neither key, so the text is parsed only when one of them is in it."""
    if status != "active" or not metadata:
        return False
    if isinstance(metadata, str):
        if '"validated"' not in metadata and f'"{PROMOTED}"' not in metadata:
            return False
        metadata = json.loads(metadata)
        if not isinstance(metadata, dict):
            return False
    return bool(metadata.get("validated") or metadata.get(PROMOTED))


def survives_rebuild(edge: EdgeLike) -> bool:
    """Whether a vault rebuild must keep this edge: killed tombstones (so a re-parse cannot resurrect what a
    person killed), validated or promoted active edges (a decision, not a parse), and anything not derived from
    vault text (agent links, resolve writebacks, scoped memory, mnemon's own association edges) — a rebuild owns
    only what ingest wrote. An edge without a `promoted` attribute was never promoted."""
    if edge.status == "killed":
        return True
    if edge.origin != "ingest":
        return True
    return edge.status == "active" and (bool(edge.validated) or bool(getattr(edge, PROMOTED, False)))


def weaken(confidence: float, factor: float = DEFAULT_WEAKEN_FACTOR, floor: float = 0.0) -> float:
    """Multiply by `factor`, not below `floor` — and never above the starting value: weakening never strengthens."""
    confidence = _check_unit("confidence", confidence)
    factor = _check_unit("factor", factor)
    floor = _check_unit("floor", floor)
    return min(confidence, max(floor, round(confidence * factor, 6)))  # 0.045, not 0.04650000000000001


def weaken_edge(
    status: EdgeStatus, strength: float, factor: float = DEFAULT_WEAKEN_FACTOR, floor: float = 0.0
) -> tuple[float, EdgeStatus]:
    """New (strength, status): an active edge that drops below `DEMOTE_BELOW` becomes a candidate again."""
    _check_choice("status", status, STATUSES)
    new_strength = weaken(strength, factor, floor)
    if status == "active" and new_strength < DEMOTE_BELOW:
        return new_strength, "candidate"
    return new_strength, status
