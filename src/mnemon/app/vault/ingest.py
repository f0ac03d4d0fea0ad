"""`ingest --vault DIR`: Markdown notes → nodes, memories and gated edges in the one store, incrementally.

Rebuild semantics as Mneme (stale rows of changed or removed files disappear), but only files whose content changed
are re-parsed: a file whose size and mtime match the last ingest is trusted, any other file is read and compared by
SHA-256. Phases, all in one transaction so a crash leaves the previous graph intact:

1. per batch of changed notes (parsed by worker processes meanwhile): their note nodes, then per note: drop its
   non-surviving ingest edges and stale derived rows, write the new rows and the edges whose target is known;
2. once every note's name is known: resolve and write the links (they may point at any note);
3. when the set of note names changed, re-resolve every parsed link (placeholders join their note, links to a
   removed note fall back to a placeholder) — Mneme never joined `[[Target]]` to `target.md`;
4. remove deleted notes; drop shared date/email/tag/placeholder nodes nothing points at any more.

Killed tombstones and validated active edges survive (`core.vault.survives_rebuild`); an endpoint they need is
soft-deleted instead of removed, and revived with the same id if the text comes back. World tables are never touched.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import InvalidInput, NotFound
from ...core.model import Edge, Memory
from ...core.ontology import DEFAULT_ONTOLOGY
from ...core.vault import LinkIndex, NoteIdentity, note_keys, survives_rebuild
from ...core.vault.observations import DEFAULT_HINTS
from ...core.vault.proactive import PROACTIVE_STATE, proactive_key, stemmed_hints
from ...ports.store.edge_rows import NOTE_PATH
from ...ports.store.vault_files_sqlite import VaultFile
from ..runtime import Runtime
from ..bulk_gc import paused_gc
from .contained import Containment
from .plan import PLAN_VERSION, NotePlan, PlannedEdge, PlannedNode, note_id, plan_batch, world_senses

MODES = ("rebuild", "update", "append")
SKIP_DIRS = frozenset({".git", "node_modules", ".obsidian", ".trash"})
SHARED_KINDS = ("date", "email", "tag", "placeholder")
VAULT_SOURCE = "vault"
POOL_MIN_FILES = 400  # below this a process pool costs more than it saves
BATCH_FILES = 100
# the last notes go in batches this small: after the workers' last plan, only its batch is left for the writer
# while a core idles, and a whole batch there was ~0.3 s of a 2,000-note cold ingest
TAIL_BATCH_FILES = 25
LINK_INDEX_STATE = "link_index"
GC_TARGETED_MAX = 50  # changed notes up to which garbage collection checks only the nodes this run released
BULK_MIN_NOTES = 500  # a first ingest this large suspends secondary indexes (`SQLiteVault.bulk_load`) ...
BULK_ROWS_PER_NOTE = 10  # ... unless the store already holds more rows than ~this many per incoming note

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class VaultEntry:
    rel: str
    absolute: str
    size: int
    mtime: float


@dataclass
class _EdgeView:
    """`core.vault.EdgeLike` over a stored edge."""

    edge: Edge

    @property
    def id(self) -> str:
        return str(self.edge.id)

    @property
    def relation(self) -> str:
        return self.edge.type

    @property
    def status(self) -> str:
        return self.edge.status

    @property
    def confidence(self) -> float:
        return self.edge.confidence

    @property
    def evidence(self) -> str | None:
        return self.edge.evidence

    @property
    def validated(self) -> bool:
        return bool(self.edge.metadata.get("validated"))

    @property
    def origin(self) -> str:
        return self.edge.origin


@dataclass(frozen=True)
class _IngestEdge:
    """`core.vault.EdgeLike` over what `clear_notes` reads of an edge ingest wrote (`vault.edge_values_from`)."""

    status: str
    validated: bool
    origin: str = "ingest"
    id: str = ""
    relation: str = ""
    confidence: float = 0.0
    evidence: str | None = None


def _inside(root: str, path: str) -> bool:
    try:
        return os.path.commonpath([root, path]) == root
    except ValueError:
        return False


def walk_vault(vault: str | Path, *, follow_symlinks: bool = False) -> tuple[str, list[VaultEntry], list[dict[str, str]]]:
    """Every Markdown file under `vault`, sorted by vault-relative path, plus what was skipped and why.

    Symlinks (files or folders) are skipped unless `follow_symlinks`, and even then only when their target resolves
    inside the vault: a link must never make ingestion read a file outside it.
    """
    root_path = Path(vault).expanduser()
    if not root_path.is_dir():
        raise NotFound(f"vault directory {vault} does not exist or is not a directory", vault=str(vault))
    root = os.path.realpath(root_path)
    entries: list[VaultEntry] = []
    skipped: list[dict[str, str]] = []
    seen_dirs: set[str] = set()
    prefix_len = len(root.rstrip(os.sep)) + 1
    pending = [root]
    while pending:
        current = pending.pop()
        real_current = os.path.realpath(current)
        if real_current in seen_dirs or not _inside(root, real_current):
            continue
        seen_dirs.add(real_current)
        try:
            listing = list(os.scandir(current))
        except OSError:
            continue
        # one scandir per folder: the entry knows whether it is a link or a folder without a syscall per file
        for entry in listing:
            rel = entry.path[prefix_len:].replace(os.sep, "/")
            link = entry.is_symlink()
            if entry.is_dir():
                if entry.name in SKIP_DIRS or entry.name.startswith("."):
                    continue
                if link and not follow_symlinks:
                    skipped.append({"path": rel, "reason": "symlink"})
                elif link and not _inside(root, os.path.realpath(entry.path)):
                    skipped.append({"path": rel, "reason": "symlink_outside_vault"})
                else:
                    pending.append(entry.path)
                continue
            if not entry.name.lower().endswith(".md"):
                continue
            if link:
                if not follow_symlinks:
                    skipped.append({"path": rel, "reason": "symlink"})
                    continue
                real = os.path.realpath(entry.path)
                if not _inside(root, real) or not os.path.isfile(real):
                    skipped.append({"path": rel, "reason": "symlink_outside_vault"})
                    continue
            try:
                st = entry.stat()
            except OSError:
                skipped.append({"path": rel, "reason": "unreadable"})
                continue
            if st.st_size == 0:
                skipped.append({"path": rel, "reason": "empty"})
                continue
            entries.append(VaultEntry(rel, entry.path, st.st_size, st.st_mtime))
    skipped.sort(key=lambda s: s["path"])
    entries.sort(key=lambda e: e.rel)
    return root, entries, skipped


def _plan_batches(items: list[tuple[str, bytes, float]], hints: tuple[str, ...],
                  workers: int | None) -> Iterator[list[NotePlan]]:
    """Plans in vault order, one batch at a time, so the caller writes a batch while the workers parse the next.

    Pool tasks are submitted here, before the caller opens its write transaction: the workers fork from a process
    that holds no SQLite lock, and the cores parse while the main process writes."""
    total = len(items)
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    batches = [items[i : i + size] for i, size in _batch_bounds(total)]
    if n_workers > 1 and total >= POOL_MIN_FILES:
        world_senses()  # imported once here rather than in each worker after the fork
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:
            context = None
        if context is not None:
            pool = ProcessPoolExecutor(max_workers=n_workers, mp_context=context)
            futures = [pool.submit(plan_batch, batch, hints) for batch in batches]

            def collect() -> Iterator[list[NotePlan]]:
                try:
                    for future in futures:
                        yield future.result()
                finally:
                    pool.shutdown(cancel_futures=True)
            return collect()
    return (plan_batch(batch, hints) for batch in batches)


def _batch_bounds(total: int) -> list[tuple[int, int]]:
    """(start, size) of each batch: `BATCH_FILES` notes, the last `2 * BATCH_FILES` by `TAIL_BATCH_FILES`. The
    same whoever plans them: a batch's rows take the next seqs, so the bounds decide the ids a store gets."""
    tail_from, tail = max(0, total - 2 * BATCH_FILES), min(TAIL_BATCH_FILES, BATCH_FILES)
    bounds = [(i, min(BATCH_FILES, tail_from - i)) for i in range(0, tail_from, BATCH_FILES)]
    return bounds + [(i, tail) for i in range(tail_from, total, tail)]


def _derived_row(node: PlannedNode, source: str, now: str) -> tuple[Any, ...]:
    """The `node_row` of a planned memory or heading (see `ports.store.vault_sqlite.node_row`)."""
    return (node.id, node.kind, node.title, node.content, node.content_hash, node.category, node.importance, "[]",
            "[]", source, now, now, 0.5, node.metadata, now, node.proactive)


def _note_node(plan: NotePlan, now: str) -> Memory:
    return Memory(id=plan.note_id, kind="note", title=plan.title, content="", category="context", importance=3,
                  tags=plan.tags, source=f"vault:{plan.path}", created_at=now, updated_at=now, inserted_at=now,
                  metadata={"path": plan.path, "type": plan.note_type, "aliases": list(plan.aliases),
                            "tags": list(plan.tags), "content_hash": plan.content_hash})


def _shared_node(node_id: str, now: str) -> Memory:
    kind, _, name = node_id.partition(":")
    return Memory(id=node_id, kind=kind, title=name, content="", source=VAULT_SOURCE, created_at=now, updated_at=now,
                  inserted_at=now)


class _Writer:
    """The write phases of one ingest, sharing counters and the link index."""

    def __init__(self, rt: Runtime, index: LinkIndex | None, now: str) -> None:
        self.rt = rt
        self.vault = rt.store.vault  # type: ignore[attr-defined]
        self.index = index
        self.now = now
        self.edges_added = 0
        self.blocked: list[int] = []
        self.preserved_killed = 0
        self.preserved_active = 0
        self.new_memory_ids: list[str] = []
        self.observations_added = 0  # bullet and task rows that did not exist (or were deleted) before this run
        self.placeholders: set[str] = set()
        self.released: set[str] = set()  # shared nodes that lost an edge in this run: the only possible new orphans
        self.ensured: set[str] = set()  # shared nodes this run made sure exist (none is deleted before it ends)
        # a store that never held a note, section or heading row cannot hold one with the ids this run writes, nor
        # an edge from one: a first ingest then skips the existence lookups (55k ids for 2,000 notes). Read inside
        # the write transaction (`ingest_vault`); until then assume rows exist.
        self.had_vault_rows = True
        self.reusable: dict[tuple[str, str, str], int] = {}  # (src, dst, type) → id of an edge a rebuild may keep
        # every edge from the nodes `clear_notes` cleared, as `edge_values_by_keys` gives it: `write_edges` finds
        # the edges it would duplicate here instead of reading the same rows again
        self.cleared_srcs: set[str] = set()
        self.known_edges: dict[tuple[str, str, str], tuple[Any, ...]] = {}
        self._resolved: dict[str, tuple[str, str | None]] = {}  # link key → what `resolve` gave under `_resolved_by`
        self._resolved_by: LinkIndex | None = None
        # containment edges derived from their items, not stored (SQLite: app/vault/contained.py)
        self.contained = Containment(self.vault.containment_kinds() if self.vault.derives_edges else None)

    def resolve(self, key: str) -> tuple[str, str | None]:
        assert self.index is not None, "the link index is set once every note is planned"
        if self._resolved_by is not self.index:  # (a vault links the same few names from many notes)
            self._resolved, self._resolved_by = {}, self.index
        hit = self._resolved.get(key)
        if hit is None:
            path, tier = self.index.explain_key(key)
            hit = self._resolved[key] = (note_id(path), tier) if path is not None else (f"placeholder:{key}", None)
            if path is None:
                self.placeholders.add(hit[0])
        return hit

    def clear_notes(self, notes: Sequence[tuple[str, set[str]]]) -> None:
        """Drop what the last parse of each (path, keep ids) wrote, except surviving edges and the rows kept.

        One pass for a batch of notes: a note's derived rows and edge sources carry its own path, so the notes'
        clears are independent, and a re-planned vault reads its edges in a few statements. The edges a rebuild
        owns are not deleted here but kept as `reusable`: the new parse of a note mostly plans the same edges again,
        and `write_edges` gives such an edge its new values in place (its id, history and creation time stay);
        `drop_unreused` deletes the rest once every edge of the run is written."""
        old_ids = {path: self.vault.derived_node_ids(path) for path, _keep in notes}
        srcs = [x for path, _keep in notes for x in (note_id(path), *old_ids[path])]
        doomed: set[int] = set()
        contained = self.contained
        if contained.kinds is not None:
            contained.rows |= self.vault.row_keys_from([note_id(path) for path, _keep in notes])
        for key, origin, values in self.vault.edge_values_from(srcs):
            edge_id, status, meta = values[0], values[1], values[7]
            if edge_id < 0 and contained.kinds is not None and key not in contained.rows:
                # derived from its item: it goes with the item or its code (the new plan sets that), never reused
                contained.before.add(key)
                doomed.add(edge_id)
                continue
            self.known_edges[key] = values
            if origin != "ingest":  # not derived from vault text (a resolve writeback, an agent's link): never owned
                if status == "killed":
                    self.preserved_killed += 1
                elif status == "active":
                    self.preserved_active += 1
                continue
            validated = status == "active" and '"validated"' in meta and bool(json.loads(meta).get("validated"))
            if not survives_rebuild(_IngestEdge(status, validated)):
                doomed.add(edge_id)
                self.reusable[key] = edge_id
                if key[1].split(":", 1)[0] in SHARED_KINDS:
                    self.released.add(key[1])
            elif status == "killed":
                self.preserved_killed += 1
            else:
                self.preserved_active += 1
        self.cleared_srcs.update(srcs)
        stale = [i for path, keep in notes for i in old_ids[path] if i not in keep]
        if not stale:
            return
        protected = {x for e in self.vault.edges_touching(stale) if int(e.id or 0) not in doomed for x in (e.src, e.dst)}
        hard = [i for i in stale if i not in protected]
        soft = [i for i in stale if i in protected]
        gen = self.rt.store.vector_generation()
        self.rt.store.hard_delete(hard)  # type: ignore[attr-defined]
        # their edges went with them (ON DELETE CASCADE), and SQLite hands a freed id to the next edge it inserts:
        # left in `reusable`, `drop_unreused` would delete that new edge under its recycled id
        gone = set(hard)
        for key in [k for k in self.reusable if k[0] in gone or k[1] in gone]:
            del self.reusable[key]
            self.known_edges.pop(key, None)
        if soft:
            if self.contained.kinds is not None:  # its derived edge goes now, not when something revives the row
                self.vault.forget_derived_of(soft)
            self.rt.store.soft_delete(soft, self.now)
        # only an index this process already built caches vectors to mark dead; building one just to tell it costs
        # the numpy import (~0.25 s), more than the rest of a one-note re-ingest
        if (hard or soft) and getattr(self.rt, "_index", None) is not None:
            self.rt.index.note_delete([*hard, *soft], gen)

    def write_nodes(self, plans: Sequence[NotePlan], known: Callable[[NotePlan], bool]) -> None:
        """A batch of changed notes' derived rows in a handful of bulk statements (not a round trip per row); their
        edges follow through `write_edges` — links only once every note node exists and the link index is known.

        Clearing goes first for the batch, then the writes: a note's derived ids and edge sources carry its own
        path, so one note's clear can never touch another note's new rows."""
        # a file never ingested before has nothing to clear
        self.clear_notes([(plan.path, {n.id for n in plan.nodes}) for plan in plans if known(plan)])
        planned = [(f"vault:{plan.path}", n) for plan in plans for n in plan.nodes]
        if self.contained.kinds is not None and self.had_vault_rows:
            # a note new to the files may still have edge rows (a kept tombstone): those stay rows
            self.contained.rows |= self.vault.row_keys_from([note_id(p.path) for p in plans if not known(p)])
        codes, item_evidence, keys = self.contained.plan(plans)  # (none where every edge is a row)
        self.edges_added += len(keys - self.contained.before)
        stored = self.vault.stored_rows([n.id for _source, n in planned]) if self.had_vault_rows else {}
        fresh = [(_derived_row(n, source, self.now), n) for source, n in planned if n.id not in stored]
        again = [(_derived_row(n, source, self.now), n) for source, n in planned if n.id in stored]
        if fresh:
            fresh_codes = [codes.get(n.id) for _row, n in fresh]
            self.vault.insert_node_rows([row for row, _n in fresh], [n.fts for _row, n in fresh], pack=True,
                                        contained=fresh_codes)
            self.contained.count(fresh_codes)
            self.new_memory_ids.extend(n.id for _row, n in fresh if n.kind == "memory")
        revived = [n for _row, n in again if n.kind == "memory" and stored[n.id][10] is not None]
        if again:
            self.vault.refresh_node_rows([row for row, _n in again], [n.fts for _row, n in again], stored, pack=True,
                                         contained=[codes.get(n.id) for _row, n in again])
            # a revived row (deleted_at was set) lost its vector with its text: it needs one again
            self.new_memory_ids.extend(n.id for n in revived)
        self.observations_added += sum(1 for n in [*(n for _row, n in fresh), *revived]
                                       if n.memory_kind in ("observation", "task"))
        # last: refreshing a row above unindexed it by its old text, which the store may keep in the note's blob
        # (and before `write_edges`: an edge row may name its evidence text by a key into the same blob)
        self.vault.write_texts({f"vault:{plan.path}": {n.id: n.content for n in plan.nodes
                                                       if n.kind == "memory" and n.content} for plan in plans},
                               {f"vault:{plan.path}": self.contained.row_evidence(plan) for plan in plans},
                               item_evidence)

    def write_edges(self, planned: Sequence[tuple[str, PlannedEdge]]) -> None:
        """(note path, planned edge) pairs → resolved, deduplicated edge rows (each records its own creation).

        A row's `source_path` is written as `NOTE_PATH`: every planned edge leaves the note's own node or one of its
        derived memories, whose `source` is 'vault:' + the path, and the `edges` view reads the path from there
        (edge_rows.py); `paths` keeps each row's path to compare a kept edge's stored values with."""
        rows: list[tuple[Any, ...]] = []
        paths: list[str] = []
        shared: set[str] = set()
        seen: set[tuple[str, str, str]] = set()
        now = self.now
        for path, p in planned:
            dst, tier = (p.dst, None) if p.dst else self.resolve(p.link_key)
            key = (p.src, dst, p.relation)
            if key in seen:
                continue  # two spellings of one link ([[Ada]], [[Ada Quill]]) are one edge; the first line is evidence
            seen.add(key)
            if dst.split(":", 1)[0] in SHARED_KINDS:
                shared.add(dst)
            elif p.link_key and dst == note_id(path):
                continue  # a note linking to itself by name: navigation to nowhere
            rows.append((p.src, dst, p.relation, p.confidence, p.confidence, p.status, p.evidence, "ingest",
                         f"{p.rule}:{tier}" if tier else p.rule, NOTE_PATH, p.metadata, now))
            paths.append(path)
        shared -= self.ensured  # (a date or tag many notes mention is ensured by the first batch naming it)
        if shared:
            self.vault.ensure_shared_nodes([_shared_node(i, now) for i in sorted(shared)])
            self.ensured |= shared
        known = self.known_edges  # (both empty in a first ingest: 100k row keys not built for nothing)
        existing = {row[:3]: known[row[:3]] for row in rows if row[:3] in known} if known else {}
        if self.had_vault_rows:
            unread = [row[:3] for row in rows if row[0] not in self.cleared_srcs]
            if unread:
                existing.update(self.vault.edge_values_by_keys(unread))
            if self.contained.kinds is not None:  # a derived edge no longer derived: its code went, a row replaces it
                rows_held = self.contained.rows
                existing = {k: v for k, v in existing.items() if v[0] > 0 or k in rows_held}
        if existing:
            reparsed: list[tuple[Any, ...]] = []
            reset: list[tuple[int, str, str, dict[str, Any], str]] = []
            for row, path in zip(rows, paths):
                found = existing.get(row[:3])
                if found is None:
                    continue
                edge_id, status = found[0], found[1]
                if self.reusable.get(row[:3]) == edge_id:  # cleared by this run and planned again: kept in place
                    del self.reusable[row[:3]]
                    values = (row[3], row[4], row[5], row[6], row[8], path, row[10])
                    if found[2] < found[3]:  # a parsed edge's strength drops below its confidence only by
                        values = (found[2], row[4], status, *values[3:])  # weaken-edge: a decision a re-parse keeps
                    if values != (found[2], found[3], status, *found[4:]):  # (found: the path as the view gives it)
                        reparsed.append((*values[:5], NOTE_PATH, values[6], now, edge_id))
                        if row[5] != status:
                            reset.append((edge_id, "reparsed", "ingest", {"from": status, "to": row[5]}, now))
                elif status == "killed":
                    self.blocked.append(edge_id)
            rows = [row for row in rows if row[:3] not in existing]
            self.vault.reparse_edge_rows(reparsed, pack=True)  # (`write_nodes` put their evidence in the blobs)
            if reset:
                self.vault.log_edge_events(reset)
        self.vault.insert_edge_rows(rows, pack=True)
        self.edges_added += len(rows)
        if self.blocked:
            self.vault.log_edge_events([(b, "blocked_recreation", "ingest", {"reason": "killed_tombstone_blocks_recreation"},
                                         self.now) for b in self.blocked])
            self.blocked = []

    def join_placeholders(self) -> int:
        """Point what still waits on a placeholder (agent and resolve edges, decided links) at the note that now
        claims its name; the vault's own links were planned again with the names (`_relink`)."""
        assert self.index is not None
        joined = 0
        for pid, _title, _meta in self.vault.nodes_of_kind("placeholder"):
            path = self.index.resolve_key(pid.split(":", 1)[1])
            if path is not None:
                self.vault.repoint_edges(pid, note_id(path), self.now)
                joined += 1
        return joined

    def drop_unreused(self) -> None:
        """Delete the cleared edges no new parse planned again (`clear_notes`)."""
        self.vault.delete_edges(sorted(self.reusable.values()))
        self.reusable = {}

    def remove_note(self, path: str) -> None:
        self.clear_notes([(path, set())])
        self.drop_unreused()
        nid = note_id(path)
        if self.vault.edges_touching([nid]):
            self.rt.store.soft_delete([nid], self.now)
        else:
            self.rt.store.hard_delete([nid])  # type: ignore[attr-defined]
        self.vault.write_texts({f"vault:{path}": {}})  # keeps the texts of rows a killed edge still holds

    def collect_garbage(self, among: set[str] | None = None) -> int:
        """Drop shared nodes nothing points at; `among` limits the check to those ids (a small incremental run)."""
        if among is not None and not among:
            return 0
        orphans = self.vault.unreferenced(SHARED_KINDS, VAULT_SOURCE, among=sorted(among) if among else None)
        return self.rt.store.hard_delete(orphans) if orphans else 0  # type: ignore[attr-defined]


def _read(entry: VaultEntry) -> bytes | None:
    try:
        with open(entry.absolute, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def ingest_vault(rt: Runtime, vault: str | Path, *, mode: str = "rebuild", max_notes: int | None = None,
                 follow_symlinks: bool = False, hints: Sequence[str] | None = None, progress: Progress | None = None,
                 workers: int | None = None, embed: bool = True,
                 embed_progress: Progress | None = None) -> dict[str, Any]:
    """`embed=False` leaves the new sections and bullets without vectors (keyword and graph recall find them at
    once; `mnemon embed --all` adds the vectors later, resumably)."""
    if mode not in MODES:
        raise InvalidInput(f"mode must be one of {', '.join(MODES)}", mode=mode)
    if max_notes is not None and max_notes < 1:
        raise InvalidInput("--max-notes must be at least 1", max_notes=max_notes)
    started = time.perf_counter()
    store = rt.store
    vault_store = store.vault  # type: ignore[attr-defined]
    hint_terms = tuple(h.strip().lower() for h in (hints if hints is not None else DEFAULT_HINTS) if h.strip())
    root, entries, skipped = walk_vault(vault, follow_symlinks=follow_symlinks)
    capped = len(entries)
    on_disk = {e.rel for e in entries}  # a note past --max-notes is unread, not removed: it is still there
    if max_notes is not None:
        entries = entries[:max_notes]
    known = vault_store.files()
    plan_key = f"{PLAN_VERSION}|{','.join(hint_terms)}"
    # a note's rows follow from its vault-relative path and its bytes alone, so a vault moved or copied to another
    # folder keeps every note whose bytes are the same; only the size-and-mtime shortcut needs the same folder
    same_plan = vault_store.get_state("plan_key") == plan_key
    moved = vault_store.get_state("root") != root
    proactive_before = vault_store.get_state(PROACTIVE_STATE)
    to_plan: list[tuple[str, bytes, float]] = []
    unchanged: list[str] = []
    restamped: list[tuple[str, float, int]] = []  # unchanged bytes under a new size or mtime: kept for the shortcut
    unreadable: list[str] = []
    for entry in entries:
        row = known.get(entry.rel)
        if same_plan and not moved and row is not None and row.size == entry.size and row.mtime == entry.mtime:
            unchanged.append(entry.rel)
            continue
        data = _read(entry)
        if data is None:
            unreadable.append(entry.rel)
            continue
        if same_plan and row is not None:
            if hashlib.sha256(data).hexdigest() == row.content_hash:
                unchanged.append(entry.rel)
                if (row.size, row.mtime) != (entry.size, entry.mtime):
                    restamped.append((entry.rel, entry.mtime, entry.size))
                continue
        to_plan.append((entry.rel, data, entry.mtime))
    skipped += [{"path": p, "reason": "unreadable"} for p in unreadable]
    # (the same rule for a moved vault: a note it no longer holds goes, one it holds is kept or planned again)
    removed = [] if mode == "append" else sorted(p for p in known if p not in on_disk and p not in unreadable)
    if not to_plan and not removed:
        # so that the next run can trust sizes and mtimes again (a read-only store just answers)
        if (moved or restamped) and not getattr(store, "readonly", False):
            with store.transaction():
                vault_store.restamp_files(restamped)
                vault_store.set_state("root", root)
        return _nothing_changed(rt, root, mode, unchanged, skipped, capped, len(entries), started)

    now = rt.now_iso()
    writer = _Writer(rt, None, now)
    gc_count = 0
    relinked: list[NotePlan] = []
    joined = 0
    from .resolve import apply_embedded_payload

    batches = _plan_batches(to_plan, hint_terms, workers)
    plans: list[NotePlan] = []
    with paused_gc(), store.transaction():
        _keep_sense_texts(rt, _superseded(known, to_plan, removed))  # before the notes' rows change
        vault_store.seed_relationship_types([spec.to_row() for spec in DEFAULT_ONTOLOGY.specs()])
        thoughts_cleared = vault_store.clear_thought_history() if mode == "rebuild" else 0
        writer.had_vault_rows = vault_store.has_vault_rows()
        # a first ingest of a large vault writes most of the graph: indexes are built once afterwards instead
        bulk = not known and len(to_plan) >= BULK_MIN_NOTES and vault_store.max_seq() <= BULK_ROWS_PER_NOTE * len(to_plan)
        with vault_store.bulk_load() if bulk else nullcontext():
            for batch in batches:
                notes = [_note_node(p, now) for p in batch]
                existing = vault_store.existing_nodes([n.id for n in notes]) if writer.had_vault_rows else {}
                vault_store.insert_nodes([n for n in notes if n.id not in existing])
                vault_store.refresh_nodes([n for n in notes if n.id in existing])
                writer.write_nodes(batch, lambda plan: plan.path in known or plan.note_id in existing)
                # edges whose target is known already go in now, while the workers still parse: only links wait
                # for every note's name
                writer.write_edges([*writer.contained.take_rows(),
                                    *((plan.path, e) for plan in batch for e in plan.edges if e.dst)])
                plans.extend(batch)
                if progress:
                    progress(len(plans), len(to_plan))

            planned_paths = {p.path for p in plans}
            identities = {path: NoteIdentity(path, f.title, f.aliases) for path, f in known.items()
                          if path not in planned_paths and path not in removed}
            identities.update({p.path: NoteIdentity(p.path, p.title, p.aliases) for p in plans})
            writer.index, index_state = _link_index(vault_store, identities)
            writer.write_edges([(plan.path, e) for plan in plans for e in plan.edges if not e.dst])
            relinked = _relink(writer, known, plans, removed, {e.rel: e for e in entries}, hint_terms)
            writer.drop_unreused()
        if relinked or writer.placeholders:
            joined = writer.join_placeholders()
        for path in removed:
            writer.remove_note(path)
        if removed:
            vault_store.delete_files(removed)
        # a small run with no relinking or removal can only orphan the shared nodes its cleared edges pointed at
        targeted = len(plans) <= GC_TARGETED_MAX and not removed and not (relinked or joined)
        gc_count = writer.collect_garbage(writer.released if targeted else None)
        vault_store.put_files([VaultFile(p.path, p.content_hash, p.mtime, p.size, p.note_id, p.title, p.aliases, now,
                                         p.observation_count, p.link_keys) for p in [*plans, *relinked]])
        vault_store.restamp_files(restamped)
        vault_store.set_state("root", root)
        if index_state is not None:
            vault_store.set_state(LINK_INDEX_STATE, index_state)
        vault_store.set_state("plan_key", plan_key)
        # every bullet's stored static score (core/vault/proactive.py) is under these hints when the last run's were
        # the same, or when this run re-planned every note it keeps
        scored = proactive_key(stemmed_hints(hint_terms))
        replanned = {p.path for p in plans}
        every_note = all(path in replanned or path in removed for path in known)
        vault_store.set_state(PROACTIVE_STATE, scored if every_note or (same_plan and proactive_before == scored) else "")
        for plan in plans:
            for payload in plan.payloads:
                apply_embedded_payload(rt, payload, plan.path)
        store.log("ingest", None, {"vault": root, "mode": mode, "changed": len(plans), "removed": len(removed),
                                   "unchanged": len(unchanged)}, now)
        _record_senses(rt, plans)  # in the same transaction: a note is never stored without its event
    if bulk:
        vault_store.release_wal()
    vectors = _embed_new(rt, writer.new_memory_ids, progress=embed_progress) if embed else {
        "embedded": 0, "skipped": "disabled", "hint": "run `mnemon embed --all` to add the vectors"}
    counts = vault_store.counts()
    out: dict[str, Any] = {
        "mode": mode,
        "vault": root,
        "notes_read": len(plans),
        "notes_unchanged": len(unchanged),
        "notes_removed": len(removed),
        "notes_total": counts["notes"],
        "notes_capped": max(0, capped - len(entries)),
        "edges_added": writer.edges_added,
        "observations_added": writer.observations_added,
        "nodes": counts["nodes"],
        "edges": counts["edges"],
        "observations": counts["observations"],
        "preserved_active_edges": writer.preserved_active,
        "preserved_killed_edges": writer.preserved_killed,
        "notes_relinked": len(relinked),
        "placeholders_joined": joined,
        "orphans_removed": gc_count,
        "skipped": skipped[:50],
        "skipped_count": len(skipped),
        "warnings": [{"path": p.path, **w} for p in plans for w in p.warnings][:50],
        "vectors": vectors,
        "db": store.path,
        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
    }
    if mode == "update":
        out["preserved"] = ["thoughts", "active_non_ingest_edges", "killed_edge_tombstones", "world_model"]
    else:
        out["thoughts_cleared"] = thoughts_cleared
    return out


def _relink(writer: _Writer, known: dict[str, VaultFile], plans: Sequence[NotePlan], removed: Sequence[str],
            entries: dict[str, VaultEntry], hints: tuple[str, ...]) -> list[NotePlan]:
    """Plan again, against the new names, every unchanged note with a link whose name another note claimed or gave
    up in this run (added, removed, renamed or re-aliased), so each link lands where a fresh ingest would land it:
    merged spellings, links to the note itself and links parked on a placeholder included — moving stored edges
    instead lost every link no edge held. A key resolves by the notes claiming it alone (`LinkIndex`), so no other
    note's links can change."""
    planned = {p.path for p in plans}
    if all(path in planned or path in removed for path in known):
        return []  # no note is left to plan again (a first ingest): working out the changed names buys nothing
    changed: set[str] = set()
    for path in removed:
        changed |= _name_keys(NoteIdentity(path, known[path].title, known[path].aliases))
    for plan in plans:
        old = known.get(plan.path)
        if old is None or (old.title, old.aliases) != (plan.title, plan.aliases):
            changed |= _name_keys(NoteIdentity(plan.path, plan.title, plan.aliases))
            if old is not None:
                changed |= _name_keys(NoteIdentity(plan.path, old.title, old.aliases))
    if not changed:
        return []
    kept = [path for path in known if path not in planned and path in entries and path not in removed]
    affected = [entries[path] for path, keys in writer.vault.link_keys_of(kept).items() if not changed.isdisjoint(keys)]
    affected.sort(key=lambda e: e.rel)  # planned again in vault order
    items = [(e.rel, data, e.mtime) for e in affected if (data := _read(e)) is not None]
    again = plan_batch(items, hints) if items else []
    if again:
        writer.rt.store.vault.refresh_nodes([_note_node(p, writer.now) for p in again])  # type: ignore[attr-defined]
        writer.write_nodes(again, lambda _plan: True)
        writer.write_edges([*writer.contained.take_rows(), *((p.path, e) for p in again for e in p.edges)])
    return again


def _name_keys(identity: NoteIdentity) -> set[str]:
    return {key for keys in note_keys(identity).values() for key in keys}


def _link_index(vault_store: Any, identities: dict[str, NoteIdentity]) -> tuple[LinkIndex, str | None]:
    """The link index for `identities`, and the state to store when it had to be built.

    Building it normalises every title, alias and path of the vault (~50 ms for 2,000 notes) — half the budget of
    a one-note re-ingest. The index is a pure function of the identities, so the last one is kept in `vault_state`
    under a fingerprint of them and reused while no note was added, removed, renamed or re-aliased."""
    digest = hashlib.sha1()
    for path in sorted(identities):
        ident = identities[path]
        aliases = "\x01".join(ident.aliases)
        digest.update(f"{path}\x00{ident.title}\x00{aliases}\x02".encode())
    fingerprint = digest.hexdigest()
    stored = vault_store.get_state(LINK_INDEX_STATE)
    if stored:
        try:
            saved = json.loads(stored)
            if saved.get("fingerprint") == fingerprint:
                tiers = {tier: {key: tuple(paths) for key, paths in mapping.items()}
                         for tier, mapping in saved["tiers"].items()}
                return LinkIndex(tiers=tiers), None
        except (ValueError, KeyError, AttributeError, TypeError):
            pass  # unreadable state: rebuild below and overwrite it
    index = LinkIndex.build(identities.values())
    state = json.dumps({"fingerprint": fingerprint, "tiers": {t: dict(m) for t, m in index.tiers.items()}},
                       ensure_ascii=False, separators=(",", ":"))
    return index, state


def _nothing_changed(rt: Runtime, root: str, mode: str, unchanged: list[str], skipped: list[dict[str, str]],
                     capped: int, read: int, started: float) -> dict[str, Any]:
    """The common case of a scheduled re-ingest: no file changed, so no transaction, no link index, no writes."""
    counts = rt.store.vault.counts()  # type: ignore[attr-defined]
    out: dict[str, Any] = {
        "mode": mode, "vault": root, "notes_read": 0, "notes_unchanged": len(unchanged), "notes_removed": 0,
        "notes_total": counts["notes"], "notes_capped": max(0, capped - read), "edges_added": 0,
        "observations_added": 0, "nodes": counts["nodes"], "edges": counts["edges"],
        "observations": counts["observations"], "preserved_active_edges": 0, "preserved_killed_edges": 0,
        "notes_relinked": 0, "placeholders_joined": 0, "orphans_removed": 0, "skipped": skipped[:50],
        "skipped_count": len(skipped), "warnings": [], "vectors": {"embedded": 0}, "db": rt.store.path,
        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
    }
    if mode == "update":
        out["preserved"] = ["thoughts", "active_non_ingest_edges", "killed_edge_tombstones", "world_model"]
    else:
        out["thoughts_cleared"] = 0
    return out


def _superseded(known: Mapping[str, VaultFile], to_plan: Sequence[tuple[str, bytes, float]],
                removed: Sequence[str]) -> dict[str, str]:
    """path → content hash of each stored note version this run replaces by other bytes or removes."""
    out = {path: known[path].content_hash for path in removed if path in known}
    for path, data, _mtime in to_plan:
        row = known.get(path)
        if row is not None and path not in out and hashlib.sha256(data).hexdigest() != row.content_hash:
            out[path] = row.content_hash
    return out


def _keep_sense_texts(rt: Runtime, superseded: Mapping[str, str]) -> int:
    """A note's sense events are stored without its text (`_record_senses`): those of a version this run replaces
    or removes get the text written in first, from the rows still there (app/world/note_text.py)."""
    if not superseded:
        return 0
    try:
        from ..world import keep_note_texts
    except ImportError:
        return 0
    return keep_note_texts(rt, superseded)


def _record_senses(rt: Runtime, plans: Sequence[NotePlan]) -> int:
    """Store the `md` sense event the planner made of each new or changed note (app/vault/plan.py); a plan has
    none when the world model is not installed."""
    events = [(plan.sense_event, plan.path) for plan in plans if plan.sense_event is not None]
    if not events:
        return 0
    from ..world import store_sense_events

    return store_sense_events(rt, events)


def _embed_new(rt: Runtime, ids: Sequence[str], batch: int = 64, progress: Progress | None = None) -> dict[str, Any]:
    """Vectors for memories this ingest wrote or revived, skipping any whose content already has one; each batch
    commits on its own, so an interrupted run keeps what it embedded (`embed --all` finishes it)."""
    if not ids or not rt.vectors_enabled:
        return {"embedded": 0, "provider": rt.provider.name if rt.vectors_enabled else None}
    identity = rt.provider.identity()
    missing = rt.store.vault.memories_missing_vectors(ids, identity)  # type: ignore[attr-defined]
    done = 0
    for start in range(0, len(missing), batch):
        chunk = missing[start : start + batch]
        rows = rt.embed_documents([text for _id, text, _h in chunk])
        if rows is None:
            break
        with rt.store.transaction():
            when = rt.now_iso()
            for (node_id, _text, digest), vec in zip(chunk, rows):
                rt.store.put_vector(node_id, identity, vec, digest, when)
        done += len(chunk)
        if progress is not None:
            progress(done, len(missing))
    return {"embedded": done, "provider": rt.provider.name, "identity": identity}
