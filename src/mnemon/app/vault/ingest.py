"""`ingest --vault DIR`: Markdown notes → nodes, memories and gated edges in the one store, incrementally.

Rebuild semantics as Mneme (stale rows of changed or removed files disappear), but only files whose content changed
are re-parsed: a file whose size and mtime match the last ingest is trusted, any other file is read and compared by
SHA-256. Phases, all in one transaction so a crash leaves the previous graph intact:

1. per batch of changed notes (parsed by worker processes meanwhile): their note nodes, then per note: drop its
   non-surviving ingest edges and stale derived rows, write the new rows and the edges whose target is known;
2. once every note's name is known: resolve and write the links (they may point at any note);
3. when the set of note names changed, re-resolve every parsed link (placeholders join their note, links to a
   removed note fall back to a placeholder) — Mneme never joined `[[Target]]` to `target.md`; any placeholder a
   name of a new or changed note settles joins it, whoever made it (a `resolve` claim too);
4. remove deleted notes (a `resolve` claim on one is retired, and restored if the note comes back); drop shared
   date/email/tag/placeholder nodes nothing points at any more.

Killed tombstones and validated active edges survive (`core.vault.survives_rebuild`); an endpoint they need is
soft-deleted instead of removed, and revived with the same id if the text comes back. World tables are never touched.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import Aborted, Conflict, InvalidInput, NotFound
from ...core.model import Edge
from ...core.ontology import DEFAULT_ONTOLOGY
from ...core.surface import typed
from ...core.vault import LinkIndex, NoteIdentity, note_keys
from ...core.vault.logseq import LogseqGraph
from ...core.vault.observations import DEFAULT_HINTS
from ...core.vault.proactive import PROACTIVE_STATE, proactive_key, stemmed_hints
from ...ports.store.vault_files_sqlite import VaultFile
from ..runtime import Runtime
from ..bulk_gc import paused_gc
from .block_index import BLOCKS_STATE, batch_graph, indexed_blocks, referencing_notes
from .edited_items import carry_kills_to_edited
from .plan import (PLAN_VERSION, NotePlan, note_id, packed_batch, path_too_long_for_world, plan_batch, plan_links,
                   unpacked_plan, world_senses)
from .moves import editor_moves, remember_moves
from .passed_over import SKIP_DIRS, logseq_graph, passed_over_folders
from .placeholder_names import spell_placeholders
from .reread import forgotten_rows, keep_forgotten, keep_unread, linking_notes, marked_for_reread
from .writer import VaultWriter, note_node

MODES = ("rebuild", "update", "append")
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


def _inside(root: str, path: str) -> bool:
    try:
        return os.path.commonpath([root, path]) == root
    except ValueError:
        return False


def walk_vault(vault: str | Path, *, follow_symlinks: bool = False) -> tuple[str, list[VaultEntry], list[dict[str, str]]]:
    """Every Markdown file under `vault`, sorted by vault-relative path, plus what was skipped and why.

    A name starting with "." is hidden (``.obsidian/``, ``.trash/``, ``.draft.md``) and passed over without a word,
    a file as a folder, at the top as deeper down: only hidden folders were, so a hidden note was ingested.

    Symlinks (files or folders) are skipped unless `follow_symlinks`, and even then only when their target resolves
    inside the vault: a link must never make ingestion read a file outside it. A followed link whose target the
    vault already holds under its real path is skipped as `symlink_duplicate`: the real path always wins (a link
    used to be ingested as a second copy of the note, or instead of it, depending on the folder listing's order). A
    followed link inside the vault that leads to no file (its target deleted, a loop) is skipped as `broken_symlink`.
    """
    root_path = Path(vault).expanduser()
    if not root_path.is_dir():
        raise NotFound(f"vault directory {vault} does not exist or is not a directory", vault=str(vault))
    root = os.path.realpath(root_path)
    skipped: list[dict[str, str]] = []
    passed_folders = passed_over_folders(root)
    seen_dirs: set[str] = set()
    prefix_len = len(root.rstrip(os.sep)) + 1
    # (path, reached through a link, is itself a link): every real folder is walked before any reached by a link
    real_dirs: list[tuple[str, bool, bool]] = [(root, False, False)]
    linked_dirs: list[tuple[str, bool, bool]] = []
    found: list[tuple[bool, VaultEntry, str]] = []  # (through a link, entry, real path)
    while real_dirs or linked_dirs:
        current, via_link, is_link = real_dirs.pop() if real_dirs else linked_dirs.pop()
        real_current = os.path.realpath(current) if via_link else current
        if real_current in seen_dirs or not _inside(root, real_current):
            if is_link:
                skipped.append({"path": current[prefix_len:].replace(os.sep, "/"), "reason": "symlink_duplicate"})
            continue
        seen_dirs.add(real_current)
        try:
            listing = list(os.scandir(current))
        except OSError:
            continue
        # one scandir per folder: the entry knows whether it is a link or a folder without a syscall per file
        for entry in listing:
            if entry.name.startswith(".") or entry.name in SKIP_DIRS:
                continue
            rel = entry.path[prefix_len:].replace(os.sep, "/")
            link = entry.is_symlink()
            try:
                is_dir = entry.is_dir()
            except OSError:  # a symlink loop (ELOOP) raised here and stopped the whole ingest, even unfollowed
                is_dir = False  # (skipped below like any link that leads to no file)
            if is_dir:
                if rel in passed_folders:
                    skipped.append({"path": rel, "reason": passed_folders[rel]})
                elif link and not follow_symlinks:
                    skipped.append({"path": rel, "reason": "symlink"})
                elif link and not _inside(root, os.path.realpath(entry.path)):
                    skipped.append({"path": rel, "reason": "symlink_outside_vault"})
                else:
                    (linked_dirs if link or via_link else real_dirs).append((entry.path, link or via_link, link))
                continue
            if not entry.name.lower().endswith(".md"):
                continue
            real = entry.path
            if link or via_link:
                if link and not follow_symlinks:
                    skipped.append({"path": rel, "reason": "symlink"})
                    continue
                real = os.path.realpath(entry.path)
                if not _inside(root, real):
                    skipped.append({"path": rel, "reason": "symlink_outside_vault"})
                    continue
                if not os.path.isfile(real):  # its note deleted, or a loop: "outside" sent people hunting an escape
                    skipped.append({"path": rel, "reason": "broken_symlink"})
                    continue
            try:
                st = entry.stat()
            except OSError:
                skipped.append({"path": rel, "reason": "unreadable"})
                continue
            if not stat.S_ISREG(st.st_mode):  # (an empty file is a note: Obsidian makes one for a clicked link)
                skipped.append({"path": rel, "reason": "not_a_file"})
                continue
            found.append((link or via_link, VaultEntry(rel, entry.path, st.st_size, st.st_mtime), real))
    entries: list[VaultEntry] = []
    taken: set[str] = set()
    for _through_link, note, real in sorted(found, key=lambda f: (f[0], f[1].rel)):  # real paths first
        if real in taken:
            skipped.append({"path": note.rel, "reason": "symlink_duplicate"})
            continue
        taken.add(real)
        entries.append(note)
    skipped.sort(key=lambda s: s["path"])
    entries.sort(key=lambda e: e.rel)
    return root, entries, skipped


def _plan_batches(items: list[tuple[str, bytes, float]], hints: tuple[str, ...],
                  workers: int | None, logseq: LogseqGraph | None) -> Iterator[list[NotePlan]]:
    """Plans in vault order, one batch at a time, so the caller writes a batch while the workers parse the next.

    Pool tasks are submitted here, before the caller opens its write transaction: the workers fork from a process
    that holds no SQLite lock, and the cores parse while the main process writes."""
    total = len(items)
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    batches = [items[i : i + size] for i, size in _batch_bounds(total)]
    # the pool forks every worker it is given at once, whether a batch is left for it or not
    n_workers = min(n_workers, len(batches))
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
            futures = [pool.submit(packed_batch, batch, hints, batch_graph(logseq, batch)) for batch in batches]

            def collect() -> Iterator[list[NotePlan]]:
                from concurrent.futures.process import BrokenProcessPool

                try:
                    for future in futures:
                        yield [unpacked_plan(plan) for plan in future.result()]
                except BrokenProcessPool:
                    # killed from outside (the out-of-memory killer, a kill -9): no bug of ours, and nothing of this
                    # run is stored — the write transaction rolls back as the error leaves it
                    raise Aborted("a note-parsing worker process of this ingest was killed (out of memory, or by a"
                                  " signal); nothing of this run was stored: run ingest again (`--workers 1` parses"
                                  " in one process, with less memory)") from None
                finally:
                    pool.shutdown(cancel_futures=True)
            return collect()
    return (plan_batch(batch, hints, batch_graph(logseq, batch)) for batch in batches)


def _batch_bounds(total: int) -> list[tuple[int, int]]:
    """(start, size) of each batch: `BATCH_FILES` notes, the last `2 * BATCH_FILES` by `TAIL_BATCH_FILES`. The
    same whoever plans them: a batch's rows take the next seqs, so the bounds decide the ids a store gets."""
    tail_from, tail = max(0, total - 2 * BATCH_FILES), min(TAIL_BATCH_FILES, BATCH_FILES)
    bounds = [(i, min(BATCH_FILES, tail_from - i)) for i in range(0, tail_from, BATCH_FILES)]
    return bounds + [(i, tail) for i in range(tail_from, total, tail)]


def _read(entry: VaultEntry) -> bytes | None:
    try:
        with open(entry.absolute, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def ingest_vault(rt: Runtime, vault: str | Path, *, mode: str = "rebuild", max_notes: int | None = None,
                 follow_symlinks: bool = False, hints: Sequence[str] | None = None, progress: Progress | None = None,
                 workers: int | None = None, embed: bool = True,
                 embed_progress: Progress | None = None, allow_empty: bool = False,
                 replace: bool = False) -> dict[str, Any]:
    """`embed=False` leaves the new sections and bullets without vectors (keyword and graph recall find them at
    once; `mnemon embed --all` adds the vectors later, resumably). A folder without notes removes every note the
    store has only with `allow_empty`: otherwise it is taken for a wrong or unmounted folder and refused. Likewise
    another folder than the one the store was ingested from, holding fewer of its notes than the run would remove
    (another vault, not the same one moved), replaces them only with `replace`."""
    if mode not in MODES:
        raise InvalidInput(f"mode must be one of {', '.join(MODES)}", mode=mode)
    if max_notes is not None and max_notes < 1:
        raise InvalidInput("--max-notes must be at least 1", max_notes=max_notes)
    if allow_empty and mode == "append":  # an append removes no note: the flag changed nothing, without a word
        raise InvalidInput("--allow-empty lets an empty folder remove every note, and --append removes none: drop "
                           "one of them", mode=mode)
    if workers is not None and workers < 1:
        raise InvalidInput("--workers must be at least 1 (1: parse in this process; leave it out for one per core)",
                           workers=workers)
    started = time.perf_counter()
    # from before the store's notes are read until their vectors are written: an ingest started meanwhile (another
    # process, a shared PostgreSQL) waits, then finds this one's notes unchanged instead of writing them all again
    with rt.store.vault.ingest_lock():  # type: ignore[attr-defined]
        return _ingest(rt, vault, mode=mode, max_notes=max_notes, follow_symlinks=follow_symlinks, hints=hints,
                       progress=progress, workers=workers, embed=embed, embed_progress=embed_progress,
                       allow_empty=allow_empty, replace=replace, started=started)


def _ingest(rt: Runtime, vault: str | Path, *, mode: str, max_notes: int | None, follow_symlinks: bool,
            hints: Sequence[str] | None, progress: Progress | None, workers: int | None, embed: bool,
            embed_progress: Progress | None, allow_empty: bool, replace: bool, started: float) -> dict[str, Any]:
    store = rt.store
    vault_store = store.vault  # type: ignore[attr-defined]
    hint_terms = tuple(h.strip().lower() for h in (hints if hints is not None else DEFAULT_HINTS) if h.strip())
    root, entries, skipped = walk_vault(vault, follow_symlinks=follow_symlinks)
    capped = len(entries)
    on_disk = {e.rel for e in entries}  # a note past --max-notes is unread, not removed: it is still there
    # ... and its links are resolved again when this run changes a name they use (left as they were, they named a
    # removed note for good: the next full run found that note unchanged)
    held = {e.rel: e for e in entries}
    if max_notes is not None:
        entries = entries[:max_notes]
    known = vault_store.files()
    logseq = logseq_graph(root)
    # (a folder becoming a Logseq graph, or a graph's journal settings changing, reads every note anew)
    plan_key = f"{PLAN_VERSION}|{','.join(hint_terms)}" + (f"|{logseq.key}" if logseq is not None else "")
    # a note's rows follow from its vault-relative path and its bytes alone, so a vault moved or copied to another
    # folder keeps every note whose bytes are the same; only the size-and-mtime shortcut needs the same folder
    same_plan = vault_store.get_state("plan_key") == plan_key
    recorded_root = vault_store.get_state("root")
    moved = recorded_root != root
    # an append adds another folder's notes beside the store's vault: it does not become that vault (recorded, a
    # plain run of the appended folder removed the vault's notes unrefused)
    keeps_root = mode == "append" and moved and bool(recorded_root)
    proactive_before = vault_store.get_state(PROACTIVE_STATE)
    to_plan: list[tuple[str, bytes, float]] = []
    unchanged: list[str] = []
    restamped: list[tuple[str, float, int]] = []  # unchanged bytes under a new size or mtime: kept for the shortcut
    unreadable: list[str] = []
    reread = marked_for_reread(vault_store)  # (`forget --undo` of one of their rows: app/vault/reread.py)
    same_bytes: list[str] = []  # read though unchanged (a new plan, a mark): what a forget took stays forgotten
    for entry in entries:
        row = known.get(entry.rel)
        trusted = same_plan and entry.rel not in reread
        if trusted and not moved and row is not None and row.size == entry.size and row.mtime == entry.mtime:
            unchanged.append(entry.rel)
            continue
        data = _read(entry)
        if data is None:
            unreadable.append(entry.rel)
            continue
        if row is not None and hashlib.sha256(data).hexdigest() == row.content_hash:
            if trusted:
                unchanged.append(entry.rel)
                if (row.size, row.mtime) != (entry.size, entry.mtime):
                    restamped.append((entry.rel, entry.mtime, entry.size))
                continue
            same_bytes.append(entry.rel)
        to_plan.append((entry.rel, data, entry.mtime))
    _read_linking_notes(rt, entries, known, to_plan, same_bytes, unchanged, restamped)
    skipped += [{"path": p, "reason": "unreadable"} for p in unreadable]
    # (the same rule for a moved vault: a note it no longer holds goes, one it holds is kept or planned again)
    removed = [] if mode == "append" else sorted(p for p in known if p not in on_disk and p not in unreadable)
    if removed and len(entries) < capped:
        removed = _not_moved_past_cap(root, known, removed, [held[rel] for rel in held.keys() - {e.rel for e in entries}
                                                             if rel not in known])
    if removed and not on_disk and not allow_empty:
        raise Conflict(f"the vault folder {root} holds no notes: this run would remove all {len(removed)} notes the"
                       " store has (a wrong or unmounted folder?). Nothing was changed; pass --allow-empty to remove"
                       " them", vault=root, notes=len(removed))
    still_held = len(on_disk & known.keys())
    if removed and recorded_root and moved and still_held < len(removed) and not replace:
        # a vault moved or checked out elsewhere (a teammate's clone) holds the same notes; another one does not
        # a store named by its path stays that file whatever --store says (--db overrules it)
        elsewhere = "another store for it (--store NAME)" if rt.store_name else "another database for it (--db PATH)"
        raise Conflict(f"this store holds {len(known)} notes ingested from {recorded_root}; {root} holds"
                       f" {still_held} of them, so this run would remove {len(removed)} (another vault, or a wrong"
                       f" folder?). Nothing was changed; use --append to add its notes beside them, {elsewhere},"
                       " or pass --replace to let it replace them", vault=root, ingested_from=recorded_root,
                       notes=len(known), kept=still_held, would_remove=len(removed))
    blocks_state = None  # (a Logseq graph's blocks: a ((uuid)) in a note reads as the block another page holds)
    block_warnings: list[dict[str, Any]] = []
    if logseq is not None and (to_plan or removed):
        logseq, changed_blocks, blocks_state, block_warnings = indexed_blocks(vault_store, logseq, to_plan, removed)
        _read_again(entries, referencing_notes(vault_store, unchanged, changed_blocks), to_plan, same_bytes, unchanged,
                    restamped)
    if not to_plan and not removed:
        # so that the next run can trust sizes and mtimes again (a read-only store just answers)
        if (moved or restamped) and not getattr(store, "readonly", False):
            with store.transaction():
                vault_store.restamp_files(restamped)
                if not keeps_root:
                    vault_store.set_state("root", root)
        quiet = _nothing_changed(rt, root, mode, unchanged, skipped, capped, len(entries), started)
        if embed and (left := _left_without_vectors(rt)) is not None:
            quiet["vectors"] = _embed_new(rt, left, progress=embed_progress, finishes_ingest=True)
        return quiet

    now = rt.now_iso()
    writer = VaultWriter(rt, None, now)
    gc_count = 0
    relinked: list[str] = []  # the unchanged notes whose links were resolved again
    revived: list[str] = []  # notes removed by an earlier run, back at their path (soft-deleted rows revived)
    from .pack_world import restore_pack_world
    from .resolve import apply_embedded_payload

    batches = _plan_batches(to_plan, hint_terms, workers, logseq)
    plans: list[NotePlan] = []
    with paused_gc(), store.transaction():
        _keep_sense_texts(rt, _superseded(known, to_plan, removed))  # before the notes' rows change
        asked_back = {i for ids in reread.values() for i in ids}
        still_forgotten = {i: at for i, at in forgotten_rows(rt, same_bytes).items() if i not in asked_back}
        vault_store.seed_relationship_types([spec.to_row() for spec in DEFAULT_ONTOLOGY.specs()])
        thoughts_cleared = vault_store.clear_thought_history() if mode == "rebuild" else 0
        writer.had_vault_rows = vault_store.has_vault_rows()
        # a first ingest of a large vault writes most of the graph: indexes are built once afterwards instead
        bulk = not known and len(to_plan) >= BULK_MIN_NOTES and vault_store.max_seq() <= BULK_ROWS_PER_NOTE * len(to_plan)
        with vault_store.bulk_load() if bulk else nullcontext():
            for batch in batches:
                notes = [note_node(p, now) for p in batch]
                existing = vault_store.existing_nodes([n.id for n in notes]) if writer.had_vault_rows else {}
                revived += [i for i, (deleted, _hash) in existing.items() if deleted is not None]
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
            moves = _moved_notes(root, known, plans, removed)
            writer.moves = dict(moves)  # (a moved note's weakened edges pass to their successors: `drop_unreused`)
            remember_moves(vault_store, moves)  # (`show` of an old id says where the note went)
            writer.write_edges([(plan.path, e) for plan in plans for e in plan.edges if not e.dst])
            relinked = _relink(writer, known, plans, removed, held, logseq)
            writer.drop_unreused()
        # every placeholder a name of a note planned or removed now settles, whoever made it (a `resolve` claim
        # naming a note not ingested yet too)
        joined = writer.join_placeholders([*(NoteIdentity(p.path, p.title, p.aliases) for p in plans),
                                           *(NoteIdentity(r, known[r].title, known[r].aliases) for r in removed)])
        kept = writer.remove_notes(removed)  # the removed notes still holding a decision
        if still_forgotten:  # (the read wrote them back live: forgotten again, with no vector to write)
            still = set(keep_forgotten(rt, still_forgotten, now))
            writer.new_memory_ids = [i for i in writer.new_memory_ids if i not in still]
        decisions_moved = writer.carry_decisions([(old, new) for old, new in moves if old in kept])
        claims_retired = writer.retire_claims(sorted(kept))  # (a moved note's went with it just above)
        claims_restored = writer.restore_claims(revived)
        decisions_carried = carry_kills_to_edited(writer)  # (before the sources: the old line is gone all the same)
        writer.log_decided_sources()
        if removed:
            vault_store.delete_files(removed)
        # a small run with no relinking or removal can only orphan the shared nodes its cleared edges pointed at
        targeted = len(plans) <= GC_TARGETED_MAX and not removed and not (relinked or joined)
        gc_count = writer.collect_garbage(writer.released if targeted else None)
        spell_placeholders(rt, writer.placeholders | writer.released)  # ("budget" titled a vault's "[[Budget]]")
        vault_store.put_files([VaultFile(p.path, p.content_hash, p.mtime, p.size, p.note_id, p.title, p.aliases, now,
                                         p.observation_count, p.link_keys) for p in plans])
        vault_store.restamp_files(restamped)
        if not keeps_root:
            vault_store.set_state("root", root)
        if index_state is not None:
            vault_store.set_state(LINK_INDEX_STATE, index_state)
        if blocks_state is not None:
            vault_store.set_state(BLOCKS_STATE, blocks_state)
        vault_store.set_state("plan_key", plan_key)
        keep_unread(vault_store, reread, (p for p in known if p not in planned_paths and p not in removed))
        # every bullet's stored static score (core/vault/proactive.py) is under these hints when the last run's were
        # the same, or when this run re-planned every note it keeps
        scored = proactive_key(stemmed_hints(hint_terms))
        replanned = {p.path for p in plans}
        every_note = all(path in replanned or path in removed for path in known)
        kept_scores = every_note or (same_plan and proactive_before == scored)
        vault_store.set_state(PROACTIVE_STATE, scored if kept_scores else "")
        from ..backup import apply_pending_decisions

        # a backup's kills and validations, once their notes exist: before the evidence packs' claims are replayed,
        # so that a restored tombstone blocks the claim it killed
        decisions_restored = apply_pending_decisions(rt)
        # then the world rows the packs made (`pack_world`): their claims' beliefs point at the edges just replayed
        world_restored, beliefs_missing = restore_pack_world(rt, [
            (plan.path, payload, apply_embedded_payload(rt, payload, plan.path, root))
            for plan in plans for payload in plan.payloads])
        store.log("ingest", None, {"vault": root, "mode": mode, "changed": len(plans), "removed": len(removed),
                                   "unchanged": len(unchanged)}, now)
        sense_warnings = _record_senses(rt, plans)  # in the same transaction: a note is stored with its event
        if embed and writer.new_memory_ids and rt.vectors_enabled:
            vault_store.set_state(EMBED_PENDING, "1")  # cleared once they all have vectors: a killed run is finished
    if bulk:
        vault_store.release_wal()
    left = _left_without_vectors(rt) if embed else None
    vectors = _embed_new(rt, [*writer.new_memory_ids, *(left or ())], progress=embed_progress,
                         finishes_ingest=True) if embed else {
        "embedded": 0, "skipped": "disabled", "hint": typed("run `mnemon embed --all` to add the vectors")}
    counts = vault_store.counts()
    out: dict[str, Any] = {
        "mode": mode,
        "vault": root,
        "notes_read": len(plans),
        "notes_unchanged": len(unchanged),
        "notes_removed": len(removed),
        "notes_moved": len(moves),
        "decisions_moved": decisions_moved,
        "decisions_carried": decisions_carried,
        **({"decisions_restored": decisions_restored} if decisions_restored else {}),
        **({"claims_retired": claims_retired} if claims_retired else {}),
        **({"claims_restored": claims_restored} if claims_restored else {}),
        **({"beliefs_missing": beliefs_missing} if beliefs_missing else {}),
        **({"world_restored": world_restored} if world_restored else {}),
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
        "warnings": [*({"path": p.path, **w} for p in plans for w in p.warnings), *sense_warnings,
                     *block_warnings][:50],
        "vectors": vectors,
        "db": store.path,
        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
    }
    if mode == "update":
        out["preserved"] = ["thoughts", "active_non_ingest_edges", "killed_edge_tombstones", "world_model"]
    else:
        out["thoughts_cleared"] = thoughts_cleared
    return out


def _moved_notes(root: str, known: Mapping[str, VaultFile], plans: Sequence[NotePlan],
                 removed: Sequence[str]) -> list[tuple[str, str]]:
    """(old path, new path) of the notes this run moved or renamed: the moves `note move` wrote down (`moves.py`),
    then a removed note and a new one with the same bytes, else the same file name (a move that rebased the note's
    relative links), each side matching only one. Not the same title: a note deleted as another is made from the
    same template (yesterday's `# Standup`, today's) took its kills and weakenings — so a note moved by hand under
    another name whose relative links were rebased is a new note."""
    new = [p for p in plans if p.path not in known]
    if not removed or not new:
        return []
    pairs = editor_moves(root, {path: known[path].content_hash for path in removed}, removed, {p.path for p in new})
    gone = [p for p in removed if p not in {old for old, _ in pairs}]
    new = [p for p in new if p.path not in {to for _, to in pairs}]
    for key in (lambda path, digest: digest, lambda path, digest: path.rsplit("/", 1)[-1].casefold()):
        old_by: dict[str, list[str]] = {}
        for path in gone:
            old_by.setdefault(key(path, known[path].content_hash), []).append(path)
        new_by: dict[str, list[str]] = {}
        for plan in new:
            new_by.setdefault(key(plan.path, plan.content_hash), []).append(plan.path)
        found = [(olds[0], new_by[k][0]) for k, olds in old_by.items() if len(olds) == 1 and len(new_by.get(k, ())) == 1]
        pairs += found
        taken_old, taken_new = {o for o, _ in found}, {n for _, n in found}
        gone = [p for p in gone if p not in taken_old]
        new = [p for p in new if p.path not in taken_new]
    return sorted(pairs)


def _not_moved_past_cap(root: str, known: Mapping[str, VaultFile], removed: list[str],
                        unread_new: Sequence[VaultEntry]) -> list[str]:
    """The notes gone from disk that a capped run removes: not one that a new note past `--max-notes` may be the
    new path of (`_moved_notes`: the move journal's, the same size — maybe the same bytes — or the same file name).
    Removed now, it could never pair with its new path, read by a later run: its kills and validations stayed on the
    removed note while the same links came back undecided. It goes in the run that reads its new path."""
    if not unread_new:
        return removed
    sizes = {e.size for e in unread_new}
    names = {e.rel.rsplit("/", 1)[-1].casefold() for e in unread_new}
    journal = {old for old, _new in editor_moves(root, {p: known[p].content_hash for p in removed}, removed,
                                                 {e.rel for e in unread_new})}
    return [p for p in removed if p not in journal and known[p].size not in sizes
            and p.rsplit("/", 1)[-1].casefold() not in names]


def _relink(writer: VaultWriter, known: dict[str, VaultFile], plans: Sequence[NotePlan], removed: Sequence[str],
            entries: dict[str, VaultEntry], logseq: LogseqGraph | None) -> list[str]:
    """Resolve again, against the new names, the links of every unchanged note with a link whose name another
    note claimed or gave up in this run (added, removed, renamed or re-aliased), so each link lands where a fresh
    ingest would land it: merged spellings, links to the note itself and links parked on a placeholder included —
    moving stored edges instead lost every link no edge held. A key resolves by the notes claiming it and the
    folder of the note it is written in (`LinkIndex`), so no other note's links can change. The paths of the notes
    relinked. `entries`: every note on disk, those past `--max-notes` too — one of those whose bytes changed since
    they were stored is left to the next run, which plans it anew."""
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
    affected.sort(key=lambda e: e.rel)  # relinked in vault order
    # their bytes are the ones stored: parsed again for their links alone (a renamed folder of a 2,000-note vault
    # relinks over a thousand notes)
    links = {e.rel: plan_links(e.rel, data, logseq) for e in affected
             if (data := _read(e)) is not None and hashlib.sha256(data).hexdigest() == known[e.rel].content_hash}
    writer.relink_notes(links)
    return list(links)


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
            saved = json.loads(zlib.decompress(base64.b64decode(stored[2:])) if stored.startswith("z:") else stored)
            if saved.get("fingerprint") == fingerprint:
                tiers = {tier: {key: tuple(paths) for key, paths in mapping.items()}
                         for tier, mapping in saved["tiers"].items()}
                return LinkIndex(tiers=tiers), None
        except (ValueError, KeyError, AttributeError, TypeError):
            pass  # unreadable state: rebuild below and overwrite it
    index = LinkIndex.build(identities.values())
    state = json.dumps({"fingerprint": fingerprint, "tiers": {t: dict(m) for t, m in index.tiers.items()}},
                       ensure_ascii=False, separators=(",", ":"))
    # compressed ("z:" + base64 of zlib): every title, alias and path again, 350 KB of a 2,000-note vault's store
    return index, "z:" + base64.b64encode(zlib.compress(state.encode("utf-8"), 6)).decode("ascii")


def _nothing_changed(rt: Runtime, root: str, mode: str, unchanged: list[str], skipped: list[dict[str, str]],
                     capped: int, read: int, started: float) -> dict[str, Any]:
    """The common case of a scheduled re-ingest: no file changed, so no transaction, no link index, no writes."""
    counts = rt.store.vault.counts()  # type: ignore[attr-defined]
    out: dict[str, Any] = {
        "mode": mode, "vault": root, "notes_read": 0, "notes_unchanged": len(unchanged), "notes_removed": 0,
        "notes_moved": 0, "decisions_moved": 0, "decisions_carried": [],
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


def _read_linking_notes(rt: Runtime, entries: Sequence[VaultEntry], known: Mapping[str, VaultFile],
                        to_plan: list[tuple[str, bytes, float]], same_bytes: list[str], unchanged: list[str],
                        restamped: list[tuple[str, float, int]]) -> None:
    """Read too the unchanged notes that link to a forgotten row an edited note brings back (its note, a heading):
    a link is written by the note that links, and without this read the links stayed retired while the note came
    back (`forget --undo` marks them so: app/revival.py). They are read as unchanged notes are, what a forget took
    of them staying forgotten."""
    planned = {rel for rel, _data, _mtime in to_plan}
    edited = sorted(planned.intersection(known) - set(same_bytes))
    back = forgotten_rows(rt, edited) if edited else {}
    _read_again(entries, linking_notes(rt, back) & set(unchanged) if back else set(), to_plan, same_bytes, unchanged,
                restamped)


def _read_again(entries: Sequence[VaultEntry], rels: set[str], to_plan: list[tuple[str, bytes, float]],
                same_bytes: list[str], unchanged: list[str], restamped: list[tuple[str, float, int]]) -> None:
    """Plan again the unchanged notes `rels`, read as unchanged notes are: what a forget took stays forgotten."""
    for entry in entries:
        if entry.rel in rels and (data := _read(entry)) is not None:
            unchanged.remove(entry.rel)
            restamped[:] = [r for r in restamped if r[0] != entry.rel]
            same_bytes.append(entry.rel)
            to_plan.append((entry.rel, data, entry.mtime))
    if rels:  # (in the walk's order, as every other read)
        order = {entry.rel: k for k, entry in enumerate(entries)}
        to_plan.sort(key=lambda planned_note: order[planned_note[0]])


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


def _record_senses(rt: Runtime, plans: Sequence[NotePlan]) -> list[dict[str, Any]]:
    """Store the `md` sense event the planner made of each new or changed note (app/vault/plan.py); a plan has
    none when the world model is not installed. A note whose path is longer than the world model can index (on
    PostgreSQL a key has a size limit; both backends keep it) is ingested without its event: the warnings say so."""
    from ...core.world.values import KEY_MAX_BYTES

    events, warnings = [], []
    world = world_senses() is not None
    for plan in plans:
        if world and path_too_long_for_world(plan.path):  # (planned without its event)
            warnings.append({"path": plan.path, "code": "path_too_long_for_world_model",
                             "message": f"the note's path is over {KEY_MAX_BYTES} bytes: no sense event was kept"})
        elif plan.sense_event is not None:
            events.append((plan.sense_event, plan.path))
    if events:
        from ..world import store_sense_events

        store_sense_events(rt, events)
    return warnings


EMBED_PENDING = "embed_pending"


def ingest_embedded(store: Any) -> None:
    """Inside a write transaction, once every memory has its vector (`embed --all` done): a cut-short ingest's mark
    goes, or a memory stored without a vector later would be blamed on that run (`app.unfinished`)."""
    if store.vault.get_state(EMBED_PENDING):
        store.vault.set_state(EMBED_PENDING, "")


def _left_without_vectors(rt: Runtime) -> list[str] | None:
    """The memories an earlier run stored but was stopped before embedding (its mark is still set), or None. Read
    whole only then: in the common case one state lookup."""
    store = rt.store
    if not rt.vectors_enabled or getattr(store, "readonly", False) or not store.vault.get_state(  # type: ignore[attr-defined]
            EMBED_PENDING):
        return None
    return [m.id for m in store.nodes_missing_vectors(rt.provider.identity())]


def _embed_new(rt: Runtime, ids: Sequence[str], batch: int = 64, progress: Progress | None = None, *,
               finishes_ingest: bool = False) -> dict[str, Any]:
    """Vectors for memories this ingest wrote or revived, skipping any whose content already has one; each batch
    commits on its own, so an interrupted run keeps what it embedded, and the next ingest (or `embed --all`)
    finishes it. `finishes_ingest`: once every one has its vector, the ingest's pending mark goes."""
    if not rt.vectors_enabled:
        return {"embedded": 0, "provider": None}
    identity = rt.provider.identity()
    warned = len(rt.warnings)
    done, missing = rt.embed_stored(ids, batch=batch, progress=progress)
    stopped: str | None = None
    if done < missing:  # the embedder failed (its warning says why): what is stored stays, vectors come later
        stopped = rt.warnings.pop() if len(rt.warnings) > warned else "the embedding provider gave no vectors"
    if finishes_ingest and done == missing and rt.store.vault.get_state(EMBED_PENDING):  # type: ignore[attr-defined]
        with rt.store.transaction():
            rt.store.vault.set_state(EMBED_PENDING, "")  # type: ignore[attr-defined]
    out: dict[str, Any] = {"embedded": done, "provider": rt.provider.name, "identity": identity}
    if stopped is not None:
        out.update(left=missing - done, stopped=stopped,
                   hint=typed("everything else is stored; the next ingest or `mnemon embed --all` adds these vectors"))
    return out
