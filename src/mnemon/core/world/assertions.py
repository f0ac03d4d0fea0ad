"""State assertions: durable, source-backed beliefs ("Alice lives_in Berlin") and the rules that write them.

Lifecycle: `parse_assertion` (shape) → `assertion_gate` (is it good enough to be a belief?) → `apply_assertion`
(which rows does it supersede?) → the app persists `AssertionChange`. Reading never mutates: `validity_at`
answers current / lapsed / future / superseded / retracted / unbacked for any `as_of`, so replays are deterministic.

Statuses: `current`; `superseded` (was true, replaced by a later value — keeps `superseded_at`, the instant the
successor took over, so an `as_of` before it still sees the row as current); `retracted` (a correction said it was
never true — never current at any `as_of`, and out of its pair's chain: what it had displaced is in force again).
A single-valued (subject, predicate) is one chain ordered by when each value took effect (`rechain`), so at any
instant exactly one of its values is in force.

A belief resolved from a graph edge also carries, read-time only, the status of that edge (`source_edge_status`):
while the edge is not active — demoted to candidate by a stricter replay of `resolve`, killed, retired — the row is
`unbacked`, never current, and it reads as current again once the edge is active. An edge that is gone altogether
(a rebuild) leaves the belief as it is: assertions are meant to outlive the graph rows they were resolved from.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from mnemon.core.errors import Conflict, InvalidInput
from mnemon.core.world.policies import PredicatePolicy, policy_for
from mnemon.core.world.values import (
    KEY_MAX_BYTES,
    PREDICATE_MAX_BYTES,
    SUBJECT_MAX_BYTES,
    check_key,
    content_hash,
    end_or_none,
    instant_or_none,
    iso,
    iso_or_none,
    nfc,
    norm_name,
    optional_mapping,
    optional_str,
    parse_instant,
    refuse_nul,
    refuse_unknown_keys,
    require_aware,
    require_mapping,
    required_str,
    truthy_flag,
    unit_float,
)

ASSERTION_STATUSES: tuple[str, ...] = ("current", "superseded", "retracted")
STATE_TYPES: tuple[str, ...] = ("belief", "open_loop")
CONFIRMED_CERTAINTIES: frozenset[str] = frozenset({"confirmed", "certain", "user_confirmed", "absolutely_certain"})
# Objects of these types name a thing (a node); anything else is a literal value (a date, an amount, a status word).
NAMED_OBJECT_TYPES: frozenset[str] = frozenset(
    {"entity", "person", "project", "place", "event", "organization", "organisation", "note", "wikilink", "activity"}
)
# Sources that cannot validate a real-world claim on their own: a note mentioning it, a parser, a model's guess.
UNVALIDATED_SOURCE_TYPES: frozenset[str] = frozenset({"vault", "ingest", "inferred", "llm", "model"})
CORRECTION_SOURCE_TYPES: frozenset[str] = frozenset({"user_correction", "correction"})
CORRECTION_TYPES: frozenset[str] = frozenset({"contradiction", "contradicted", "correction", "false_previous"})
GATE_MIN_CONFIDENCE = 0.9
CORROBORATED_BY = "corroborated_by"  # metadata key: the other sources that stated a row's value (`corroborations`)
# every key an assertion payload may carry: `due` is Mneme's spelling of `valid_until`, and `claim_status` rides in
# Mneme's `remember add` assertions (the write gate decides here, so it is accepted and not read)
ASSERTION_FIELDS = frozenset((
    "id", "subject", "subject_type", "predicate", "object", "object_type", "object_name", "object_value",
    "confidence", "certainty", "evidence", "source_path", "source_type", "subject_node_id", "source_edge_id",
    "valid_from", "valid_until", "due", "state_type", "status", "metadata", "claim_status"))

Validity = Literal["current", "lapsed", "future", "superseded", "retracted", "unbacked"]
# `source_edge_status` values that say nothing against the belief: no source edge or not known at the instant read
# (None), the edge is active, or it is no longer in the graph at all (a rebuild; the belief is meant to outlive it)
BACKING_EDGE_STATUSES: frozenset[str | None] = frozenset({None, "active", "missing"})


@dataclass(frozen=True)
class Assertion:
    id: str
    subject: str
    predicate: str
    object_name: str | None
    object_value: str | None
    confidence: float
    certainty: str
    evidence: str
    source_path: str
    created_at: datetime
    updated_at: datetime
    subject_type: str = "entity"
    source_type: str = "research"
    state_type: str = "belief"
    status: str = "current"
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    supersedes_id: str | None = None
    superseded_by_id: str | None = None
    superseded_at: datetime | None = None
    subject_node_id: str | None = None
    source_edge_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    prediction_misses: tuple[Mapping[str, Any], ...] = ()
    # read-time, never stored (not in `to_row`): the app fills it from the graph when it reads the row
    source_edge_status: str | None = None

    @property
    def unbacked(self) -> bool:
        """The graph edge this belief was resolved from exists but is no longer active."""
        return self.source_edge_status not in BACKING_EDGE_STATUSES

    @property
    def object(self) -> str:
        return self.object_name if self.object_name is not None else (self.object_value or "")

    @property
    def subject_key(self) -> str:
        return norm_name(self.subject)

    @property
    def object_key(self) -> str:
        return norm_name(self.object)

    @property
    def pair_key(self) -> tuple[str, str]:
        return (self.subject_key, self.predicate)

    @property
    def starts_at(self) -> datetime:
        """World time the value took effect: `valid_from`; without one, creation time — but never after the end the
        source gave. A claim that was already over when it was written ("lived in Paris until 2020") started no
        later than its end, so it sorts into the past as history instead of replacing the present value."""
        if self.valid_from is not None:
            return self.valid_from
        if self.valid_until is not None and self.valid_until < self.created_at:
            return self.valid_until
        return self.created_at

    @property
    def ended_before_written(self) -> bool:
        """No start given and already past its `valid_until` when written: history, never a re-assertion."""
        return self.valid_from is None and self.valid_until is not None and self.valid_until < self.created_at

    def to_row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "subject_name": self.subject,
            "subject_type": self.subject_type,
            "predicate": self.predicate,
            "object_name": self.object_name,
            "object_value": self.object_value,
            "state_type": self.state_type,
            "status": self.status,
            "confidence": self.confidence,
            "certainty": self.certainty,
            "evidence_text": self.evidence,
            "source_path": self.source_path,
            "source_type": self.source_type,
            "subject_node_id": self.subject_node_id,
            "source_edge_id": self.source_edge_id,
            "valid_from": iso_or_none(self.valid_from),
            "valid_until": iso_or_none(self.valid_until),
            "supersedes_id": self.supersedes_id,
            "superseded_by_id": self.superseded_by_id,
            "superseded_at": iso_or_none(self.superseded_at),
            "metadata": dict(self.metadata),
            "prediction_misses": [dict(miss) for miss in self.prediction_misses],
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Assertion:
        what = "assertion row"
        data = require_mapping(row, what)
        status = required_str(data, "status", what)
        if status not in ASSERTION_STATUSES:
            raise InvalidInput(f"{what}: status must be one of {', '.join(ASSERTION_STATUSES)}, got {status!r}")
        misses = data.get("prediction_misses") or []
        if not isinstance(misses, list) or not all(isinstance(miss, Mapping) for miss in misses):
            raise InvalidInput(f"{what}: prediction_misses must be a list of objects")
        created_at = parse_instant(data.get("created_at"), "created_at")
        return Assertion(
            id=required_str(data, "id", what),
            subject=required_str(data, "subject_name", what),
            subject_type=optional_str(data, "subject_type", what, "entity") or "entity",
            predicate=required_str(data, "predicate", what),
            object_name=optional_str(data, "object_name", what),
            object_value=optional_str(data, "object_value", what),
            state_type=optional_str(data, "state_type", what, "belief") or "belief",
            status=status,
            confidence=unit_float(data, "confidence", what, 0.5),
            certainty=optional_str(data, "certainty", what, "") or "",
            evidence=optional_str(data, "evidence_text", what, "") or "",
            source_path=optional_str(data, "source_path", what, "") or "",
            source_type=optional_str(data, "source_type", what, "research") or "research",
            subject_node_id=optional_str(data, "subject_node_id", what),
            source_edge_id=optional_str(data, "source_edge_id", what),
            valid_from=instant_or_none(data.get("valid_from"), "valid_from"),
            valid_until=instant_or_none(data.get("valid_until"), "valid_until"),
            supersedes_id=optional_str(data, "supersedes_id", what),
            superseded_by_id=optional_str(data, "superseded_by_id", what),
            superseded_at=instant_or_none(data.get("superseded_at"), "superseded_at"),
            metadata=optional_mapping(data, "metadata", what),
            prediction_misses=tuple(dict(miss) for miss in misses),
            created_at=created_at,
            updated_at=instant_or_none(data.get("updated_at"), "updated_at") or created_at,
        )


def normalise_predicate(predicate: str) -> str:
    """A predicate, or a payload edge's relation, as one relation name ("Located In" and "located-in" → located_in,
    "Situé à" → situé_à): its letters, marks and digits in any script, NFC and case-folded, each run of anything
    else one `_` between them. One rule for every producer: `state assert` kept "located-in" while `resolve` wrote
    located_in, and one belief entered both ways was two predicates, each with a value in force (rows written
    before are respelled once: migration m065, `app/world/keys.py`)."""
    folded = nfc(nfc(predicate).casefold())
    return "_".join("".join(c if unicodedata.category(c)[0] in "LMN" else " " for c in folded).split())


def linked_name(name: str) -> str:
    """A subject or named object given as one Obsidian link ("[[Acme]]", "[[Acme|the client]]") as the note it names,
    as a `resolve` claim's is: kept as written, "[[Acme]] ceo Bo" was a subject of its own beside "Acme ceo Ana", two
    values of one single-valued pair in force."""
    if "[[" not in name:
        return name
    from mnemon.core.vault.links import link_name  # (only for such a name: a plain write never loads the parser)

    return link_name(name)


def assertion_id(subject: str, predicate: str, obj: str, source_path: str, valid_from: datetime | None) -> str:
    """Deterministic: the same claim from the same source for the same start is the same row.

    `valid_from` is part of the key (unlike Mneme) so "A, then B, then A again" creates a new row for the second A
    instead of resurrecting the old superseded one and corrupting its history.
    """
    key = [norm_name(subject), predicate, norm_name(obj), source_path, iso_or_none(valid_from)]
    return content_hash("wsa:", key, 20)


def parse_assertion(
    payload: Any,
    now: datetime,
    aliases: Mapping[str, str] | None = None,
    source_path: str | None = None,
) -> Assertion:
    """Shape-check a proposed assertion (a `resolve` claim or a `remember` assertion) into an `Assertion`.

    Structural problems raise `InvalidInput`; whether the claim deserves to become a belief is `assertion_gate`'s
    call, so a low-confidence claim parses fine and is then refused with reasons.
    `aliases` maps normalised alias → canonical name (see `aliases.alias_map`). A key outside `ASSERTION_FIELDS`
    is refused: a misspelt `valid_until` or `source_type` would otherwise be a belief without an end, or a correction
    taken for research.
    """
    now = require_aware(now)
    what = "assertion"
    data = require_mapping(payload, what)
    refuse_unknown_keys(data, ASSERTION_FIELDS, what)
    refuse_nul(data, what)
    subject = nfc(linked_name(required_str(data, "subject", what)))
    if aliases:
        subject = aliases.get(norm_name(subject), subject)
    predicate = normalise_predicate(required_str(data, "predicate", what))
    if not predicate:
        raise InvalidInput(f"{what}: predicate has no letters or digits", field="predicate")
    # the columns the store indexes: refused here, before anything is written, the same way on both backends
    check_key(norm_name(subject), "subject", what, SUBJECT_MAX_BYTES)
    check_key(predicate, "predicate", what, PREDICATE_MAX_BYTES)
    object_type = (optional_str(data, "object_type", what, "") or "").casefold()
    explicit_name = optional_str(data, "object_name", what)
    explicit_value = data.get("object_value")
    if explicit_value is not None and not isinstance(explicit_value, str):
        if isinstance(explicit_value, bool) or not isinstance(explicit_value, (int, float)):
            raise InvalidInput(f"{what}: object_value must be a string or a number", field="object_value")
        explicit_value = str(explicit_value)
    plain_object = optional_str(data, "object", what)
    given = [value for value in (explicit_name, explicit_value, plain_object) if value not in (None, "")]
    if not given:
        raise InvalidInput(f"{what}: missing required field 'object' (or object_name / object_value)", field="object")
    if len(given) > 1:
        raise InvalidInput(f"{what}: give exactly one of object, object_name, object_value", field="object")
    explicit_name = None if explicit_name is None else nfc(linked_name(explicit_name))
    plain_object = None if plain_object is None else nfc(plain_object)
    if explicit_name:
        object_name, object_value = explicit_name, None
    elif explicit_value not in (None, ""):
        object_name, object_value = None, str(explicit_value).strip()
    elif object_type and object_type not in NAMED_OBJECT_TYPES:
        object_name, object_value = None, plain_object
    else:
        object_name, object_value = None if plain_object is None else linked_name(plain_object), None
    path = optional_str(data, "source_path", what) or source_path
    if not path:
        raise InvalidInput(f"{what}: missing required field 'source_path'", field="source_path")
    check_key(path, "source_path", what)
    valid_from = instant_or_none(data.get("valid_from"), "valid_from")
    valid_until = end_or_none(data.get("valid_until", data.get("due")), "valid_until")
    if valid_from and valid_until and valid_until < valid_from:
        raise InvalidInput(f"{what}: valid_until ({iso(valid_until)}) is before valid_from ({iso(valid_from)})",
                           field="valid_until")
    state_type = optional_str(data, "state_type", what, "belief") or "belief"
    if state_type not in STATE_TYPES:
        raise InvalidInput(f"{what}: state_type must be one of {', '.join(STATE_TYPES)}, got {state_type!r}",
                           field="state_type")
    status = optional_str(data, "status", what, "current") or "current"
    metadata = optional_mapping(data, "metadata", what)
    obj = object_name if object_name is not None else object_value or ""
    explicit_id = check_key(optional_str(data, "id", what), "id", what, KEY_MAX_BYTES)
    return Assertion(
        id=explicit_id or assertion_id(subject, predicate, obj, path, valid_from),
        subject=subject,
        subject_type=optional_str(data, "subject_type", what, "entity") or "entity",
        predicate=predicate,
        object_name=object_name,
        object_value=object_value,
        confidence=unit_float(data, "confidence", what, 0.5),
        certainty=(optional_str(data, "certainty", what, "") or "").casefold(),
        evidence=optional_str(data, "evidence", what, "") or "",
        source_path=path,
        source_type=(optional_str(data, "source_type", what, "research") or "research").casefold(),
        state_type=state_type,
        status=status,
        valid_from=valid_from,
        valid_until=valid_until,
        subject_node_id=optional_str(data, "subject_node_id", what),
        source_edge_id=check_key(optional_str(data, "source_edge_id", what), "source_edge_id", what, None),
        metadata=metadata,
        created_at=now,
        updated_at=now,
    )


# ---- the write gate --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GateReason:
    code: str
    message: str


@dataclass(frozen=True)
class GateResult:
    accepted: bool
    reasons: tuple[GateReason, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(reason.code for reason in self.reasons)

    def to_dict(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "reasons": [{"code": r.code, "message": r.message} for r in self.reasons]}


def is_explicitly_validated(assertion: Assertion) -> bool:
    if truthy_flag(assertion.metadata, "validated", "explicitly_validated", "user_confirmed"):
        return True
    if assertion.certainty == "user_confirmed":
        return True
    return assertion.source_type not in UNVALIDATED_SOURCE_TYPES


def assertion_gate(proposal: Assertion, policies: Mapping[str, PredicatePolicy] | None = None) -> GateResult:
    """All must hold for a proposal to become a durable current belief; every failing rule is reported."""
    reasons: list[GateReason] = []
    if proposal.status != "current":
        reasons.append(GateReason("status_not_current", f"requested status {proposal.status!r}; only current is stored"))
    if not proposal.evidence.strip():
        reasons.append(GateReason("missing_evidence", "no evidence text; beliefs need evidence"))
    if not proposal.source_path.strip():
        reasons.append(GateReason("missing_source", "no source_path"))
    if proposal.certainty not in CONFIRMED_CERTAINTIES:
        reasons.append(
            GateReason(
                "not_confirmed",
                f"certainty {proposal.certainty or 'unset'!r} is not one of {', '.join(sorted(CONFIRMED_CERTAINTIES))}",
            )
        )
    if proposal.confidence < GATE_MIN_CONFIDENCE:
        reasons.append(
            GateReason("low_confidence", f"confidence {proposal.confidence:g} < {GATE_MIN_CONFIDENCE:g}")
        )
    if proposal.valid_from and proposal.valid_until and proposal.valid_until < proposal.valid_from:
        reasons.append(GateReason("invalid_window", "valid_until is before valid_from"))
    policy = policy_for(proposal.predicate, policies, proposal.metadata)
    if policy.requires_validation and not is_explicitly_validated(proposal):
        reasons.append(
            GateReason(
                "needs_validation",
                f"{proposal.predicate} is a real-world claim; source_type {proposal.source_type!r} cannot validate it "
                "without metadata.validated or user confirmation",
            )
        )
    return GateResult(accepted=not reasons, reasons=tuple(reasons))


# ---- applying a write ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AssertionChange:
    """What the store must do: insert `insert` (if any) and overwrite each row in `updates`."""

    insert: Assertion | None
    updates: tuple[Assertion, ...]
    current_ids: tuple[str, ...]
    idempotent: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "insert": None if self.insert is None else self.insert.to_row(),
            "updates": [row.to_row() for row in self.updates],
            "current_ids": list(self.current_ids),
            "idempotent": self.idempotent,
        }


def is_correction(assertion: Assertion) -> bool:
    correction_type = str(assertion.metadata.get("correction_type", "")).casefold()
    return assertion.source_type in CORRECTION_SOURCE_TYPES or correction_type in CORRECTION_TYPES


# the fields of a re-assertion from another source kept on the row it re-asserts (`corroborations`)
_CORROBORATION_FIELDS = ("id", "object_name", "object_value", "source_path", "source_type", "evidence_text",
                         "confidence", "certainty", "valid_from", "valid_until", "source_edge_id", "subject_node_id",
                         "metadata", "created_at")


def corroborations(row: Assertion) -> list[Mapping[str, Any]]:
    """The other sources that stated this row's value while it was in force (`metadata.corroborated_by`)."""
    listed = row.metadata.get(CORROBORATED_BY)
    return [item for item in listed if isinstance(item, Mapping)] if isinstance(listed, list) else []


def with_corroborations(row: Assertion, kept: Sequence[Mapping[str, Any]]) -> Assertion:
    metadata = {key: value for key, value in row.metadata.items() if key != CORROBORATED_BY}
    return replace(row, metadata={**metadata, CORROBORATED_BY: list(kept)} if kept else metadata)


def from_corroboration(row: Assertion, entry: Mapping[str, Any], now: datetime) -> Assertion:
    """The claim another source made of `row`'s value, as its own row (what is left when `row`'s source is
    forgotten), carrying the remaining corroborations."""
    data = {**row.to_row(), **{key: entry.get(key) for key in _CORROBORATION_FIELDS}, "status": "current",
            "supersedes_id": None, "superseded_by_id": None, "superseded_at": None, "prediction_misses": [],
            "updated_at": iso(now)}
    return Assertion.from_row(data)


def _corroborated(existing: Assertion, new: Assertion) -> Assertion:
    """The same value stated by another source is kept on the row it re-asserts: without it the second source left
    no trace, and forgetting the first took the value away though the second still stated it."""
    listed = corroborations(existing)
    if new.source_path == existing.source_path or any(item.get("source_path") == new.source_path for item in listed):
        return existing
    row = new.to_row()
    return with_corroborations(existing, [*listed, {key: row[key] for key in _CORROBORATION_FIELDS}])


def _stated_already(existing: Assertion, new: Assertion) -> bool:
    """`new` is a statement `existing` already holds: the same source with the same evidence, as its own or as a
    corroboration (a replayed `resolve`, the same `state assert` sent again)."""
    said = [(existing.source_path, existing.evidence)] + [
        (entry.get("source_path"), entry.get("evidence_text")) for entry in corroborations(existing)]
    return any(path == new.source_path and isinstance(text, str) and norm_name(text) == norm_name(new.evidence)
               for path, text in said)


def _merge_identical(existing: Assertion, new: Assertion) -> Assertion | None:
    """A re-assertion of the current value: keep the row, take the stronger confidence and any new expiry, and name
    a source it had not (`corroborations`). A missed prediction's weakening stands against the evidence it already
    judged: only new evidence, or another source, lifts it."""
    doubted = bool(existing.prediction_misses) and _stated_already(existing, new)
    confidence = existing.confidence if doubted else max(existing.confidence, new.confidence)
    valid_until = new.valid_until if new.valid_until is not None else existing.valid_until
    named = _corroborated(existing, new)
    if confidence == existing.confidence and valid_until == existing.valid_until and named is existing:
        return None
    return replace(named, confidence=confidence, valid_until=valid_until, updated_at=new.created_at)


def chain_key(row: Assertion) -> tuple[datetime, datetime, str]:
    """A (subject, predicate) chain's order: when each value took effect, then when it was written."""
    return (row.starts_at, row.created_at, row.id)


def relink(chain: Sequence[Assertion]) -> list[Assertion]:
    """One chain, oldest start first, re-pointed: the last row is current and every other one is superseded by its
    successor from the instant the successor took effect (so an `as_of` before that still reads it as current)."""
    out: list[Assertion] = []
    for index, row in enumerate(chain):
        before = chain[index - 1] if index else None
        after = chain[index + 1] if index + 1 < len(chain) else None
        out.append(replace(
            row,
            status="current" if after is None else "superseded",
            supersedes_id=before.id if before else row.supersedes_id,
            superseded_by_id=after.id if after else None,
            superseded_at=after.starts_at if after else None,
        ))
    return out


def rechain(rows: Sequence[Assertion], policy: PredicatePolicy) -> list[Assertion]:
    """Statuses and pointers for one (subject, predicate) group, recomputed from scratch: single-valued, one chain
    over every value; multi-valued, one chain per object. Retracted rows stay as they are and out of every chain —
    a value that was never true supersedes nothing, so what it had displaced is in force again."""
    chains: dict[str, list[Assertion]] = {}
    kept: list[Assertion] = []
    for row in rows:
        if row.status == "retracted":
            kept.append(row)
        else:
            chains.setdefault("" if policy.single_valued else row.object_key, []).append(row)
    for chain in chains.values():
        kept.extend(relink(sorted(chain, key=chain_key)))
    return kept


def in_force(row: Assertion, at: datetime) -> bool:
    """Believed at `at` as stored: the head of its chain, or a value whose successor takes over only later."""
    if row.status == "current":
        return True
    return row.status == "superseded" and row.superseded_at is not None and row.superseded_at > at


def _ended(row: Assertion, at: datetime) -> bool:
    """Its own validity window closed before `at`: a correction made then says nothing against it."""
    return row.valid_until is not None and row.valid_until < at


def apply_assertion(
    existing: Sequence[Assertion],
    new: Assertion,
    policy: PredicatePolicy | None = None,
) -> AssertionChange:
    """Decide what a gated, current `new` assertion does to the stored rows of its (subject, predicate).

    * the value in force now, re-asserted (same object) → no new row; at most a merge update (stronger confidence,
      a new expiry). A claim that was already over when written is history, never a re-assertion;
    * multi-valued predicate → the new value joins the existing current values;
    * single-valued predicate → every non-retracted value of the pair (superseded ones too, including those whose
      successor only takes over in the future) is re-chained by when it took effect (`chain_key`; the new row wins
      ties): the latest start is current, each other row is superseded by its successor. So a back-dated claim is
      stored as history, a present claim slots in before an already-known future value, and two values are never
      current at once. A correction (`source_type` user_correction/correction) retracts the value it displaces —
      its predecessor, if that was in force when the correction was made and had not lapsed (a value whose
      `valid_until` had passed is history the correction does not contradict) — instead of superseding it.

    `existing` may contain unrelated rows and rows of any status; retracted ones are ignored. An id names one claim:
    `new` reusing the id of another stored value of the pair raises `Conflict` (the app refuses that earlier).
    """
    if new.status != "current":
        raise InvalidInput(f"apply_assertion needs a current proposal, got status {new.status!r}")
    effective = policy or policy_for(new.predicate, None, new.metadata)
    now = new.created_at
    same_pair = sorted((row for row in existing if row.status != "retracted" and row.pair_key == new.pair_key),
                       key=chain_key)
    live = {row.id for row in same_pair if in_force(row, now)}
    heads = tuple(row.id for row in same_pair if row.status == "current")
    for row in same_pair:
        if row.object_key == new.object_key and (row.id == new.id or (row.id in live and not new.ended_before_written)):
            merged = _merge_identical(row, new)
            return AssertionChange(None, () if merged is None else (merged,), heads, True)
    if any(row.id == new.id for row in same_pair):
        raise Conflict(f"assertion id {new.id!r} already names another value of {new.subject} {new.predicate}")
    if not effective.single_valued or not same_pair:
        return AssertionChange(new, (), heads + (new.id,), False)

    ordered = sorted([*same_pair, new], key=lambda row: (row.starts_at, row is new, row.created_at, row.id))
    retired: list[Assertion] = []
    position = next(index for index, row in enumerate(ordered) if row is new)
    before = ordered[position - 1] if position else None
    if is_correction(new) and before is not None and in_force(before, now) and not _ended(before, now):
        displaced = ordered.pop(position - 1)
        retired.append(replace(displaced, status="retracted", superseded_by_id=new.id,
                               superseded_at=new.starts_at, updated_at=now))
    originals = {row.id: row for row in same_pair}
    inserted = new
    updates = list(retired)
    for row in relink(ordered):
        if row.id == new.id:
            inserted = row
        elif row != originals[row.id]:
            updates.append(replace(row, updated_at=now))
    return AssertionChange(inserted, tuple(updates), (ordered[-1].id,), False)


def retract(assertion: Assertion, now: datetime, reason: str) -> Assertion:
    """Mark one value as never having been true (needed for multi-valued predicates, where nothing supersedes)."""
    now = require_aware(now)
    if not reason.strip():
        raise InvalidInput("a retraction needs a reason")
    metadata = {**assertion.metadata, "retraction": {"at": iso(now), "reason": reason.strip()}}
    return replace(assertion, status="retracted", metadata=metadata, updated_at=now)


# ---- reading -----------------------------------------------------------------------------------------------------

def validity_at(assertion: Assertion, as_of: datetime) -> Validity:
    """Read-time validity; never mutates. `valid_until` is inclusive, so it lapses strictly after it."""
    as_of = require_aware(as_of, "as_of")
    if assertion.status == "retracted":
        return "retracted"
    if assertion.status == "superseded" and (assertion.superseded_at is None or assertion.superseded_at <= as_of):
        return "superseded"
    if assertion.unbacked:
        return "unbacked"
    if assertion.valid_from is not None and assertion.valid_from > as_of:
        return "future"
    if assertion.valid_until is not None and assertion.valid_until < as_of:
        return "lapsed"
    return "current"


def lapsed_assertions(
    assertions: Iterable[Assertion], now: datetime, state_type: str | None = None
) -> list[Assertion]:
    """Current rows whose validity window has elapsed at `now` (e.g. open loops past their due date)."""
    now = require_aware(now)
    lapsed = [
        row
        for row in assertions
        if row.status == "current"
        and (state_type is None or row.state_type == state_type)
        and validity_at(row, now) == "lapsed"
    ]
    return sorted(lapsed, key=lambda row: (row.valid_until or now, row.id))
