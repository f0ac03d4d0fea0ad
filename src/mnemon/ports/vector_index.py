"""An exact cosine index: one float32 matrix in memory, refreshed from the store when another writer changed it.

Brute force is exact and has nothing to build or keep in sync: 3.5 ms at 100k × 384 in reference/deps.md §3, 10–17
ms on one thread when measured again here under other jobs' load — it is memory-bound. The rows as
loaded (often a mapping of the file saved beside the database) are never copied to grow: rows written since go to a
tail that grows with amortised doubling, so a `remember` in a fresh process does not copy a 150 MB matrix to add one
row. A forgotten or replaced row is marked dead in place (and tombstoned in the saved copy), so positions never move.

From 30k rows the brute force is the largest part of a `remember` (8–16 ms at 100k), so searches there take their
candidates from an approximate index over the saved copy (`vector_ann.py`) and re-score them exactly: every cosine
returned is still a float32 dot product of the stored rows.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from . import vector_ann
from .cache_paths import beside
from .store.base import Store

# rows asked of the approximate index beyond the k wanted: room for dead and excluded rows near the query
ANN_SLACK = 16
# dead rows the saved matrix may keep as tombstones (or a tenth of its rows, if more) before it is saved compacted
COMPACT_MIN_DEAD = 1000


def cosines(mat: np.ndarray, q: np.ndarray) -> np.ndarray:
    """`mat @ q`, each row's cosine the same floats wherever the row sits: every product of the index goes through
    here. BLAS's matrix-vector kernels sum a row's products in another order when it falls in the last rows of a
    block (measured with OpenBLAS: a row gathered with two others differed in its last bit from the full scan's, and
    so did identical rows at the end of a matrix), so a recall's cosines depended on which rows were computed
    together: the exact scan and the approximate index ordered tied rows (copies of one text) differently. einsum
    sums each row alike, on the calling thread, and is no slower on this memory-bound product (100k × 384: 10–17 ms
    against BLAS's 22–34 ms on one thread, measured under load; a small product also wakes no thread pool)."""
    return np.einsum("ij,j->i", mat, q, optimize=False)


def _ranked(sims: np.ndarray, take: int, ids: Sequence[str], rows: np.ndarray | None = None) -> list[tuple[str, float]]:
    """(id, cosine) of the `take` highest of `sims` (`take` ≥ 1, at most the finite ones), highest first, ties by id;
    `sims[i]` is the matrix row `rows[i]` (`i` itself without `rows`). At the cut the rows tied there are taken in
    matrix order, the order they were written: `argpartition` alone kept any of them, so copies of one text came back
    a different handful from one process to the next — and by id, random ids (uuid4) chose another handful on every
    run. The tie check is one comparison pass over `sims`, far below the scan that made them."""
    best = np.argpartition(-sims, take - 1)[:take]
    cut = sims[best].min()
    at_cut = sims == cut
    if np.count_nonzero(at_cut) > np.count_nonzero(sims[best] == cut):  # rows tied at the cut were left out
        above = best[sims[best] > cut]
        tied = np.flatnonzero(at_cut)
        if rows is not None:
            tied = tied[np.argsort(rows[tied], kind="stable")]
        best = np.concatenate([above, tied[:take - len(above)]])
    at = best if rows is None else rows[best]
    pairs = [(ids[int(r)], float(sims[i])) for i, r in zip(best.tolist(), at.tolist())]
    pairs.sort(key=lambda p: (-p[1], p[0]))
    return pairs


class VectorIndex:
    def __init__(self, store: Store, provider_identity: str, *, persist: bool = True,
                 ann: vector_ann.AnnPolicy = vector_ann.AnnPolicy(),
                 warn: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.ann = ann
        self.warn = warn  # told when the saved matrix was damaged and the store read instead
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
        # the ids token of a saved copy whose rows sit at this matrix's row positions (it may have fewer): an
        # approximate index built over that copy names rows by the same positions (vector_ann.py)
        self._token: str | None = None
        self._saved_dead = 0  # tombstoned rows in the saved copy
        self._dead_unsaved: set[int] = set()  # saved rows that died since (forgotten, or re-embedded and appended)
        self._ann_view: vector_ann.AnnView | None = None
        self._searches = 0  # nearest-neighbour searches this process made through `_ann`
        self._ann_started: tuple[str, int] | None = None  # (token, rows covered) this process started a build at

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
        ids, mat, dead = self._load()
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
        self._alive_buf[dead] = False
        self._saved_dead, self._dead_unsaved = len(dead), set()
        self._generation = gen

    def _load(self) -> tuple[list[str], np.ndarray, list[int]]:
        """Every current vector: from the copy saved beside the database when it is of the store's committed state,
        else from the store (and `persist` saves it for the next process)."""
        state = self.store.vector_state() if self.path else None
        self._unsaved, self._saved, self._token = True, None, None
        if state is not None and self.path is not None:
            from . import vector_file

            try:
                # rows are summed where the first search scans them all anyway; from the size where a process
                # answers from the approximate index, the sum would read the whole matrix that index avoids
                saved = vector_file.load(self.path, self.provider, state, verify_rows_up_to=self.ann.cold_min_rows)
            except vector_file.Damaged as exc:
                saved = None
                if self.warn is not None:
                    self.warn(f"the vector matrix saved beside the database is damaged ({exc}): read from the store"
                              " instead" + ("" if getattr(self.store, "readonly", False) else
                                            ", and saved anew when this process is done"))
            if saved is not None:
                ids, mat, self._token, dead = saved
                self._unsaved, self._saved = False, (state, len(ids))
                return ids, mat, dead
        return (*self.store.load_vectors(self.provider), [])

    def follow_saved(self) -> None:
        """Load the matrix now if the copy saved beside the database is current (a mapping: no store reads), so a
        deletion this process is about to make is tombstoned in that copy at `persist`, instead of leaving it stale
        for the next process to rebuild from every stored vector (≈ 0.6 s and 154 MB written at 100k)."""
        if self._generation != -1 or self.path is None:
            return
        from . import vector_file

        state = self.store.vector_state()
        if state is not None and vector_file.saved_state(self.path, self.provider) == state:
            self._refresh()

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
        if self._saved is not None and self._token is not None and self._append_saved(state):
            return
        if alive.all():
            ids, mat = self._ids, self._rows_from(0)
        else:
            ids, mat = [i for i, keep in zip(self._ids, alive.tolist()) if keep], self._rows_from(0)[alive]
        token = vector_file.save(self.path, self.provider, state, ids, mat) if ids else None
        if token is not None:
            self._unsaved = False
            if len(ids) == self._n:
                self._saved, self._token, self._saved_dead, self._dead_unsaved = (state, self._n), token, 0, set()
            else:  # saved without the dead rows: map the new file rather than keep two row orders
                self._generation = -1
                self._refresh()
            self._ask_for_ann(token, len(ids))

    def _append_saved(self, state: str) -> bool:
        """Bring the saved copy up to date in place: rows added since appended, rows dead since tombstoned. False
        (the caller saves whole, without dead rows) when tombstones would pass a tenth of the rows, or the copy is
        not the one this matrix stands on."""
        from . import vector_file

        assert self._saved is not None and self._token is not None and self.path is not None
        base = self._saved[1]
        alive = self._alive
        dead_old = sorted(k for k in self._dead_unsaved if k < base)
        new_ids = [i if alive[base + k] else vector_file.TOMBSTONE * len(i.encode())
                   for k, i in enumerate(self._ids[base:])]
        dead_total = self._saved_dead + len(dead_old) + int((~alive[base:]).sum())
        if dead_total > max(COMPACT_MIN_DEAD, self._n // 10):
            return False
        offsets = vector_file.id_offsets(self._token, self._ids[:base], dead_old) if dead_old else []
        if not vector_file.append(self.path, self.provider, self._saved, state, new_ids, self._rows_from(base),
                                  offsets):
            return False
        self._unsaved, self._saved = False, (state, self._n)
        self._saved_dead, self._dead_unsaved = dead_total, set()
        self._ask_for_ann(self._token, self._n)
        return True

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
        self.note_writes({node_id: vector}, generation_before)

    def note_writes(self, vectors: Mapping[str, np.ndarray], generation_before: int) -> None:
        """`note_write` of every vector this process wrote since `generation_before` (a batch in one transaction)."""
        if self._generation != generation_before:
            return
        for node_id, vector in vectors.items():
            k = self._pos.get(node_id)
            if k is not None:  # a changed vector: the old row dies where it is and the new one is appended
                self._kill(k)
            if not self._append(node_id, np.asarray(vector, dtype=np.float32).reshape(-1)):
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
                self._kill(k)
        self._unsaved = True
        self._generation = self.store.vector_generation()

    def _kill(self, row: int) -> None:
        if self._alive_buf[row]:
            self._alive_buf[row] = False
            self._dead_unsaved.add(row)

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

    def width(self) -> int:
        """The width of this provider's stored vectors (0 while it has none)."""
        self._refresh()
        return self._dim() if self._n else 0

    def version(self) -> tuple[int, int]:
        """Changes whenever a row is added, replaced or dropped."""
        self._refresh()
        return self._generation, self._n

    def similarities(self, query: np.ndarray, ids: list[str]) -> dict[str, float]:
        self._refresh()
        rows = [(i, self._pos[i]) for i in ids if i in self._pos and self._alive[self._pos[i]]]
        if not rows or np.asarray(query).reshape(-1).shape[0] != self._dim():  # (another width: nothing to compare)
            return {}
        sims = cosines(np.stack([self._row(k) for _, k in rows]), np.asarray(query, dtype=np.float32))
        return {i: float(s) for (i, _), s in zip(rows, sims)}

    def scores(self, query: np.ndarray) -> "QueryScores":
        """Cosines of `query` against the rows, shared by all stages of a recall: every row at once (one scan), or,
        on a store with an approximate index, row by row as they are asked for, the top ones proposed by the index."""
        self._refresh()
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if self._n == 0 or q.shape[0] != self._dim():
            return QueryScores(self, q, np.zeros(0, dtype=np.float32))
        view = self._ann()
        if view is not None:
            return QueryScores(self, q, None, view)
        return self._scanned(q)

    def _scanned(self, q: np.ndarray) -> "QueryScores":
        """Every row's cosine, by one scan (the index refreshed, `q` of the matrix's width)."""
        sims = cosines(self._head, q)
        if self._n > self._head.shape[0]:
            sims = np.concatenate([sims, cosines(self._tail, q)])
        return QueryScores(self, q, sims)

    def _dot_rows(self, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Cosines of `q` with the given matrix rows."""
        return cosines(self._gather(rows), q) if len(rows) else np.zeros(0, dtype=np.float32)

    def _gather(self, rows: np.ndarray) -> np.ndarray:
        """The given matrix rows, in their order, from the mapped head and the tail."""
        h = self._head.shape[0]
        if not len(rows) or int(rows.max()) < h:
            return self._head[rows]
        out = np.empty((len(rows), self._dim()), dtype=np.float32)
        low = rows < h
        out[low] = self._head[rows[low]]
        out[~low] = self._buf[rows[~low] - h]
        return out

    def search(self, query: np.ndarray, k: int, *, allowed: set[str] | None = None,
               exclude: set[str] | None = None) -> list[tuple[str, float]]:
        """Top-k (id, cosine) by dot product over L2-normalised rows (of rows tied at the cut, the first written),
        listed with ties by id. Every cosine is exact; on
        a large store the rows considered come from the approximate index (plus every row it does not cover)."""
        if allowed is None and k > 0:
            found = self._approximate_top(query, k, exclude or set())
            if found is not None:
                return found
            q = np.asarray(query, dtype=np.float32).reshape(-1)
            if self._n == 0 or q.shape[0] != self._dim():
                return []
            return self._scanned(q).top(k, exclude=exclude)  # not `scores`: it would ask the index a second time
        return self.scores(query).top(k, allowed=allowed, exclude=exclude)

    def _approximate_top(self, query: np.ndarray, k: int, exclude: set[str],
                         view: vector_ann.AnnView | None = None) -> list[tuple[str, float]] | None:
        """`search` through the approximate index; None when there is none to use (the caller scans exactly)."""
        self._refresh()
        view = view or self._ann()
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if view is None or q.shape[0] != self._dim():
            return None
        m, alive = view.rows, self._alive
        want = k + len(exclude) + ANN_SLACK
        while True:
            keys = view.nearest(q, want)
            keys = keys[(keys >= 0) & (keys < m)]
            keep = keys[alive[keys]]
            if exclude:
                keep = np.asarray([x for x in keep.tolist() if self._ids[x] not in exclude], dtype=np.int64)
            if len(keep) >= k or len(keys) < want:
                break
            if want >= m:
                return None
            want *= 4  # many dead rows around the query: look further
        # the candidates re-scored exactly; the rows added after the build (a changed vector is one of them: its old
        # row is dead) scanned
        sims = self._dot_rows(keep, q)
        rest = cosines(self._rows_from(m), q) if self._n > m else np.zeros(0, np.float32)
        rest_pos = np.arange(m, self._n, dtype=np.int64)
        live = alive[m:]
        if exclude:
            live = live & np.asarray([self._ids[x] not in exclude for x in rest_pos.tolist()], dtype=bool)
        pos = np.concatenate([keep, rest_pos[live]])
        sim = np.concatenate([sims, rest[live]]).astype(np.float32)
        if not len(pos):
            return []
        ids = self._ids
        found = _ranked(sim, min(k, len(pos)), ids, pos)
        tied = self._gather(pos[sim == found[-1][1]])
        if len(tied) > 1 and not (tied == tied[0]).all():
            # different vectors of one cosine at the cut (a sparse embedder's): the index may have passed over
            # more of them, and which it found would choose the rows kept — the exact scan decides
            return None
        return found

    def _ann(self) -> vector_ann.AnnView | None:
        """The approximate index over this matrix's saved copy, when the store is large enough to want one and it
        exists; starts a background build when it is missing or too far behind."""
        if self.path is None or self._token is None or not self._ann_wanted():  # (the first two: for mypy)
            return None
        self._searches += 1
        if self._searches == 1 and self._n < self.ann.cold_min_rows and not vector_ann.loaded():
            # a process's first search (a CLI `remember` makes one): loading usearch (≈ 60 ms) costs more than one
            # exact scan of a matrix this size; a process that searches again (a server) pays it once
            self._ask_for_ann(self._token, self._n)
            return None
        stamp = vector_ann.meta_stamp(self.path)
        view = self._ann_view
        if view is None or view.token != self._token or view.stamp != stamp:
            view = vector_ann.open_view(self.path, self.provider, self._token, self._dim()) if stamp else None
            self._ann_view = view
        covered = view.rows if view is not None and view.rows <= self._n else 0
        self._ask_for_ann(self._token, self._n, covered)
        return view if covered else None

    def _ann_wanted(self) -> bool:
        """Whether a search may go through the approximate index (else it scans every row exactly)."""
        return self.path is not None and self._token is not None and self._n >= self.ann.min_rows

    def _ask_for_ann(self, token: str, rows: int, covered: int | None = None) -> None:
        """Start a background build when the saved matrix (`token`, `rows`) is large and its approximate index
        missing or too far behind; once per (matrix, coverage) in a process, not once per search."""
        if self.path is None or rows < self.ann.min_rows or getattr(self.store, "readonly", False):
            return  # (a read-only open writes nothing beside the database, this cache included)
        if covered is None:  # after a save: read the index's metadata only (mapping it would load usearch)
            meta = vector_ann.read_meta(self.path) or {}
            covered = int(meta.get("rows", 0)) if (meta.get("token"), meta.get("provider")) == (
                token, self.provider) else 0
        if self.ann.is_stale(rows, covered) and self._ann_started != (token, covered):
            self._ann_started = (token, covered)
            vector_ann.start_build(self.path, self.ann)


class SearchAhead:
    """`index.search(vectors[p], k)` for vectors about to be written one after another (an import's), each search
    seeing the rows written before it, without scanning every row once per vector (O(n²) over an import).

    One matrix product (BLAS) scores a block of upcoming vectors against the rows held at the block's start; its
    floats are rounded otherwise than `cosines`, so each search re-scores exactly, with `cosines`, every row within
    a bound of twice the worst rounding error (γ_d·|row|·|q| for each product) of the block's k-th best, plus every
    row added since the block's start: the same rows, floats and ties at the cut as the full scan. A reload of the
    index or a row dying since the block's start computes the block anew; where `search` would ask the approximate
    index (or scan nothing), it is asked as it is."""

    def __init__(self, index: VectorIndex, vectors: Sequence[np.ndarray | None], k: int, block: int = 64) -> None:
        self.index, self.vectors, self.k, self.block = index, vectors, k, block
        self._at: dict[int, np.ndarray] = {}  # position in `vectors` → its candidate rows among the first `_rows`
        self._ids: list[str] | None = None  # the index's ids the block was computed against (another: a reload)
        self._rows = self._live = 0  # rows held, and alive, at the block's start
        self._norm_rows, self._norm = 0, 0.0  # the largest norm of the first `_norm_rows` rows

    def search(self, p: int) -> list[tuple[str, float]]:
        index, given = self.index, self.vectors[p]
        assert given is not None
        index._refresh()
        q = np.asarray(given, dtype=np.float32).reshape(-1)
        if (index._ann_wanted() or index._n == 0 or q.shape[0] != index._dim() or self.k <= 0
                or not np.isfinite(q).all()):
            return index.search(q, self.k)
        if (p not in self._at or self._ids is not index._ids or index._n < self._rows
                or np.count_nonzero(index._alive[: self._rows]) != self._live):
            if not self._compute(p):
                return index.search(q, self.k)
        alive, n = index._alive, index._n
        added = np.arange(self._rows, n, dtype=np.int64)
        added = added[alive[self._rows : n]]
        rows = np.concatenate([self._at.pop(p), added])
        return _ranked(index._dot_rows(rows, q), min(self.k, self._live + len(added)), index._ids, rows)

    def _compute(self, p: int) -> bool:
        """The candidate rows of the vectors from `p` on; False when no row is alive (`search` answers)."""
        index = self.index
        n, d = index._n, index._dim()
        alive = index._alive
        live = int(np.count_nonzero(alive))
        if not live:
            return False
        if self._norm_rows > n or self._ids is not index._ids:
            self._norm_rows, self._norm = 0, 0.0
        self._ids, self._rows, self._live, self._at = index._ids, n, live, {}
        at = [j for j in range(p, min(p + self.block, len(self.vectors))) if self._fits(j, d)]
        queries = np.stack([np.asarray(self.vectors[j], dtype=np.float32).reshape(-1) for j in at])
        parts = [queries @ rows.T for rows in (index._head, index._tail) if rows.shape[0]]
        sims = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)
        if live < n:
            sims[:, ~alive] = -np.inf
        take = min(self.k, live)
        kth = np.partition(sims, n - take, axis=1)[:, n - take]
        if self._norm_rows < n:
            fresh = index._rows_from(self._norm_rows)
            self._norm = max(self._norm, float(np.sqrt(np.einsum("ij,ij->i", fresh, fresh).max())))
            self._norm_rows = n
        unit = d * 2.0 ** -24
        # each product within γ_d·|row|·|q| of the true cosine whatever the order of summation, so two of one row
        # within twice that and a row of the exact top within twice that again of the k-th product; doubled
        margin = 8 * unit / (1 - unit) * self._norm * np.linalg.norm(queries.astype(np.float64), axis=1)
        floor = np.nextafter((kth.astype(np.float64) - margin).astype(np.float32), np.float32(-np.inf))
        which, rows = np.nonzero(sims >= floor[:, None])
        cuts = np.searchsorted(which, np.arange(1, len(at)))
        self._at = {j: r.astype(np.int64) for j, r in zip(at, np.split(rows, cuts))}
        return True

    def _fits(self, j: int, width: int) -> bool:
        v = self.vectors[j]
        return v is not None and v.size == width and bool(np.isfinite(v).all())


class QueryScores:
    """A query's cosines against the index's rows: `sims` computed for every row at once, or (with an approximate
    index) `sims` None and each row computed when first asked for, the top rows proposed by the index."""

    def __init__(self, index: VectorIndex, query: np.ndarray, sims: np.ndarray | None,
                 view: vector_ann.AnnView | None = None) -> None:
        self.index = index
        self.query = query
        self._sims = sims
        self._view = view
        self._n = index._n if sims is None else int(sims.shape[0])
        self._known: np.ndarray | None = None  # lazily: cosines worked out so far, NaN for the others

    def __len__(self) -> int:
        return self._n

    @property
    def sims(self) -> np.ndarray:
        """Every row's cosine (a full scan if it was not made: the cosines worked out so far are its very floats)."""
        if self._sims is None:
            self._sims = self.index._scanned(self.query).sims[: self._n]  # (asked row by row: a copy of the matrix)
        return self._sims

    def __getitem__(self, rows: np.ndarray) -> np.ndarray:
        """The cosines of these matrix rows, as the full scan would give them."""
        if self._sims is not None:
            return self._sims[rows]
        if self._known is None:
            self._known = np.full(self._n, np.nan, dtype=np.float32)
        todo = np.unique(rows[np.isnan(self._known[rows])])
        if len(todo):
            self._known[todo] = self.index._dot_rows(todo, self.query)
        return self._known[rows]

    def get(self, ids: list[str] | tuple[str, ...]) -> dict[str, float]:
        pos = self.index._pos
        alive = self.index._alive
        found = [(i, pos[i]) for i in ids if i in pos and pos[i] < self._n and alive[pos[i]]]
        if not found:
            return {}
        sims = self[np.asarray([k for _, k in found], dtype=np.int64)]
        return {i: float(c) for (i, _), c in zip(found, sims)}

    def top(self, k: int, *, allowed: set[str] | None = None, exclude: set[str] | None = None) -> list[tuple[str, float]]:
        idx_obj = self.index
        n_rows = self._n
        if n_rows == 0 or k <= 0:
            return []
        if self._sims is None:
            if allowed is None:
                found = idx_obj._approximate_top(self.query, k, exclude or set(), self._view)
                if found is not None:
                    return found
            else:  # only the allowed rows: work out theirs alone
                rows = np.asarray(sorted({idx_obj._pos[i] for i in allowed if i in idx_obj._pos}
                                         - {idx_obj._pos[i] for i in exclude or () if i in idx_obj._pos}),
                                  dtype=np.int64)
                rows = rows[idx_obj._alive[rows]] if len(rows) else rows
                if not len(rows):
                    return []
                sims = self[rows]
                ids = idx_obj._ids
                return _ranked(sims, min(k, len(rows)), ids, rows)
        full = self.sims
        if allowed is None and not exclude and idx_obj._alive[:n_rows].all():
            sims, n = full, n_rows  # every row may be returned: no masked copy of a 100k-row array
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
            sims = np.where(mask, full, -np.inf)
        return _ranked(sims, min(k, n), idx_obj._ids)
