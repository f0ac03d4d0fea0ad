"""Bulk import of a JSON draft (mnemon's schema v1); an export file is handed to `backup.restore`.

A document arrives as text, parsed JSON, or a text stream (the CLI's file): a stream is read member by member
(`ports/json_stream.py`), so restoring a large export never holds the whole file.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import numpy as np


from ..core import graph_rules
from ..core.errors import InvalidInput, MnemonError
from ..core.model import Edge, content_hash
from ..core.validation import (MemoryInput, refuse_future, refuse_vault_source, validate_edge_type, validate_memory,
                               validate_weight)
from ..ports.json_stream import CHUNK, ObjectStream, ends_cut, not_json
from . import backup, import_pipeline
from .append_batch import FLUSH_EVERY, AppendBatch
from .backup import EXPORT_KIND, READABLE_VERSIONS
from .bulk_gc import paused_gc
from .import_report import bounded, refused_said
from .remember import auto_prune, prune_plan, write_memory
from .runtime import Runtime
from .unread_fields import UnreadFields

EMBED_BATCH = 64
DRAFT_VERSION = "1"  # the draft format; an export has its own versions (backup.READABLE_VERSIONS)


def _load(doc: Any) -> dict[str, Any]:
    if isinstance(doc, (str, bytes)):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise not_json(exc.msg, exc.lineno, cut=ends_cut(exc.doc, exc.pos, exc.msg)) from None
    if isinstance(doc, list):
        doc = {"insights": doc}
    # a missing array is refused like a wrong one: `{"memories": [...]}` used to import nothing and exit 0
    if not isinstance(doc, dict) or not isinstance(doc.get("insights"), list):
        raise InvalidInput("import file must be a JSON object with an 'insights' array (schema_version \"1\")"
                           + (f"; it has {', '.join(sorted(map(str, doc))[:5])}" if isinstance(doc, dict) else ""))
    _check_version(doc)
    return doc


def _check_version(doc: dict[str, Any]) -> None:
    """A draft is schema "1"; an export is any version this mnemon writes or wrote (`backup.READABLE_VERSIONS`)."""
    readable = READABLE_VERSIONS if doc.get("kind") == EXPORT_KIND else (DRAFT_VERSION,)
    version = str(doc.get("schema_version", DRAFT_VERSION))
    if version not in readable:
        raise InvalidInput(f"unsupported schema_version {version!r}; this mnemon reads "
                           + " and ".join(f'"{v}"' for v in readable))


def _import_stream(rt: Runtime, stream: TextIO, *, dry_run: bool, no_diff: bool, revive_forgotten: bool,
                   full_report: bool) -> dict[str, Any]:
    """A document read from a stream: an export is restored as its insights and edges go by; a draft (or an
    export whose `kind` comes after its insights) is read whole and imported as text would be."""
    def read(n: int) -> str:
        try:
            return stream.read(n)
        except UnicodeDecodeError:
            raise InvalidInput("import file is not UTF-8 text") from None

    first = read(CHUNK)
    if first.lstrip().startswith("["):  # a bare array of insights
        return import_document(rt, first + read(-1), dry_run=dry_run, no_diff=no_diff,
                               revive_forgotten=revive_forgotten, full_report=full_report)
    pending = [first]

    def source(n: int) -> str:
        return pending.pop() if pending else read(n)

    members = ObjectStream(source, backup.STREAMED_MEMBERS).members()
    doc: dict[str, Any] = {}
    for key, value in members:
        if key == "insights" and doc.get("kind") == EXPORT_KIND:
            _check_version(doc)
            _refuse_no_diff(no_diff)
            return backup.restore(rt, doc, value, members, dry_run=dry_run, revive_forgotten=revive_forgotten,
                                  full_report=full_report)
        doc[key] = list(value) if isinstance(value, Iterator) else value
    return import_document(rt, doc, dry_run=dry_run, no_diff=no_diff, revive_forgotten=revive_forgotten,
                           full_report=full_report)


def _refuse_no_diff(no_diff: bool) -> None:
    """--no-diff on an export: a restore keeps the file's ids and never runs the duplicate check, so the flag changed
    nothing (a memory whose text the store holds under another id is still skipped), without a word."""
    if no_diff:
        raise InvalidInput("--no-diff applies to a draft: a `mnemon export` file is restored by id, without the "
                           "duplicate check; drop --no-diff")


def import_document(rt: Runtime, raw: Any, *, dry_run: bool = False, no_diff: bool = False,
                    revive_forgotten: bool = False, full_report: bool = False) -> dict[str, Any]:
    """Import a draft, or restore a `mnemon export` file (`revive_forgotten`: also bring back the memories it holds
    that this store has forgotten since; a draft's memories have no ids to match, so it refuses the option).
    `full_report`: each row of `results` with its text, every refused row in full (`import_report.bounded`)."""
    if hasattr(raw, "read"):
        return _import_stream(rt, raw, dry_run=dry_run, no_diff=no_diff, revive_forgotten=revive_forgotten,
                              full_report=full_report)
    doc = _load(raw)
    if doc.get("kind") == EXPORT_KIND:
        _refuse_no_diff(no_diff)
        return backup.restore(rt, doc, doc.get("insights", []),
                              iter([(key, doc.get(key, [])) for key in ("edges", "vault_edges")]),
                              dry_run=dry_run, revive_forgotten=revive_forgotten, full_report=full_report)
    if revive_forgotten:
        raise InvalidInput("--revive-forgotten applies to a `mnemon export` file: a draft's memories have no ids to "
                           "match forgotten ones with")
    # in the reply, not yet the call's warnings: a draft refused whole carries them in its details, no later reply
    unread = {"warnings": found} if (found := unknown_fields(doc)) else {}
    default_source = doc.get("source") or "import"
    results: list[dict[str, Any]] = []
    valid: list[tuple[int, Any]] = []
    errors = 0
    checked: list[tuple[int, Any, str]] = []
    clock_now = rt.now()
    for idx, item in enumerate(doc.get("insights", [])):
        try:
            if not isinstance(item, dict):
                raise InvalidInput("each insight must be a JSON object")
            inp = validate_memory(item.get("content"), category=_given(item, "category", "general"),
                                  importance=_given(item, "importance", 3), tags=item.get("tags"),
                                  entities=item.get("entities"), source=item.get("source") or default_source,
                                  entity_mode=_given(item, "entity_mode", "merge"), created_at=item.get("created_at"))
            refuse_vault_source(refuse_future(inp, clock_now))
        except MnemonError as exc:
            errors += 1
            results.append({"index": idx, "action": "error", "error": exc.to_dict()})
            continue
        checked.append((idx, inp, content_hash(inp.content)))
    stored = {} if no_diff else rt.store.find_active_by_hashes(d for _, _, d in checked)  # one query per 500
    seen_hashes: dict[str, int] = {}
    stored_ids: dict[int, str] = {}  # item index → the stored memory that already holds its text
    repeats: dict[int, int] = {}  # item index → the earlier item of the same text
    for idx, inp, digest in checked:
        if not no_diff:
            existing = stored.get(digest)
            if existing is not None:
                stored_ids[idx] = existing
            elif digest in seen_hashes:
                existing = f"#{seen_hashes[digest]}"
                repeats[idx] = seen_hashes[digest]
            if existing is not None:
                results.append({"index": idx, "id": existing, "content": inp.content, "action": "skipped"})
                continue
        seen_hashes[digest] = idx
        valid.append((idx, inp))
    edge_specs = _edge_specs(doc.get("edges") or [], len(doc.get("insights", [])))
    if dry_run:
        for idx, inp in valid:
            results.append({"index": idx, "content": inp.content, "action": "would_add"})
        results.sort(key=lambda r: r["index"])
        # the edges the import would skip, for the same reasons (an item that would be added stands in as "#index")
        planned = {**stored_ids, **{idx: f"#{idx}" for idx, _ in valid}}
        planned.update({idx: planned[first] for idx, first in repeats.items() if first in planned})
        would_skip = _edge_skips(rt, edge_specs, planned, {f"#{idx}" for idx, _ in valid})
        # what the real run's auto-prune would soft-delete to make room: a dry run answering 0 there, then a run
        # taking three stored memories, hid the only loss the import causes
        would_prune = [i for i, _ei in prune_plan(rt, tuple(sorted(set(stored_ids.values()))), adding=len(valid))]
        backup.warn_over_cap(rt, adding=len(valid) - len(would_prune), dry_run=True)
        return {"dry_run": True, "imported": 0, "would_import": len(valid), "updated": 0,
                "skipped": sum(1 for r in results if r["action"] == "skipped"), "errors": errors,
                "edges_inserted": 0, "edges_planned": len(edge_specs) - len(would_skip),
                "edges_skipped": len(would_skip), "edge_results": would_skip, "auto_pruned": 0,
                "auto_pruned_ids": [], "would_auto_prune": len(would_prune), "would_auto_prune_ids": would_prune,
                **bounded(results, full=full_report), **unread}

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
    edge_results: list[dict[str, Any]] = []
    pruned: list[str] = []
    stored_meanwhile: dict[int, str] = {}
    if vectors:
        # mapped now, outside the transaction (inside it the saved copy cannot be trusted): the writes' searches
        # read every vector from the store otherwise, and close saved the matrix whole under a new token, dropping
        # a large store's approximate index after every import
        rt.index.follow_saved()
    with paused_gc(), rt.store.bulk_transaction():
        if not no_diff:
            # the check above ran before the write lock: another writer (a second `import` of the same draft) may
            # have stored these since, and each would be stored twice; asked again here, as `remember` does
            stored_meanwhile = _stored_meanwhile(rt, ordered)
            ordered = [(idx, inp) for idx, inp in ordered if idx not in stored_meanwhile]
            results.extend({"index": idx, "id": stored_meanwhile[idx], "content": inp.content, "action": "skipped"}
                           for idx, inp in valid if idx in stored_meanwhile)
        for idx, memory_id in _write_all(rt, ordered, vectors):
            id_of[idx] = memory_id
        results.extend({"index": idx, "id": id_of[idx], "content": inp.content, "action": "added"}
                       for idx, inp in ordered)
        # an item skipped as an exact repeat is the memory that holds its text: the draft's edges to it link there
        # (a "new supersedes old" whose old fact was already stored used to vanish without a word)
        ends = {**stored_ids, **stored_meanwhile, **id_of}
        ends.update({idx: ends[first] for idx, first in repeats.items() if first in ends})
        fresh = set(id_of.values())
        for k, (s_idx, t_idx, etype, weight, reason) in enumerate(edge_specs):
            src, dst = ends.get(s_idx), ends.get(t_idx)
            why = _edge_not_written(rt, src, dst, etype, fresh)
            if why or src is None or dst is None:
                edge_results.append({"index": k, "source_index": s_idx, "target_index": t_idx, "edge_type": etype,
                                     "action": "skipped", "reason": why})
                continue
            meta = {"created_by": "import", **({"reason": reason} if reason else {})}
            pairs = [(src, dst)]
            if etype not in ("supersedes", "causal"):
                pairs.append((dst, src))
            for a, b in pairs:
                rt.store.upsert_edge(Edge(a, b, etype, "causes" if etype == "causal" else "", weight, origin="import",
                                          metadata=meta, created_at=now, rule="import"), actor="import")
                edges_inserted += 1
        # the stored memories the draft repeats are named by it too: not the ones to prune for its sake
        pruned = auto_prune(rt, protect=tuple(sorted(set(ends.values()))))
        rt.store.log("import", None, {"imported": len(id_of), "errors": errors}, now)
    for r in results:
        if r["action"] == "skipped" and str(r.get("id", "")).startswith("#"):
            first = int(r["id"][1:])
            r["id"] = id_of.get(first) or stored_meanwhile.get(first, r["id"])
    results.sort(key=lambda r: r["index"])
    backup.warn_over_cap(rt)
    return {"imported": len(id_of), "updated": 0, "skipped": sum(1 for r in results if r["action"] == "skipped"),
            "errors": errors, "edges_inserted": edges_inserted, "edges_skipped": len(edge_results),
            "edge_results": edge_results, "auto_pruned": len(pruned),
            "auto_pruned_ids": pruned, "embedded": sum(1 for idx in vectors if idx in id_of),
            **bounded(results, full=full_report),
            **unread}


# what an import reply counts as having landed in the store (or, in a dry run, would): a row stored, revived, already
# there (skipped), an edge or a decision restored
_LANDED = ("imported", "would_import", "revived", "would_revive", "updated", "skipped", "edges_inserted",
           "edges_planned", "edges_revived", "decisions_restored")


def refuse_if_nothing_landed(reply: dict[str, Any]) -> None:
    """An import whose every row failed is an error, the reply in its details: it exited 0 with `errors: 2`, and
    `mnemon import backup.json && rm backup.json` deleted a backup nothing of which was imported. A partial import
    (some rows in, some refused) is still a reply, its `errors` counting the refused."""
    world = reply.get("world") or {}
    landed = sum(int(reply.get(key) or 0) for key in _LANDED) + sum(
        int(part.get("restored") or 0) + int(part.get("skipped") or 0) for part in world.values()
        if isinstance(part, dict))
    if reply.get("errors") and not landed:
        would = "would be" if reply.get("dry_run") else "was"
        raise InvalidInput(f"nothing {would} imported: all {reply['errors']} rows were refused"
                           f" ({refused_said(reply)})", **reply)


# what a draft's parts are read for; any other member is not applied (`unknown_fields` says so)
_DRAFT_MEMBERS = ("schema_version", "kind", "source", "insights", "edges")
_ITEM_FIELDS = ("content", "category", "importance", "tags", "entities", "source", "entity_mode", "created_at")
_EDGE_FIELDS = ("source_index", "target_index", "edge_type", "weight", "reason")


def unknown_fields(doc: dict[str, Any]) -> list[str]:
    """A warning for each member of the draft, or field of its insights and edges, that the import does not read: a
    hand-edited `"importanc": 5` was imported at importance 3 and an `"edge": [...]` array dropped, without a word."""
    top = UnreadFields("the draft", _DRAFT_MEMBERS)
    top.note(0, doc)
    out = top.warnings("a draft", whole=True)
    for name, fields in (("insights", _ITEM_FIELDS), ("edges", _EDGE_FIELDS)):
        part = UnreadFields(name[:-1], fields)
        rows = doc.get(name)
        for k, row in enumerate(rows if isinstance(rows, list) else []):
            part.note(k, row)
        out += part.warnings("a draft")
    return out


def _given(item: dict[str, Any], key: str, default: Any) -> Any:
    """An item's value for `key`, its default when absent or null: a tool that writes every field, unset ones as
    null (as `export` does), made each such item an error while a null tag list or source was read as absent."""
    value = item.get(key)
    return default if value is None else value


def _edge_skips(rt: Runtime, specs: list[tuple[int, int, str, float, str]], ends: dict[int, str],
                fresh: set[str]) -> list[dict[str, Any]]:
    """What a dry run says of the draft's edges the import would not write, and why (`ends`: item index → the
    memory it is, or will be)."""
    out: list[dict[str, Any]] = []
    written: set[tuple[str, str, str]] = set()  # what the import writes before it reaches a later edge
    for k, (s_idx, t_idx, etype, _weight, _reason) in enumerate(specs):
        src, dst = ends.get(s_idx), ends.get(t_idx)
        why = _edge_not_written(rt, src, dst, etype, fresh)
        if not why and src is not None and dst is not None:
            if (src, dst, etype) in written and src not in fresh and dst not in fresh:
                why = "exists"
            written.update({(src, dst, etype)} | ({(dst, src, etype)} if etype not in ("supersedes", "causal")
                                                  else set()))
        if why:
            out.append({"index": k, "source_index": s_idx, "target_index": t_idx, "edge_type": etype,
                        "action": "skipped", "reason": why})
    return out


def _edge_not_written(rt: Runtime, src: str | None, dst: str | None, etype: str, fresh: set[str]) -> str:
    """Why a draft's edge is not written ('' when it is): an end that was not imported, or both ends the same memory
    (two items of one text). Between two memories the store held before, an edge of the type it already has stays
    the store's — a draft sent again must not overwrite a weight or status decided since (a kill included)."""
    if src is None or dst is None:
        return "an end was not imported (see its result)"
    if src == dst:
        return "both ends are the same memory (items of one text)"
    if src not in fresh and dst not in fresh:
        held = rt.store.find_edge(src, dst, etype)
        if held is not None and held.status != "retired":
            return "exists"
    return ""


def _stored_meanwhile(rt: Runtime, ordered: list[tuple[int, MemoryInput]]) -> dict[int, str]:
    """Index → id of the items an active memory of the same text now holds. Call inside the write transaction."""
    digests = {idx: content_hash(inp.content) for idx, inp in ordered}
    stored = rt.store.find_active_by_hashes(digests.values())
    return {idx: stored[d] for idx, d in digests.items() if d in stored}


def _write_all(rt: Runtime, ordered: list[tuple[int, MemoryInput]], vectors: dict[int, np.ndarray]
               ) -> Iterator[tuple[int, str]]:
    """Write every memory with the rules of `remember`; a batch that only appends to history goes through
    `AppendBatch` (same graph, bulk statements) — a large one without vectors with its rules in a second process —
    anything else one memory at a time."""
    if not AppendBatch.applies(rt.store, (inp.created_at or "" for _, inp in ordered)):
        for idx, inp in ordered:
            yield idx, write_memory(rt, inp, vectors.get(idx), prune=False, origin="import").memory.id
        return
    if vectors:
        # in this process: each write's vector search reads this process's index, which holds every row written
        # before it (`note_write`); the rows reach the store at each flush, and the index keeps its matrix
        from ..ports.vector_index import SearchAhead  # (numpy: only an import with vectors loads it)

        index = rt.index
        # each search as `write_memory` would make it, its candidates from one matrix product per block of writes
        ahead = SearchAhead(index, [vectors.get(idx) for idx, _ in ordered], graph_rules.SEMANTIC_TOP)
        batch = AppendBatch(rt.store)
        batch_rt = replace(rt, store=batch)  # type: ignore[arg-type]

        def flush() -> None:
            generation = rt.store.vector_generation()
            batch.flush()
            index.note_writes({}, generation)  # the rows it already holds, now stored: not a reason to reload

        for p, (idx, inp) in enumerate(ordered):
            vector = vectors.get(idx)
            nearest = ahead.search(p) if vector is not None else None
            yield idx, write_memory(batch_rt, inp, vector, prune=False, origin="import", nearest=nearest).memory.id
            if batch.pending >= FLUSH_EVERY:
                flush()
        flush()
        return
    snapshot = import_pipeline.snapshot_for(rt, len(ordered))
    piped = import_pipeline.write_all(rt, ordered, snapshot) if snapshot is not None else None
    if piped is not None:
        # a large batch: the rules run in a second process while this one writes (same graph, two cores)
        yield from piped
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
        try:
            etype, weight = validate_edge_type(e.get("edge_type")), validate_weight(_given(e, "weight", 0.5))
        except InvalidInput as exc:  # the draft is refused whole: say which of its edges made it so
            raise InvalidInput(f"edge {k}: {exc.message}", index=k) from None
        out.append((s, t, etype, weight, str(e.get("reason") or "")))
    return out
