"""Edge audit and lifecycle over the store: `explain-edge`, `promote-candidates`, `weaken-edge`, `kill-edge`,
`validate-edge`, `forget --days-threshold`.

Decisions come from `core.vault.lifecycle` (the write gate, promotion plan, weakening); this module loads edges,
applies decisions and writes one audit event per change, so `explain-edge` can answer "why does this line exist, and
what happened to it since". A person's or agent's decision about one edge is an oplog row too (`DECISION_OPS`,
`mnemon log`), written in the transaction that makes the change: the edge's events answer for one edge, the oplog
for the whole memory. A `promote-candidates` run is one oplog row: it can activate tens of thousands of edges, and
a row each (≈ 370 bytes) more than doubled a store's size; each edge's event records its promotion, stamped with
the runtime's clock and the status it replaced, so `explain-edge` and a replay read it there.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from typing import Any

from ...core.errors import Conflict, InvalidInput, NotFound
from ...core.model import Edge
from ...core.ontology import DEFAULT_ONTOLOGY
from ...core.vault import ACTIVE_THRESHOLD, gate_edge, promotion_plan, truth_policy, weaken_edge
from ...core.vault.lifecycle import (DEFAULT_WEAKEN_FACTOR, DEMOTE_BELOW, PROMOTED, PROMOTION_MODES,
                                    evidence_blind_relations)
from ..runtime import Runtime
from .decided_sources import source_now
from .ingest import _EdgeView
from .plan import ingest_gate


MAX_EDGE_ID = 2**63 - 1
# oplog ops of the decisions about one edge, one row per edge
DECISION_OPS = ("kill-edge", "validate-edge", "weaken-edge")
# ASCII digits only: `int()` also reads "5_0" as 50 and other scripts' digits, and a kill of the edge it lands on is a
# tombstone nothing revives
_EDGE_ID = re.compile(r"[+-]?[0-9]+")
LogEntry = tuple[str, str | None, dict[str, Any], str]


def _edge_id(raw: Any) -> int:
    text = str(raw).strip()
    try:
        if isinstance(raw, bool) or not _EDGE_ID.fullmatch(text):
            raise ValueError(text)
        value = int(text)  # (ValueError too past Python's 4,300 digits)
    except ValueError:
        raise InvalidInput(f"edge id must be an integer, got {raw!r}", edge_id=str(raw)) from None
    # beyond SQLite's integers no edge can exist, and the driver would fail; a negative id is an edge derived from
    # its item (ports/store/contained_sqlite.py), 0 is none
    if not (1 <= value <= MAX_EDGE_ID or -MAX_EDGE_ID <= value <= -1):
        raise InvalidInput(f"edge id must be a non-zero integer from -{MAX_EDGE_ID} to {MAX_EDGE_ID}, got {value}",
                           edge_id=str(value))
    return value


def _load(rt: Runtime, raw: Any) -> Edge:
    edge_id = _edge_id(raw)
    edge = rt.store.get_edge(edge_id)
    if edge is None:
        raise NotFound(f"no edge {edge_id}", field="id", id=edge_id, edge_id=edge_id)
    return edge


def _node_brief(rt: Runtime, node_id: str) -> dict[str, Any]:
    node = rt.store.get_node(node_id, include_deleted=True)
    if node is None:
        return {"id": node_id, "missing": True}
    out: dict[str, Any] = {"id": node.id, "kind": node.kind, "name": node.title or node.content[:90],
                           "source": node.source}
    if node.kind == "memory":
        out["content"] = node.content[:300]
    if node.deleted_at:
        out["deleted_at"] = node.deleted_at
    return out


def _decision(op: str, edge: Edge, *, status: str, strength: float, reason: str, when: str,
              **extra: Any) -> LogEntry:
    """The oplog row of one decision about `edge` (as it was before it): the same shape for every op, so one reader
    follows them all. Keyed by the edge's source node, as `link` is; the edge id leads to `explain-edge`."""
    return (op, edge.src, {"edge_id": edge.id, "src": edge.src, "dst": edge.dst, "relation": edge.type,
                           "previous_status": edge.status, "status": status, "previous_strength": edge.weight,
                           "strength": strength, "reason": reason, **extra}, when)


def relationship_type(rt: Runtime, relation: str) -> dict[str, Any]:
    # the code's ontology first: the stored table is only its copy as of the last vault ingest, so a store seeded
    # before a correction (causal was once called symmetric) would keep saying what the edges contradict
    spec = DEFAULT_ONTOLOGY.classify(relation)
    if spec is not None:
        return spec.to_row()
    stored = rt.store.vault.relationship_type(relation)  # type: ignore[attr-defined]
    if stored is not None:
        return stored
    return {"name": relation, "category": "unknown", "requires_validation": True, "inverse": None, "graph": None,
            "description": "Not in the ontology: a claim nobody vetted; it needs explicit validation."}


def explain_edge(rt: Runtime, raw_id: Any) -> dict[str, Any]:
    edge = _load(rt, raw_id)
    rel_type = relationship_type(rt, edge.type)
    events = rt.store.edge_events(int(edge.id or 0))
    # a decided edge keeps the evidence it was decided on: where its note's line is now, when that differs
    now = source_now(events) if edge.origin == "ingest" else None
    return {
        "edge": {
            "id": edge.id,
            "relation": edge.type,
            "relationship_type": rel_type,
            "requires_validation": bool(rel_type.get("requires_validation")),
            "status": edge.status,
            "truth_policy": truth_policy(edge.type, edge.status),
            "source_path": edge.source_path,
            "confidence": edge.confidence,
            "strength": edge.weight,
            "evidence_text": edge.evidence,
            "origin": edge.origin,
            "rule": edge.rule,
            "validated": bool(edge.metadata.get("validated")),
            # the mode of the `promote-candidates` run that made it active (None: never promoted); not a validation
            "promoted": edge.metadata.get(PROMOTED) or None,
            "metadata": edge.metadata,
            "created_at": edge.created_at,
            "updated_at": edge.updated_at,
            "src": _node_brief(rt, edge.src),
            "dst": _node_brief(rt, edge.dst),
            **({"link_resolution": resolution} if (resolution := _link_resolution(rt, edge)) else {}),
            **({"source_now": now} if now else {}),
        },
        "debug_log": [{"event": e["event"], "actor": e["actor"], "thinking": _thinking(edge, e), "created_at": e["created_at"]}
                      for e in events],
    }


def _link_resolution(rt: Runtime, edge: Edge) -> dict[str, Any] | None:
    """How a wikilink's name chose its note among the vault's notes now: `[[Meeting]]` with a `Meeting.md` in two
    folders went to one of them without a word (`also_matching` lists the others; the rule — the linking note's
    folder first — is fixed, so a rebuild links the same way)."""
    # (a Markdown link is looked up as one is; a link parked on a placeholder has no tier in its rule, and keeps that
    # rule once decided, its row never re-parsed: after its note appeared too)
    by_name = edge.rule.partition(":")[0] in ("wikilink", "markdown_link")
    key = edge.metadata.get("key") if edge.origin == "ingest" and by_name else None
    if not isinstance(key, str) or not key:
        return None
    from .resolve import link_index  # (reads the notes' names: only an explained link pays for it)

    linker = edge.src.partition(":")[2] if edge.src.startswith("note:") else None
    index = link_index(rt)
    tier, paths = index.offered(key, linker)
    out: dict[str, Any] = {"key": key, "tier": tier, "resolves_to": paths[0] if paths else None,
                           "also_matching": list(paths[1:])}
    if len(paths) > 1:
        out["rule"] = ("several notes hold the name: one in the linking note's folder wins, else the shallowest "
                       "path, then the first by path")
    if outranked := index.outranked(key, paths):  # (an alias or title the note's file name beat went unsaid)
        out["outranked"] = [{"path": path, "tier": by} for path, by in sorted(outranked.items())]
    return out


def _thinking(edge: Edge, event: dict[str, Any]) -> dict[str, Any]:
    """An event's detail; an ingested edge's creation (read from the row, not stored per edge) also gets the reasons
    the write gate gave, which depend on the relation only."""
    if event["id"] is None and event["event"] == "created" and edge.origin == "ingest":
        return {**event["detail"], "reasons": list(ingest_gate(edge.type)[1])}
    return event["detail"]


def promote_candidates(rt: Runtime, *, mode: str = "validated-only", dry_run: bool = False,
                       active_threshold: float = ACTIVE_THRESHOLD) -> dict[str, Any]:
    if mode not in PROMOTION_MODES:
        raise InvalidInput(f"--mode must be one of {', '.join(PROMOTION_MODES)}", mode=mode)
    # validated-only never promotes an ingested edge (`promotion_plan`), so those are not read at all, and the gate
    # reads the evidence of claims only
    vault = rt.store.vault  # type: ignore[attr-defined]
    candidates = {str(e.id): e for e in vault.edges_with_status(
        "candidate", origin_not="ingest" if mode == "validated-only" else None,
        evidence_unread=evidence_blind_relations())}
    plan = promotion_plan([_EdgeView(e) for e in candidates.values()], mode,  # type: ignore[arg-type]
                          active_threshold=active_threshold)
    # an edge someone weakened below the floor is one `weaken-edge` itself would demote: promoting it would only
    # undo that decision
    plan = [replace(p, to_status="candidate", reasons=(*p.reasons, f"strength_below_{DEMOTE_BELOW}"))
            if p.activates and candidates[p.edge_id].weight < DEMOTE_BELOW else p for p in plan]
    # listed by what the edges join, not by id: SQLite numbers a note's edges to its own items below zero
    # (derived, ports/store/contained_sqlite.py) and PostgreSQL does not, so by id the 200 listed were other edges
    # on each backend
    plan.sort(key=lambda p: (p.relation, candidates[p.edge_id].src, candidates[p.edge_id].dst))
    would = [p for p in plan if p.activates]
    if not dry_run and would:
        when = rt.now_iso()
        with rt.store.transaction():
            for p in would:
                rt.store.set_edge_status(int(p.edge_id), "active", actor="promote",
                                         reason=",".join(p.reasons) or f"promote:{mode}", when=when,
                                         previous=candidates[p.edge_id].status)
            # recorded on the edge, where a rebuild reads it: a re-parse of the note must not undo the decision
            vault.mark_edges([int(p.edge_id) for p in would], PROMOTED, mode)
            rt.store.log("promote-candidates", None, {"mode": mode, "activated": len(would)}, when)
    return {
        "mode": mode,
        "dry_run": dry_run,
        "considered": len(plan),
        "would_activate": len(would),
        "activated": 0 if dry_run else len(would),
        "edges": [{"id": int(p.edge_id), "relation": p.relation, "from": p.from_status, "to": p.to_status,
                   "reasons": list(p.reasons)} for p in plan[:200]],
        "edges_by_status": vault.edge_status_counts(),
        "db": rt.store.path,
    }


def weaken(rt: Runtime, raw_id: Any, *, reason: str = "", factor: float = DEFAULT_WEAKEN_FACTOR,
           floor: float = 0.0) -> dict[str, Any]:
    edge = _load(rt, raw_id)
    if edge.status not in ("active", "candidate"):
        raise InvalidInput(f"edge {edge.id} is {edge.status}; only active or candidate edges can be weakened",
                           status=edge.status)
    strength, status = weaken_edge(edge.status, min(1.0, max(0.0, edge.weight)), factor, floor)  # type: ignore[arg-type]
    now = rt.now_iso()
    with rt.store.transaction():
        rt.store.vault.update_edge_strength(int(edge.id or 0), strength, status, now)  # type: ignore[attr-defined]
        rt.store.vault.log_edge_events([(int(edge.id or 0), "weakened", "weaken-edge",  # type: ignore[attr-defined]
                                          {"reason": reason, "factor": factor, "floor": floor,
                                           "previous_strength": edge.weight, "strength": strength,
                                           "status": status}, now)])
        rt.store.log(*_decision("weaken-edge", edge, status=status, strength=strength, reason=reason, when=now,
                                factor=factor, floor=floor))
    return {"weakened": True, "id": edge.id, "previous_strength": edge.weight, "strength": strength,
            "previous_status": edge.status, "status": status}


def kill(rt: Runtime, raw_id: Any, *, reason: str = "") -> dict[str, Any]:
    """A tombstone: never walked, never surfaced, and no rebuild or re-parse can bring it back."""
    edge = _load(rt, raw_id)
    if edge.status == "killed":
        # a second kill changes nothing: it logged another `killed` event and oplog row and answered as if the edge
        # had just been killed; it says when and why it was
        first = next((e for e in rt.store.edge_events(int(edge.id or 0)) if e["event"] == "killed"), None)
        return {"killed": True, "already_killed": True, "id": edge.id, "previous_status": "killed",
                "status": "killed", "killed_at": first["created_at"] if first else edge.updated_at,
                "kill_reason": (first or {}).get("detail", {}).get("reason")}
    now = rt.now_iso()
    with rt.store.transaction():
        rt.store.set_edge_status(int(edge.id or 0), "killed", actor="kill-edge", reason=reason or "explicit_kill",
                                 confidence=None, when=now, previous=edge.status)
        rt.store.vault.update_edge_strength(int(edge.id or 0), 0.0, "killed", now)  # type: ignore[attr-defined]
        rt.store.log(*_decision("kill-edge", edge, status="killed", strength=0.0, reason=reason or "explicit_kill",
                                when=now))
    return {"killed": True, "already_killed": False, "id": edge.id, "previous_status": edge.status,
            "status": "killed"}


def validate(rt: Runtime, raw_id: Any, *, reason: str = "") -> dict[str, Any]:
    """A person confirms an edge: it passes the gate as origin `user` and, once active, survives rebuilds."""
    edge = _load(rt, raw_id)
    decision = gate_edge(edge.type, min(1.0, max(0.0, edge.confidence)), edge.evidence or reason or None, True, "user",
                         requested="active", existing=edge.status if edge.status in ("active", "candidate", "killed")
                         else None)  # type: ignore[arg-type]
    if not decision.is_active:  # a refusal is an error an agent cannot mistake for success; the edge stays as it is
        reasons = list(decision.reasons)
        error = Conflict if edge.status == "killed" else InvalidInput
        raise error(f"edge {edge.id} was not validated: {', '.join(reasons) or decision.status}"
                    + (" (a killed edge is a tombstone: nothing revives it)" if edge.status == "killed" else ""),
                    id=edge.id, status=edge.status, reasons=reasons)
    # validated by a person before and still so: a second press logged another event and oplog row, as a second kill
    # did. (A person's validation is its `validated` event: an edge `resolve` wrote carries `validated` in its
    # metadata from the research, and a person validating it is a decision a replay must see)
    first = next((e for e in rt.store.edge_events(int(edge.id or 0)) if e["event"] == "validated"), None)
    if first is not None and edge.metadata.get("validated") and edge.status == decision.status:
        return {"id": edge.id, "status": edge.status, "validated": True, "already_validated": True,
                "validated_at": first["created_at"], "validated_reason": edge.metadata.get("validated_reason", ""),
                "reasons": list(decision.reasons)}
    meta = {**edge.metadata, "validated": True, "validated_reason": reason}
    updated = Edge(src=edge.src, dst=edge.dst, type=edge.type, sub_type=edge.sub_type, weight=edge.weight,
                   confidence=edge.confidence, status=decision.status, evidence=edge.evidence, origin=edge.origin,
                   rule=edge.rule, source_path=edge.source_path, metadata=meta, created_at=edge.created_at,
                   updated_at=rt.now_iso())
    with rt.store.transaction():
        rt.store.upsert_edge(updated, actor="user", event="validated", reason=reason)
        rt.store.log(*_decision("validate-edge", edge, status=decision.status, strength=edge.weight, reason=reason,
                                when=updated.updated_at, reasons=list(decision.reasons)))
    return {"id": edge.id, "status": decision.status, "validated": True, "already_validated": False,
            "reasons": list(decision.reasons)}


MAX_FORGET_DAYS = 36_500
FORGOTTEN_LISTED = 20


def _days(raw: Any) -> int:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        raise InvalidInput(f"--days-threshold must be a whole number of days, got {raw!r}") from None
    if not 0 <= value <= MAX_FORGET_DAYS:
        raise InvalidInput(f"--days-threshold must be between 0 and {MAX_FORGET_DAYS}", days_threshold=value)
    return value


def _first_listed(rt: Runtime, stale: list[tuple[int, str, float, str]]
                  ) -> tuple[list[tuple[int, str, float, str]], dict[Any, Edge]]:
    """The `FORGOTTEN_LISTED` aged edges a reply shows, oldest date first, then by relation and the ends they join,
    with their edges. By id they were other edges on each backend: SQLite numbers a note's edges to its own items
    below zero, newest item first, and PostgreSQL counts up. Only the edges as old as the last shown are read
    whole (an edge's evidence is decoded from its note)."""
    stale = sorted(stale, key=lambda s: s[3])
    if len(stale) > FORGOTTEN_LISTED:
        last = stale[FORGOTTEN_LISTED - 1][3]
        stale = [s for s in stale if s[3] <= last]
    edges = {e.id: e for e in rt.store.get_edges([edge_id for edge_id, *_ in stale])}

    def key(row: tuple[int, str, float, str]) -> tuple[str, str, str, str]:
        e = edges.get(row[0])
        return (row[3], e.type, e.src, e.dst) if e is not None else (row[3], "", "", "")
    return sorted(stale, key=key)[:FORGOTTEN_LISTED], edges


def forget_dated(rt: Runtime, *, days_threshold: Any = 30, dry_run: bool = False) -> dict[str, Any]:
    """Mneme's `forget --days-threshold N`, without its bugs (reference §8.2 #13): an active observation edge whose
    bullet names only days before the cutoff (now − N days) becomes a candidate of strength 0 — walks and thoughts
    stop following it, retrieve marks it `candidate_only`. Only that bullet's own edge changes (not every edge of
    its note), a yearless "Mar 5" counts as no date (no year is guessed), the bullet stays recallable, nothing is
    deleted, and each change is an edge event `explain-edge` shows. A re-parse of the note keeps the edge aged (a
    strength below its confidence reads as a decision, as `weaken-edge`'s does, and follows a moved note); a bullet
    whose text changed — a new date included — is a new bullet with an edge of its own."""
    days = _days(days_threshold)
    now = rt.now()
    cutoff = (now - timedelta(days=days)).date().isoformat()
    relations = [s.name for s in DEFAULT_ONTOLOGY.specs() if s.category == "observation"]
    vault = rt.store.vault  # type: ignore[attr-defined]
    stale = vault.dated_edges(relations, cutoff)
    if not dry_run and stale:
        when = rt.now_iso()
        with rt.store.transaction():
            for edge_id, *_ in stale:
                vault.update_edge_strength(edge_id, 0.0, "candidate", when)
            vault.log_edge_events([(edge_id, "forgotten", "forget",
                                    {"reason": "past_date", "latest_date": latest, "cutoff_date": cutoff,
                                     "threshold_days": days, "previous_status": status,
                                     "previous_strength": weight, "status": "candidate", "strength": 0.0},
                                    when) for edge_id, status, weight, latest in stale])
            rt.store.log("forget-dated", None, {"threshold_days": days, "cutoff_date": cutoff,
                                                "forgotten": len(stale), **rt.actor()}, when)
    listed, edges = _first_listed(rt, stale)
    texts = rt.store.get_nodes([e.dst for e in edges.values()])
    return {
        "ok": True, "dry_run": dry_run, "threshold_days": days, "cutoff_date": cutoff,
        "forgotten_count": len(stale),
        "forgotten_edges": [{"id": edge_id, "relation": e.type, "src": e.src, "dst": e.dst,
                             "text": texts[e.dst].content if e.dst in texts else None, "latest_date": latest,
                             "source_path": e.source_path, "previous_status": status, "previous_strength": weight,
                             "status": "candidate", "strength": 0.0}
                            for edge_id, status, weight, latest in listed
                            if (e := edges.get(edge_id)) is not None],  # (gone since: another process's forget)
        "db": rt.store.path,
    }
