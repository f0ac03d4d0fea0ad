"""`mnemon import` of a `mnemon export` file (`backup_export.py`): its exact restore, at any store size.

The restore reads the file as it goes (`ports/json_stream.py`) and writes in bulk statements inside one transaction.
Each row is checked on its own (`backup_rows.py`, `backup_world.py`): a bad one is reported with its index and the
rest restored, so one hand-edited line does not make a whole backup unusable; a file that is not an export at all
writes nothing.

Restoring into a live store never replaces what is there: a memory it holds is skipped (a forgotten one too, unless
`revive_forgotten` asks to bring it back), and so is an edge or a world row it holds — a later correction or a
killed tombstone stays as it is. A (subject, predicate) chain of assertions the store and the file both add to is
re-chained by the world model's own rule (`backup_world.py`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidInput
from ..core.model import REMOVAL_ACTORS, SOURCED_PREFIXES, Edge, Memory, iso
from ..core.validation import FUTURE_SLACK
from ..core.surface import typed
from ..ports.store.history_reads import vectors_of
from .backup_export import EXPORT_KIND, PENDING_DECISIONS, is_decision
from .backup_rows import (EDGE_DEFAULTS, HistoryEvent, dated_ahead_warning, decode_vector, edge_decision, edge_history,
                          insight_error, parse_edge, parse_insight, provider_width)
from .backup_world import WORLD_MEMBERS, WorldRestore, member_batches, relink_source_edges
from .import_report import bounded, refused_said
from .key_filter import KeyFilter
from .runtime import Runtime
from .unread_fields import UnreadFields

if TYPE_CHECKING:
    import numpy as np

__all__ = ["EXPORT_KIND", "READABLE_VERSIONS", "STREAMED_MEMBERS", "apply_pending_decisions", "restore",
           "warn_over_cap"]

READABLE_VERSIONS = ("1", "2", "3", "4")
# the members a reader can take item by item (`ports/json_stream.ObjectStream`); any other is read whole
STREAMED_MEMBERS = frozenset({"insights", "edges", "vault_edges", *WORLD_MEMBERS})
BATCH = 2_000  # insights or edges written per bulk statement
_VAULT_SOURCE = "vault:"
# what an export of any readable version holds: another member is named in a warning, never dropped in silence
_DOCUMENT_MEMBERS = frozenset({"kind", "schema_version", "exported_at", "provider", "insights", "edges",
                               "vault_edges", *WORLD_MEMBERS})
# the fields a restore reads of an insight and of an edge (`backup_rows`); any other is named in a warning
INSIGHT_FIELDS = ("id", "kind", "content", "category", "importance", "tags", "entities", "source", "title", "metadata",
                  "access_count", "effective_importance", "created_at", "updated_at", "last_accessed_at",
                  "inserted_at", "deleted_at", "vector")
EDGE_FIELDS = ("source_id", "target_id", "edge_type", "sub_type", "weight", "confidence", "status", "origin",
               "evidence", "rule", "source_path", "metadata", "created_at", "updated_at", "decision", "history")


@dataclass
class _Run:
    """What a restore did so far — or, in a dry run, would do."""
    dry_run: bool
    revive_forgotten: bool
    full_report: bool  # rows with their text, every refused row in full (`import_report.bounded`)
    decode_vectors: bool  # the file's vectors were made by this store's provider
    width: int | None  # the width they must have (None: the first one decides)
    nul_ok: bool  # the store's text columns can hold a NUL
    results: list[dict[str, Any]] = field(default_factory=list)
    added: set[str] = field(default_factory=set)  # ids inserted by this restore
    revived: set[str] = field(default_factory=set)  # forgotten memories brought back
    left_at: dict[str, str] = field(default_factory=dict)  # when each of them had been forgotten
    named: dict[str, tuple[int, str]] = field(default_factory=dict)  # each id the file named: its first row, text
    same_as: dict[str, str] = field(default_factory=dict)  # a skipped row → the live memory holding its text
    to_embed: list[str] = field(default_factory=list)  # memories restored without a usable vector
    held: list[str] = field(default_factory=list)  # live memories skipped as held: a stopped restore's may lack one
    edge_ends: set[str] = field(default_factory=set)  # the ends of the edges written in bulk by earlier batches
    written: KeyFilter = field(default_factory=KeyFilter)  # the keys of the edges this restore wrote (may say "maybe")
    seen: int = 0
    counted: int = 0  # the added or revived rows the store's cap counts (live memories, not a vault's or payload's)
    other_text: int = 0  # rows whose id the store holds with other text: the store's row stays (`other_text`)
    dated_ahead: int = 0  # added memories dated past the store's clock by more than remember allows: said
    latest_ahead: str = ""
    skipped: int = 0
    errors: int = 0
    edges_inserted: int = 0
    edges_revived: int = 0
    resplit: int = 0  # the steps a forget's re-join made around a revived memory, undone
    edges_skipped: int = 0
    edges_dangling: int = 0
    edge_results: list[dict[str, Any]] = field(default_factory=list)
    decisions_applied: int = 0  # `vault_edges` written over the store's edges now
    pending: list[Any] = field(default_factory=list)  # `vault_edges` waiting for an ingest to make their ends
    unknown: list[str] = field(default_factory=list)  # members no export of a readable version has: not restored
    unread: tuple[UnreadFields, ...] = field(default_factory=lambda: (  # the rows' fields a restore does not read
        UnreadFields("insight", INSIGHT_FIELDS), UnreadFields("edge", EDGE_FIELDS),
        UnreadFields("vault edge", EDGE_FIELDS)))

    def error(self, idx: int, item: Any, exc: InvalidInput) -> None:
        self.errors += 1
        entry: dict[str, Any] = {"index": idx, "action": "error", "error": exc.to_dict()}
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            entry["id"] = item["id"]
        self.results.append(entry)

    def reply(self) -> dict[str, Any]:
        self.results.sort(key=lambda r: r["index"])  # (a batch's refused rows were listed first)
        edges = {"edges_skipped": self.edges_skipped, "edges_dangling": self.edges_dangling,
                 "edge_errors": len(self.edge_results), **bounded(self.edge_results, "edge_", full=self.full_report),
                 "decisions_restored": self.decisions_applied, "decisions_waiting_for_ingest": len(self.pending)}
        if self.dry_run:
            return {"dry_run": True, "imported": 0, "would_import": len(self.added), "would_revive": len(self.revived),
                    "updated": 0, "skipped": self.skipped, "errors": self.errors, "edges_inserted": 0,
                    "edges_planned": self.edges_inserted + self.edges_revived, **edges, "auto_pruned": 0,
                    **bounded(self.results, full=self.full_report)}
        return {"imported": len(self.added), "revived": len(self.revived), "updated": 0, "skipped": self.skipped,
                "errors": self.errors, "edges_inserted": self.edges_inserted, "edges_revived": self.edges_revived,
                **({"backbone_resplit": self.resplit} if self.resplit else {}),
                **edges, "auto_pruned": 0, "auto_pruned_ids": [],
                **bounded(self.results, full=self.full_report)}


def restore(rt: Runtime, head: dict[str, Any], insights: Iterable[Any], rest: Iterator[tuple[str, Any]], *,
            dry_run: bool, revive_forgotten: bool = False, full_report: bool = False) -> dict[str, Any]:
    """Restore an export exactly: same ids, timestamps, edges and world rows; no automatic edges are grown.
    `insights` may be a list or a stream; `rest` yields the document's members after them (edges, vault edges,
    world members). A world member `rest` does not bring is read from `head` (a document parsed whole, or one that
    puts it before its insights). Memories that arrive without a vector of this store's provider are embedded
    afterwards (`embedded`), or a warning says how. The world tables' part of the reply is under `world`."""
    if not isinstance(insights, (list, Iterator)):
        raise InvalidInput("an export file must be a JSON object with an 'insights' array")
    identity = rt.provider.identity()
    decode = rt.vectors_enabled and head.get("provider") == identity
    run = _Run(dry_run=dry_run, revive_forgotten=revive_forgotten, full_report=full_report, decode_vectors=decode,
               width=provider_width(identity) if decode else None, nul_ok=getattr(rt.store, "holds_nul_text", True))
    items = iter(insights)
    run.unknown = [key for key in head if key not in _DOCUMENT_MEMBERS]
    if dry_run:
        world = WorldRestore.start(rt, dry_run=True)
        while batch := list(islice(items, BATCH)):
            _plan_insights(rt, batch, run)
        _refuse_if_no_memory_landed(run)
        _place_members(rt, rest, run, world)
        world.finish(head)
        _refuse_if_nothing_landed(run, world)
        _warn_unknown(rt, run, world)
        warn_over_cap(rt, adding=run.counted, dry_run=True)
        return {**run.reply(), "world": world.reply()}
    if rt.vectors_enabled:
        # mapped now, outside the transaction (inside it the saved copy cannot be trusted): the vectors written below
        # are then appended to it at close (`_index_written`)
        rt.index.follow_saved()
    # without per-row foreign-key probes (~15 % of the edge inserts): every node a row names is read from `nodes` in
    # this transaction (`node_seqs`, `_live`), and a restore deletes no node
    with rt.store.bulk_transaction():
        world = WorldRestore.start(rt, dry_run=False)
        while batch := list(islice(items, BATCH)):
            new, forgotten = _plan_insights(rt, batch, run)
            _write_insights(rt, new, forgotten, run)
        _refuse_if_no_memory_landed(run)  # inside the transaction: nothing of the file is written
        _place_members(rt, rest, run, world)
        _resplit_revived(rt, run)
        world.finish(head)
        if run.pending and not run.dry_run:
            _keep_pending(rt, run.pending)
        _refuse_if_nothing_landed(run, world)  # (before the import's own oplog row: nothing is written)
        rt.store.log("import", None, {"restored": len(run.added), "revived": len(run.revived),
                                      "errors": run.errors, "edges": run.edges_inserted + run.edges_revived,
                                      "edges_skipped": run.edges_skipped, "world_rows": world.restored(),
                                      "world_errors": world.errors(),
                                      **({"backbone_resplit": run.resplit} if run.resplit else {})}, rt.now_iso())
    _warn_unknown(rt, run, world)
    warn_over_cap(rt)
    out = {**run.reply(), "world": world.reply()}
    out["embedded"] = _embed_restored(rt, run.to_embed, run.held)
    return out


def _refuse_if_no_memory_landed(run: _Run) -> None:
    """An export whose every memory is refused is an error, as a file whose every row is (`transfer`): its world rows
    (every export holds a remember's sense events) made it a partial import, exit 0, and `mnemon import f && rm f`
    deleted the memories. Raised before anything else of the file is placed, and inside the restore's transaction,
    so nothing is written. An export holding no memories at all is no such error."""
    if run.errors and not (run.added or run.revived or run.skipped):
        would = "would be" if run.dry_run else "was"
        rows = bounded(run.results, full=run.full_report)
        raise InvalidInput(f"nothing {would} imported: all {run.errors} memories of the export were refused, so none "
                           f"of its edges or world rows were taken either ({refused_said(rows)})",
                           dry_run=run.dry_run, imported=0, errors=run.errors, **rows,
                           **({"warnings": unread} if (unread := _unread(run)) else {}))


def _refuse_if_nothing_landed(run: _Run, world: WorldRestore) -> None:
    """An export whose every row is refused — memories, edges and world rows alike — is an error, as a draft's is
    (`transfer.refuse_if_nothing_landed`, which counts only the memories' errors): an export holding world rows only,
    each malformed, exited 0 with its errors under `world`, and `mnemon import f && rm f` deleted the file."""
    refused = run.errors + len(run.edge_results) + world.errors()
    landed = (len(run.added) + len(run.revived) + run.skipped + run.edges_inserted + run.edges_revived
              + run.decisions_applied + len(run.pending) + world.restored() + world.skipped())
    if refused and not landed:
        would = "would be" if run.dry_run else "was"
        reply = run.reply()
        said = refused_said(reply, "details.results, details.edge_results and details.world.results say why for each")
        raise InvalidInput(f"nothing {would} imported: all {refused} rows of the export were refused ({said})",
                           **reply, world=world.reply(),
                           **({"warnings": unread} if (unread := _unread(run) + world.unread_warnings()) else {}))


def warn_over_cap(rt: Runtime, adding: int = 0, *, dry_run: bool = False) -> None:
    """A restore never prunes (a draft's import prunes one batch at most, none inside the grace period), but a store
    it leaves over its cap (a backup of a store with a larger one, a large draft) loses the lowest-importance
    memories to every later write once their grace period is over: said now, while raising the cap still keeps them
    all. A dry run (`adding`: the memories it would add or revive) says it would: it said
    nothing, and the real restore then warned."""
    cap = rt.max_insights
    held = rt.store.count_prunable(cap + 1) + adding if cap > 0 else 0
    if held > cap:
        count = rt.store.count_prunable(10 ** 9) + adding
        holds = "would then hold" if dry_run else "now holds"
        rt.warnings.append(f"this store {holds} {count} memories, over its cap of {cap} (MNEMON_MAX_INSIGHTS, "
                           "max_insights in the config file): once past their grace period, every write soft-deletes "
                           f"the lowest-importance ones until {cap} are left; raise the cap to keep them all")


def _warn_unknown(rt: Runtime, run: _Run, world: WorldRestore) -> None:
    """A member no export this mnemon reads has (a newer mnemon's that kept the schema version, an edited file) is
    left out: said, so the reply does not read as a whole restore."""
    if run.unknown:
        names = ", ".join(repr(k) for k in dict.fromkeys(run.unknown))
        rt.warnings.append(f"the file's {names} {'is' if len(set(run.unknown)) == 1 else 'are'} not part of an export "
                           "this mnemon restores, so nothing of it was restored (written by a newer mnemon, or "
                           "edited?)")
    rt.warnings.extend(_unread(run) + world.unread_warnings())
    if run.dated_ahead:
        rt.warnings.append(dated_ahead_warning(run.dated_ahead, run.latest_ahead, dry_run=run.dry_run))
    if run.other_text:
        rows = f"{run.other_text} row{'s' if run.other_text > 1 else ''}"
        rt.warnings.append(f"{rows} of the file name a memory this store holds with other text: the store's text is "
                           "kept and the file's is not restored (`other_text` in results); "
                           + typed("`mnemon show ID` shows the stored one"))


def _unread(run: _Run) -> list[str]:
    """A warning for each field of the file's insights, edges and vault edges that a restore does not read (a hand
    edit's `"importanc": 5` was restored at the row's old importance without a word)."""
    return [w for part in run.unread for w in part.warnings(f"an export's {part.what}", verb="restored")]


def _place_members(rt: Runtime, rest: Iterator[tuple[str, Any]], run: _Run, world: WorldRestore) -> None:
    """The file's members after its insights, `BATCH` rows at a time, each by its own rules."""
    for key, value in rest:
        if key in ("edges", "vault_edges"):
            if not isinstance(value, (list, Iterator)):
                raise InvalidInput(f"'{key}' must be an array")
            items = enumerate(value)
            while batch := list(islice(items, BATCH)):
                _place_edges(rt, batch, run) if key == "edges" else _place_decisions(rt, batch, run)
        elif key in WORLD_MEMBERS:
            for rows in member_batches(key, value):
                world.place(key, rows)
        elif key not in _DOCUMENT_MEMBERS:  # (parsed whole: only known arrays are streamed)
            run.unknown.append(key)


def _plan_insights(rt: Runtime, batch: list[Any], run: _Run
                   ) -> tuple[list[tuple[Memory, np.ndarray | None]], list[Memory]]:
    """The batch's rows the store does not hold (to insert) and those it holds forgotten that the caller asked to
    bring back; every row gets its entry in `run.results`."""
    now = rt.now_iso()
    ahead_of = iso(rt.now() + FUTURE_SLACK)
    parsed: list[tuple[int, Memory, Any]] = []
    for k, item in enumerate(batch):
        run.unread[0].note(run.seen + k, item)
        try:
            parsed.append((run.seen + k, *parse_insight(item, run.seen + k, now, nul_ok=run.nul_ok)))
        except InvalidInput as exc:
            run.error(run.seen + k, item, exc)
    run.seen += len(batch)
    held = rt.store.node_heads([m.id for _, m, _ in parsed])
    stored = {i: n.content_hash for i, n in rt.store.get_nodes(list(held)).items()} if held else {}
    twins = _live_twins(rt, [m for _, m, _ in parsed])
    new: list[tuple[Memory, np.ndarray | None]] = []
    forgotten: list[Memory] = []
    for idx, mem, raw_vector in parsed:
        entry: dict[str, Any] = {"index": idx, "id": mem.id, "content": mem.content}
        if mem.id in stored and stored[mem.id] != mem.content_hash and mem.id not in run.named:
            # skipped (or revived) as the store's row: "exists" beside the file's text read as that text being there
            entry["other_text"] = True
            run.other_text += 1
        head = held.get(mem.id)
        twin = twins.get(mem.content_hash)
        first = run.named.get(mem.id)
        if first is not None and first[1] != mem.content_hash:
            # the same id with other text: a later row cannot be restored beside the first, and a "skipped" with
            # errors 0 lost its text without a word
            run.error(idx, {"id": mem.id}, insight_error(idx, f"id {mem.id!r} is insight {first[0]}'s too, which "
                                                              "holds other text: one id is one memory, so this row "
                                                              "was not restored; give it a new id to restore it"))
            continue
        if first is not None:  # (a concatenated backup: the same row twice)
            run.skipped += 1
            run.results.append({**entry, "action": "skipped", "reason": "repeated", "first_index": first[0]})
        elif (twin is not None and twin != mem.id and twin not in run.added
              and (head is None or (head[1] and run.revive_forgotten))):
            # added or revived, it would stand beside a live memory of the same text (remembered again since, or
            # held under another id): the file's edges of it go to that one. Not one this restore wrote: a store
            # that held a text twice (`remember --no-diff`) is restored as it was
            run.skipped += 1
            run.same_as[mem.id] = twin
            run.results.append({**entry, "action": "skipped", "reason": "same_content", "existing_id": twin})
        elif head is not None and head[1] and mem.deleted_at is None:
            # forgotten in this store after the backup was made: a plain "skipped" read as "already there"
            if run.revive_forgotten and head[0] == "memory" and not head[3].startswith(_VAULT_SOURCE):
                forgotten.append(mem)
                run.revived.add(mem.id)
                run.counted += not head[3].startswith(SOURCED_PREFIXES)
                run.results.append({**entry, "action": "would_revive" if run.dry_run else "revived"})
            else:
                run.skipped += 1
                run.results.append({**entry, "action": "skipped", "reason": "forgotten",
                                    "hint": _forgotten_hint(head[3])})
        elif head is not None:
            run.skipped += 1
            run.results.append({**entry, "action": "skipped", "reason": "exists"})
            if head[0] == "memory" and mem.kind == "memory" and mem.deleted_at is None:
                run.held.append(mem.id)
        else:
            try:
                vec = _vector_of(mem, raw_vector, idx, run)
            except InvalidInput as exc:
                run.error(idx, {"id": mem.id}, exc)
                continue
            if vec is None and mem.kind == "memory" and mem.deleted_at is None:
                run.to_embed.append(mem.id)
            new.append((mem, vec))
            run.added.add(mem.id)
            if mem.kind == "memory" and not mem.deleted_at and mem.created_at > ahead_of:  # (both canonical ISO)
                run.dated_ahead += 1
                run.latest_ahead = max(run.latest_ahead, mem.created_at)
            run.counted += mem.kind == "memory" and not mem.deleted_at and not mem.source.startswith(SOURCED_PREFIXES)
            # (a payload row kept deleted for a decision about one of its edges is restored deleted, as it was)
            run.results.append({**entry, "action": "would_add" if run.dry_run else "added",
                                **({"deleted": True} if mem.deleted_at else {})})
        run.named[mem.id] = (idx, mem.content_hash)
    return new, forgotten


def _live_twins(rt: Runtime, rows: list[Memory]) -> dict[str, str]:
    """Content hash → the live memory of that text, for the rows that are live memories of the writer's own (a
    vault's or a payload's rows may share a text: they are found by their source, not by it)."""
    digests = [m.content_hash for m in rows
               if m.kind == "memory" and m.deleted_at is None and not m.source.startswith(SOURCED_PREFIXES)]
    return rt.store.find_active_by_hashes(digests) if digests else {}


def _forgotten_hint(source: str) -> str:
    if source.startswith(_VAULT_SOURCE):
        return typed("a vault memory comes back when its note is read again (`mnemon ingest`), not from a backup")
    return typed("forgotten in this store after the backup was made; `mnemon import FILE --revive-forgotten` brings "
                 "it back")


def _index_written(rt: Runtime, ids: list[str], gen: int) -> None:
    """The vectors just written (or revived) told to this process's index, as read back from the store: unseen, the
    saved matrix was left stale, and the next process read every vector from the database and saved them whole,
    dropping a large store's approximate index until it was rebuilt (`restore` maps the saved matrix first)."""
    if ids and rt.vectors_enabled:
        rt.index.note_writes(vectors_of(rt.store, ids, rt.provider.identity()), gen)


def _vector_of(mem: Memory, raw: Any, idx: int, run: _Run) -> np.ndarray | None:
    """The row's vector from the file, when it was made by this store's provider and is one recall can use."""
    if not run.decode_vectors or mem.kind != "memory" or mem.deleted_at:
        return None
    vec = decode_vector(raw, idx, run.width)
    if vec is not None and run.width is None:
        run.width = int(vec.shape[0])  # a provider that does not name its width: every row must match the first
    return vec


def _write_insights(rt: Runtime, new: list[tuple[Memory, np.ndarray | None]], forgotten: list[Memory],
                    run: _Run) -> None:
    store = rt.store
    store.insert_nodes([(m, None) for m, _ in new])
    store.index_entities_of_new([(m.id, m.entities, m.created_at) for m, _ in new
                                 if m.entities and m.deleted_at is None])
    identity = rt.provider.identity()
    gen = store.vector_generation()
    for m, vec in new:
        if vec is not None:
            store.put_vector(m.id, identity, vec, m.content_hash, rt.now_iso())
    _index_written(rt, [m.id for m, vec in new if vec is not None], gen)
    if forgotten:
        now = rt.now_iso()
        run.left_at.update((i, n.deleted_at) for i, n in store.get_nodes([m.id for m in forgotten]).items()
                           if n.deleted_at)
        # the stored row comes back as it was (its id, vector and edges); `soft_delete` undone
        gen = store.vector_generation()
        revived = set(store.undelete([m.id for m in forgotten], now))
        _index_written(rt, sorted(revived), gen)
        # (the plan read these rows in this transaction, so all come back; were one not to, its edges must not
        # count it as live)
        run.revived -= {m.id for m in forgotten} - revived
        # (with when it was removed: a replay before the revival reads it as absent, app/replay.py)
        store.log_many([("revive", m.id, {**rt.audit(m.content), "by": "import",
                                          "deleted_at": run.left_at.get(m.id)}, now)
                        for m in forgotten if m.id in revived])
        run.to_embed.extend(m.id for m in forgotten)  # only those without a current vector are embedded


_Decided = tuple[tuple[str, str] | None, list[HistoryEvent]]  # an exported edge's (event, actor) and its history


def _place_edges(rt: Runtime, batch: list[tuple[int, Any]], run: _Run) -> None:
    """Write the batch's edges whose ends both live: in bulk when one end was restored just now (such an edge
    cannot exist yet); between two nodes the store already held, only when it holds no such edge — an edge it has
    is its own, later edits and kills included — except one its memory's forgetting retired, which comes back with
    that memory."""
    now = rt.now_iso()
    edges: list[Edge] = []
    decided: dict[tuple[str, str, str], _Decided] = {}  # the file's person decisions, by edge key
    note, same_as, nul_ok = run.unread[1].note, run.same_as, run.nul_ok
    for k, raw in batch:
        note(k, raw)
        try:
            e, history = parse_edge(raw, k, now, nul_ok=nul_ok), edge_history(raw, k)
        except InvalidInput as exc:
            run.edge_results.append({"index": k, "action": "error", "error": exc.to_dict()})
            continue
        if e.src in same_as or e.dst in same_as:  # a row skipped for its live twin
            e.src, e.dst = same_as.get(e.src, e.src), same_as.get(e.dst, e.dst)
            if e.src == e.dst:
                run.edges_skipped += 1
                continue
        edges.append(e)
        if (decision := edge_decision(raw)) is not None or history:
            decided.setdefault((e.src, e.dst, e.type), (decision, history))
    ends = {x for e in edges for x in (e.src, e.dst)} - run.added
    # a dry run revived nothing yet: the memories it would revive count as live
    live = _live(rt, ends) | run.revived
    stored = _stored_states(rt, edges, run, live)
    fresh: dict[tuple[str, str, str], Edge] = {}
    placed: set[tuple[str, str, str]] = set()  # the edges between held memories this batch placed (or skipped)
    for e in edges:
        src_new, dst_new = e.src in run.added, e.dst in run.added
        key = (e.src, e.dst, e.type)
        if not ((src_new or e.src in live) and (dst_new or e.dst in live)):
            run.edges_dangling += 1  # an end the store lacks or has forgotten, or a row refused above
        elif src_new or dst_new:
            # the same edge twice in the file (a hand-edited or concatenated backup): the first copy stands, as for a
            # repeated insight. A bulk insert of the second failed the whole restore on SQLite (a unique key) once
            # it came a batch later; only an edge both of whose ends earlier batches wrote can be such a repeat
            if key in fresh or key in stored:
                run.edges_skipped += 1
            else:
                fresh[key] = e
        elif key in placed:  # (the store was asked before this batch wrote its first copy)
            run.edges_skipped += 1
        else:
            placed.add(key)
            if (edge_id := _place_known_edge(rt, e, stored.get(key), run)) is not None and key in decided:
                _record_decisions(rt, [(edge_id, e, decided[key])])
    if not run.dry_run:
        rt.store.insert_edges(list(fresh.values()))
        run.edge_ends.update(x for key in fresh for x in key[:2])
        run.written.update(fresh)
        if wanted := [key for key in fresh if key in decided]:
            ids = rt.store.vault.edges_by_keys(wanted)  # type: ignore[attr-defined]
            _record_decisions(rt, [(int(ids[key].id or 0), fresh[key], decided[key]) for key in wanted if key in ids])
    run.edges_inserted += len(fresh)


def _record_decisions(rt: Runtime, rows: list[tuple[int, Edge, _Decided]]) -> None:
    """Log the person decisions restored edges carried (edge id, edge as restored, ((event, actor), history)) as
    the events `person_decision` reads: without them a restored weakening or validation read as the payload's or
    the pack's own values, and the next re-send or ingest of the evidence pack undid it. The decisions' own events
    come back as they were (who, when, why); an export made before it carried them has the decision recorded anew."""
    when = rt.now_iso()
    rt.store.vault.log_edge_events([  # type: ignore[attr-defined]
        *((edge_id, *event) for edge_id, _e, (_d, history) in rows for event in history),
        *((edge_id, event, actor, {"reason": "restored_from_backup", "strength": e.weight, "status": e.status}, when)
          for edge_id, e, (decision, history) in rows if decision is not None
          for event, actor in [decision] if not _told(history, decision))])


def _told(history: list[HistoryEvent], decision: tuple[str, str]) -> bool:
    """Whether the history's last decision is the one the row names (a hand-edited row may say otherwise)."""
    return bool(history) and history[-1][:2] == decision


def _stored_states(rt: Runtime, edges: list[Edge], run: _Run, live: set[str]
                   ) -> dict[tuple[str, str, str], tuple[int, str]]:
    """(id, status) of the batch's edges the store may hold, asked at once: those between two memories it held
    (restored over the store it came from, every edge is one), and those both of whose ends earlier batches wrote
    when the filter of the keys written says the edge may be one of them (a repeat in the file)."""
    keys = [(e.src, e.dst, e.type) for e in edges
            if (e.src in live and e.dst in live)
            or (e.src in run.edge_ends and e.dst in run.edge_ends and (e.src, e.dst, e.type) in run.written)]
    return rt.store.edge_states(keys) if keys else {}


def _place_known_edge(rt: Runtime, e: Edge, existing: tuple[int, str] | None, run: _Run) -> int | None:
    """The id of the edge written, when it was written as the file has it; `existing`: the (id, status) of the
    store's edge between the same ends, if any."""
    if existing is None:
        run.edges_inserted += 1
        return None if run.dry_run else rt.store.upsert_edge(e, actor="import", event="restored")
    edge_id, status = existing
    if (status == "retired" and e.status in ("active", "candidate")
            and (e.src in run.revived or e.dst in run.revived) and _retired_by_forget(rt, edge_id)):
        if not run.dry_run:
            rt.store.set_edge_status(edge_id, e.status, actor="import",
                                     reason="its forgotten memory was revived from a backup")
        run.edges_revived += 1
    else:
        run.edges_skipped += 1
    return None


def _place_decisions(rt: Runtime, batch: list[tuple[int, Any]], run: _Run) -> None:
    """The file's decisions about vault edges: applied now when both ends exist (`_apply_decision`), otherwise kept
    until an ingest makes them. A row that does not parse is an `edge_results` error, as in `edges`."""
    now = rt.now_iso()
    parsed: list[tuple[Any, Edge, _Decided]] = []
    for k, raw in batch:
        run.unread[2].note(k, raw)
        try:
            parsed.append((raw, parse_edge(raw, k, now, nul_ok=run.nul_ok), (edge_decision(raw), edge_history(raw, k))))
        except InvalidInput as exc:
            run.edge_results.append({"index": k, "vault_edge": True, "action": "error", "error": exc.to_dict()})
    live = _live(rt, {x for _raw, e, _d in parsed for x in (e.src, e.dst)}) | run.added
    for raw, e, decided in parsed:
        if e.src in live and e.dst in live:
            applied = _apply_decision(rt, e, decided, dry_run=run.dry_run)
            run.written.update([(e.src, e.dst, e.type)])  # (an `edges` row after it must find it)
            run.decisions_applied += applied
            run.edges_skipped += not applied
        else:
            run.pending.append(raw)


def _live(rt: Runtime, ids: set[str]) -> set[str]:
    return {i for i, (_, deleted, _, _) in rt.store.node_heads(sorted(ids)).items() if not deleted}


def _apply_decision(rt: Runtime, e: Edge, decided: _Decided, *, dry_run: bool = False) -> bool:
    """Write a restored decision over the store's edge between the same ends — unless that edge records a decision
    of its own (a kill, a validation, a claim), which stays as it is; False then. A restored kill is the exception:
    it wins over any edge not killed, as a tombstone blocks re-creation (a claim replayed from its evidence pack
    after the restore would otherwise come back). A dry run only says which it would be."""
    existing = rt.store.find_edge(e.src, e.dst, e.type)
    kept = (existing is not None and not (existing.status != "killed" and e.status == "killed")
            and is_decision(existing, {existing.src, existing.dst}))
    if not kept and not dry_run:
        edge_id = rt.store.upsert_edge(e, actor="import", event="restored")
        _record_decisions(rt, [(edge_id, e, decided)])
    return not kept


def _keep_pending(rt: Runtime, rows: list[Any]) -> None:
    vault = rt.store.vault  # type: ignore[attr-defined]
    held = json.loads(vault.get_state(PENDING_DECISIONS) or "[]")
    # the same backup restored twice before the ingest, or an export written before and one written since (which
    # leaves out the fields at their defaults): each decision waits once
    known = {_decision_text(row) for row in held}
    for row in rows:
        if (text := _decision_text(row)) not in known:
            known.add(text)
            held.append(row)
    vault.set_state(PENDING_DECISIONS, json.dumps(held, ensure_ascii=False))


def _decision_text(row: Any) -> str:
    """A decision row as one text whether or not its fields at their defaults are spelled out."""
    return json.dumps({**EDGE_DEFAULTS, **row} if isinstance(row, dict) else row, sort_keys=True, ensure_ascii=False)


def apply_pending_decisions(rt: Runtime) -> int:
    """After an ingest: the restored decisions whose ends the notes now make, applied; the rest kept waiting (a note
    not back yet). Inside the ingest's transaction. Returns how many were applied."""
    vault = rt.store.vault  # type: ignore[attr-defined]
    raw = vault.get_state(PENDING_DECISIONS)
    if not raw:
        return 0
    now = rt.now_iso()
    rows = json.loads(raw)
    edges = [parse_edge(r, k, now) for k, r in enumerate(rows)]  # (each parsed once already, when restored)
    live = _live(rt, {x for e in edges for x in (e.src, e.dst)})
    waiting = [r for r, e in zip(rows, edges) if not (e.src in live and e.dst in live)]
    applied = sum(_apply_decision(rt, e, (edge_decision(r), edge_history(r, k)))
                  for k, (r, e) in enumerate(zip(rows, edges)) if e.src in live and e.dst in live)
    vault.set_state(PENDING_DECISIONS, json.dumps(waiting, ensure_ascii=False) if waiting else "")
    if len(waiting) < len(rows):
        relink_source_edges(rt)  # the restored assertions resolved from the edges these decisions are about
    return applied


def _resplit_revived(rt: Runtime, run: _Run) -> None:
    """After the edges: each revived memory whose steps came back sits between the two memories of its source its
    forgetting re-joined (`remember.rejoin_backbone`), and those steps are undone (`split_rejoined`), or the earlier
    one would step forward to both."""
    if not run.left_at:
        return
    from .remember import split_rejoined  # (here: an export or a restore that revives nothing never loads it)

    revived = rt.store.get_nodes(sorted(run.revived & set(run.left_at)))
    for node_id, node in sorted(revived.items()):
        if node.deleted_at is None:
            run.resplit += split_rejoined(rt, node, actor="import",
                                          why="it was revived from a backup, with its own steps")


def _retired_by_forget(rt: Runtime, edge_id: int) -> bool:
    """Whether the edge's last change was the retirement `forget` (or auto-prune) gives the edges of the memory it
    deletes — not a backbone re-spliced around a backdated memory, which must stay retired."""
    events = rt.store.edge_events(edge_id)
    return bool(events) and events[-1]["event"] == "retired" and events[-1]["actor"] in REMOVAL_ACTORS


def _embed_restored(rt: Runtime, ids: list[str], held: list[str]) -> int:
    """Vectors for the restored memories that came without one of this store's provider (an export made with
    `--no-vectors`, or with another provider), as a draft import embeds what it adds; each batch commits on its
    own. When that cannot happen, a warning says how to finish it: recall by meaning finds no row without one.
    The file's memories the store already `held` get theirs too when they lack one: a restore stopped after its
    commit, while embedding, is finished by importing the same file again."""
    if not ids and not held:
        return 0
    if not rt.vectors_enabled:
        if ids:
            rt.warnings.append(f"{len(ids)} restored memories have no vectors: embedding is off (provider "
                               f"{rt.provider.name!r}), so recall finds them by their words only; choose a provider "
                               + typed("(MNEMON_EMBED_PROVIDER) and run `mnemon embed --all`"))
        return 0
    done, missing = rt.embed_stored([*ids, *held])  # (a provider that fails leaves its warning and stops)
    if done < missing:  # the restore itself is committed: say what is left instead of failing
        rt.warnings.append(f"{missing - done} restored memories have no vector of {rt.provider.identity()} yet, so "
                           + typed("recall by meaning cannot find them; run `mnemon embed --all`"))
    return done
