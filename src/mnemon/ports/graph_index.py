"""The graph recall walks, held in memory as arrays: node heads and active out-edges in CSR form over integer node
positions, rebuilt from the store only when its graph generation changes (as `vector_index` does for vectors).

Recall used to read each node's edges from SQLite and build a Python object per edge, ~30 queries and 10^4 objects
per recall. A snapshot is two bulk reads, and it is saved beside the database keyed by the generation, so the next
process (every CLI call) loads arrays instead of rebuilding them. Any write recall can see makes a new generation;
touching (access counts) does not.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .store.base import Store

SNAPSHOT_FORMAT = "mnemon-graph/1"  # bump when the saved arrays change meaning


@dataclass(eq=False)
class GraphSnapshot:
    """One generation of the graph. Position k is node `ids[k]`; the out-edges of k are `dst[indptr[k]:indptr[k+1]]`
    in edge-id order, each with an edge class `cls` (an index into `classes`, a (type, sub_type) pair) and a weight.
    Weights stay float64: recall's scores must be the same bits as when they were read row by row."""

    generation: str
    ids: list[str]
    id_rank: np.ndarray  # int64: position of each id in sorted-id order (deterministic tie-breaks)
    kind: np.ndarray  # int16 index into `kinds`
    deleted: np.ndarray  # bool
    category: np.ndarray  # int32 index into `categories`
    source: np.ndarray  # int32 index into `sources`
    kinds: list[str]
    categories: list[str]
    sources: list[str]
    indptr: np.ndarray  # int64, len(ids) + 1
    dst: np.ndarray  # int32
    cls: np.ndarray  # int16 index into `classes`
    weight: np.ndarray  # float64
    classes: list[tuple[str, str]]
    memo: dict[str, Any] = field(default_factory=dict)  # derived data that lives exactly as long as the snapshot
    _pos: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def pos(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = {i: k for k, i in enumerate(self.ids)}
        return self._pos

    @property
    def edge_count(self) -> int:
        return int(self.dst.shape[0])

    def code_of(self, vocabulary: str, value: str) -> int:
        """Index of `value` in one of the vocabularies (kinds, categories, sources); -1 when nothing has it."""
        values: list[str] = getattr(self, vocabulary)
        try:
            return values.index(value)
        except ValueError:
            return -1

    def edge_slices(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(owner, edge) index arrays of every out-edge of `nodes`: owner is the index into `nodes`."""
        starts = self.indptr[nodes]
        lens = self.indptr[nodes + 1] - starts
        total = int(lens.sum())
        if total == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        owner = np.repeat(np.arange(len(nodes)), lens)
        offsets = np.cumsum(lens) - lens
        edges = np.arange(total) + np.repeat(starts - offsets, lens)
        return owner, edges

    # ── building and saving ──────────────────────────────────────────────────────────────────────────────────
    @classmethod
    def build(cls, store: Store) -> GraphSnapshot:
        return cls.from_rows(*store.graph_export())

    @classmethod
    def from_rows(cls, generation: str, node_rows: Iterable[tuple[str, str, bool, str, str]],
                  edge_rows: Iterable[tuple[str, str, str, str, float]]) -> GraphSnapshot:
        """From (id, kind, deleted?, category, source) per node and (src, dst, type, sub_type, weight) per active
        edge in edge-id order."""
        vocab: dict[str, dict[str, int]] = {"kind": {}, "category": {}, "source": {}}
        ids: list[str] = []
        kind: list[int] = []
        deleted: list[bool] = []
        category: list[int] = []
        source: list[int] = []
        kinds, cats, srcs = vocab["kind"], vocab["category"], vocab["source"]
        for node_id, k, gone, cat, src in node_rows:
            ids.append(node_id)
            kind.append(kinds.setdefault(k, len(kinds)))
            deleted.append(bool(gone))
            category.append(cats.setdefault(cat, len(cats)))
            source.append(srcs.setdefault(src, len(srcs)))
        pos = {i: n for n, i in enumerate(ids)}
        classes: dict[tuple[str, str], int] = {}
        src_p: list[int] = []
        dst_p: list[int] = []
        cls_l: list[int] = []
        weights: list[float] = []
        get = pos.get
        for s, d, t, sub, w in edge_rows:
            ps, pd = get(s), get(d)
            if ps is None or pd is None:
                continue  # an edge to a node that does not exist leads nowhere
            src_p.append(ps)
            dst_p.append(pd)
            key = (t, sub)
            c = classes.get(key)
            if c is None:
                c = classes[key] = len(classes)
            cls_l.append(c)
            weights.append(w)
        n = len(ids)
        src_a = np.asarray(src_p, dtype=np.int64)
        order = np.argsort(src_a, kind="stable")  # grouped by source node, edge-id order kept inside each group
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(src_a, minlength=n), out=indptr[1:])
        rank = np.empty(n, dtype=np.int64)
        rank[sorted(range(n), key=ids.__getitem__)] = np.arange(n, dtype=np.int64)
        return cls(
            generation=generation, ids=ids, id_rank=rank,
            kind=np.asarray(kind, dtype=np.int16), deleted=np.asarray(deleted, dtype=bool),
            category=np.asarray(category, dtype=np.int32), source=np.asarray(source, dtype=np.int32),
            kinds=list(kinds), categories=list(cats), sources=list(srcs), indptr=indptr,
            dst=np.asarray(dst_p, dtype=np.int32)[order], cls=np.asarray(cls_l, dtype=np.int16)[order],
            weight=np.asarray(weights, dtype=np.float64)[order], classes=list(classes),
        )

    _ARRAYS = ("id_rank", "kind", "deleted", "category", "source", "indptr", "dst", "cls", "weight")
    _WORDS = ("ids", "kinds", "categories", "sources")

    def save(self, path: str) -> None:
        tmp = f"{path}.{os.getpid()}.tmp"
        words = {name: _strings(getattr(self, name)) for name in self._WORDS}
        with open(tmp, "wb") as fh:
            np.savez(fh, format=np.array(SNAPSHOT_FORMAT), generation=np.array(self.generation),
                     class_types=_strings([t for t, _ in self.classes]),
                     class_subs=_strings([s for _, s in self.classes]),
                     **words, **{name: getattr(self, name) for name in self._ARRAYS})
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one

    @classmethod
    def load(cls, path: str, generation: str) -> GraphSnapshot | None:
        """The saved snapshot if it is of `generation`; None when missing, stale or unreadable."""
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["format"]) != SNAPSHOT_FORMAT or str(z["generation"]) != generation:
                    return None
                arrays = {name: z[name] for name in cls._ARRAYS}
                words = {name: z[name].tolist() for name in cls._WORDS}
                classes = list(zip(z["class_types"].tolist(), z["class_subs"].tolist()))
        except (OSError, KeyError, ValueError):
            return None
        return cls(generation=generation, classes=classes, **words, **arrays)


def _strings(values: list[str]) -> np.ndarray:
    return np.array(values, dtype=str) if values else np.zeros(0, dtype="<U1")


class GraphIndex:
    """The current snapshot of one store, refreshed when the store's graph generation moves."""

    def __init__(self, store: Store, *, persist: bool = True) -> None:
        self.store = store
        path = getattr(store, "path", "")
        self.path = f"{path}-graph.npz" if persist and path and path != ":memory:" else None
        self._snap: GraphSnapshot | None = None

    def snapshot(self) -> GraphSnapshot:
        gen = self.store.graph_generation()
        snap = self._snap
        if snap is not None and snap.generation == gen:
            return snap
        durable = self.path is not None and not gen.startswith("volatile:")
        snap = GraphSnapshot.load(self.path, gen) if durable and self.path else None
        if snap is None:
            snap = GraphSnapshot.build(self.store)
            durable = durable and snap.generation == gen  # a writer may have moved it meanwhile: save what was read
            if durable and self.path and not getattr(self.store, "readonly", False):
                try:
                    snap.save(self.path)
                except OSError:
                    pass  # a cache beside the database, not data: recall works the same without it
        self._snap = snap
        return snap
