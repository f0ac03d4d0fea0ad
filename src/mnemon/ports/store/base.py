"""The store interface: domain operations over the one graph. Every SQL statement lives behind it.

Backends (SQLite, PostgreSQL) implement `Store` and pass the same contract tests. Nothing above this layer sees a
connection, a cursor or a dialect.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np


from ...core.errors import StoreBusy, StoreError
from ...core.model import Edge, Link, Memory, OplogEntry


def wait_said(waited_ms: int, set_by: str | None) -> str:
    """How long a call waited for another process and which setting made it wait that long (`set_by`: the flag,
    variable or config file `Config.sources` names, "default", or None when the opener did not say)."""
    if set_by == "default":
        how = "busy_wait's default; MNEMON_BUSY_WAIT or busy_wait in the config file sets another"
    else:
        how = f"busy_wait, set by {set_by}" if set_by else "setting busy_wait, MNEMON_BUSY_WAIT"
    return f"{waited_ms / 1000:g} s, the longest this call waits ({how})"


def another_ingest(path: str, waited_ms: int, set_by: str | None = None) -> StoreBusy:
    """The refusal of an ingest that waited `busy_wait` for another ingest of the store to end."""
    return StoreBusy(f"the store is busy: another ingest of {path} has held it for {wait_said(waited_ms, set_by)};"
                     " nothing was written: try again when it is done", path=path)


def another_writer(path: str, waited_ms: int, set_by: str | None = None) -> StoreBusy:
    """The refusal of a write that waited `busy_wait` for another process's write transaction to end."""
    return StoreBusy(f"the store is busy: another writer has held {path} for {wait_said(waited_ms, set_by)};"
                     " nothing was written: try again when it is done")


LONGEST_PAUSE_S = 0.05  # between two tries for a lock another process holds: as often as SQLite's busy handler asks


def take_turns(attempt: Callable[[], bool], turns: threading.Condition, wait_ms: int) -> bool:
    """`attempt()` (a try for a lock another process may hold, which does not wait) until it succeeds, for up to
    `wait_ms`: False when it never did. The caller holds the lock under `turns` (at any depth), and gives it up
    between two tries, so the calls of the other threads sharing the store's connection run meanwhile (`mnemon
    serve`: reads answered at once) instead of queueing behind this one for up to the whole wait."""
    deadline = time.monotonic() + wait_ms / 1000
    pause = 0.001
    while not attempt():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        turns.wait(min(pause, left))
        pause = min(pause * 2, LONGEST_PAUSE_S)
    return True


class WriterBusy(Exception):
    """Another writer holds the store's write transaction (raised only by `transaction(wait=False)`)."""


def disk_full(exc: BaseException) -> bool:
    """A write the database could not take because its disk is full: SQLite's SQLITE_FULL (a file at its
    `max_page_count` too), PostgreSQL's disk_full (by name: psycopg may not be installed)."""
    if isinstance(exc, sqlite3.OperationalError):
        return exc.sqlite_errorcode == sqlite3.SQLITE_FULL
    return any(cls.__module__.startswith("psycopg") and cls.__name__ == "DiskFull" for cls in type(exc).__mro__)


def refuse_newer_schema(path: str, applied: Iterable[str], known: Iterable[str]) -> None:
    """A store carrying migration steps this mnemon does not know was upgraded by a newer one: written as if it had
    the old layout, its rows would be misread by that newer mnemon, so a writable open is refused (read-only is
    not: reading harms nothing)."""
    newer = sorted(set(applied) - set(known))
    if newer:
        raise StoreError(f"{path} was upgraded by a newer mnemon (steps this one does not know: {', '.join(newer)}); "
                         "writing to it with this older one could damage it: upgrade mnemon (or open it --readonly)",
                         path=path, unknown_steps=newer)


@dataclass(frozen=True, eq=False)
class EdgeColumns:
    """Active edges as columns, what a full `graph_export` may yield in place of its batches of rows (a build of
    the recall graph at 100k memories made 4.5 million tuples, then read them back one by one): each edge's two
    ends as indexes into the node rows the export yielded, its (type, sub_type) as an index into `classes`, its
    weight; in edge-id order."""
    src: np.ndarray  # int
    dst: np.ndarray  # int
    cls: np.ndarray  # int
    classes: list[tuple[str, str]]
    weight: np.ndarray  # float64

    def rows(self, node_ids: Sequence[str]) -> list[tuple[str, str, str, str, float]]:
        """The edges as a batch of rows holds them, ends named by `node_ids` (the ids of the exported node rows)."""
        return [(node_ids[s], node_ids[d], *self.classes[c], w) for s, d, c, w in
                zip(self.src.tolist(), self.dst.tolist(), self.cls.tolist(), self.weight.tolist())]


@dataclass(frozen=True)
class MemoryFilter:
    category: str | None = None
    source: str | None = None
    kind: str | None = "memory"
    created_from: str | None = None  # ISO instants, inclusive: a period the caller asks about
    created_to: str | None = None
    # only rows with a time of their own: not vault-derived (their created_at is when they were ingested, not when
    # anything happened; time anchors and temporal proximity ask for these)
    timed_only: bool = False
    # any of these sources (a `retrieve` scoped to the notes its prompt names); empty = no such condition
    sources: tuple[str, ...] = ()


# (edge id, src, dst, type, status, weight × confidence, confidence): what ranking and walking edges need, without
# their texts
EdgeHead = tuple[int, str, str, str, str, float, float]
EdgeKey = tuple[str, str, str]  # (src, dst, type): one edge at most per key
TIMED = MemoryFilter(timed_only=True)  # active memories with a time of their own
ImportanceRow = tuple[str, int, int, str, float, int, str, str, bool]  # (`Store.importance_rows`)


class Store(Protocol):
    path: str
    readonly: bool

    def close(self) -> None: ...
    def one_call(self) -> AbstractContextManager[bool]:
        """Held for the whole of each call by whoever shares this store among threads (the HTTP server): the calls
        take turns — except that on SQLite a write waiting for another process's write lets the others' run."""
        ...
    def transaction(self, *, wait: bool = True) -> AbstractContextManager[None]:
        """The one write transaction (writers queue for it). `wait=False`: `WriterBusy` at once when another writer
        holds it — for bookkeeping a read may skip rather than wait behind an ingest (a recall's access counts)."""
        ...
    def bulk_transaction(self) -> AbstractContextManager[None]: ...
    def read_snapshot(self) -> AbstractContextManager[None]:
        """Every read inside sees one state of the store, without a lock a writer waits for (an export)."""
        ...
    def snapshot_path(self) -> str | None: ...

    # memories and nodes
    # an FTS body, when given, must be `core.keywords.keyword_text_of` the node; None computes it
    def insert_node(self, node: Memory, fts_body: str | None = None) -> None: ...
    def insert_nodes(self, items: Sequence[tuple[Memory, str | None]]) -> None: ...
    def update_node(self, node: Memory, fts_body: str | None = None) -> None: ...
    def get_node(self, node_id: str, *, include_deleted: bool = False) -> Memory | None: ...
    def get_nodes(self, ids: Sequence[str]) -> dict[str, Memory]: ...
    def node_heads(self, ids: Sequence[str]) -> dict[str, tuple[str, bool, str, str]]: ...
    # the first live row with this content hash whose source the writer owns (store/sources.py): vault and
    # payload rows are never matched, since they vanish with their note or scope and the repeat would vanish too
    def find_active_by_hash(self, digest: str, kind: str = "memory") -> str | None: ...
    def find_active_by_hashes(self, digests: Iterable[str], kind: str = "memory") -> dict[str, str]: ...
    # the first live memory of exactly this `mneme://` source with this content hash that `remember` wrote, not a
    # payload (id `<source>#…`, which a re-sent payload may replace): a repeat into that scope goes with it anyway
    def find_scope_repeat(self, digest: str, source: str) -> str | None: ...
    def iter_nodes(self, *, kind: str | None = "memory", include_deleted: bool = False) -> Iterator[Memory]: ...
    def latest_by_source(self, source: str, *, exclude: str | None = None, before: str | None = None) -> Memory | None: ...
    def next_by_source(self, source: str, *, after: str, exclude: str | None = None) -> Memory | None: ...
    def latest_created_at(self) -> str | None: ...
    def recent_memories(self, limit: int, *, since: str | None = None, until: str | None = None,
                        source: str | None = None, exclude: Iterable[str] = (),
                        flt: MemoryFilter | None = None, after: str | None = None) -> list[Memory]:
        """The newest matching memories, newest first (created_at, then insertion); with `after`, the oldest of
        those created strictly after it instead, oldest first (what a backdated write has after it)."""
        ...
    def recent_memory_ids(self, limit: int, flt: MemoryFilter | None = None) -> list[str]: ...
    def memory_ids(self, flt: MemoryFilter | None = None) -> list[str]: ...
    def soft_delete(self, ids: Sequence[str], when: str) -> int: ...
    # `soft_delete` undone for these memories (never vault rows); returns the ids brought back
    def undelete(self, ids: Sequence[str], when: str) -> list[str]: ...
    def count_active(self) -> int: ...
    # the active memories auto-prune may take (store/sources.py; a vault row lives as long as its line, a payload
    # row as long as its scope), counted up to `at_most`
    def count_prunable(self, at_most: int) -> int: ...
    # (id, importance, access_count, last touched, created_at) of every memory auto-prune may take now: active, the
    # writer's, not immune (importance >= 4 or 3 accesses), inserted at or before `inserted_before`, not `exclude`.
    # Unordered: which go is decided on their effective importance now (app/remember.py: `lowest_importance`)
    def prune_pool(self, inserted_before: str, exclude: Iterable[str]) -> list[tuple[str, int, int, str, str]]: ...
    def set_effective_importance(self, values: dict[str, float]) -> None: ...
    def touch(self, ids: Sequence[str], when: str, amount: int = 1) -> None: ...

    # entities and keywords
    def index_entities(self, node_id: str, entities: Sequence[str], created_at: str) -> None: ...
    def index_entities_of_new(self, rows: Sequence[tuple[str, Sequence[str], str]]) -> None: ...
    def entity_holders(self, entity: str, limit: int, exclude: Iterable[str] = (), *,
                       until: str | None = None, after: str | None = None) -> list[str]:
        """The newest active holders of `entity`, created at or before `until` when given; with `after`, the oldest
        of those created after it instead."""
        ...
    def known_entities(self, candidates: set[str]) -> set[str]: ...
    def entity_name_heads(self) -> set[str]: ...  # first words of entities of several words (a scan)
    # what `extract_entities` may narrow its runs of words to: None (a store cannot say it cheaply) asks them all
    def name_heads(self) -> set[str] | None: ...
    def memories_with_entities(self, entities: Sequence[str], limit: int, flt: MemoryFilter | None = None) -> list[tuple[str, int]]: ...
    def top_entities(self, limit: int) -> list[tuple[str, int]]: ...
    def keyword_search(self, tokens: Sequence[str], limit: int, flt: MemoryFilter | None = None, *,
                       max_terms: int | None = None, max_postings: int | None = None,
                       doc_freq: Mapping[str, int] | None = None,
                       tag_words: Sequence[str] = ()) -> list[tuple[str, float]]:
        """BM25-ranked ids. `max_terms` (a long text) searches by its rarest words within the store's posting budget;
        `max_postings` bounds any query the same way, rarest words first, with `doc_freq` when the caller has it.
        `tag_words` (`keywords.tag_query_words`) are found in tags and entities too, as written there."""
        ...
    def token_doc_freq(self, tokens: Sequence[str]) -> dict[str, int]: ...
    def holders_of_all(self, groups: Sequence[Sequence[str]], limit: int) -> list[str]:
        """Ids of up to `limit` active memories whose keyword text holds every token of one of `groups`, unranked:
        an exact lookup of texts' copies costs the intersection of their words' postings, not the scoring of every
        holder of a rarest word. A group without a usable token finds none."""
        ...
    def like_search(self, text: str, limit: int) -> list[Memory]: ...
    def nodes_by_title(self, text: str, limit: int) -> list[Memory]:
        """Live nodes other than memories (notes, headings, tags, people, …) whose title holds `text`, both folded as
        keywords are (`core.text.normalize`: NFKC, lower case). Notes first; then exact titles, prefixes, the rest;
        then by folded title, title, id; a blank text finds none. Memories are what recall and keyword search
        find."""
        ...

    # vectors
    def put_vector(self, node_id: str, provider: str, vector: np.ndarray, digest: str, when: str) -> None: ...
    def load_vectors(self, provider: str) -> tuple[list[str], np.ndarray]: ...
    def vector_generation(self) -> int: ...
    # a new generation, with no vector changed: every process's matrices (and the copy saved beside a file) reload
    def renew_vector_generation(self) -> None: ...
    def vector_width(self, provider: str) -> int | None: ...
    def vector_state(self) -> str | None: ...
    def vector_coverage(self, provider: str) -> tuple[int, int]: ...
    def vector_providers(self) -> dict[str, int]: ...
    def nodes_missing_vectors(self, provider: str) -> list[Memory]: ...

    # edges
    def upsert_edge(self, edge: Edge, *, actor: str = "", event: str | None = None, reason: str = "") -> int: ...
    def insert_edges(self, edges: Sequence[Edge], *, origin: str | None = None) -> None: ...
    def insert_edge_rows(self, rows: Sequence[tuple[Any, ...]]) -> None: ...
    def edge_heads(self, node_ids: Sequence[str], statuses: Sequence[str]) -> list[EdgeHead]: ...
    def get_edges(self, edge_ids: Sequence[int]) -> list[Edge]: ...
    def get_edge(self, edge_id: int) -> Edge | None: ...
    def find_edge(self, src: str, dst: str, type_: str) -> Edge | None: ...
    def edge_states(self, keys: Sequence[EdgeKey]) -> dict[EdgeKey, tuple[int, str]]: ...
    def edges_of(self, node_ids: Sequence[str], *, statuses: Sequence[str] = ("active",),
                 types: Sequence[str] | None = None, direction: str = "out") -> list[Edge]: ...
    def adjacency(self, node_ids: Sequence[str], statuses: Sequence[str] = ("active",),
                  per_node: int | None = None) -> dict[str, list[Link]]: ...
    def edge_counts(self, node_ids: Sequence[str]) -> dict[str, int]: ...
    # (id, importance, access_count, last touched, stored effective importance, active edges but at most `cap`,
    # created_at, inserted_at, whether a payload's row) of every memory of `flt`: what `gc` computes effective
    # importance from (core/importance.py counts no more than a few links) and orders and marks its candidates by as
    # auto-prune does, without decoding whole rows or counting every edge of the graph
    def importance_rows(self, flt: MemoryFilter, cap: int) -> list[ImportanceRow]: ...
    def set_edge_status(self, edge_id: int, status: str, *, actor: str, reason: str,
                        confidence: float | None = None, when: str | None = None,
                        previous: str | None = None) -> None:
        """Write the status and its event. `when`: the decision's time by the runtime's clock (default: the wall
        clock); `previous`: the status it replaces, recorded in the event (`previous_status`) so a replay at an
        earlier instant can undo it."""
        ...
    def retire_edges_of(self, node_id: str, *, reason: str, when: str | None = None, actor: str = "forget") -> int:
        """Retire the node's active and candidate edges, each with a `retired` event by `actor` (one of
        `REMOVAL_ACTORS`) at `when` (the runtime's clock; the wall clock when not given). Returns how many."""
        ...
    def edge_events(self, edge_id: int) -> list[dict[str, Any]]: ...
    def latest_edge_events(self, edge_ids: Sequence[int],
                           kinds: Sequence[tuple[str, str]]) -> dict[int, tuple[str, str]]:
        """Edge id → (event, actor) of the edge's latest stored event that is one of `kinds`, for those of
        `edge_ids` that have one: one read for many edges (a re-sent payload asks it of every edge it names)."""
        ...
    # the ids of the edges with a stored event named one of `events`, read once (an export asks which of its
    # millions of edges have a decision in their log, where asking page by page cost a read per 500 edges)
    def edges_with_events(self, events: Sequence[str]) -> set[int]: ...
    def iter_edges(self, *, statuses: Sequence[str] | None = None) -> Iterator[Edge]: ...

    # the whole graph at once, for the in-memory recall graph (ports.graph_index)
    def graph_generation(self) -> tuple[str, str]: ...
    def graph_export(self, after: list[Any] | None = None) -> Generator[Any, None, None]: ...

    # audit and stats
    def log(self, op: str, node_id: str | None, detail: dict[str, Any], when: str) -> None: ...
    def log_many(self, entries: Sequence[tuple[str, str | None, dict[str, Any], str]]) -> None: ...
    def oplog(self, limit: int, *, op: str | None = None, node_id: str | None = None) -> list[OplogEntry]: ...
    def stats(self) -> dict[str, Any]: ...
