"""An exact cosine index: one float32 matrix in memory, refreshed from the store when another writer changed it.

Brute force is exact and has nothing to build or keep in sync: 3.5 ms at 100k × 384 in reference/deps.md §3, 12 ms
on one thread (7.6 ms on two) when measured again here under other jobs' load — it is memory-bound. The rows as
loaded (often a mapping of the file saved beside the database) are never copied to grow: rows written since go to a
tail that grows with amortised doubling, so a `remember` in a fresh process does not copy a 150 MB matrix to add one
row.
"""
from __future__ import annotations

import ctypes
import functools
import itertools
from collections.abc import Callable, Mapping

import numpy as np

from .cache_paths import beside
from .store.base import Store

# up to this many matrix cells (~200k rows of 384-d) a scan runs on the calling thread alone: it is memory-bound,
# so more BLAS threads shorten it little, and on a busy machine the caller then waits for them to be scheduled
# (measured on 2 shared cores: a 10k recall took 24 ms wall for 12 ms of CPU, against 9.5 ms on one thread)
SINGLE_THREAD_SCAN_CELLS = 80_000_000


@functools.cache
def _blas_threads_setter() -> Callable[[int], int] | None:
    """OpenBLAS's thread count for the calling thread alone (it returns the previous one), when numpy's BLAS is
    OpenBLAS; None elsewhere. Looked up at the first scan, not at import."""
    try:
        from numpy._core import _multiarray_umath  # type: ignore[attr-defined]

        setter = ctypes.CDLL(_multiarray_umath.__file__).openblas_set_num_threads_local
    except (ImportError, OSError, AttributeError):
        return None
    setter.restype, setter.argtypes = ctypes.c_int, [ctypes.c_int]
    return setter


def _scan(mat: np.ndarray, q: np.ndarray) -> np.ndarray:
    """`mat @ q`; each row is the same dot product on one thread or several: the same floats."""
    set_threads = _blas_threads_setter() if mat.size <= SINGLE_THREAD_SCAN_CELLS else None
    if set_threads is None:
        return mat @ q
    before = set_threads(1)
    try:
        return mat @ q
    finally:
        set_threads(before)


class VectorIndex:
    def __init__(self, store: Store, provider_identity: str, *, persist: bool = True) -> None:
        self.store = store
        self.provider = provider_identity
        self.path = beside(store, "vectors") if persist else None  # the matrix saved for the next process
        self._ids: list[str] = []
        self._pos_map: dict[str, int] | None = None  # id → row, built on first use (a recall never needs it)
        self._head = np.zeros((0, 0), dtype=np.float32)  # the rows as loaded
        self._buf = np.zeros((0, 0), dtype=np.float32)  # rows added since, with room to grow
        self._alive_buf = np.zeros(0, dtype=bool)  # over head and tail rows alike
        self._n = 0  # rows in all: head, then tail
        self._generation = -1
        self._unsaved = False  # the matrix differs from the copy saved beside the database
        # (state, rows) of the saved copy when the matrix's first `rows` rows are exactly its rows: then a persist
        # only appends the rows added since
        self._saved: tuple[str, int] | None = None

    @property
    def _tail(self) -> np.ndarray:
        return self._buf[: self._n - self._head.shape[0]]

    def _dim(self) -> int:
        return int(self._head.shape[1])

    @property
    def _pos(self) -> dict[str, int]:
        if self._pos_map is None:
            self._pos_map = {i: k for k, i in enumerate(self._ids)}
        return self._pos_map

    def _row(self, k: int) -> np.ndarray:
        h = self._head.shape[0]
        return self._head[k] if k < h else self._buf[k - h]

    def _rows_from(self, start: int) -> np.ndarray:
        """Rows `start`… as one matrix (a copy only when it must join head and tail)."""
        h = self._head.shape[0]
        if start >= h:
            return self._tail[start - h :]
        return np.concatenate([self._head[start:], self._tail]) if self._n > h else self._head[start:]

    @property
    def _alive(self) -> np.ndarray:
        return self._alive_buf[: self._n]

    def _refresh(self) -> None:
        gen = self.store.vector_generation()
        if gen == self._generation:
            return
        ids, mat = self._load()
        self._ids = list(ids)
        # a mapped saved matrix is already a private writable copy (copy-on-write); rows read from the store are not
        self._head = mat if mat.flags.writeable and mat.dtype == np.float32 and mat.flags.c_contiguous else np.array(
            mat, dtype=np.float32, copy=True)
        if self._head.ndim != 2:
            self._head = self._head.reshape(len(ids), -1) if len(ids) else np.zeros((0, 0), dtype=np.float32)
        self._buf = np.zeros((0, self._dim()), dtype=np.float32)
        self._n = len(ids)
        self._pos_map = None
        self._alive_buf = np.ones(len(ids), dtype=bool)
        self._generation = gen

    def _load(self) -> tuple[list[str], np.ndarray]:
        """Every current vector: from the copy saved beside the database when it is of the store's committed state,
        else from the store (and `persist` saves it for the next process)."""
        state = self.store.vector_state() if self.path else None
        self._unsaved, self._saved = True, None
        if state is not None and self.path is not None:
            from . import vector_file

            saved = vector_file.load(self.path, self.provider, state)
            if saved is not None:
                self._unsaved, self._saved = False, (state, len(saved[0]))
                return saved
        return self.store.load_vectors(self.provider)

    def persist(self) -> None:
        """Save the matrix beside the database for the next process, when it differs from the saved one and is
        exactly what the store holds now: read from it or kept in step with it by this process's own writes
        (`note_write` and `note_delete` refuse to apply once another writer has changed the vectors, and every such
        change draws a new generation), outside any write transaction."""
        if not self._unsaved or self.path is None or self._generation == -1 or getattr(self.store, "readonly", False):
            return
        state = self.store.vector_state()
        if state is None or self.store.vector_generation() != self._generation:
            return
        from . import vector_file

        alive = self._alive
        if self._saved is not None and alive.all():
            base = self._saved[1]
            if vector_file.append(self.path, self.provider, self._saved, state, self._ids[base:],
                                  self._rows_from(base)):
                self._unsaved, self._saved = False, (state, self._n)
                return
        if alive.all():
            ids, mat = self._ids, self._rows_from(0)
        else:
            ids, mat = [i for i, keep in zip(self._ids, alive.tolist()) if keep], self._rows_from(0)[alive]
        if ids and vector_file.save(self.path, self.provider, state, ids, mat):
            self._unsaved = False
            # the saved rows are the matrix's rows only when none was left out
            self._saved = (state, self._n) if len(ids) == self._n else None

    def __len__(self) -> int:
        self._refresh()
        return int(self._alive.sum())

    def _append(self, node_id: str, vec: np.ndarray) -> bool:
        if self._dim() != vec.shape[0]:
            if self._n:
                return False  # dimension changed under us: leave it to the next full reload
            self._head = np.zeros((0, vec.shape[0]), dtype=np.float32)
            self._buf = np.zeros((0, vec.shape[0]), dtype=np.float32)
        t = self._n - self._head.shape[0]
        if t == self._buf.shape[0]:
            grow = max(64, t)
            self._buf = np.vstack([self._buf, np.zeros((grow, vec.shape[0]), dtype=np.float32)])
        if self._n == self._alive_buf.shape[0]:
            self._alive_buf = np.concatenate([self._alive_buf, np.zeros(max(64, self._n), dtype=bool)])
        self._buf[t] = vec
        self._alive_buf[self._n] = True
        self._ids.append(node_id)
        if self._pos_map is not None:
            self._pos_map[node_id] = self._n
        self._n += 1
        return True

    def note_write(self, node_id: str, vector: np.ndarray, generation_before: int) -> None:
        """Record a vector this process just wrote. If another writer changed the store since our last look,
        the next query reloads everything instead."""
        if self._generation != generation_before:
            return
        vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        k = self._pos.get(node_id)
        if k is not None:
            self._row(k)[:] = vec
            self._alive_buf[k] = True
            self._forget_saved_rows_from(k)
        elif not self._append(node_id, vec):
            self._generation = -1  # the next look reloads everything
            return
        self._unsaved = True
        self._generation = self.store.vector_generation()

    def note_delete(self, node_ids: list[str], generation_before: int) -> None:
        if self._generation != generation_before:
            return
        for i in node_ids:
            k = self._pos.get(i)
            if k is not None:
                self._alive_buf[k] = False
                self._forget_saved_rows_from(k)
        self._unsaved = True
        self._generation = self.store.vector_generation()

    def _forget_saved_rows_from(self, row: int) -> None:
        """A row the saved copy holds changed: the next persist saves whole."""
        if self._saved is not None and row < self._saved[1]:
            self._saved = None

    def vector(self, node_id: str) -> np.ndarray | None:
        self._refresh()
        k = self._pos.get(node_id)
        return None if k is None or not self._alive[k] else self._row(k)

    def rows_at(self, positions: Mapping[str, int], n: int) -> np.ndarray:
        """The matrix row of each of `n` positions, where `positions` maps node ids to positions (-1 where a node has
        no live vector): for callers that index nodes their own way (the recall graph) and read `QueryScores.sims`
        directly. One pass over this index's ids with the caller's map, none of its own (a 100k-entry map is ≈ 20 ms
        to build in every process). Valid while `version()` is unchanged."""
        self._refresh()
        at = np.fromiter(map(positions.get, self._ids, itertools.repeat(-1)), dtype=np.int64, count=self._n)
        live = (at >= 0) & (at < n) & self._alive
        rows = np.full(n, -1, dtype=np.int64)
        rows[at[live]] = np.flatnonzero(live)
        return rows

    def version(self) -> tuple[int, int]:
        """Changes whenever a row is added, replaced or dropped."""
        self._refresh()
        return self._generation, self._n

    def similarities(self, query: np.ndarray, ids: list[str]) -> dict[str, float]:
        self._refresh()
        rows = [(i, self._pos[i]) for i in ids if i in self._pos and self._alive[self._pos[i]]]
        if not rows:
            return {}
        sims = np.stack([self._row(k) for _, k in rows]) @ np.asarray(query, dtype=np.float32)
        return {i: float(s) for (i, _), s in zip(rows, sims)}

    def scores(self, query: np.ndarray) -> "QueryScores":
        """Cosines of `query` against every row, computed once per recall and shared by all stages."""
        self._refresh()
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if self._n == 0 or q.shape[0] != self._dim():
            return QueryScores(self, np.zeros(0, dtype=np.float32))
        sims = _scan(self._head, q)
        if self._n > self._head.shape[0]:
            sims = np.concatenate([sims, self._tail @ q])
        return QueryScores(self, sims)

    def search(self, query: np.ndarray, k: int, *, allowed: set[str] | None = None,
               exclude: set[str] | None = None) -> list[tuple[str, float]]:
        """Top-k (id, cosine) by exact dot product over L2-normalised rows; ties broken by id."""
        return self.scores(query).top(k, allowed=allowed, exclude=exclude)


class QueryScores:
    def __init__(self, index: VectorIndex, sims: np.ndarray) -> None:
        self.index = index
        self.sims = sims

    def get(self, ids: list[str] | tuple[str, ...]) -> dict[str, float]:
        pos = self.index._pos
        alive = self.index._alive
        out = {}
        for i in ids:
            k = pos.get(i)
            if k is not None and k < self.sims.shape[0] and alive[k]:
                out[i] = float(self.sims[k])
        return out

    def top(self, k: int, *, allowed: set[str] | None = None, exclude: set[str] | None = None) -> list[tuple[str, float]]:
        idx_obj = self.index
        n_rows = self.sims.shape[0]
        if n_rows == 0 or k <= 0:
            return []
        if allowed is None and not exclude and idx_obj._alive[:n_rows].all():
            sims, n = self.sims, n_rows  # every row may be returned: no masked copy of a 100k-row array
        else:
            if allowed is not None:
                mask = np.zeros(n_rows, dtype=bool)
                keep = [idx_obj._pos[i] for i in allowed if i in idx_obj._pos]
                mask[keep] = idx_obj._alive[keep]
            else:
                mask = idx_obj._alive[:n_rows].copy()
            if exclude:
                mask[[idx_obj._pos[i] for i in exclude if i in idx_obj._pos]] = False
            n = int(mask.sum())
            if n == 0:
                return []
            sims = np.where(mask, self.sims, -np.inf)
        take = min(k, n)
        idx = np.argpartition(-sims, take - 1)[:take]
        pairs = [(idx_obj._ids[i], float(sims[i])) for i in idx]
        pairs.sort(key=lambda p: (-p[1], p[0]))
        return pairs
