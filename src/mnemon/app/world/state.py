"""State assertions: the gated write (`propose_assertion`), listing with read-time validity, explain, backfill from
resolved graph edges, the contradiction radar and the scoped forget.

`propose_assertion` is the one door into `world_state_assertions`: `resolve`, payload `assertions[]` and
`state backfill` all come through it, so the gate, cardinality and supersession rules hold for every producer.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from datetime import datetime
from typing import Any

from ...core.errors import Conflict, InvalidInput, NotFound
from ...core.model import Edge, parse_iso
from ...core.surface import step
from ...core.validation import refuse_blank_id
from ...core.world import (
    Assertion,
    AssertionChange,
    EvidenceClaim,
    alias_map,
    apply_assertion,
    canonical_subject,
    assertion_gate,
    detect_conflicts,
    parse_assertion,
    truth_policy_for_assertion,
    validity_at,
)
from ...core.world.assertions import (
    STATE_TYPES,
    corroborations,
    from_corroboration,
    is_correction,
    linked_name,
    normalise_predicate,
    rechain,
    retract,
    with_corroborations,
)
from ...core.world.policies import group_policy
from ...core.world.values import check_key, iso, norm_keys, norm_name, truthy_flag
from ..runtime import Runtime
from .common import (
    assertions_as_of,
    audit,
    load_aliases,
    load_assertions,
    now_of,
    put_assertion,
    replay_instant,
    with_source_edges,
    world_of,
)

VALIDITIES = ("current", "lapsed", "future", "superseded", "retracted", "unbacked")
REFUSALS = ("refused", "blocked_recreation", "conflict")  # reports of a write that did not happen (audited)
REASSERTION_SOURCE_TYPES = frozenset({"user_confirmation", "user_correction"})


def assertion_view(row: Assertion, as_of: datetime) -> dict[str, Any]:
    """A stored row plus what it means at `as_of` (never mutates: lapsing and unbacking are computed, not
    written)."""
    return {**row.to_row(), "object": row.object, "source_edge_status": row.source_edge_status,
            "validity": validity_at(row, as_of), "truth_policy": truth_policy_for_assertion(row, as_of)}


# ── the gated write ────────────────────────────────────────────────────────────────────────────────────────────
def _explicit_reassertion(proposal: Assertion) -> bool:
    return (proposal.certainty == "user_confirmed" or proposal.source_type in REASSERTION_SOURCE_TYPES
            or truthy_flag(proposal.metadata, "user_confirmed", "explicit_reassertion"))


def _withdrawn_by(row: Assertion) -> Any:
    """The source whose re-run withdrew this retracted value (`retract_assertion`'s `withdrawn_by`), else None."""
    note = row.metadata.get("retraction")
    return note.get("withdrawn_by") if isinstance(note, Mapping) else None


def _id_conflict(proposal: Assertion, existing: Assertion) -> bool:
    """An explicit payload `id` names one claim (subject, predicate, object): reused for another claim it would
    overwrite a stored value, or make a value supersede itself."""
    return (existing.pair_key, existing.object_key) != (proposal.pair_key, proposal.object_key)


def plan_assertion(proposal: Assertion, existing: Assertion | None, same_pair: Sequence[Assertion]
                   ) -> tuple[dict[str, Any], AssertionChange | None]:
    """Decide what a parsed proposal does to the stored rows: (report, change to persist or None).

    `existing` is the stored row with the proposal's id; `same_pair` the stored rows of its (subject, predicate), of
    any status (a single-valued write re-chains them all: `apply_assertion`)."""
    gate = assertion_gate(proposal)
    report: dict[str, Any] = {"id": proposal.id, "subject": proposal.subject, "predicate": proposal.predicate,
                              "object": proposal.object, "gate": gate.to_dict()}
    if not gate.accepted:
        return {**report, "written": False, "status": "refused"}, None
    if existing is not None and _id_conflict(proposal, existing):
        return {**report, "written": False, "status": "conflict",
                "message": f"id {proposal.id!r} already names {existing.subject} {existing.predicate} "
                           f"{existing.object!r}; an id names one claim (leave `id` out to derive it)"}, None
    if existing is not None and existing.status == "retracted" and not _explicit_reassertion(proposal) and not (
            _withdrawn_by(existing) == proposal.source_path):  # (the source that withdrew it states it again)
        # a person said this was never true; the same claim coming back from the same source must not undo that
        return {**report, "written": False, "status": "blocked_recreation",
                "message": "this exact claim was retracted; re-assert it with certainty user_confirmed"}, None
    if existing is not None and existing.status == "superseded":
        return {**report, "written": False, "status": "superseded", "idempotent": True,
                "superseded_by_id": existing.superseded_by_id}, None
    pair = [row for row in same_pair if row.status != "retracted" and row.pair_key == proposal.pair_key]
    policy = group_policy(proposal.predicate, [r.metadata for r in (*pair, proposal)])
    change = apply_assertion(pair, proposal, policy)
    same_object = [r for r in (*change.updates, *pair) if r.object_key == proposal.object_key]
    stored = change.insert if change.insert is not None else (same_object[0] if same_object else proposal)
    report.update({
        "written": change.insert is not None or bool(change.updates),
        "status": stored.status,
        # the stored row read now: a value stated now is `current` until a known future value takes over, though its
        # stored status already says `superseded` (from that future instant on)
        "validity": validity_at(stored, proposal.created_at),
        "stored_id": stored.id,
        "idempotent": change.idempotent,
        "cardinality": policy.cardinality,
        "superseded_ids": [row.id for row in change.updates
                           if row.status == "superseded" and row.superseded_by_id == stored.id],
        "retracted_ids": [row.id for row in change.updates if row.status == "retracted"],
        "current_ids": list(change.current_ids),
        "correction": is_correction(proposal),
    })
    return report, change


def _persist_change(rt: Runtime, change: AssertionChange, reason: str) -> None:
    with rt.store.transaction():
        if change.insert is not None:
            put_assertion(rt, change.insert)
            audit(rt, "asserted", "assertion", change.insert.id,
                  {"reason": reason, "status": change.insert.status, "confidence": change.insert.confidence,
                   "supersedes_id": change.insert.supersedes_id})
        for row in change.updates:
            put_assertion(rt, row)
            event = row.status if row.status != "current" else ("merged" if change.idempotent else "relinked")
            audit(rt, event, "assertion", row.id,
                  {"reason": reason, "superseded_by_id": row.superseded_by_id, "confidence": row.confidence})


def propose_assertion(rt: Runtime, payload: Any, *, source_path: str | None = None, source_type: str | None = None,
                      source_edge_id: str | None = None, subject_node_id: str | None = None,
                      dry_run: bool = False, reason: str = "propose") -> dict[str, Any]:
    """Gate one claim and, if it passes, store it as a current assertion (superseding per predicate cardinality).

    Structural problems raise `InvalidInput`; a claim that is merely not good enough comes back with
    `written: false, status: "refused"` and the gate's reasons, so `resolve` can keep it as a candidate edge. A
    payload `id` already naming another claim comes back `status: "conflict"` (nothing written; `state assert`
    turns it into the `conflict` error).
    """
    if not isinstance(payload, Mapping):
        raise InvalidInput(f"assertion must be a JSON object, got {type(payload).__name__}")
    data = dict(payload)
    for key, value in (("source_type", source_type), ("source_edge_id", source_edge_id),
                       ("subject_node_id", subject_node_id)):
        if value is not None and data.get(key) is None:
            data[key] = value
    if dry_run or rt.store.readonly:
        return _propose(rt, data, source_path, dry_run, reason)
    # the pair is read and its new chain written under one write lock: a write re-chains every value of the pair, so
    # two concurrent writers must not both re-chain from the same read
    with rt.store.transaction():
        return _propose(rt, data, source_path, dry_run, reason)


def _propose(rt: Runtime, data: Mapping[str, Any], source_path: str | None, dry_run: bool,
             reason: str) -> dict[str, Any]:
    world = world_of(rt)
    proposal = parse_assertion(data, now_of(rt), alias_map(load_aliases(rt)), source_path)
    raw_existing = world.get_assertion(proposal.id)
    existing = Assertion.from_row(raw_existing) if raw_existing else None
    pair = load_assertions(rt, subject_norm=norm_keys(proposal.subject), predicate=proposal.predicate)
    report, change = plan_assertion(proposal, existing, pair)
    report["dry_run"] = dry_run
    if change is not None and not dry_run and report["written"]:
        _persist_change(rt, change, reason)
    elif report["status"] in REFUSALS and not dry_run and not rt.store.readonly:
        with rt.store.transaction():
            audit(rt, report["status"], "assertion", proposal.id,
                  {"reason": reason, "gate": report["gate"], "source_path": proposal.source_path})
    return report


# ── reading ────────────────────────────────────────────────────────────────────────────────────────────────────
STATE_ORDERS = ("subject", "updated_at_desc", "created_at_desc")


def list_state(rt: Runtime, *, status: str | None = None, subject: str | None = None, predicate: str | None = None,
               state_type: str | None = None, as_of: Any = None, limit: int = 200,
               order_by: str = "subject") -> dict[str, Any]:
    """Assertions with their validity at `as_of`; `status` filters on that validity (current excludes
    lapsed and unbacked).
    `subject` matches any part of the subject, ignoring case ("child" finds "Example Child"), as Mneme's `--subject`.
    `order_by`: subject (then predicate, id), or newest first by update or creation (ties by id)."""
    if status not in (None, "all", *VALIDITIES):
        raise InvalidInput(f"--status must be one of all, {', '.join(VALIDITIES)}; got {status!r}")
    if order_by not in STATE_ORDERS:
        raise InvalidInput(f"--order-by must be one of {', '.join(STATE_ORDERS)}; got {order_by!r}")
    if not 1 <= limit <= 10_000:
        raise InvalidInput("--limit must be from 1 to 10000")
    if state_type is not None and state_type not in STATE_TYPES:  # (an unknown one listed nothing, as if none held)
        raise InvalidInput(f"--type must be one of {', '.join(STATE_TYPES)}; got {state_type!r}", field="type")
    moment = replay_instant(rt, as_of)
    # spelt as the write stores it ("Lives In" is lives_in): the raw text found nothing but the exact stored form
    wanted = normalise_predicate(predicate) if predicate and predicate.strip() else None
    rows = load_assertions(rt, subject_norm_contains=norm_keys(linked_name(subject)) if subject else None,
                           predicate=wanted, state_type=state_type)
    canonical = alias_map(load_aliases(rt)).get(norm_name(linked_name(subject))) if subject else None
    if canonical is not None:  # an alias names its canonical subject, under which every later write is kept
        listed = {row.id for row in rows}
        rows += [row for row in load_assertions(rt, subject_norm=norm_keys(canonical), predicate=wanted,
                                                state_type=state_type) if row.id not in listed]
    rows = with_source_edges(rt, rows, moment if as_of is not None else None)
    if as_of is not None:
        rows = assertions_as_of(rows, moment)
    rows = sorted(rows, key=lambda r: r.id)
    if order_by == "subject":
        rows.sort(key=lambda r: (r.subject_key, r.predicate))
    else:
        rows.sort(key=lambda r: r.updated_at if order_by == "updated_at_desc" else r.created_at, reverse=True)
    views = [assertion_view(row, moment) for row in rows]
    if status not in (None, "all"):
        views = [v for v in views if v["validity"] == status]
    return {"as_of": iso(moment), "count": len(views), "assertions": views[:limit],
            "truncated": len(views) > limit}


def _chain(rows: Mapping[str, Assertion], start: Assertion, pointer: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = {start.id}
    nxt = getattr(start, pointer)
    while nxt and nxt not in seen and nxt in rows:
        seen.add(nxt)
        row = rows[nxt]
        out.append({"id": row.id, "object": row.object, "status": row.status,
                    "valid_from": row.to_row()["valid_from"], "source_path": row.source_path})
        nxt = getattr(row, pointer)
    return out


def explain_state(rt: Runtime, assertion_id: str, *, as_of: Any = None) -> dict[str, Any]:
    refuse_blank_id(assertion_id, "an assertion id", "id")
    world = world_of(rt)
    raw = world.get_assertion(assertion_id)
    if raw is None:
        raise NotFound(f"no assertion {assertion_id!r}; " + step("`mnemon state list`", "`state_list`") + " shows ids",
                       field="id", id=assertion_id)
    moment = replay_instant(rt, as_of)
    row = with_source_edges(rt, [Assertion.from_row(raw)], moment if as_of is not None else None)[0]
    pair = {r.id: r for r in load_assertions(rt, subject_norm=norm_keys(row.subject), predicate=row.predicate)}
    known = True
    if as_of is not None:
        # a replay reads the pair as the store held it then, as `state list --as-of` and preflight do: a retraction
        # or supersession made later is undone. A row written later is shown as stored, flagged `known_at_as_of`.
        replayed = {r.id: r for r in assertions_as_of(with_source_edges(rt, list(pair.values()), moment), moment)}
        known = row.id in replayed
        if known:
            row, pair = replayed[row.id], replayed
    # alive = the edge still backs the belief: a candidate or killed edge no longer does (see `Assertion.unbacked`);
    # None when there is no source edge, or a replay cannot know the edge's status at that instant
    edge_alive = None if row.source_edge_status is None else row.source_edge_status == "active"
    node_alive = None if row.subject_node_id is None else rt.store.get_node(row.subject_node_id) is not None
    linked = [p for p in world.predictions(subject_assertion_id=row.id)]
    return {
        "assertion": assertion_view(row, moment),
        "supersedes_chain": _chain(pair, row, "supersedes_id"),
        "superseded_by_chain": _chain(pair, row, "superseded_by_id"),
        "prediction_misses": [dict(m) for m in row.prediction_misses],
        "predictions": [{"id": p["id"], "title": p["title"], "status": p["status"],
                         "outcome_summary": p.get("outcome_summary")} for p in linked],
        "events": world.events("assertion", row.id),
        "hints": {"source_edge_alive": edge_alive, "source_edge_status": row.source_edge_status,
                  "subject_node_alive": node_alive, "known_at_as_of": known},
    }


# ── backfill from resolved graph edges ─────────────────────────────────────────────────────────────────────────
def _node_name(node: Any) -> str:
    return ((node.title or node.content or "") if node is not None else "").strip()


def _meta_name(meta: Mapping[str, Any], key: str) -> str:
    """The subject or object as the research wrote it (`resolve` keeps it on the edge): the node may be a placeholder
    whose name is folded ("porto"), or a note titled otherwise."""
    value = meta.get(key)
    return value.strip() if isinstance(value, str) else ""


_PACK_NAME = re.compile(r"(?:^|/)Sources/(\d{4}-\d{2}-\d{2})-(.+)\.md$")


def _pack_date(edge: Edge) -> str | None:
    """The research date of an edge `resolve` wrote before its edges kept `valid_from`: its evidence pack is named
    `Sources/<date>-<slug>.md` after it (checked against the slug the edge keeps, so another note's name never
    counts)."""
    found = _PACK_NAME.search(edge.source_path or "")
    slug = (edge.metadata or {}).get("research_resolution")
    if found is None or not isinstance(slug, str) or found.group(2) != slug:
        return None
    return found.group(1)


def _is_resolution(edge: Edge) -> bool:
    meta = edge.metadata or {}
    return edge.origin == "resolve" or bool(meta.get("research_resolution")) or meta.get("source") == "resolve"


def backfill_state(rt: Runtime, *, dry_run: bool = False) -> dict[str, Any]:
    """Re-derive assertions from active edges written by `resolve` (e.g. after restoring an old database).

    Every edge goes through the same gate as a live `resolve`; within one run the plans build on each other in
    memory, so a dry run reports exactly what the real run would write.
    """
    # an ingested edge is parsed from a note, never a writeback: left unread, as its evidence means unpacking its note
    vault = rt.store.vault  # type: ignore[attr-defined]
    edges = [e for e in vault.edges_with_status("active", origin_not="ingest") if _is_resolution(e)]
    nodes = rt.store.get_nodes(sorted({e.src for e in edges} | {e.dst for e in edges}))
    rows = {a.id: a for a in load_assertions(rt)}
    aliases = alias_map(load_aliases(rt))
    written: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    unchanged: list[dict[str, Any]] = []
    changes: list[AssertionChange] = []
    now = now_of(rt)
    by_edge: dict[str, list[Assertion]] = {}
    for row in rows.values():
        if row.source_edge_id:
            by_edge.setdefault(str(row.source_edge_id), []).append(row)
    for edge in edges:
        meta = edge.metadata or {}
        held = by_edge.get(str(edge.id), [])
        if held:
            # the world model already holds this edge's belief, in whatever state it is now: a value superseded since
            # is history, and one retracted as never true must not come back from the edge it was resolved from
            # (backfill re-derived it under another id — no start date — and it superseded the value in force)
            if all(row.status == "retracted" for row in held):
                refused.append({"edge_id": edge.id, "id": held[0].id, "status": "blocked_recreation",
                                "written": False, "message": "this edge's belief was retracted; re-assert it with "
                                                             "certainty user_confirmed"})
            else:
                kept = next((r for r in held if r.status == "current"), held[0])
                unchanged.append({"edge_id": edge.id, "id": kept.id, "status": kept.status, "written": False,
                                  "stored_id": kept.id, "idempotent": True, "represented": True})
            continue
        subject = _meta_name(meta, "subject") or _node_name(nodes.get(edge.src))
        obj = _meta_name(meta, "object") or _node_name(nodes.get(edge.dst))
        if not subject or not obj:
            refused.append({"edge_id": edge.id, "reason": "edge endpoint has no name"})
            continue
        payload = {
            "subject": subject, "predicate": edge.type, "object": obj,
            "object_type": meta.get("object_type", "entity"),
            "confidence": max(0.0, min(1.0, float(edge.confidence))),
            "certainty": meta.get("certainty", "confirmed"), "evidence": edge.evidence,
            "source_path": edge.source_path or f"mnemon://edge/{edge.id}", "source_type": "research",
            "source_edge_id": str(edge.id), "subject_node_id": edge.src,
            "valid_from": meta.get("valid_from") or meta.get("date") or _pack_date(edge),
            "metadata": {k: v for k, v in meta.items() if k in ("cardinality", "conflict_policy", "validated")},
        }
        if isinstance(meta.get("subject_type"), str):
            payload["subject_type"] = meta["subject_type"]
        if meta.get("valid_until"):
            payload["valid_until"] = meta["valid_until"]
        try:
            proposal = parse_assertion(payload, now, aliases)
        except InvalidInput as exc:
            refused.append({"edge_id": edge.id, "reason": exc.message})
            continue
        pair = [r for r in rows.values() if r.pair_key == proposal.pair_key]
        report, change = plan_assertion(proposal, rows.get(proposal.id), pair)
        if change is None or not report["written"]:
            target = refused if report["status"] in ("refused", "blocked_recreation") else unchanged
            target.append({"edge_id": edge.id, **report})
            continue
        for row in ([change.insert] if change.insert else []) + list(change.updates):
            rows[row.id] = row
        changes.append(change)
        written.append({"edge_id": edge.id, **report})
    if not dry_run:
        for change in changes:
            _persist_change(rt, change, "backfill")
    return {"ok": True, "dry_run": dry_run, "scanned": len(edges), "written": written, "refused": refused,
            "unchanged": unchanged,
            "created_or_updated": sum(1 for w in written if w.get("written"))}


# ── contradiction radar ────────────────────────────────────────────────────────────────────────────────────────
def evidence_claims(rt: Runtime, predicates: Iterable[str], as_of: datetime | None = None) -> list[EvidenceClaim]:
    """Active and candidate graph edges seen as claims about the same predicates (the radar's challengers)."""
    edges = world_of(rt).edges_with_relations(predicates, ("active", "candidate"))
    if as_of is not None:
        edges = [e for e in edges if not e.created_at or parse_iso(e.created_at) <= as_of]
    nodes = rt.store.get_nodes(sorted({e.src for e in edges} | {e.dst for e in edges}))
    aliases = alias_map(load_aliases(rt)) if edges else {}
    claims = []
    for e in edges:
        meta = e.metadata or {}
        # named as the research wrote them, as beliefs are, with the nodes' own names beside: a placeholder's name is
        # folded, a note may be named by one of its aliases, and a world alias names the subject a belief is kept under
        subject_title = canonical_subject(_node_name(nodes.get(e.src)), aliases)
        object_title = _node_name(nodes.get(e.dst))
        subject = canonical_subject(linked_name(_meta_name(meta, "subject")), aliases) or subject_title
        obj = linked_name(_meta_name(meta, "object")) or object_title
        if not subject or not obj:
            continue
        claims.append(EvidenceClaim(
            edge_id=str(e.id), subject=subject, relation=e.type, object=obj, status=e.status,
            subject_aliases=(subject_title,) if subject_title else (),
            object_aliases=(object_title,) if object_title else (),
            confidence=max(0.0, min(1.0, float(e.confidence))), strength=max(0.0, min(1.0, float(e.weight))),
            source_path=e.source_path, source_type=str((e.metadata or {}).get("source_type") or e.origin),
            evidence=e.evidence, observed_at=parse_iso(e.created_at) if e.created_at else None))
    return claims


def radar(rt: Runtime, assertions: Sequence[Assertion], as_of: datetime | None = None) -> list[dict[str, Any]]:
    """Conflicts among `assertions` and with graph evidence; `as_of` (a replay) also limits the evidence to edges
    that existed then. Values are judged in force at `as_of`, else now."""
    predicates = {row.predicate for row in assertions if row.status == "current"}
    claims = evidence_claims(rt, predicates, as_of) if predicates else []
    moment = as_of if as_of is not None else now_of(rt)
    return [c.to_dict() for c in detect_conflicts(assertions, None, claims, as_of=moment)]


def state_conflicts(rt: Runtime, *, as_of: Any = None) -> dict[str, Any]:
    moment = replay_instant(rt, as_of)
    rows = load_assertions(rt)
    if as_of is not None:
        rows = assertions_as_of(rows, moment)
    conflicts = radar(rt, rows, moment if as_of is not None else None)
    return {"as_of": iso(moment), "count": len(conflicts), "conflicts": conflicts}


# ── scoped forget ──────────────────────────────────────────────────────────────────────────────────────────────
def forget_world_scope(rt: Runtime, scope: str, *, dry_run: bool = False) -> dict[str, int]:
    """The only path that deletes world rows: an explicit `forget --source mneme://…` of one payload scope (a dry
    run counts what it would delete, and what it would restore).

    The (subject, predicate) chains the scope's assertions were part of are re-chained without them, as
    `retract_assertion` does: a value one of them had superseded — a vault note's belief, say — is current again
    (`assertions_restored`), and no surviving row keeps a pointer to a deleted one (`assertions_relinked` counts
    every row re-written). A value a forgotten *correction* had retracted rejoins its chain too: the scope is gone
    as if never written, and only a person's own `state retract` (it leaves a `retraction` note) stays.

    Rebuilds and plain forgets never call this. Non-`mneme://` scopes are refused, so a vault path or an agent
    name can never wipe durable state by accident.
    """
    if not isinstance(scope, str) or not scope.startswith("mneme://") or len(scope.rstrip("/")) <= len("mneme://"):
        raise InvalidInput("only an explicit mneme://… scope can be forgotten from the world model", scope=scope)
    check_key(scope, "scope", "forget")  # the audit row indexes it: the same answer on both backends
    scope = scope.rstrip("/")
    # the chains are read and re-written under the write lock the delete takes; a dry run only reads (a read-only
    # store answered it `readonly`, as no other dry run does)
    with rt.store.transaction() if not dry_run else nullcontext():
        world = world_of(rt)
        doomed = [Assertion.from_row(row) for row in world.assertions_in_scope(scope)]
        heirs = _heirs(rt, doomed, scope, now_of(rt))
        relinked, restored = _chains_without(rt, doomed, now_of(rt), heirs)
        counts = world.forget_scope(scope, rt.now_iso(), dry_run=dry_run)
        if not dry_run:
            rewritten = {row.id for row in relinked}
            for row in load_assertions(rt):  # a claim of the scope that re-asserted a value of another source
                clean = _uncorroborated(row, scope)
                if clean is not row and row.id not in rewritten and not _in_scope(row.source_path, scope):
                    put_assertion(rt, clean)
                    audit(rt, "uncorroborated", "assertion", row.id, {"reason": f"forgot {scope}"})
            for row in [_uncorroborated(row, scope) for row in relinked]:
                put_assertion(rt, row)
                event = "asserted" if row.id in heirs else "restored" if row.id in restored else "relinked"
                audit(rt, event, "assertion", row.id,
                      {"reason": f"forgot {scope}", "superseded_by_id": row.superseded_by_id,
                       "supersedes_id": row.supersedes_id})
    return {**counts, "assertions_restored": len(restored), "assertions_relinked": len(relinked)}


def _in_scope(path: Any, scope: str) -> bool:
    return isinstance(path, str) and (path == scope or path.startswith(scope + "/"))


def _heirs(rt: Runtime, doomed: Sequence[Assertion], scope: str, now: datetime) -> dict[str, Assertion]:
    """A forgotten row's value another source stated too (`corroborations`): that source's claim, as its own row, so
    the value outlives the scope that first stated it."""
    world = world_of(rt)
    heirs: dict[str, Assertion] = {}
    for row in doomed:
        left = sorted((entry for entry in corroborations(row) if not _in_scope(entry.get("source_path"), scope)
                       and world.get_assertion(str(entry.get("id"))) is None),
                      key=lambda entry: str(entry.get("created_at")))
        if left:
            heir = with_corroborations(from_corroboration(row, left[0], now), left[1:])
            heirs[heir.id] = heir
    return heirs


def _uncorroborated(row: Assertion, scope: str) -> Assertion:
    """`row` without the claims of a forgotten scope among its corroborations."""
    listed = corroborations(row)
    kept = [entry for entry in listed if not _in_scope(entry.get("source_path"), scope)]
    return row if len(kept) == len(listed) else with_corroborations(row, kept)


def _chains_without(rt: Runtime, doomed: Sequence[Assertion], now: datetime,
                    heirs: Mapping[str, Assertion]) -> tuple[list[Assertion], set[str]]:
    """The surviving rows of the chains `doomed` belong to, re-chained as if the doomed rows had never been written
    (`heirs`, another source's claim of a doomed value, join them): (rows that change, ids of those that become
    current). Only the chains that held a doomed row are re-chained — a single-valued pair is one chain, a
    multi-valued one a chain per object — so nothing else of a pair moves."""
    gone = {row.id for row in doomed}
    changed: list[Assertion] = []
    restored: set[str] = set()
    pairs: dict[tuple[str, str], list[Assertion]] = {}
    for row in doomed:
        pairs.setdefault(row.pair_key, []).append(row)
    for pair_key, forgotten in sorted(pairs.items()):
        first = forgotten[0]
        stored = {r.id: r for r in load_assertions(rt, subject_norm=norm_keys(first.subject),
                                                   predicate=first.predicate)
                  if r.pair_key == pair_key and r.id not in gone}
        kept = [heir for heir in heirs.values() if heir.pair_key == pair_key]
        if not stored and not kept:
            continue
        # retracted by a forgotten correction (`apply_assertion` points the displaced value at it): back in its chain
        survivors = [replace(r, status="superseded") if r.status == "retracted" and r.superseded_by_id in gone
                     and "retraction" not in r.metadata else r for r in stored.values()] + kept
        stored.update((heir.id, heir) for heir in kept)
        live = [r for r in survivors if r.status != "retracted"]
        policy = group_policy(first.predicate, [r.metadata for r in live])
        touched = {"" if policy.single_valued else r.object_key for r in forgotten}
        for row in rechain(survivors, policy):
            before = stored[row.id]
            if row.status != "retracted" and ("" if policy.single_valued else row.object_key) not in touched:
                row = before  # a chain the forgotten rows were not part of
            if row.supersedes_id in gone:
                row = replace(row, supersedes_id=None)
            if row.superseded_by_id in gone:  # (a retracted row keeps its pointers: only a dangling one goes)
                row = replace(row, superseded_by_id=None, superseded_at=None)
            if row != before or row.id in heirs:
                changed.append(replace(row, updated_at=now))
                if row.status == "current" and (before.status != "current" or row.id in heirs):
                    restored.add(row.id)
    return changed, restored


def retract_assertion(rt: Runtime, assertion_id: str, reason: str, *,
                      withdrawn_by: str | None = None) -> dict[str, Any]:
    """Mark one value as never true and re-chain its (subject, predicate) without it: a single-valued value it had
    superseded is in force again (`restored_ids`), as the reference's recompute does, instead of the pair being left
    with no current value behind a value that never held. `withdrawn_by`: the source that stated it and no longer
    does (a re-run of its research), noted on the retraction: that source stating it again is no re-creation."""
    refuse_blank_id(assertion_id, "an assertion id", "id")
    missing = NotFound(f"no assertion {assertion_id!r}", field="id", id=assertion_id)
    if world_of(rt).get_assertion(assertion_id) is None:
        raise missing  # (before the transaction: on a read-only store an unknown id is still not_found)
    now = now_of(rt)
    with rt.store.transaction():  # read and re-chain the pair under one write lock, as a write does
        raw = world_of(rt).get_assertion(assertion_id)
        if raw is None:
            raise missing
        stored = Assertion.from_row(raw)
        row = retract(stored, now, reason)  # (refuses an empty reason, retracted already or not)
        if withdrawn_by is not None:
            row = replace(row, metadata={**row.metadata, "retraction": {**row.metadata["retraction"],
                                                                        "withdrawn_by": withdrawn_by}})
        pair = {r.id: r for r in load_assertions(rt, subject_norm=norm_keys(row.subject), predicate=row.predicate)
                if r.pair_key == row.pair_key}
        if stored.status == "retracted" and (withdrawn_by is not None or not _withdrawn_by(stored)):
            # a second retraction rewrote when and why: a replay between the two read the value as in force, and
            # the first reason was lost (a person's retraction of a withdrawn value is recorded: its source stating
            # it again would otherwise bring it back)
            return {"id": stored.id, "status": stored.status, "already_retracted": True,
                    "retraction": stored.metadata.get("retraction"), "restored_ids": [], "relinked_ids": [],
                    "current_ids": sorted(r.id for r in pair.values() if r.status == "current")}
        pair[row.id] = row
        others = [r for r in pair.values() if r.status != "retracted"]
        chain = rechain(list(pair.values()), group_policy(row.predicate, [r.metadata for r in (*others, row)]))
        changed = [replace(r, updated_at=now) for r in chain if r.id != row.id and r != pair[r.id]]
        put_assertion(rt, row)
        audit(rt, "retracted", "assertion", row.id, {"reason": reason})
        for other in changed:
            put_assertion(rt, other)
            audit(rt, "restored" if other.status == "current" else "relinked", "assertion", other.id,
                  {"reason": f"retracted {row.id}", "superseded_by_id": other.superseded_by_id})
    return {"id": row.id, "status": row.status, "already_retracted": False,
            "restored_ids": [r.id for r in changed if r.status == "current" and pair[r.id].status != "current"],
            "relinked_ids": [r.id for r in changed],
            "current_ids": sorted(r.id for r in chain if r.status == "current")}


def assert_state(rt: Runtime, payload: Any, *, dry_run: bool = False) -> dict[str, Any]:
    """`state assert`: `propose_assertion`, with an id that already names another claim refused as a `conflict`
    error (a batch producer — `resolve`, payload `assertions[]` — gets the report instead and carries on)."""
    report = propose_assertion(rt, payload, dry_run=dry_run, reason="state assert")
    if report["status"] == "conflict":
        raise Conflict(report["message"], id=report["id"])
    return report
