"""The graph recall walks, held in memory as arrays: node heads and active out-edges in CSR form over integer node
positions, rebuilt from the store only when its graph generation changes (as `vector_index` does for vectors).

Recall used to read each node's edges from SQLite and build a Python object per edge, ~30 queries and 10^4 objects
per recall. A snapshot is two bulk reads, and it is saved beside the database keyed by the generation, so the next
process (every CLI call) loads arrays instead of rebuilding them. Any write recall can see makes a new generation;
touching (access counts) does not.

A snapshot extended by a few writes is not saved again: the next process loads the saved one and extends it the same
way, which costs far less than writing the whole file (85 MB at 100k memories, ≈ 300 ms) after every `remember`.
It is saved once the rows read on top of the saved file reach `save_after(nodes)`, well inside what the store's
change log keeps, so a later process can always extend it.
"""
from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.text import memory_tokens
from .array_file import load_arrays, save_arrays
from .cache_paths import beside, in_user_cache
from .store.base import EdgeColumns, Store

SNAPSHOT_FORMAT = "mnemon-graph/14"  # bump when the saved arrays change meaning (14: tokens of keywords/9)
RUNS_UP_TO = 5_000  # changed owners up to which `_resegment` copies the runs between them (both ways agree)
SAVE_NOW = 1 << 62  # `unsaved` of a snapshot built afresh: the file beside the database does not hold it
SLOW_BUILD_NODES = 20_000  # memories above which a full build (≈ 2 s, 10-20 s at 100k) is announced (`on_slow_step`)


def save_after(nodes: int) -> int:
    """Node rows read on top of the saved snapshot before it is saved again: 1 % of the graph, at least 256 (≈ 80
    writes) and at most 5,000 (the store's change log keeps the last 50,000 changes)."""
    return min(5_000, max(256, nodes // 100))


@dataclass(eq=False)
class GraphSnapshot:
    """One generation of the graph. Position k is node `ids[k]`; the out-edges of k are `dst[indptr[k]:indptr[k+1]]`
    in edge-id order, each with an edge class `cls` (an index into `classes`, a (type, sub_type) pair) and a weight.
    Weights stay float64: recall's scores must be the same bits as when they were read row by row."""

    generation: tuple[str, str]  # the store's (generation, mutation) tokens these rows are of
    marks: list[Any]  # how far the store's export reached (opaque to us): what came later extends this snapshot
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
    provisional: bool = False  # read inside a writer's open transaction
    memo: dict[Any, Any] = field(default_factory=dict)  # derived data that lives exactly as long as the snapshot
    _pos: dict[str, int] | None = None
    _vocab_code: dict[str, int] | None = None
    unsaved: int = SAVE_NOW  # node rows read since the snapshot was loaded from or saved to its file

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def pos(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = {i: k for k, i in enumerate(self.ids)}
        return self._pos

    @property
    def vocab_code(self) -> dict[str, int]:
        """Token → its id in `vocab`: recall's keyword signal and an extension's new tokens both look it up."""
        if self._vocab_code is None:
            self._vocab_code = {t: k for k, t in enumerate(self.vocab)}
        return self._vocab_code

    def token_codes(self, tokens: Sequence[str]) -> dict[str, int]:
        """The `vocab` ids of those of `tokens` it holds. A recall looks up a handful of query words: scanning the
        list for each (≈ 1 ms per 100k tokens) beats building the whole map (≈ 40 ms at 100k memories, once per
        CLI process) unless the map is already there or the words are many."""
        if self._vocab_code is None and len(tokens) <= 16:
            out = {}
            for t in tokens:
                try:
                    out[t] = self.vocab.index(t)  # the vocabulary holds each token once
                except ValueError:
                    pass
            return out
        code = self.vocab_code
        return {t: code[t] for t in tokens if t in code}

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
        return cls(generation=("", ""), marks=[], ids=[], id_rank=none,
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
            generation, node_rows, marks, inside = next(export)
            snap = empty._with(generation, node_rows, export, reuse)
        return snap._marked(marks, inside)

    @classmethod
    def from_rows(cls, generation: str, node_rows: Iterable[tuple[Any, ...]],
                  edge_batches: Iterable[Sequence[tuple[str, str, str, str, float]]]) -> GraphSnapshot:
        """From node rows (id, kind, deleted?, category, source, title, content, tags, entities, importance,
        created_at) and batches of (src, dst, type, sub_type, weight) per active edge in edge-id order (tests and
        tools build graphs without a store)."""
        return cls.empty()._with((generation, generation), node_rows, edge_batches)

    def extended(self, store: Store) -> GraphSnapshot | None:
        """A new snapshot: this one with the nodes and edges added since, and the nodes changed since (with all
        their out-edges) read again; None when the changes cannot be followed (then only a full build is right).
        Node positions and edge order come out exactly as a full build makes them: nodes in seq order, each
        node's out-edges in edge-id order."""
        if self.provisional:
            return None
        with closing(store.graph_export(self.marks)) as export:
            generation, node_rows, marks, inside = next(export)
            if node_rows is None:
                return None
            snap = self._with(generation, node_rows, export)
        return snap._marked(marks, inside)

    def _marked(self, marks: list[Any], inside: bool) -> GraphSnapshot:
        self.marks = marks
        self.provisional = inside  # read inside a writer's transaction: it may yet roll back, never extend it
        return self

    def _with(self, generation: tuple[str, str], node_rows: Iterable[tuple[Any, ...]],
              edge_batches: Iterable[Sequence[tuple[str, str, str, str, float]] | EdgeColumns],
              reuse: GraphSnapshot | None = None) -> GraphSnapshot:
        """This snapshot with `node_rows` (new nodes, and nodes read again) and `edge_batches` (new edges, and
        every active out-edge of a node read again) applied."""
        kinds, cats, srcs = list(self.kinds), list(self.categories), list(self.sources)
        kind_code, cat_code, src_code = (_Codes(vocab) for vocab in (kinds, cats, srcs))
        ids = list(self.ids)
        pos = dict(self.pos)
        n_old = len(ids)
        at: list[int] = []  # the position of each node row read
        heads: list[tuple[int, int, int, bool, int, int]] = []
        vocab, entity_vocab, created = list(self.vocab), list(self.entity_vocab), list(self.created)
        vocab_code = dict(self.vocab_code)  # a copy of a map recall builds anyway: 4× cheaper than a new one
        entity_code = {e: k for k, e in enumerate(entity_vocab)}
        tok_ids: list[int] = []
        tok_counts: list[int] = []  # of each node row read, in `at` order
        ent_ids: list[int] = []
        ent_counts: list[int] = []
        old_pos = reuse.pos if reuse is not None else {}
        if reuse is not None:
            old_prints, old_tok_at, old_ent_at = (reuse.fingerprint.tolist(), reuse.tok_indptr.tolist(),
                                                  reuse.ent_indptr.tolist())
            old_tok, old_ent = reuse.tok.tolist(), reuse.ent.tolist()
        for node_id, k, gone, cat, src, title, content, tags, entities, importance, created_at in node_rows:
            p = pos.get(node_id)
            if p is None:
                p = pos[node_id] = len(ids)
                ids.append(node_id)
                created.append(created_at)
            else:
                created[p] = created_at
            at.append(p)
            fp = _fingerprint(title, content, tags, entities)
            heads.append((kind_code[k], cat_code[cat], src_code[src], bool(gone), int(importance), fp))
            q = old_pos.get(node_id)
            if q is not None and old_prints[q] == fp:  # unchanged text: its token and entity ids still hold
                toks_q, ents_q = old_tok[old_tok_at[q]:old_tok_at[q + 1]], old_ent[old_ent_at[q]:old_ent_at[q + 1]]
            else:
                words = dict.fromkeys(memory_tokens(title, content, tags, entities))
                toks_q = list(map(vocab_code.get, words))  # (C-level: most words of a store are known by now)
                if None in toks_q:
                    toks_q = [_code(vocab, vocab_code, t) for t in words]
                ents_q = [_code(entity_vocab, entity_code, e) for e in dict.fromkeys(e.lower() for e in entities)
                          ] if entities else []
            tok_ids.extend(toks_q)
            tok_counts.append(len(toks_q))
            ent_ids.extend(ents_q)
            ent_counts.append(len(ents_q))
        n = len(ids)
        where = np.array(at, dtype=np.int64)
        tok_owner, ent_owner = np.repeat(where, tok_counts), np.repeat(where, ent_counts)
        again = where[where < n_old]  # nodes read again: their rows are replaced
        classes = list(self.classes)
        class_code = {c: k for k, c in enumerate(classes)}
        src_a, dst_a, cls_a, w_a = _edge_arrays(edge_batches, pos, classes, class_code, where)
        indptr, (dst, cls_, weight) = _resegment(self.indptr, (self.dst, self.cls, self.weight), n, again, src_a,
                                                 (dst_a, cls_a, w_a))
        tok_indptr, (tok,) = _resegment(self.tok_indptr, (self.tok,), n, again, tok_owner,
                                        (np.array(tok_ids, dtype=np.int32),))
        ent_indptr, (ent,) = _resegment(self.ent_indptr, (self.ent,), n, again, ent_owner,
                                        (np.array(ent_ids, dtype=np.int32),))
        rank = self.id_rank if n == n_old else _ranks_with(self.id_rank, ids, n_old)
        rows = np.array(heads, dtype=np.int64).reshape(-1, 6)

        def column(old: np.ndarray, k: int, dtype: Any) -> np.ndarray:
            out = np.concatenate([old, np.zeros(n - n_old, dtype=old.dtype)]).astype(dtype)
            out[where] = rows[:, k]
            return out

        return GraphSnapshot(
            generation=generation, marks=self.marks, ids=ids, id_rank=rank,
            kind=column(self.kind, 0, np.int16), category=column(self.category, 1, np.int32),
            source=column(self.source, 2, np.int32), deleted=column(self.deleted, 3, bool),
            importance=column(self.importance, 4, np.int64), fingerprint=column(self.fingerprint, 5, np.int64),
            kinds=kinds, categories=cats, sources=srcs, indptr=indptr, dst=dst, cls=cls_, weight=weight,
            classes=classes, _pos=pos, _vocab_code=vocab_code, tok_indptr=tok_indptr, tok=tok, vocab=vocab,
            ent_indptr=ent_indptr, ent=ent, entity_vocab=entity_vocab, created=created,
            unsaved=min(SAVE_NOW, self.unsaved + len(at)))

    _ARRAYS = ("id_rank", "kind", "deleted", "category", "source", "indptr", "dst", "cls", "weight", "tok_indptr",
               "tok", "ent_indptr", "ent", "importance", "fingerprint")
    _WORDS = ("ids", "kinds", "categories", "sources", "vocab", "entity_vocab", "created")

    def save(self, path: str) -> None:
        """One file of named arrays (`array_file.py`) with the format, generation and marks in its header, so a
        process maps it instead of reading and copying it."""
        arrays = {name: np.ascontiguousarray(getattr(self, name)) for name in self._ARRAYS}
        words = {name: getattr(self, name) for name in self._WORDS}
        words["class_types"], words["class_subs"] = [t for t, _ in self.classes], [s for _, s in self.classes]
        for name, values in words.items():
            arrays.update(_pack_strings(name, values))
        save_arrays(path, {"format": SNAPSHOT_FORMAT, "generation": list(self.generation), "marks": self.marks}, arrays)

    @classmethod
    def load(cls, path: str) -> GraphSnapshot | None:
        """The saved snapshot, whatever its generation; None when missing or unreadable. Arrays are read-only
        views of the mapped file."""
        got = load_arrays(path)
        if got is None or got[0].get("format") != SNAPSHOT_FORMAT:
            return None
        head, arrays = got
        try:
            words = {name: _unpack_strings(name, arrays) for name in (*cls._WORDS, "class_types", "class_subs")}
            classes = list(zip(words.pop("class_types"), words.pop("class_subs")))
            return cls(generation=tuple(head["generation"]), marks=list(head["marks"]),  # type: ignore[arg-type]
                       classes=classes, unsaved=0, **words, **arrays)  # type: ignore[arg-type]  # saved arrays
        except (KeyError, TypeError, ValueError):  # (ValueError: a damaged file's text)
            return None


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
    import hashlib  # only when rows are (re)read: a recall on a current snapshot never gets here

    text = "\x1f".join([title or "", content, *tags, "\x1e", *entities])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True)


def _resegment(indptr: np.ndarray, columns: tuple[np.ndarray, ...], n: int, clear: np.ndarray, owner: np.ndarray,
               fresh: tuple[np.ndarray, ...]) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """A CSR over `n` owners from one over fewer: the entries of the owners in `clear` dropped, then `fresh`
    entries (each with its owner, in order) put after each owner's remaining ones.

    When few owners change (a write touches a few hundred of a graph with millions of edges) the result is one
    concatenation of the untouched runs between them and the fresh entries; when many do (a build), whole-array
    masking and insertion."""
    n_old = len(indptr) - 1
    both = np.sort(np.concatenate([np.asarray(clear, dtype=np.int64), np.asarray(owner, dtype=np.int64)]))
    touched = both[np.concatenate(([True], both[1:] != both[:-1]))] if len(both) else both  # np.unique loads numpy.ma
    if len(touched) > RUNS_UP_TO:
        return _resegment_bulk(indptr, columns, n, clear, owner, fresh)
    order = np.argsort(owner, kind="stable")
    f_owner = owner[order]
    fresh = tuple(f[order] for f in fresh)
    f_counts = np.bincount(f_owner, minlength=n) if len(f_owner) else np.zeros(n, dtype=np.int64)
    f_ptr = np.concatenate([[0], np.cumsum(f_counts)]).astype(np.int64)
    lens = np.zeros(n, dtype=np.int64)
    lens[:n_old] = np.diff(indptr)
    cleared = np.zeros(n, dtype=bool)
    cleared[clear] = True
    lens[cleared] = 0
    ends = np.concatenate([[0], np.cumsum(lens + f_counts)]).astype(np.int64)
    spans: list[tuple[int, int, bool]] = []  # (start, stop, from fresh?) in output order
    done = 0  # owners before this one are placed
    old_ptr = indptr.tolist()
    for o in touched.tolist():
        if o > done and done < n_old:  # the untouched owners in between, as one run of old entries
            spans.append((old_ptr[done], old_ptr[min(o, n_old)], False))
        if o < n_old and not cleared[o]:
            spans.append((old_ptr[o], old_ptr[o + 1], False))
        if f_counts[o]:
            spans.append((int(f_ptr[o]), int(f_ptr[o + 1]), True))
        done = o + 1
    if done < n_old:
        spans.append((old_ptr[done], old_ptr[n_old], False))
    out = []
    for old, new in zip(columns, fresh):
        dtype = old.dtype if len(old) else new.dtype
        parts = [(new if from_fresh else old)[a:b] for a, b, from_fresh in spans if b > a]
        out.append(np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype=dtype))
    return ends, tuple(out)


def _resegment_bulk(indptr: np.ndarray, columns: tuple[np.ndarray, ...], n: int, clear: np.ndarray,
                    owner: np.ndarray, fresh: tuple[np.ndarray, ...]) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """`_resegment` for many changed owners, by masks and `np.insert` over the whole arrays."""
    lens = np.diff(indptr)
    if len(clear):
        dropped = np.zeros(len(lens), dtype=bool)
        dropped[clear] = True
        keep = ~np.repeat(dropped, lens)
        columns = tuple(c[keep] for c in columns)
        lens = lens.copy()
        lens[clear] = 0
    lens = np.concatenate([lens, np.zeros(n - len(lens), dtype=np.int64)])
    ends = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    if not len(owner):
        return ends, columns
    order = np.argsort(owner, kind="stable")
    where = ends[owner[order] + 1]
    columns = tuple(np.insert(c, where, f[order]) if len(c) else f[order] for c, f in zip(columns, fresh))
    return ends + np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=n))]), columns


def _ranks_with(rank: np.ndarray, ids: list[str], n_old: int) -> np.ndarray:
    """The rank of every id in sorted order, `ids[n_old:]` added to the ranks `rank` of `ids[:n_old]`: the new ids are
    placed by bisection and the old ranks shifted past them, instead of sorting every id again."""
    n = len(ids)
    if n_old == 0 or n - n_old > n_old:
        out = np.empty(n, dtype=np.int64)
        out[sorted(range(n), key=ids.__getitem__)] = np.arange(n, dtype=np.int64)
        return out
    by_rank = np.argsort(rank[:n_old])
    sorted_old = [ids[i] for i in by_rank.tolist()]
    added = sorted(range(n_old, n), key=ids.__getitem__)
    before = np.array([bisect.bisect_left(sorted_old, ids[p]) for p in added], dtype=np.int64)  # old ids below each
    out = np.empty(n, dtype=np.int64)
    out[by_rank] = np.arange(n_old, dtype=np.int64) + np.searchsorted(before, np.arange(n_old), side="right")
    out[np.array(added, dtype=np.int64)] = before + np.arange(len(added), dtype=np.int64)
    return out


def _code(vocab: list[str], code: dict[str, int], value: str) -> int:
    k = code.get(value)
    if k is None:
        k = code[value] = len(vocab)
        vocab.append(value)
    return k


class _Codes(dict):  # type: ignore[type-arg]
    """value → its index in `vocab`, appended on first sight (`_code` as a dict: a known value is one C-level
    lookup, and a build looks up three per node)."""

    def __init__(self, vocab: list[str]) -> None:
        super().__init__((v, k) for k, v in enumerate(vocab))
        self.vocab = vocab

    def __missing__(self, value: str) -> int:
        k = self[value] = len(self.vocab)
        self.vocab.append(value)
        return k


def _edge_arrays(batches: Iterable[Sequence[tuple[str, str, str, str, float]] | EdgeColumns], pos: dict[str, int],
                 classes: list[tuple[str, str]], class_code: dict[tuple[str, str], int], where: np.ndarray,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(src, dst, class, weight) arrays of the edge rows whose two ends are known nodes, in row order; `where` the
    position of each node row read (what an `EdgeColumns` batch's ends index)."""
    parts: list[tuple[np.ndarray, ...]] = []
    get = pos.get
    for rows in batches:
        if isinstance(rows, EdgeColumns):
            at = where.astype(np.int32)
            parts.append((at[rows.src], at[rows.dst], _class_codes(rows, classes, class_code)[rows.cls],
                          np.asarray(rows.weight, dtype=np.float64)))
            continue
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


def _class_codes(batch: EdgeColumns, classes: list[tuple[str, str]],
                 class_code: dict[tuple[str, str], int]) -> np.ndarray:
    """The snapshot's class code of each of `batch.classes`, new ones added to `classes` in the order the batch's
    edges first show them (as rows read one by one add them)."""
    n = len(batch.cls)
    first = np.full(len(batch.classes), n, dtype=np.int64)
    np.minimum.at(first, batch.cls, np.arange(n, dtype=np.int64))
    out = np.zeros(len(batch.classes), dtype=np.int16)
    for k in sorted(range(len(batch.classes)), key=first.tolist().__getitem__):
        if first[k] < n:
            c = class_code.get(batch.classes[k])
            if c is None:
                c = class_code[batch.classes[k]] = len(classes)
                classes.append(batch.classes[k])
            out[k] = c
    return out


def _pack_strings(name: str, values: Sequence[str]) -> dict[str, np.ndarray]:
    """The arrays saving `values` as `name`: their UTF-8 bytes joined by NULs and each one's end, or — when they
    repeat, as the creation times of a note's items do — the distinct ones so and a code per value (`_codes`). A
    numpy string array is UTF-32 padded to its longest value (and drops trailing NULs): 21 of the 30 MB of a
    2,000-note vault's snapshot were its ids and creation times held that way."""
    distinct = list(dict.fromkeys(values))
    out: dict[str, np.ndarray] = {}
    if len(distinct) <= len(values) // 2:
        code = {v: k for k, v in enumerate(distinct)}
        out[name + "_codes"] = np.array([code[v] for v in values], dtype=np.int32)
        values = distinct
    encoded = [v.encode("utf-8", "surrogatepass") for v in values]
    ends = np.cumsum(np.array([len(b) + 1 for b in encoded], dtype=np.int64)) - 1
    out[name], out[name + "_ends"] = np.frombuffer(b"\0".join(encoded), dtype=np.uint8), ends
    return out


def _unpack_strings(name: str, arrays: dict[str, np.ndarray]) -> list[str]:
    """The values `_pack_strings` saved as `name`, taken out of `arrays`."""
    blob, ends, codes = arrays.pop(name), arrays.pop(name + "_ends"), arrays.pop(name + "_codes", None)
    values: list[str] = []
    if len(ends):
        values = str(blob.data, "utf-8", "surrogatepass").split("\0")  # one C call, not one per value...
        if len(values) != len(ends):  # ...unless a value holds a NUL
            data = blob.tobytes()
            starts = [0, *(ends[:-1] + 1).tolist()]
            values = [data[a:b].decode("utf-8", "surrogatepass") for a, b in zip(starts, ends.tolist())]
    return values if codes is None else [values[k] for k in codes.tolist()]


class GraphIndex:
    """The current snapshot of one store, refreshed when the store's graph generation moves."""

    def __init__(self, store: Store, *, persist: bool = True, cache_dir: str | None = None) -> None:
        self.store = store
        # the snapshot saved for the next process: beside the database, or a server store's in the user's cache
        self.path = (beside(store, "graph") or in_user_cache(store, "graph", cache_dir)) if persist else None
        # (a read-only process may save a snapshot only where the file is this user's own, not beside a database)
        self._own_file = persist and beside(store, "graph") is None and self.path is not None
        self._snap: GraphSnapshot | None = None
        # told before a long build, for a person watching: the ports print nothing (the CLI sets it on a terminal)
        self.on_slow_step: Callable[[str], None] | None = None

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
        # read just what was added or changed since (a remember adds a node and its edges; a forget changes one)
        fresh = snap.extended(self.store) if snap is not None and not volatile else None
        saves = bool(durable and self.path and (self._own_file or not getattr(self.store, "readonly", False)))
        if fresh is None:
            self._announce_build(saves)
            fresh = GraphSnapshot.build(self.store, reuse=snap)
        if (saves and self.path and not fresh.provisional
                and (fresh.unsaved >= save_after(len(fresh)) or self._read_twice(fresh))):
            try:
                if self._own_file:
                    os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
                fresh.save(self.path)
                fresh.unsaved = 0
            except OSError:
                pass  # a cache beside the database, not data: recall works the same without it
        self._snap = fresh
        return fresh

    def _announce_build(self, saved: bool) -> None:
        tell = self.on_slow_step
        if tell is None:
            return
        memories = self.store.count_active()
        if memories > SLOW_BUILD_NODES:
            where = "beside the database" if not self._own_file else "in the cache folder"
            tell(f"building the recall graph for {memories:,} memories"
                 + (f" (once; saved {where})…" if saved else "…"))

    def _read_twice(self, fresh: GraphSnapshot) -> bool:
        """Whether another process already extended the saved snapshot to this very generation: the store is quiet
        and reads repeat, so saving now spares every later process the same extension (≈ 150 ms at 100k). The
        first process to reach a generation only notes it (a few bytes), so a writer's cycle of remember → recall,
        where each recall sees a new generation, still never rewrites the file."""
        assert self.path is not None
        mark = f"{self.path}.seen"
        token = "\n".join(fresh.generation)
        try:
            with open(mark, encoding="utf-8") as fh:
                if fh.read() == token:
                    return True
        except OSError:
            pass
        try:
            with open(mark, "w", encoding="utf-8") as fh:
                fh.write(token)
        except OSError:
            pass
        return False
