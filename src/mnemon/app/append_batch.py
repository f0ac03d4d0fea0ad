"""Bulk writes that only append to history, at the speed of a few statements per thousand memories.

`write_memory` asks the store a handful of questions per memory (the previous memory of its source, what lies
within 24 hours, the newest holders of each entity, the recent same-source memories) and then writes a node, its
entities, edges and an oplog row. For a batch dated at or after everything already stored — an import into a new
store, a nightly append of newer history — every answer is the store's state before the batch plus the batch so
far. `AppendBatch` keeps exactly that in memory and buffers the writes, so the unchanged `write_memory` runs against
it and produces the same graph as one call per memory, without a query per memory.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..core import graph_rules
from ..core.model import Edge, Memory
from ..ports.store.base import TIMED, Store
from ..ports.store.edge_rows import edge_value_rows

FLUSH_EVERY = 2_000  # memories buffered before the rows go to the store (bounds memory, not correctness)
# the store's history each rule can reach back into: proximity needs ≤ PROXIMITY_MAX + 2 in the window
_TAIL = graph_rules.PROXIMITY_MAX + 2


class AppendBatch:
    """A `Store` stand-in for `write_memory` over a batch sorted oldest first and dated at or after `floor`.

    Reads answer from the store's newest rows (fetched once per source / entity) plus the memories written through
    this batch; writes are buffered and flushed in bulk. Anything `write_memory` does not use is not offered.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        # oldest first, like the batch; only what proximity may link to (write_memory asks with `TIMED`)
        self._all: list[Memory] = store.recent_memories(_TAIL, flt=TIMED)[::-1]
        self._by_source: dict[str, list[Memory]] = {}
        self._holders: dict[str, list[str]] = {}
        self._known: set[str] = set()
        self._unknown: set[str] = set()
        # first words of the known entities of several words: only a run of words starting with one can name one
        # (asking the store about every run of every memory cost an import a tenth of its time)
        self._heads: set[str] | None = None
        self._batch_heads: set[str] = set()
        self._nodes: list[tuple[Memory, str | None]] = []
        self._entities: list[tuple[str, Sequence[str], str]] = []
        self._edges: list[tuple[Sequence[Edge], str | None]] = []
        self._log: list[tuple[str, str | None, dict[str, Any], str]] = []
        self._vectors: list[tuple[str, str, Any, str, str]] = []

    @staticmethod
    def applies(store: Store, created_ats: Iterable[str]) -> bool:
        """True when no stored node is newer than the batch's oldest memory (the batch only appends)."""
        oldest = min(created_ats, default=None)
        latest = store.latest_created_at()
        return oldest is not None and (latest is None or latest <= oldest)

    # ── reads `write_memory` makes ───────────────────────────────────────────
    def _source(self, source: str) -> list[Memory]:
        if source not in self._by_source:
            self._by_source[source] = self.store.recent_memories(graph_rules.CAUSAL_LOOKBACK + 1, source=source)[::-1]
        return self._by_source[source]

    @staticmethod
    def _newest(rows: list[Memory], limit: int, *, since: str | None, until: str | None,
                exclude: Iterable[str]) -> list[Memory]:
        # rows are oldest first, so walking backwards yields the store's order (created_at, then insertion, newest
        # first) and the walk stops as soon as it leaves the window or has enough
        skip = set(exclude)
        out: list[Memory] = []
        for m in reversed(rows):
            if since is not None and m.created_at < since:
                break
            if m.id in skip or (until is not None and m.created_at > until):
                continue
            out.append(m)
            if len(out) >= limit:
                break
        return out

    def latest_by_source(self, source: str, *, exclude: str | None = None, before: str | None = None) -> Memory | None:
        found = self._newest(self._source(source), 1, since=None, until=before, exclude=[exclude] if exclude else [])
        return found[0] if found else None

    def next_by_source(self, source: str, *, after: str, exclude: str | None = None) -> Memory | None:
        return None  # nothing stored or batched is newer than the memory being written: that is `applies`

    def recent_memories(self, limit: int, *, since: str | None = None, until: str | None = None,
                        source: str | None = None, exclude: Iterable[str] = (), flt: Any = None,
                        after: str | None = None) -> list[Memory]:
        if after is not None:
            return []  # nothing stored or batched is newer than the memory being written: that is `applies`
        if (source is None and (limit > _TAIL or flt != TIMED)) or (
                source is not None and (flt is not None or limit > graph_rules.CAUSAL_LOOKBACK + 1)):
            raise NotImplementedError("AppendBatch answers only the questions write_memory asks")
        rows = self._source(source) if source is not None else self._all
        return self._newest(rows, limit, since=since, until=until, exclude=exclude)

    def entity_holders(self, entity: str, limit: int, exclude: Iterable[str] = (), *,
                       until: str | None = None, after: str | None = None) -> list[str]:
        if after is not None:
            return []  # a batch appends history in time order: no holder comes after the memory being written
        skip = set(exclude)
        return [i for i in reversed(self._holders_of(entity)) if i not in skip][:limit]

    def name_heads(self) -> set[str]:
        if self._heads is None:
            self._heads = {head.lower() for head in self.store.entity_name_heads()}
        return self._heads | self._batch_heads if self._batch_heads else self._heads

    def known_entities(self, candidates: set[str]) -> set[str]:
        ask = candidates - self._known - self._unknown
        if ask:
            found = self.store.known_entities(ask)
            self._known |= found
            # a miss of several words (a run of words that might name a known entity) is rarely asked again: kept,
            # they would grow with every memory of the batch
            self._unknown |= {c for c in ask - found if " " not in c}
        return candidates & self._known

    # ── writes, buffered ─────────────────────────────────────────────────────
    def insert_node(self, node: Memory, fts_body: str | None = None) -> None:
        self._nodes.append((node, fts_body))
        if not node.source.startswith("vault:"):  # `_all` holds what proximity may link to (`TIMED`)
            self._all.append(node)
        self._source(node.source).append(node)
        # keep only what a later question can reach: the lists would otherwise grow with the batch
        if len(self._all) > 4 * _TAIL:
            del self._all[:-_TAIL]
        rows = self._by_source[node.source]
        if len(rows) > 4 * graph_rules.CAUSAL_LOOKBACK:
            del rows[: -(graph_rules.CAUSAL_LOOKBACK + 1)]

    def index_entities(self, node_id: str, entities: Sequence[str], created_at: str) -> None:
        self._entities.append((node_id, entities, created_at))
        self._known.update(entities)
        self._unknown.difference_update(entities)
        self._batch_heads.update(e.split(" ", 1)[0].lower() for e in entities if " " in e)
        for e in dict.fromkeys(entities):
            holders = self._holders_of(e)
            holders.append(node_id)
            if len(holders) > 4 * graph_rules.ENTITY_LINKS_PER_ENTITY:
                del holders[: -graph_rules.ENTITY_LINKS_PER_ENTITY]

    def _holders_of(self, entity: str) -> list[str]:
        if entity not in self._holders:
            self._holders[entity] = self.store.entity_holders(entity, graph_rules.ENTITY_LINKS_PER_ENTITY)[::-1]
        return self._holders[entity]

    def insert_edges(self, edges: Sequence[Edge], *, origin: str | None = None) -> None:
        self._edges.append((edges, origin))

    def log(self, op: str, node_id: str | None, detail: dict[str, Any], when: str) -> None:
        self._log.append((op, node_id, detail, when))

    # a batch with vectors (one process: the caller's vector index sees each row as it is written, `note_write`)
    def vector_generation(self) -> int:
        return self.store.vector_generation()  # unchanged until a flush writes the buffered rows

    def put_vector(self, node_id: str, provider: str, vector: Any, digest: str, when: str) -> None:
        self._vectors.append((node_id, provider, vector, digest, when))

    @property
    def pending(self) -> int:
        return len(self._nodes)

    def take(self) -> Buffered:
        """What is buffered, in the order foreign keys need it written (nodes, their entities, edges, then the
        oplog), with the edges as insert rows; the buffers start empty again."""
        edges = [row for group, origin in self._edges for row in edge_value_rows(group, origin)]
        out = Buffered(self._nodes, self._entities, edges, self._log, self._vectors)
        self._nodes, self._entities, self._edges, self._log, self._vectors = [], [], [], [], []
        return out

    def flush(self) -> None:
        """Write what is buffered."""
        self.take().write(self.store)


class Buffered(NamedTuple):
    """One flush of an `AppendBatch`: plain rows and dataclasses, cheap to send to another process."""
    nodes: list[tuple[Memory, str | None]]
    entities: list[tuple[str, Sequence[str], str]]
    edge_rows: list[tuple[Any, ...]]
    log: list[tuple[str, str | None, dict[str, Any], str]]
    vectors: Sequence[tuple[str, str, Any, str, str]] = ()  # put_vector's arguments (an import with an embedder)

    def write(self, store: Store) -> None:
        store.insert_nodes(self.nodes)
        for node_id, provider, vector, digest, when in self.vectors:
            store.put_vector(node_id, provider, vector, digest, when)
        store.index_entities_of_new(self.entities)
        store.insert_edge_rows(self.edge_rows)
        store.log_many(self.log)
