"""Bulk import of a JSON draft (mnemon's schema v1) and a lossless export that import restores exactly."""
from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


from ..core.errors import InvalidInput, MnemonError
from ..core.model import EDGE_STATUSES, Edge, Memory, content_hash, iso, parse_iso
from ..core.validation import MemoryInput, validate_edge_type, validate_memory, validate_weight
from .append_batch import FLUSH_EVERY, AppendBatch
from .bulk_gc import paused_gc
from .remember import auto_prune, fts_body, write_memory
from .runtime import Runtime

EXPORT_KIND = "mnemon-export"
SCHEMA_VERSION = "1"
EMBED_BATCH = 64


def _load(doc: Any) -> dict[str, Any]:
    if isinstance(doc, (str, bytes)):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"import file is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if isinstance(doc, list):
        doc = {"insights": doc}
    if not isinstance(doc, dict) or not isinstance(doc.get("insights", []), list):
        raise InvalidInput("import file must be a JSON object with an 'insights' array (schema_version \"1\")")
    version = str(doc.get("schema_version", SCHEMA_VERSION))
    if version != SCHEMA_VERSION:
        raise InvalidInput(f"unsupported schema_version {version!r}; this mnemon reads \"1\"")
    return doc


def import_document(rt: Runtime, raw: Any, *, dry_run: bool = False, no_diff: bool = False) -> dict[str, Any]:
    doc = _load(raw)
    if doc.get("kind") == EXPORT_KIND:
        return _restore(rt, doc, dry_run=dry_run)
    default_source = doc.get("source") or "import"
    results: list[dict[str, Any]] = []
    valid: list[tuple[int, Any]] = []
    errors = 0
    seen_hashes: dict[str, int] = {}
    for idx, item in enumerate(doc.get("insights", [])):
        try:
            if not isinstance(item, dict):
                raise InvalidInput("each insight must be a JSON object")
            inp = validate_memory(item.get("content"), category=item.get("category", "general"),
                                  importance=item.get("importance", 3), tags=item.get("tags"),
                                  entities=item.get("entities"), source=item.get("source") or default_source,
                                  entity_mode=item.get("entity_mode", "merge"), created_at=item.get("created_at"))
        except MnemonError as exc:
            errors += 1
            results.append({"index": idx, "action": "error", "error": exc.to_dict()})
            continue
        digest = content_hash(inp.content)
        if not no_diff:
            existing = rt.store.find_active_by_hash(digest)
            if existing is None and digest in seen_hashes:
                existing = f"#{seen_hashes[digest]}"
            if existing is not None:
                results.append({"index": idx, "id": existing, "content": inp.content, "action": "skipped"})
                continue
        seen_hashes[digest] = idx
        valid.append((idx, inp))
    edge_specs = _edge_specs(doc.get("edges", []), len(doc.get("insights", [])))
    if dry_run:
        for idx, inp in valid:
            results.append({"index": idx, "content": inp.content, "action": "would_add"})
        results.sort(key=lambda r: r["index"])
        return {"dry_run": True, "imported": 0, "would_import": len(valid), "updated": 0,
                "skipped": sum(1 for r in results if r["action"] == "skipped"), "errors": errors,
                "edges_inserted": 0, "edges_planned": len(edge_specs), "auto_pruned": 0, "results": results}

    vectors: dict[int, np.ndarray] = {}
    for start in range(0, len(valid), EMBED_BATCH):
        batch = valid[start : start + EMBED_BATCH]
        rows = rt.embed_documents([inp.content for _, inp in batch])
        if rows is not None:
            vectors.update({idx: rows[k] for k, (idx, _) in enumerate(batch)})
    # undated items are dated now, then everything goes oldest first, so proximity and backbone see history in order
    now = rt.now_iso()
    ordered = sorted(((idx, inp if inp.created_at else replace(inp, created_at=now)) for idx, inp in valid),
                     key=lambda p: (p[1].created_at or "", p[0]))
    id_of: dict[int, str] = {}
    edges_inserted = 0
    pruned: list[str] = []
    with paused_gc(), rt.store.transaction():
        for idx, memory_id in _write_all(rt, ordered, vectors):
            id_of[idx] = memory_id
        results.extend({"index": idx, "id": id_of[idx], "content": inp.content, "action": "added"}
                       for idx, inp in ordered)
        for s_idx, t_idx, etype, weight, reason in edge_specs:
            if s_idx not in id_of or t_idx not in id_of:
                continue
            meta = {"created_by": "import", **({"reason": reason} if reason else {})}
            pairs = [(id_of[s_idx], id_of[t_idx])]
            if etype not in ("supersedes", "causal"):
                pairs.append((id_of[t_idx], id_of[s_idx]))
            for a, b in pairs:
                rt.store.upsert_edge(Edge(a, b, etype, "causes" if etype == "causal" else "", weight, origin="import",
                                          metadata=meta, created_at=now, rule="import"), actor="import")
                edges_inserted += 1
        pruned = auto_prune(rt, protect=tuple(id_of.values()))
        rt.store.log("import", None, {"imported": len(id_of), "errors": errors}, now)
    for r in results:
        if r["action"] == "skipped" and str(r.get("id", "")).startswith("#"):
            r["id"] = id_of.get(int(r["id"][1:]), r["id"])
    results.sort(key=lambda r: r["index"])
    return {"imported": len(id_of), "updated": 0, "skipped": sum(1 for r in results if r["action"] == "skipped"),
            "errors": errors, "edges_inserted": edges_inserted, "auto_pruned": len(pruned),
            "auto_pruned_ids": pruned, "embedded": len(vectors), "results": results}


def _write_all(rt: Runtime, ordered: list[tuple[int, MemoryInput]], vectors: dict[int, np.ndarray]
               ) -> Iterator[tuple[int, str]]:
    """Write every memory with the rules of `remember`; a batch without vectors that only appends to history
    goes through `AppendBatch` (same graph, bulk statements), anything else one memory at a time."""
    if vectors or not AppendBatch.applies(rt.store, (inp.created_at or "" for _, inp in ordered)):
        for idx, inp in ordered:
            yield idx, write_memory(rt, inp, vectors.get(idx), prune=False, origin="import").memory.id
        return
    batch = AppendBatch(rt.store)
    batch_rt = replace(rt, store=batch)  # type: ignore[arg-type]  # answers every question write_memory asks
    for idx, inp in ordered:
        yield idx, write_memory(batch_rt, inp, None, prune=False, origin="import").memory.id
        if batch.pending >= FLUSH_EVERY:
            batch.flush()
    batch.flush()


def _edge_specs(edges: Any, n: int) -> list[tuple[int, int, str, float, str]]:
    if not isinstance(edges, list):
        raise InvalidInput("'edges' must be an array")
    out = []
    for k, e in enumerate(edges):
        if not isinstance(e, dict):
            raise InvalidInput(f"edge {k} must be an object")
        s, t = e.get("source_index"), e.get("target_index")
        if (not isinstance(s, int) or not isinstance(t, int) or isinstance(s, bool) or isinstance(t, bool)
                or not (0 <= s < n and 0 <= t < n) or s == t):
            raise InvalidInput(f"edge {k}: source_index/target_index must name two different insights (0..{n - 1})")
        out.append((s, t, validate_edge_type(e.get("edge_type")), validate_weight(e.get("weight", 0.5)),
                    str(e.get("reason") or "")))
    return out


def export_document(rt: Runtime, *, include_vectors: bool = True) -> dict[str, Any]:
    memories = list(rt.store.iter_nodes())
    ids = {m.id for m in memories}
    vectors: dict[str, str] = {}
    if include_vectors and rt.vectors_enabled:
        vid, mat = rt.store.load_vectors(rt.provider.identity())
        import numpy as np

        vectors = {i: base64.b64encode(np.ascontiguousarray(mat[k], dtype="<f4").tobytes()).decode()
                   for k, i in enumerate(vid) if i in ids}
    edges = [e for e in rt.store.iter_edges(statuses=("active", "candidate")) if e.src in ids and e.dst in ids]
    return {
        "kind": EXPORT_KIND, "schema_version": SCHEMA_VERSION, "exported_at": rt.now_iso(),
        "provider": rt.provider.identity() if vectors else None,
        "insights": [{**m.to_dict(), "inserted_at": m.inserted_at,
                      **({"vector": vectors[m.id]} if m.id in vectors else {})} for m in memories],
        "edges": [{"source_id": e.src, "target_id": e.dst, "edge_type": e.type, "sub_type": e.sub_type,
                   "weight": e.weight, "confidence": e.confidence, "status": e.status, "origin": e.origin,
                   "evidence": e.evidence, "rule": e.rule, "metadata": e.metadata, "created_at": e.created_at}
                  for e in edges],
    }


def _restore(rt: Runtime, doc: dict[str, Any], *, dry_run: bool) -> dict[str, Any]:
    """Restore an export exactly: same ids, timestamps and edges; no automatic edges are grown."""
    items = doc.get("insights", [])
    provider = doc.get("provider")
    results = []
    new: list[tuple[Memory, np.ndarray | None]] = []
    for idx, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidInput(f"export insight {idx} must be a JSON object")
        inp = validate_memory(item.get("content"), category=item.get("category", "general"),
                              importance=item.get("importance", 3), tags=item.get("tags"),
                              entities=item.get("entities"), source=item.get("source") or "user",
                              entity_mode="provided", created_at=item.get("created_at"))
        mid = str(item.get("id") or "")
        if not mid:
            raise InvalidInput(f"export insight {idx} has no id")
        if rt.store.get_node(mid, include_deleted=True) is not None:
            results.append({"index": idx, "id": mid, "content": inp.content, "action": "skipped"})
            continue
        vec = _decode_vector(item.get("vector"), idx) if provider == rt.provider.identity() else None
        mem = Memory(id=mid, content=inp.content, category=inp.category, importance=inp.importance, tags=inp.tags,
                     entities=inp.entities, source=inp.source, created_at=inp.created_at or rt.now_iso(),
                     updated_at=_timestamp(item.get("updated_at"), idx) or inp.created_at or rt.now_iso(),
                     last_accessed_at=_timestamp(item.get("last_accessed_at"), idx),
                     access_count=_number(item.get("access_count", 0), int, "access_count", idx),
                     effective_importance=_number(item.get("effective_importance", 0.5), float,
                                                  "effective_importance", idx),
                     inserted_at=_timestamp(item.get("inserted_at"), idx) or rt.now_iso())
        new.append((mem, vec))
        results.append({"index": idx, "id": mid, "content": inp.content, "action": "would_add" if dry_run else "added"})
    edges = _restore_edges(doc.get("edges", []))
    if dry_run:
        return {"dry_run": True, "imported": 0, "would_import": len(new), "updated": 0,
                "skipped": len(items) - len(new), "errors": 0, "edges_inserted": 0, "edges_planned": len(edges),
                "auto_pruned": 0, "results": results}
    inserted = 0
    with rt.store.transaction():
        for mem, vec in new:
            rt.store.insert_node(mem, fts_body(mem.content))
            if mem.entities:
                rt.store.index_entities(mem.id, mem.entities, mem.created_at)
            if vec is not None:
                rt.store.put_vector(mem.id, rt.provider.identity(), vec, mem.content_hash, rt.now_iso())
        for e in edges:
            if rt.store.get_node(e.src) is None or rt.store.get_node(e.dst) is None:
                continue
            created = e.created_at or rt.now_iso()
            rt.store.upsert_edge(replace(e, created_at=created, updated_at=created), actor="import", event="restored")
            inserted += 1
        rt.store.log("import", None, {"restored": len(new), "edges": inserted}, rt.now_iso())
    return {"imported": len(new), "updated": 0, "skipped": len(items) - len(new), "errors": 0,
            "edges_inserted": inserted, "auto_pruned": 0, "auto_pruned_ids": [], "results": results}


# An export file may have been edited by hand: every field is checked, so a bad one is a JSON error, not a crash.
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


def _restore_edges(raw: Any) -> list[Edge]:
    if not isinstance(raw, list):
        raise InvalidInput("'edges' must be an array")
    out: list[Edge] = []
    for k, e in enumerate(raw):
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
        texts = {name: e.get(name, default) for name, default in
                 (("sub_type", ""), ("evidence", ""), ("origin", "import"), ("rule", ""))}
        if not all(isinstance(v, str) for v in texts.values()):
            raise InvalidInput(f"export edge {k}: sub_type, evidence, origin and rule must be strings")
        created = e.get("created_at")
        if created not in (None, "") and not isinstance(created, str):
            raise InvalidInput(f"export edge {k}: created_at must be an RFC 3339 string")
        out.append(Edge(src, dst, etype, texts["sub_type"], validate_weight(e.get("weight", 1.0)),
                        validate_weight(e.get("confidence", 1.0)), status, texts["evidence"], texts["origin"],
                        texts["rule"], "", meta, created_at=created or ""))
    return out
