"""Scoped agent memory: `remember --payload FILE` and `forget --source mneme://…`.

A payload holds nodes, edges and observations under one `mneme://` source, so an agent's working memory can be added
without touching Markdown and removed as a unit. Differences from Mneme, on purpose:

* edges and observations must reference nodes of the same payload — Mneme silently auto-created `entity` nodes for
  unknown observation refs, which made a scope leak into the rest of the graph;
* the reply echoes the status each edge was *stored* with (after the ontology gate) and why — Mneme echoed the
  requested status, so `relates_to … "status": "active"` looked active while it was stored as a candidate;
* re-sending a payload for the same scope replaces it (stale rows go, listed in `replaced` and `replaced_edges`)
  — that scope only: `mneme://agent` does not own `mneme://agent/session-1` when it is replaced, though `forget
  --source mneme://agent` takes both. An edge a person killed, validated or weakened stays as they left it, also
  when the payload drops one of its nodes (that row stays, deleted: `kept_for_decisions`); a belief of its
  earlier `assertions[]` it no longer states is retracted as withdrawn (`withdrawn_assertions`, `withdrawals`);
* a payload is refused whole (`InvalidInput`) before anything is written, its `assertions[]` included.

`forget --source` refuses every source that is not an explicit `mneme://<scope>`: vault notes and user memories are
outside the deletion path.
"""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core.errors import InvalidInput
from ...core.model import Edge, Memory
from ...core.ontology import observation_relation
from ...core.surface import step
from ...core.vault import gate_edge
from ...core.world.values import refuse_unknown_keys
from ...ports.store.base import Store
from ..runtime import Runtime
from .plan import importance_of
from .resolve import person_decisions, predicate_name, restates
from .claim_beliefs import refuse_other_source
from .withdrawals import withdrawn_by_rerun

OBSERVATION_KINDS = ("fact", "blocked", "done", "risk", "correction")
MAX_ITEMS = 5000
# a payload's texts: far above `remember`'s 8,000 (an agent's observation may carry a long summary, and backups hold
# such rows), far below what stalls a write (a 2 MB observation kept it busy for minutes)
MAX_PAYLOAD_TEXT_CHARS = 100_000
MAX_PAYLOAD_NAME_CHARS = 1000  # a node's ref and name (the name is the title its observations are indexed under)
_OBSERVATION_REF = re.compile(r"obs/.*/[0-9a-f]{16}", re.S)  # what follows `<scope>#` in an observation's id


def check_scope(source: Any) -> str:
    if not isinstance(source, str) or not source.startswith("mneme://"):
        raise InvalidInput("only mneme://<scope> sources can be written or forgotten as scoped memory; vault notes and"
                           " other memories are outside this path", source=str(source))
    scope = source.strip().rstrip("/")
    if len(scope) <= len("mneme://") or any(c.isspace() for c in scope):
        raise InvalidInput("a mneme:// source needs a scope without spaces, e.g. mneme://agent/session-1",
                           source=source)
    if "\x00" in scope:
        raise InvalidInput("a mneme:// source must not contain NUL characters", field="source_path")
    return scope


def _node_id(scope: str, ref: str) -> str:
    return f"{scope}#{ref}"


def _payload_owned(node_id: str, scope: str) -> bool:
    """A row a payload of this scope wrote (its id is `<scope>#…`): the only kind a later payload may replace. A
    memory stored with `remember --source <scope>` shares the source but was never the payload's."""
    return node_id.startswith(scope + "#")


def _stale_rows(rt: Runtime, scope: str, wanted: set[str]) -> list[str]:
    """The scope's payload rows the new payload no longer has. nodes_with_source also returns the scopes under
    this one; they are not this payload's to replace."""
    store = rt.store
    heads = store.node_heads(store.vault.nodes_with_source(scope))  # type: ignore[attr-defined]
    # (a row already deleted was kept for a person's decision about one of its edges by an earlier re-send)
    return sorted(i for i, head in heads.items() if head[3] == scope and i not in wanted and not head[1]
                  and _payload_owned(i, scope))


@dataclass(frozen=True)
class Planned:
    """One edge of a payload as it will be stored: `edge` written, unless `decided` — the stored edge a person
    killed, validated or weakened, which the payload leaves as it is (an `event` on it says so)."""

    edge: Edge
    requested: str
    status: str
    reasons: list[str]
    decided: Edge | None = None
    event: str = ""
    stored_id: int | None = None  # the id of the edge the store holds under this key, if any (a dry run shows it)
    unchanged: bool = False  # the store holds `edge` as it is: a re-sent payload leaves it (no event, no new version)


def _kept(existing: Edge | None, decided: str | None, edge: Edge, requested: str, reasons: list[str]) -> Planned:
    """Re-sending a scope used to rewrite every edge it names: an edge a person validated went back to candidate,
    a weakened one got its strength back, a killed one its weight. A person's decision (`decided`, about
    `existing`) wins over the agent's payload, as it does over a resolve replay."""
    if existing is None or decided is None:
        return Planned(edge, requested, edge.status, reasons, stored_id=existing.id if existing else None,
                       unchanged=existing is not None and restates(existing, edge))
    if decided == "killed":
        # (an observation's gate is not told of the tombstone: its reasons would read as if it were written)
        reasons = reasons if edge.status == "killed" else ["killed_tombstone_blocks_recreation"]
        return Planned(edge, requested, "killed", reasons, existing, "blocked_recreation")
    return Planned(edge, requested, existing.status, [f"person_decision_kept:{decided}"], existing, "decision_kept")


def _stale_edges(rt: Runtime, scope: str, wanted: set[str], stale: list[str],
                 planned: list[Planned]) -> tuple[list[Edge], list[str]]:
    """The edges a re-sent payload removes, so the reply lists them as it lists the nodes (`replaced`): the edges of
    the nodes that go, and the scope's edges between kept nodes that the payload no longer has; and the nodes that go
    but stay as deleted rows (`kept_for_decisions`). Tombstones and edges a person validated or weakened stay, a
    node's that goes too: its row is then only marked deleted, as a vault bullet gone from its note is when a person
    decided about one of its edges — deleting it took the kill with it, and the next payload naming that node again
    brought the killed edge back active. A payload's edges join its own nodes, so the kept nodes' edges hold every
    one left (read by node, not by a scan of every edge's source)."""
    store = rt.store
    keys = {(p.edge.src, p.edge.dst, p.edge.type) for p in planned}
    gone = set(stale)
    touching = store.vault.edges_touching(sorted(wanted | gone))  # type: ignore[attr-defined]
    unplanned = [e for e in touching if (e.src in gone or e.dst in gone) or (
        e.source_path == scope and (e.src, e.dst, e.type) not in keys and e.status != "killed")]
    decided = set(person_decisions(store, unplanned))
    dropped = {int(e.id or 0) for e in unplanned} - decided
    held = sorted({end for e in touching if int(e.id or 0) in decided for end in (e.src, e.dst) if end in gone})
    return [e for e in touching if int(e.id or 0) in dropped], held


def _str(item: Mapping[str, Any], key: str, what: str, *, required: bool = True, default: str = "",
         limit: int = MAX_PAYLOAD_NAME_CHARS) -> str:
    value = item.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise InvalidInput(f"{what}: missing required field {key!r}", field=key)
        return default
    if not isinstance(value, str):
        raise InvalidInput(f"{what}.{key} must be a string", field=key)
    if "\x00" in value:  # PostgreSQL text cannot hold one and SQLite can: refused on both, as `remember` does
        raise InvalidInput(f"{what}.{key} must not contain NUL characters", field=key)
    value = value.strip()
    if len(value) > limit:
        # bounded: a 2 MB observation kept the write busy for minutes
        raise InvalidInput(f"{what}.{key} is {len(value)} characters; the limit is {limit}", field=key,
                           length=len(value), limit=limit)
    return value


def _name(item: Mapping[str, Any], key: str, what: str, *, required: bool = True, default: str = "") -> str:
    """A node's ref or name, or a reference to a node, in one Unicode form (NFC), as the product compares names: a
    ref typed precomposed ("José") and an edge's `src` decomposed were refused as not a node of the payload, and two
    refs differing only in form were two nodes that read the same."""
    return unicodedata.normalize("NFC", _str(item, key, what, required=required, default=default))


def _unit(item: Mapping[str, Any], key: str, what: str, default: float) -> float:
    value = item.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        raise InvalidInput(f"{what}.{key} must be a number between 0 and 1", field=key)
    return float(value)


# what each item of a payload's lists may say: any other key is refused, naming the closest of these
_NODE_KEYS = ("ref", "type", "name", "summary")
_EDGE_KEYS = ("src", "dst", "relation", "status", "confidence", "evidence", "validated")
_OBSERVATION_KEYS = ("node", "kind", "text", "score")


def parse_payload(raw: Any) -> dict[str, Any]:
    """Shape-check a payload; every reference must name a node of the same payload."""
    if isinstance(raw, (str, bytes)):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"payload is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(raw, Mapping):
        raise InvalidInput("payload must be a JSON object with source_path, nodes, edges, observations")
    # a misspelt list ("observation") read as an empty one, and the payload replaced its scope with nothing
    refuse_unknown_keys(raw, ("source_path", "nodes", "edges", "observations", "assertions"), "payload")
    # said as the other fields' problems are: `check_scope` alone would answer "only mneme:// sources…" with None
    source = raw.get("source_path")
    if source is None:
        raise InvalidInput("payload: missing required field 'source_path' (its mneme:// scope, e.g. "
                           "mneme://agent/session-1)", field="source_path")
    if not isinstance(source, str):
        raise InvalidInput("payload.source_path must be a string like mneme://agent/session-1", field="source_path")
    scope = check_scope(source)
    if "#" in scope:
        # node ids are `scope#ref`: `mneme://x#a` + ref `t` and `mneme://x` + ref `a#t` would be the same node, and
        # writing or forgetting one scope would take the other's row
        raise InvalidInput("a mneme:// scope written by a payload cannot contain '#'", source=scope)
    lists = {}
    for key in ("nodes", "edges", "observations", "assertions"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise InvalidInput(f"payload.{key} must be a list of objects", field=key)
        if len(value) > MAX_ITEMS:
            raise InvalidInput(f"payload.{key} has more than {MAX_ITEMS} items", field=key)
        lists[key] = value
    refs: dict[str, dict[str, Any]] = {}
    for i, node in enumerate(lists["nodes"]):
        what = f"nodes[{i}]"
        refuse_unknown_keys(node, _NODE_KEYS, what)  # a misspelt "typ" was stored as the default type, entity
        ref = _name(node, "ref", what)
        if ref in refs:
            raise InvalidInput(f"{what}: duplicate ref {ref!r}", field="ref")
        if _OBSERVATION_REF.fullmatch(ref):  # its node id would be an observation's (`_observation_id`): one row twice
            raise InvalidInput(f"{what}.ref {ref!r} has the shape of an observation's id (obs/<node>/<16 hex>); give"
                               " the node another ref", field="ref")
        refs[ref] = {"ref": ref, "type": _str(node, "type", what, required=False, default="entity"),
                     "name": _name(node, "name", what, required=False, default=ref),
                     "summary": _str(node, "summary", what, required=False, limit=MAX_PAYLOAD_TEXT_CHARS)}
    edges = []
    edge_seen: dict[tuple[str, str, str], int] = {}
    for i, edge in enumerate(lists["edges"]):
        what = f"edges[{i}]"
        refuse_unknown_keys(edge, _EDGE_KEYS, what)
        src, dst = _name(edge, "src", what), _name(edge, "dst", what)
        for end in (src, dst):
            if end not in refs:
                raise InvalidInput(f"{what}: {end!r} is not a node of this payload; edges must reference payload"
                                   " nodes so the scope stays removable as a unit", field="src/dst")
        if src == dst:  # as `link` refuses one: a node related to itself says nothing a walk or a pack can use
            raise InvalidInput(f"{what}: src and dst are both {src!r}; an edge joins two nodes", field="src/dst")
        status = _str(edge, "status", what, required=False) or None
        if status not in (None, "active", "candidate", "killed"):
            raise InvalidInput(f"{what}.status must be active, candidate or killed", field="status")
        # spelt as a resolve claim's predicate: "Located In" was a relation of its own the ontology did not know
        relation = predicate_name(_str(edge, "relation", what))
        if not relation:
            raise InvalidInput(f"{what}.relation has no letters or digits", field="relation")
        first = edge_seen.setdefault((src, dst, relation), i)
        if first != i:  # one stored row per (src, dst, relation): the later one silently replaced the earlier
            raise InvalidInput(f"{what} repeats edges[{first}] ({src} —{relation}→ {dst}: one edge); send it once",
                               field="edges")
        validated = edge.get("validated", False)
        if not isinstance(validated, bool):  # "false" would otherwise read as true and activate the claim
            raise InvalidInput(f"{what}.validated must be true or false", field="validated")
        edges.append({"src": src, "dst": dst, "relation": relation, "status": status,
                      "confidence": _unit(edge, "confidence", what, 1.0),
                      "evidence": _str(edge, "evidence", what, required=False, limit=MAX_PAYLOAD_TEXT_CHARS),
                      "validated": validated})
    observations = []
    seen: dict[str, int] = {}
    for i, obs in enumerate(lists["observations"]):
        what = f"observations[{i}]"
        refuse_unknown_keys(obs, _OBSERVATION_KEYS, what)  # a misspelt "kidn" was stored as the default kind, fact
        ref = _name(obs, "node", what)
        if ref not in refs:
            raise InvalidInput(f"{what}: node {ref!r} is not a node of this payload", field="node")
        kind = _str(obs, "kind", what, required=False, default="fact").lower()
        if kind not in OBSERVATION_KINDS:
            raise InvalidInput(f"{what}.kind must be one of {', '.join(OBSERVATION_KINDS)}", field="kind")
        score = obs.get("score", 3)
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= float(score) <= 100:
            raise InvalidInput(f"{what}.score must be a number between 0 and 100", field="score")
        text = _str(obs, "text", what, limit=MAX_PAYLOAD_TEXT_CHARS)
        first = seen.setdefault(_observation_id(scope, ref, text), i)
        if first != i:  # one row id: stored twice it failed the whole write with a database error
            raise InvalidInput(f"{what} repeats observations[{first}] (the same text on the same node, ignoring case"
                               " and spacing)", field="text")
        observations.append({"node": ref, "kind": kind, "text": text, "score": float(score)})
    return {"source_path": scope, "nodes": list(refs.values()), "edges": edges, "observations": observations,
            "assertions": [dict(a) for a in lists["assertions"]]}


def _observation_id(scope: str, ref: str, text: str) -> str:
    digest = hashlib.sha1(" ".join(text.split()).casefold().encode("utf-8")).hexdigest()[:16]
    return f"{scope}#obs/{ref}/{digest}"


def _check_assertions(rt: Runtime, data: Mapping[str, Any]) -> None:
    """Shape-check `assertions[]` before the graph rows are written: they used to be parsed afterwards, so a bad
    one failed the command with the scope's nodes and edges already stored."""
    if not data["assertions"]:
        return
    refuse_other_source(data, data["source_path"], "a scoped payload", ("assertions",))
    try:
        from ...core.world import parse_assertion
        from ..world.common import now_of
    except ImportError:
        return
    now = now_of(rt)
    for i, assertion in enumerate(data["assertions"]):
        try:
            parse_assertion(assertion, now, None, data["source_path"])
        except InvalidInput as exc:
            raise InvalidInput(f"assertions[{i}]: {exc.message}", **exc.details) from None


def _plan_edges(store: Store, data: Mapping[str, Any], memories: list[Memory], now: str) -> list[Planned]:
    """The payload's edges and its observations' edges through the write gate, against what the store holds."""
    scope = data["source_path"]
    edge_keys = [(_node_id(scope, e["src"]), _node_id(scope, e["dst"]), e["relation"]) for e in data["edges"]]
    edge_keys += [(_node_id(scope, obs["node"]), mem.id, observation_relation(obs["kind"]))
                  for obs, mem in zip(data["observations"], memories)]
    # every edge the payload names and the person decisions about them, read once (a dry run too: it must report a
    # tombstone as killed); a read per edge cost a re-sent 7k-edge payload ~0.6 s
    stored: dict[tuple[str, str, str], Edge] = store.vault.edges_by_keys(edge_keys)  # type: ignore[attr-defined]
    decisions = person_decisions(store, stored.values())

    def kept(key: tuple[str, str, str], edge: Edge, requested: str, reasons: list[str]) -> Planned:
        existing = stored.get(key)
        return _kept(existing, decisions.get(int(existing.id or 0)) if existing else None, edge, requested, reasons)

    planned: list[Planned] = []
    for e in data["edges"]:
        src, dst = _node_id(scope, e["src"]), _node_id(scope, e["dst"])
        existing = stored.get((src, dst, e["relation"]))
        decision = gate_edge(e["relation"], e["confidence"], e["evidence"] or None, e["validated"], "scoped",
                             requested=e["status"],
                             existing=existing.status if existing and existing.status != "retired" else None)  # type: ignore[arg-type]
        planned.append(kept((src, dst, e["relation"]), Edge(
            src=src, dst=dst, type=e["relation"], weight=e["confidence"], confidence=e["confidence"],
            status=decision.status, evidence=e["evidence"], origin="scoped", rule="payload", source_path=scope,
            metadata={"validated": e["validated"] and decision.is_active}, created_at=now, updated_at=now),
            e["status"] or "", list(decision.reasons)))
    for obs, mem in zip(data["observations"], memories):
        relation = observation_relation(obs["kind"])
        decision = gate_edge(relation, min(1.0, obs["score"] / 6.0), obs["text"], False, "scoped")
        src = _node_id(scope, obs["node"])
        planned.append(kept((src, mem.id, relation), Edge(
            src=src, dst=mem.id, type=relation, weight=min(1.0, obs["score"] / 6.0),
            confidence=min(1.0, obs["score"] / 6.0), status=decision.status, evidence=obs["text"][:500],
            origin="scoped", rule="payload", source_path=scope, created_at=now, updated_at=now), "",
            list(decision.reasons)))
    return planned


def remember_payload(rt: Runtime, raw: Any, *, dry_run: bool = False) -> dict[str, Any]:
    data = parse_payload(raw)
    _check_assertions(rt, data)
    scope = data["source_path"]
    store = rt.store
    now = rt.now_iso()
    nodes = [Memory(id=_node_id(scope, n["ref"]), kind="entity", title=n["name"], content=n["summary"],
                    source=scope, created_at=now, updated_at=now, inserted_at=now,
                    metadata={"ref": n["ref"], "type": n["type"], "scope": scope}) for n in data["nodes"]]
    memories = []
    names = {n["ref"]: n["name"] for n in data["nodes"]}  # (a scan of the nodes per observation was quadratic)
    for obs in data["observations"]:
        name = names[obs["node"]]
        memories.append(Memory(id=_observation_id(scope, obs["node"], obs["text"]), content=obs["text"],
                               category="fact", importance=importance_of(obs["score"]), source=scope, title=name,
                               created_at=now, updated_at=now, inserted_at=now,
                               metadata={"memory_kind": "observation", "node": obs["node"],
                                         "observation_kind": obs["kind"], "score": obs["score"], "scope": scope}))
    out: dict[str, Any] = {
        "ok": True, "dry_run": dry_run, "source_path": scope,
        "nodes": [{"ref": n.metadata["ref"], "id": n.id, "type": n.metadata["type"], "name": n.title,
                   "source_path": scope} for n in nodes],
        "observations": [{"id": m.id, "node": m.metadata["node"], "kind": m.metadata["observation_kind"],
                          "text": m.content, "score": m.metadata["score"]} for m in memories],
    }
    wanted = {n.id for n in nodes} | {m.id for m in memories}
    if dry_run:
        planned = _plan_edges(store, data, memories, now)
        # (the stored edge each would update: a new one has no id until written)
        out["edges"] = [{"id": p.decided.id if p.decided else p.stored_id, "src": p.edge.src, "dst": p.edge.dst,
                         "relation": p.edge.type, "requested_status": p.requested or None, "status": p.status,
                         "reasons": p.reasons} for p in planned]
        out["assertions"] = _assertions(rt, data, out, dry_run=True)  # (what the gate makes of each, as written)
        out["replaced"] = _stale_rows(rt, scope, wanted)
        gone, held = _stale_edges(rt, scope, wanted, out["replaced"], planned)
        out["replaced_edges"] = [int(e.id or 0) for e in gone]
        out["kept_for_decisions"] = held
        out.update(withdrawn_by_rerun(rt, scope, data, dry_run=True, scoped=True))
        return out
    vault = store.vault  # type: ignore[attr-defined]
    with store.transaction():
        # read under the write lock it writes under: a `forget --source` or another re-send between the read and
        # the write left rows behind, or reported an edge as kept that was gone
        planned = _plan_edges(store, data, memories, now)
        stale = _stale_rows(rt, scope, wanted)
        out["replaced"] = stale
        gone, held = _stale_edges(rt, scope, wanted, stale, planned)
        out["replaced_edges"] = [int(e.id or 0) for e in gone]
        out["kept_for_decisions"] = held
        if stale:
            # a deleted row keeps the decided edge that needs it: a tombstone still blocks the edge's return
            vault.delete_edges([int(e.id or 0) for e in gone if e.src in held or e.dst in held])
            store.soft_delete(held, now)
            store.hard_delete(sorted(set(stale) - set(held)))  # type: ignore[attr-defined]
        existing = vault.existing_nodes([*wanted])
        vault.insert_nodes([n for n in nodes if n.id not in existing])
        vault.refresh_nodes([n for n in nodes if n.id in existing])
        fresh = [m for m in memories if m.id not in existing]
        vault.insert_nodes(fresh)
        again = [m for m in memories if m.id in existing]
        vault.refresh_nodes(again)
        stored_edges: list[dict[str, Any]] = []
        for p in planned:
            if p.decided is not None:  # a person's decision: the edge stays as they left it, and its log says why
                edge_id = int(p.decided.id or 0)
                vault.log_edge_events([(edge_id, p.event, "payload", {"reasons": p.reasons}, now)])
            elif p.unchanged:
                edge_id = int(p.stored_id or 0)
            else:
                edge_id = store.upsert_edge(p.edge, actor="payload")
            stored_edges.append({"id": edge_id, "src": p.edge.src, "dst": p.edge.dst, "relation": p.edge.type,
                                 "requested_status": p.requested or None, "status": p.status,
                                 "reasons": p.reasons})
        vault.delete_edges([int(e.id or 0) for e in gone if e.src not in stale and e.dst not in stale])
        store.log("remember:payload", None, {"source_path": scope, "nodes": len(nodes), "observations": len(memories),
                                             "edges": len(planned)}, now)
        _sense(rt, data, memories, now)  # in the same transaction: a scope is stored with its event, as a note is
        # the beliefs and the withdrawals too: written after the commit, a failure there left the scope half-sent
        out["assertions"] = _assertions(rt, data, out)
        # a belief the scope's earlier payload stated and this one does not: withdrawn, as a re-run research's is
        out.update(withdrawn_by_rerun(rt, scope, data, dry_run=False, scoped=True))
    out["edges"] = stored_edges
    from .ingest import _embed_new

    out["vectors"] = _embed_new(rt, [m.id for m in memories])
    return out


def _assertions(rt: Runtime, data: Mapping[str, Any], out: dict[str, Any], *,
                dry_run: bool = False) -> list[dict[str, Any]]:
    """What the world model's gate makes of each of `assertions[]` (written, unless `dry_run`: each previewed
    against the store as it is)."""
    if not data["assertions"]:
        return []
    try:
        from ..world import propose_assertion
    except ImportError:
        out.setdefault("notes", []).append("world model not installed: assertions skipped")
        return []
    return [propose_assertion(rt, a, source_path=data["source_path"], reason="payload", dry_run=dry_run)
            for a in data["assertions"]]


def _payload_hash(data: Mapping[str, Any]) -> str:
    """What a payload says, parsed (so spacing and defaults do not count): its sense event's `content_hash`."""
    canonical = json.dumps({k: data[k] for k in ("source_path", "nodes", "edges", "observations", "assertions")},
                           sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def _latest_payload_hash(rt: Runtime, scope: str) -> str | None:
    """The `content_hash` of the scope's latest payload event (None: none, or one stored before events had it)."""
    from ..world.tables import world_of

    events = [row for row, _recorded in world_of(rt).sense_events(source_paths=[scope])
              if row.get("origin") == "payload"]
    if not events:
        return None
    value = (events[-1].get("metadata") or {}).get("content_hash")
    return value if isinstance(value, str) else None


def _sense(rt: Runtime, data: Mapping[str, Any], memories: list[Memory], now: str) -> None:
    """One event per version of the scope, as a vault note has one per version: the event's id hashes the time it
    was written, so the same payload sent again would be another event every time. It is recorded only when the
    payload differs from the one the scope's latest event saw; the events of earlier versions stay, as a changed
    note's do (what was perceived then; a checked prediction may name one), and only `forget --source` deletes them."""
    if not memories:
        return
    try:
        from ..world import record_sense_event
    except ImportError:
        return
    scope = data["source_path"]
    digest = _payload_hash(data)
    if _latest_payload_hash(rt, scope) == digest:
        return
    record_sense_event(rt, "payload", "agent", scope, now, scope, "\n".join(m.content for m in memories),
                       {"source_path": scope, "observations": len(memories), "content_hash": digest},
                       event_type="payload", source_uri=scope, source_path=scope)


def _scope_rows(rt: Runtime, scope: str) -> tuple[list[str], set[int], list[str], dict[str, int], list[str]]:
    """What `forget --source` removes: node ids, edge ids, the remembered memories among the nodes, counts, and the
    nodes kept deleted for a person's decision about one of their edges (`kept_for_decisions`).

    An edge a person killed, validated or weakened stays, and the scope's rows it joins are only marked deleted, as
    a re-sent payload that drops a node keeps them (`_stale_edges`): deleting them took the decisions with them —
    `explain-edge` answered not_found, and the same payload sent again brought the killed edge back active."""
    store = rt.store
    vault = store.vault  # type: ignore[attr-defined]
    ids = vault.nodes_with_source(scope)
    edges = {int(e.id or 0): e for e in (*vault.edges_touching(ids), *vault.edges_with_source_prefix(scope))}
    decided = set(person_decisions(store, edges.values()))
    edges_scoped = set(edges) - decided
    scoped = set(ids)
    held = sorted({end for i in decided for end in (edges[i].src, edges[i].dst) if end in scoped})
    # (a row an earlier forget kept deleted for a decision is not removed again)
    nodes = {i: n for i, n in store.get_nodes(ids).items() if i not in held or not n.deleted_at}
    # a memory stored with `remember --source <scope>` is in the scope too, but named apart from the payload's
    # observations and listed by id in the oplog: nothing of the user's goes uncounted
    remembered = sorted(i for i, n in nodes.items() if n.kind == "memory" and not _payload_owned(i, n.source))
    removed = {"observations": sum(1 for n in nodes.values() if n.kind == "memory") - len(remembered),
               "memories": len(remembered), "nodes": sum(1 for n in nodes.values() if n.kind != "memory"),
               "edges": len(edges_scoped)}
    return ids, edges_scoped, remembered, removed, held


def forget_source(rt: Runtime, source: Any, *, dry_run: bool = False) -> dict[str, Any]:
    scope = check_scope(source)
    store = rt.store
    from ..world import forget_world_scope

    if dry_run:
        _ids, _edges, _remembered, removed, held = _scope_rows(rt, scope)
        world = forget_world_scope(rt, scope, dry_run=True)
        return {"ok": True, "dry_run": True, "source_path": scope, "removed": removed, "kept_for_decisions": held,
                "world_removed": world, "world_model_removed": world, **_nothing_stored(rt, scope, removed, world)}
    if rt.vectors_enabled:
        rt.index.follow_saved()
    with store.transaction():  # the graph rows and the world rows of the scope go together, or neither does
        # read under the write lock: a payload re-sent between the read and the delete left its new rows behind
        ids, edges_scoped, remembered, removed, held = _scope_rows(rt, scope)
        store.vault.delete_edges(sorted(edges_scoped))  # type: ignore[attr-defined]
        gen = store.vector_generation()
        kept = set(held)
        store.soft_delete(held, rt.now_iso())
        store.hard_delete([i for i in ids if i not in kept])  # type: ignore[attr-defined]
        rt.index.note_delete(ids, gen)
        world = forget_world_scope(rt, scope)
        # its world rows too: a later forget of the scope says when it went (`_nothing_stored`)
        store.log("forget:source", None, {"source_path": scope, **removed, "memory_ids": remembered,
                                          "world_removed": world, **rt.actor()}, rt.now_iso())
    # Mneme reported the world rows under both names
    return {"ok": True, "dry_run": False, "source_path": scope, "removed": removed, "kept_for_decisions": held,
            "world_removed": world, "world_model_removed": world, **_nothing_stored(rt, scope, removed, world)}


def _nothing_stored(rt: Runtime, scope: str, removed: dict[str, int], world: dict[str, int]) -> dict[str, Any]:
    """A warning for a removal that found nothing: removing twice is no error, but a misspelt scope read as done
    left the scope's memories in place while the caller believed them gone. A scope an earlier forget emptied says
    so instead (`forgotten_at`): "check its spelling" of one forgotten a moment ago sent the caller hunting a typo."""
    if any(removed.values()) or any(world.values()):
        return {}
    gone = _last_forget(rt, scope)
    if gone is not None:
        return {"warnings": [{"code": "nothing_stored", "source_path": scope, "forgotten_at": gone,
                              "message": f"nothing is stored under {scope}: it was forgotten at {gone} ("
                                         + step("`mnemon log --op forget:source`", "`log` with op forget:source")
                                         + " lists it); nothing was removed"}]}
    return {"warnings": [{"code": "nothing_stored", "source_path": scope,
                          "message": f"nothing is stored under {scope}: check its spelling (a scope is compared "
                                     "exactly, letter case and accents included); nothing was removed"}]}


def _last_forget(rt: Runtime, scope: str) -> str | None:
    """When the latest `forget --source` of the scope that removed something ran (among the last 1,000)."""
    for entry in rt.store.oplog(1_000, op="forget:source"):  # (newest first)
        detail = entry.detail
        if detail.get("source_path") != scope:
            continue
        counts = [detail.get(k) for k in ("observations", "memories", "nodes", "edges")]
        counts += list((detail.get("world_removed") or {}).values())
        if any(isinstance(n, int) and n > 0 for n in counts):
            return entry.created_at
    return None
