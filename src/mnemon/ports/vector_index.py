"""An exact cosine index: one float32 matrix in memory, refreshed from the store when another writer changed it.

Brute force is exact and, measured here, 3.5 ms at 100k × 384 (reference/deps.md §3); nothing to build or keep in
sync. Rows grow with amortised doubling so a write does not copy the matrix.
"""
from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable

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
        self._pos: dict[str, int] = {}
        self._buf = np.zeros((0, 0), dtype=np.float32)
        self._alive_buf = np.zeros(0, dtype=bool)
        self._n = 0
        self._generation = -1
        self._unsaved = False  # the matrix differs from the copy saved beside the database

    @property
    def _mat(self) -> np.ndarray:
        return self._buf[: self._n]

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
        self._buf = mat if mat.flags.writeable and mat.dtype == np.float32 and mat.flags.c_contiguous else np.array(
            mat, dtype=np.float32, copy=True)
        self._n = len(ids)
        self._pos = {i: k for k, i in enumerate(ids)}
        self._alive_buf = np.ones(len(ids), dtype=bool)
        self._generation = gen

    def _load(self) -> tuple[list[str], np.ndarray]:
        """Every current vector: from the copy saved beside the database when it is of the store's committed state,
        else from the store (and `persist` saves it for the next process)."""
        state = self.store.vector_state() if self.path else None
        self._unsaved = True
        if state is not None and self.path is not None:
            from . import vector_file

            saved = vector_file.load(self.path, self.provider, state)
            if saved is not None:
                self._unsaved = False
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
        if alive.all():
            ids, mat = self._ids, self._mat
        else:
            ids, mat = [i for i, keep in zip(self._ids, alive.tolist()) if keep], self._mat[alive]
        if ids:
            vector_file.save(self.path, self.provider, state, ids, mat)
            self._unsaved = False

    def __len__(self) -> int:
        self._refresh()
        return int(self._alive.sum())

    def _append(self, node_id: str, vec: np.ndarray) -> bool:
        if self._buf.size == 0 or self._buf.shape[1] != vec.shape[0]:
            if self._n:
                return False  # dimension changed under us: leave it to the next full reload
            self._buf = np.zeros((64, vec.shape[0]), dtype=np.float32)
            self._alive_buf = np.zeros(64, dtype=bool)
        if self._n == self._buf.shape[0]:
            grow = max(64, self._n)
            self._buf = np.vstack([self._buf, np.zeros((grow, self._buf.shape[1]), dtype=np.float32)])
            self._alive_buf = np.concatenate([self._alive_buf, np.zeros(grow, dtype=bool)])
        self._buf[self._n] = vec
        self._alive_buf[self._n] = True
        self._ids.append(node_id)
        self._pos[node_id] = self._n
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
            self._buf[k] = vec
            self._alive_buf[k] = True
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
        self._unsaved = True
        self._generation = self.store.vector_generation()

    def vector(self, node_id: str) -> np.ndarray | None:
        self._refresh()
        k = self._pos.get(node_id)
        return None if k is None or not self._alive[k] else self._mat[k]

    def rows_for(self, ids: list[str]) -> np.ndarray:
        """The matrix row of each id, -1 where it has no live vector: for callers that index nodes their own way
        (the recall graph) and read `QueryScores.sims` directly. Valid while `version()` is unchanged."""
        self._refresh()
        rows = np.fromiter((self._pos.get(i, -1) for i in ids), dtype=np.int64, count=len(ids))
        has = rows >= 0
        has[has] = self._alive[rows[has]]
        rows[~has] = -1
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
        sims = self._mat[[k for _, k in rows]] @ np.asarray(query, dtype=np.float32)
        return {i: float(s) for (i, _), s in zip(rows, sims)}

    def scores(self, query: np.ndarray) -> "QueryScores":
        """Cosines of `query` against every row, computed once per recall and shared by all stages."""
        self._refresh()
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if self._n == 0 or q.shape[0] != self._buf.shape[1]:
            return QueryScores(self, np.zeros(0, dtype=np.float32))
        return QueryScores(self, _scan(self._mat, q))

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
