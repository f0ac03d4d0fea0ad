"""`mnemon export` and its exact restore, at any store size.

The export is written as it is read — one insight or edge per line — so its memory does not grow with the store (a
10k store's 180 MB document used to be built whole: 1.5 GB of RSS, ≈ 15 GB at 100k). The restore reads the same
way (`ports/json_stream.py`) and writes in bulk statements inside one transaction: every insight or none.
"""
from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidInput
from ..core.model import EDGE_STATUSES, Edge, Memory, iso, parse_iso
from ..core.validation import validate_memory, validate_weight
from .runtime import Runtime

if TYPE_CHECKING:
    import numpy as np

EXPORT_KIND = "mnemon-export"
SCHEMA_VERSION = "1"
BATCH = 2_000  # insights or edges written per bulk statement


# ── export ───────────────────────────────────────────────────────────────────
def export_chunks(rt: Runtime, *, include_vectors: bool = True) -> Iterator[str]:
    """The export document as text, piece by piece: every active memory (with its vector when asked and made by the
    current provider) and every active or candidate edge between them."""
    identity = rt.provider.identity()
    rows: dict[str, int] = {}
    mat: np.ndarray | None = None
    if include_vectors and rt.vectors_enabled:
        vid, mat = rt.store.load_vectors(identity)
        rows = {i: k for k, i in enumerate(vid)}
    head = {"kind": EXPORT_KIND, "schema_version": SCHEMA_VERSION, "exported_at": rt.now_iso(),
            "provider": identity if rows else None}
    yield _json(head)[:-1] + ',"insights":[\n'
    ids: set[str] = set()
    sep = ""
    for m in rt.store.iter_nodes():
        ids.add(m.id)
        item = {**m.to_dict(), "inserted_at": m.inserted_at}
        k = rows.get(m.id)
        if k is not None and mat is not None:
            item["vector"] = _encode_vector(mat[k])
        yield sep + _json(item)
        sep = ",\n"
    yield '\n],"edges":[\n'
    sep = ""
    for e in rt.store.iter_edges(statuses=("active", "candidate")):
        if e.src in ids and e.dst in ids:
            yield sep + _json({
                "source_id": e.src, "target_id": e.dst, "edge_type": e.type, "sub_type": e.sub_type,
                "weight": e.weight, "confidence": e.confidence, "status": e.status, "origin": e.origin,
                "evidence": e.evidence, "rule": e.rule, "metadata": e.metadata, "created_at": e.created_at,
            })
            sep = ",\n"
    yield "\n]}\n"


_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # as the CLI prints JSON


def _encode_vector(row: np.ndarray) -> str:
    import numpy as np

    return base64.b64encode(np.ascontiguousarray(row, dtype="<f4").tobytes()).decode()


# ── restore ──────────────────────────────────────────────────────────────────
def restore(rt: Runtime, head: dict[str, Any], insights: Iterable[Any], rest: Iterator[tuple[str, Any]], *,
            dry_run: bool) -> dict[str, Any]:
    """Restore an export exactly: same ids, timestamps and edges; no automatic edges are grown. `insights` may be a
    list or a stream; `rest` yields the document's members after them (the edges among them)."""
    decode_vectors = head.get("provider") == rt.provider.identity()
    results: list[dict[str, Any]] = []
    new_ids: set[str] = set()
    seen = 0
    edges_inserted = edges_planned = 0

    def edge_batches() -> Iterator[list[Edge]]:
        for key, value in rest:
            if key != "edges":
                continue
            if not isinstance(value, (list, Iterator)):
                raise InvalidInput("'edges' must be an array")
            items = iter(value)
            start = 0
            while batch := list(islice(items, BATCH)):
                now = rt.now_iso()
                yield [_edge(raw, start + k, now) for k, raw in enumerate(batch)]
                start += len(batch)

    if not isinstance(insights, (list, Iterator)):
        raise InvalidInput("import file must be a JSON object with an 'insights' array (schema_version \"1\")")
    items = iter(insights)
    if dry_run:
        while batch := list(islice(items, BATCH)):
            new = _new_memories(rt, batch, seen, new_ids, decode_vectors, results, dry_run=True)
            new_ids.update(m.id for m, _ in new)
            seen += len(batch)
        edges_planned = sum(len(b) for b in edge_batches())
        return {"dry_run": True, "imported": 0, "would_import": len(new_ids), "updated": 0,
                "skipped": seen - len(new_ids), "errors": 0, "edges_inserted": 0, "edges_planned": edges_planned,
                "auto_pruned": 0, "results": results}
    identity = rt.provider.identity()
    with rt.store.transaction():
        while batch := list(islice(items, BATCH)):
            new = _new_memories(rt, batch, seen, new_ids, decode_vectors, results, dry_run=False)
            seen += len(batch)
            rt.store.insert_nodes([(m, None) for m, _ in new])
            rt.store.index_entities_of_new([(m.id, m.entities, m.created_at) for m, _ in new if m.entities])
            for m, vec in new:
                if vec is not None:
                    rt.store.put_vector(m.id, identity, vec, m.content_hash, rt.now_iso())
            new_ids.update(m.id for m, _ in new)
        for edges in edge_batches():
            edges_inserted += _write_edges(rt, edges, new_ids)
        rt.store.log("import", None, {"restored": len(new_ids), "edges": edges_inserted}, rt.now_iso())
    return {"imported": len(new_ids), "updated": 0, "skipped": seen - len(new_ids), "errors": 0,
            "edges_inserted": edges_inserted, "auto_pruned": 0, "auto_pruned_ids": [], "results": results}


def _new_memories(rt: Runtime, batch: list[Any], start: int, restored: set[str], decode_vectors: bool,
                  results: list[dict[str, Any]], *, dry_run: bool) -> list[tuple[Memory, np.ndarray | None]]:
    """The batch's memories that the store does not hold (even forgotten) and the file did not name before."""
    parsed = [_memory(rt, item, start + k) for k, item in enumerate(batch)]
    held = rt.store.node_heads([m.id for m, _ in parsed])
    out: list[tuple[Memory, np.ndarray | None]] = []
    taken: set[str] = set()
    for k, (mem, raw_vector) in enumerate(parsed):
        skip = mem.id in held or mem.id in restored or mem.id in taken
        vec = _decode_vector(raw_vector, start + k) if decode_vectors and not skip else None
        results.append({"index": start + k, "id": mem.id, "content": mem.content,
                        "action": "skipped" if skip else "would_add" if dry_run else "added"})
        if not skip:
            out.append((mem, vec))
            taken.add(mem.id)
    return out


def _write_edges(rt: Runtime, edges: list[Edge], new_ids: set[str]) -> int:
    """Edges whose ends are both live nodes: in bulk when one end was restored just now (such an edge cannot exist
    yet), through `upsert_edge` between two nodes the store already held."""
    ends = {x for e in edges for x in (e.src, e.dst)} - new_ids
    held = {i for i, (_, deleted, _, _) in rt.store.node_heads(list(ends)).items() if not deleted}
    fresh: list[Edge] = []
    known: list[Edge] = []
    for e in edges:
        src_new, dst_new = e.src in new_ids, e.dst in new_ids
        if (src_new or e.src in held) and (dst_new or e.dst in held):
            (fresh if src_new or dst_new else known).append(e)
    rt.store.insert_edges(fresh)
    for e in known:
        rt.store.upsert_edge(e, actor="import", event="restored")
    return len(fresh) + len(known)


# An export file may have been edited by hand: every field is checked, so a bad one is a JSON error, not a crash.
def _memory(rt: Runtime, item: Any, idx: int) -> tuple[Memory, Any]:
    if not isinstance(item, dict):
        raise InvalidInput(f"export insight {idx} must be a JSON object")
    inp = validate_memory(item.get("content"), category=item.get("category", "general"),
                          importance=item.get("importance", 3), tags=item.get("tags"), entities=item.get("entities"),
                          source=item.get("source") or "user", entity_mode="provided",
                          created_at=item.get("created_at"))
    mid = str(item.get("id") or "")
    if not mid:
        raise InvalidInput(f"export insight {idx} has no id")
    now = rt.now_iso()
    mem = Memory(id=mid, content=inp.content, category=inp.category, importance=inp.importance, tags=inp.tags,
                 entities=inp.entities, source=inp.source, created_at=inp.created_at or now,
                 updated_at=_timestamp(item.get("updated_at"), idx) or inp.created_at or now,
                 last_accessed_at=_timestamp(item.get("last_accessed_at"), idx),
                 access_count=_number(item.get("access_count", 0), int, "access_count", idx),
                 effective_importance=_number(item.get("effective_importance", 0.5), float, "effective_importance",
                                              idx),
                 inserted_at=_timestamp(item.get("inserted_at"), idx) or now)
    return mem, item.get("vector")


def _timestamp(value: Any, idx: int) -> str | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"export insight {idx}: timestamps must be RFC 3339 strings")
    try:
        return iso(parse_iso(value))
    except (ValueError, OverflowError):
        raise InvalidInput(f"export insight {idx}: {value!r} is not an RFC 3339 timestamp") from None


def _number(value: Any, kind: type, name: str, idx: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"export insight {idx}: {name} must be a number, got {value!r}")
    out = kind(value)
    if out != out or out < 0:
        raise InvalidInput(f"export insight {idx}: {name} must be a non-negative number, got {value!r}")
    return out


def _decode_vector(value: Any, idx: int) -> np.ndarray | None:
    if not value:
        return None
    try:
        raw = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
    except (binascii.Error, ValueError):
        raw = b""
    if not raw or len(raw) % 4:
        raise InvalidInput(f"export insight {idx}: vector is not base64 of little-endian float32 values")
    import numpy as np

    return np.frombuffer(raw, dtype="<f4")


def _edge(e: Any, k: int, now: str) -> Edge:
    if not isinstance(e, dict):
        raise InvalidInput(f"export edge {k} must be an object")
    src, dst, etype = e.get("source_id"), e.get("target_id"), e.get("edge_type")
    if not (isinstance(src, str) and isinstance(dst, str) and isinstance(etype, str)) or not (src and dst and etype) \
            or src == dst:
        raise InvalidInput(f"export edge {k}: source_id, target_id and edge_type must be non-empty strings "
                           "and source_id must differ from target_id")
    status = e.get("status", "active")
    if status not in EDGE_STATUSES:
        raise InvalidInput(f"export edge {k}: status must be one of {', '.join(EDGE_STATUSES)}")
    meta = e.get("metadata") or {}
    if not isinstance(meta, dict):
        raise InvalidInput(f"export edge {k}: metadata must be an object")
    sub_type, evidence, origin, rule = (e.get("sub_type", ""), e.get("evidence", ""), e.get("origin", "import"),
                                        e.get("rule", ""))
    if not (isinstance(sub_type, str) and isinstance(evidence, str) and isinstance(origin, str)
            and isinstance(rule, str)):
        raise InvalidInput(f"export edge {k}: sub_type, evidence, origin and rule must be strings")
    created = e.get("created_at")
    if created not in (None, "") and not isinstance(created, str):
        raise InvalidInput(f"export edge {k}: created_at must be an RFC 3339 string")
    created = created or now
    return Edge(src, dst, etype, sub_type, validate_weight(e.get("weight", 1.0)),
                validate_weight(e.get("confidence", 1.0)), status, evidence, origin, rule, "", meta,
                created_at=created, updated_at=created)
