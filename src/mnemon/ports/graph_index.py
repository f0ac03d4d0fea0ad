"""The graph recall walks, held in memory as arrays: node heads and active out-edges in CSR form over integer node
positions, rebuilt from the store only when its graph generation changes (as `vector_index` does for vectors).

Recall used to read each node's edges from SQLite and build a Python object per edge, ~30 queries and 10^4 objects
per recall. A snapshot is two bulk reads, and it is saved beside the database keyed by the generation, so the next
process (every CLI call) loads arrays instead of rebuilding them. Any write recall can see makes a new generation;
touching (access counts) does not.
"""
from __future__ import annotations

import hashlib
import json
import mmap
import os
from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.text import memory_tokens
from .store.base import Store

SNAPSHOT_FORMAT = "mnemon-graph/5"  # bump when the saved arrays change meaning


@dataclass(eq=False)
class GraphSnapshot:
    """One generation of the graph. Position k is node `ids[k]`; the out-edges of k are `dst[indptr[k]:indptr[k+1]]`
    in edge-id order, each with an edge class `cls` (an index into `classes`, a (type, sub_type) pair) and a weight.
    Weights stay float64: recall's scores must be the same bits as when they were read row by row."""

    generation: tuple[str, str]  # the store's (generation, mutation) tokens these rows are of
    last_seq: int  # the newest node and edge this snapshot has read: rows added later extend it
    last_edge_id: int
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
    # what re-ranking reads of a node: its token set (title, content, tags, entities) and lower-cased entities as
    # ids into `vocab` / `entity_vocab`, CSR by position like the edges; importance; created_at
    tok_indptr: np.ndarray  # int64
    tok: np.ndarray  # int32
    vocab: list[str]
    ent_indptr: np.ndarray  # int64
    ent: np.ndarray  # int32
    entity_vocab: list[str]
    importance: np.ndarray  # int64
    created: list[str]
    fingerprint: np.ndarray  # int64 hash of what the tokens are made of: a rebuild re-tokenises only what changed
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
        return _slices(self.indptr, nodes)

    def token_slices(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(owner, token id) of every token of `nodes`."""
        owner, at = _slices(self.tok_indptr, nodes)
        return owner, self.tok[at]

    def entity_slices(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(owner, entity id) of every (lower-cased) entity of `nodes`."""
        owner, at = _slices(self.ent_indptr, nodes)
        return owner, self.ent[at]

    # ── building, extending and saving ───────────────────────────────────────────────────────────────────────
    @classmethod
    def empty(cls) -> GraphSnapshot:
        none = np.zeros(0, dtype=np.int64)
        return cls(generation=("", ""), last_seq=0, last_edge_id=0, ids=[], id_rank=none,
                   kind=np.zeros(0, dtype=np.int16), deleted=np.zeros(0, dtype=bool),
                   category=np.zeros(0, dtype=np.int32), source=np.zeros(0, dtype=np.int32), kinds=[], categories=[],
                   sources=[], indptr=np.zeros(1, dtype=np.int64), dst=np.zeros(0, dtype=np.int32),
                   cls=np.zeros(0, dtype=np.int16), weight=np.zeros(0, dtype=np.float64), classes=[],
                   tok_indptr=np.zeros(1, dtype=np.int64), tok=np.zeros(0, dtype=np.int32), vocab=[],
                   ent_indptr=np.zeros(1, dtype=np.int64), ent=np.zeros(0, dtype=np.int32), entity_vocab=[],
                   importance=none, created=[], fingerprint=none)

    @classmethod
    def build(cls, store: Store, reuse: GraphSnapshot | None = None) -> GraphSnapshot:
        """Everything, read afresh; the tokens of nodes whose text `reuse` already holds are taken from it."""
        empty = cls.empty()
        if reuse is not None:
            empty.vocab, empty.entity_vocab = list(reuse.vocab), list(reuse.entity_vocab)  # keeps its ids valid
        with closing(store.graph_export()) as export:
            generation, node_rows, last_seq, last_edge_id = next(export)
            return empty._with(generation, node_rows, last_seq, last_edge_id, export, reuse)

    @classmethod
    def from_rows(cls, generation: str, node_rows: Iterable[tuple[str, str, bool, str, str]],
                  edge_batches: Iterable[Sequence[tuple[str, str, str, str, float]]]) -> GraphSnapshot:
        """From (id, kind, deleted?, category, source) per node and batches of (src, dst, type, sub_type, weight)
        per active edge in edge-id order (tests and tools build graphs without a store)."""
        return cls.empty()._with((generation, generation), node_rows, 0, 0, edge_batches)

    def extended(self, store: Store) -> GraphSnapshot | None:
        """A new snapshot: this one plus the nodes and edges added since; None if something was changed or
        removed meanwhile (then only a full build is right). Node positions and edge order come out exactly as a
        full build would make them: nodes in seq order, each node's edges in edge-id order."""
        with closing(store.graph_export(self.last_seq, self.last_edge_id)) as export:
            generation, node_rows, last_seq, last_edge_id = next(export)
            if self.ids and generation[1] != self.generation[1]:
                return None
            return self._with(generation, node_rows, last_seq, last_edge_id, export)

    def _with(self, generation: tuple[str, str], node_rows: Iterable[tuple[str, str, bool, str, str]],
              last_seq: int, last_edge_id: int,
              edge_batches: Iterable[Sequence[tuple[str, str, str, str, float]]],
              reuse: GraphSnapshot | None = None) -> GraphSnapshot:
        kinds, cats, srcs = list(self.kinds), list(self.categories), list(self.sources)
        codes = [{v: k for k, v in enumerate(vocab)} for vocab in (kinds, cats, srcs)]
        ids = list(self.ids)
        pos = dict(self.pos)
        heads: list[tuple[int, int, int, bool, int]] = []
        vocab, entity_vocab, created = list(self.vocab), list(self.entity_vocab), list(self.created)
        vocab_code = {t: k for k, t in enumerate(vocab)}
        entity_code = {e: k for k, e in enumerate(entity_vocab)}
        tok_ids: list[int] = []
        tok_counts: list[int] = []
        ent_ids: list[int] = []
        ent_counts: list[int] = []
        prints: list[int] = []
        old_pos = reuse.pos if reuse is not None else {}
        if reuse is not None:
            old_prints, old_tok_at, old_ent_at = (reuse.fingerprint.tolist(), reuse.tok_indptr.tolist(),
                                                  reuse.ent_indptr.tolist())
            old_tok, old_ent = reuse.tok.tolist(), reuse.ent.tolist()
        for node_id, k, gone, cat, src, title, content, tags, entities, importance, created_at in node_rows:
            pos[node_id] = len(ids)
            ids.append(node_id)
            heads.append((_code(kinds, codes[0], k), _code(cats, codes[1], cat), _code(srcs, codes[2], src),
                          bool(gone), int(importance)))
            created.append(created_at)
            fp = _fingerprint(title, content, tags, entities)
            prints.append(fp)
            q = old_pos.get(node_id)
            if q is not None and old_prints[q] == fp:  # unchanged text: its token and entity ids still hold
                toks_q, ents_q = old_tok[old_tok_at[q]:old_tok_at[q + 1]], old_ent[old_ent_at[q]:old_ent_at[q + 1]]
                tok_ids.extend(toks_q)
                tok_counts.append(len(toks_q))
                ent_ids.extend(ents_q)
                ent_counts.append(len(ents_q))
                continue
            toks = dict.fromkeys(memory_tokens(title, content, tags, entities))
            tok_ids.extend(_code(vocab, vocab_code, t) for t in toks)
            tok_counts.append(len(toks))
            ents = dict.fromkeys(e.lower() for e in entities)
            ent_ids.extend(_code(entity_vocab, entity_code, e) for e in ents)
            ent_counts.append(len(ents))
        classes = list(self.classes)
        class_code = {c: k for k, c in enumerate(classes)}
        src_a, dst_a, cls_a, w_a = _edge_arrays(edge_batches, pos, classes, class_code)
        n_old, n = len(self.ids), len(ids)
        order = np.argsort(src_a, kind="stable")  # grouped by source node, edge-id order kept inside each group
        counts = np.bincount(src_a, minlength=n)
        old_ends = np.concatenate([self.indptr, np.full(n - n_old, self.indptr[-1], dtype=np.int64)])
        indptr = old_ends + np.concatenate([[0], np.cumsum(counts)])
        if self.dst.shape[0]:
            at = old_ends[src_a[order].astype(np.int64) + 1]  # new edges go after the node's older ones
            dst, cls_, weight = (np.insert(old, at, new[order]) for old, new in
                                 ((self.dst, dst_a), (self.cls, cls_a), (self.weight, w_a)))
        else:
            dst, cls_, weight = dst_a[order], cls_a[order], w_a[order]
        rank = np.empty(n, dtype=np.int64)
        rank[sorted(range(n), key=ids.__getitem__)] = np.arange(n, dtype=np.int64)
        new_heads = np.array(heads, dtype=np.int64).reshape(-1, 5)
        snap = GraphSnapshot(
            generation=generation, last_seq=last_seq, last_edge_id=last_edge_id, ids=ids, id_rank=rank,
            kind=np.concatenate([self.kind, new_heads[:, 0].astype(np.int16)]),
            category=np.concatenate([self.category, new_heads[:, 1].astype(np.int32)]),
            source=np.concatenate([self.source, new_heads[:, 2].astype(np.int32)]),
            deleted=np.concatenate([self.deleted, new_heads[:, 3].astype(bool)]),
            kinds=kinds, categories=cats, sources=srcs, indptr=indptr, dst=dst, cls=cls_, weight=weight,
            classes=classes, _pos=pos,
            tok_indptr=_grow(self.tok_indptr, tok_counts), tok=np.concatenate([self.tok, np.array(tok_ids, np.int32)]),
            vocab=vocab, ent_indptr=_grow(self.ent_indptr, ent_counts),
            ent=np.concatenate([self.ent, np.array(ent_ids, dtype=np.int32)]), entity_vocab=entity_vocab,
            importance=np.concatenate([self.importance, new_heads[:, 4]]), created=created,
            fingerprint=np.concatenate([self.fingerprint, np.array(prints, dtype=np.int64)]))
        return snap

    _ARRAYS = ("id_rank", "kind", "deleted", "category", "source", "indptr", "dst", "cls", "weight", "tok_indptr",
               "tok", "ent_indptr", "ent", "importance", "fingerprint")
    _WORDS = ("ids", "kinds", "categories", "sources", "vocab", "entity_vocab", "created")

    def save(self, path: str) -> None:
        """One file: a JSON header line (format, generation, where each array lies) and the raw arrays, so a
        process maps it instead of reading and copying it."""
        arrays = {name: np.ascontiguousarray(getattr(self, name)) for name in self._ARRAYS}
        arrays.update({name: _strings(getattr(self, name)) for name in self._WORDS})
        arrays["class_types"] = _strings([t for t, _ in self.classes])
        arrays["class_subs"] = _strings([s for _, s in self.classes])
        layout, offset = {}, 0
        for name, arr in arrays.items():
            layout[name] = [arr.dtype.str, list(arr.shape), offset]
            offset += arr.nbytes + (-arr.nbytes % 8)
        head = json.dumps({"format": SNAPSHOT_FORMAT, "generation": list(self.generation), "last_seq": self.last_seq,
                           "last_edge_id": self.last_edge_id, "arrays": layout}).encode() + b"\n"
        start = len(head) + (-len(head) % 8)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(head.ljust(start, b" "))
            for arr in arrays.values():
                fh.write(arr.tobytes())
                fh.write(b"\0" * (-arr.nbytes % 8))
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one

    @classmethod
    def load(cls, path: str) -> GraphSnapshot | None:
        """The saved snapshot, whatever its generation; None when missing or unreadable. Arrays are read-only
        views of the mapped file."""
        try:
            with open(path, "rb") as fh:
                head = json.loads(fh.readline())
                if head.get("format") != SNAPSHOT_FORMAT:
                    return None
                start = fh.tell() + (-fh.tell() % 8)
                buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            arrays = {}
            for name, (dtype, shape, offset) in head["arrays"].items():
                count = int(np.prod(shape)) if shape else 1
                arrays[name] = np.frombuffer(buf, dtype=np.dtype(dtype), count=count,
                                             offset=start + offset).reshape(shape)
        except (OSError, KeyError, ValueError, TypeError):
            return None
        words = {name: arrays.pop(name).tolist() for name in cls._WORDS}
        classes = list(zip(arrays.pop("class_types").tolist(), arrays.pop("class_subs").tolist()))
        return cls(generation=tuple(head["generation"]), last_seq=int(head["last_seq"]),  # type: ignore[arg-type]
                   last_edge_id=int(head["last_edge_id"]), classes=classes, **words, **arrays)


def _slices(indptr: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    starts = indptr[nodes]
    lens = indptr[nodes + 1] - starts
    total = int(lens.sum())
    if total == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    offsets = np.cumsum(lens) - lens
    return np.repeat(np.arange(len(nodes)), lens), np.arange(total) + np.repeat(starts - offsets, lens)


def _fingerprint(title: str | None, content: str, tags: Sequence[str], entities: Sequence[str]) -> int:
    text = "\x1f".join([title or "", content, *tags, "\x1e", *entities])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True)


def _grow(indptr: np.ndarray, counts: list[int]) -> np.ndarray:
    return np.concatenate([indptr, indptr[-1] + np.cumsum(np.array(counts, dtype=np.int64))])


def _code(vocab: list[str], code: dict[str, int], value: str) -> int:
    k = code.get(value)
    if k is None:
        k = code[value] = len(vocab)
        vocab.append(value)
    return k


def _edge_arrays(batches: Iterable[Sequence[tuple[str, str, str, str, float]]], pos: dict[str, int],
                 classes: list[tuple[str, str]], class_code: dict[tuple[str, str], int],
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(src, dst, class, weight) arrays of the edge rows whose two ends are known nodes, in row order."""
    parts: list[tuple[np.ndarray, ...]] = []
    get = pos.get
    for rows in batches:
        src_p: list[int] = []
        dst_p: list[int] = []
        cls_l: list[int] = []
        weights: list[float] = []
        for s, d, t, sub, w in rows:
            ps, pd = get(s), get(d)
            if ps is None or pd is None:
                continue  # an edge to a node that does not exist leads nowhere
            src_p.append(ps)
            dst_p.append(pd)
            c = class_code.get((t, sub))
            if c is None:
                c = class_code[(t, sub)] = len(classes)
                classes.append((t, sub))
            cls_l.append(c)
            weights.append(w)
        parts.append((np.array(src_p, dtype=np.int32), np.array(dst_p, dtype=np.int32),
                      np.array(cls_l, dtype=np.int16), np.array(weights, dtype=np.float64)))
    dtypes = (np.int32, np.int32, np.int16, np.float64)
    src, dst, cls, weight = (np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, dtype=dt)
                             for k, dt in enumerate(dtypes))
    return src, dst, cls, weight


def _strings(values: list[str]) -> np.ndarray:
    return np.array(values, dtype=str) if values else np.zeros(0, dtype="<U1")


class GraphIndex:
    """The current snapshot of one store, refreshed when the store's graph generation moves."""

    def __init__(self, store: Store, *, persist: bool = True) -> None:
        self.store = store
        path = getattr(store, "path", "")
        self.path = f"{path}-graph" if persist and path and path != ":memory:" else None
        self._snap: GraphSnapshot | None = None

    def snapshot(self) -> GraphSnapshot:
        gen = self.store.graph_generation()
        snap = self._snap
        if snap is not None and snap.generation == gen:
            return snap
        volatile = gen[0].startswith("volatile:")
        durable = self.path is not None and not volatile
        if snap is None and durable and self.path:
            snap = GraphSnapshot.load(self.path)  # another process may have read this generation already
            if snap is not None and snap.generation == gen:
                self._snap = snap
                return snap
        # only rows were added since (the usual case after `remember`): read just those
        fresh = snap.extended(self.store) if snap is not None and snap.generation[1] == gen[1] and not volatile else None
        if fresh is None:
            fresh = GraphSnapshot.build(self.store, reuse=snap)
        if durable and self.path and not getattr(self.store, "readonly", False):
            try:
                fresh.save(self.path)
            except OSError:
                pass  # a cache beside the database, not data: recall works the same without it
        self._snap = fresh
        return fresh
