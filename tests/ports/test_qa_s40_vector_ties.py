"""Rows tied with a query — identical vectors (a template section repeated across notes, one bullet imported many
times) or different vectors of one cosine (sparse embeddings) — are answered alike by every path: the exact scan of
a fresh process and the approximate index of a warm one both keep, of the rows tied at the cut, the first written
(by id, random uuid4 ids made every run keep another handful), with the same cosines."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.core.model import Memory, content_hash, iso, utcnow
from mnemon.ports import vector_ann
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.vector_index import VectorIndex, cosines

from .test_vector_index import _forget

PROVIDER = "test:ties:32"
DIM, ROWS = 32, 1200
POLICY = vector_ann.AnnPolicy(min_rows=1000)  # a store of 1,200 rows counts as large here
COPIES_A, COPIES_B, SAME_COSINE = slice(0, None, 7), slice(3, None, 11), slice(5, None, 13)


def _id(row: int) -> str:
    return f"m{(row * 7919) % 10007:05d}"  # ids in another order than rows: a pick by id is none by position


def _vectors() -> np.ndarray:
    rng = np.random.default_rng(5)
    centres = rng.standard_normal((40, DIM))
    mat = centres[rng.integers(0, 40, ROWS)] + 0.35 * rng.standard_normal((ROWS, DIM))
    mat[COPIES_A] = mat[0]
    mat[COPIES_B] = mat[3]
    # different vectors, each e0 + two other axes: the same cosine with e0, as a sparse embedder gives
    pairs = [(j, k) for j in range(1, DIM) for k in range(j + 1, DIM)]
    rows = np.arange(ROWS)[SAME_COSINE]
    mat[rows] = 0.0
    for row, (j, k) in zip(rows, pairs):
        mat[row, [0, j, k]] = 1.0
    return (mat / np.linalg.norm(mat, axis=1, keepdims=True)).astype(np.float32)


VECS = _vectors()
AXIS = np.eye(DIM, dtype=np.float32)[0]


def _queries() -> list[np.ndarray]:
    rng = np.random.default_rng(8)
    near = VECS[0] + 0.05 * rng.standard_normal(DIM).astype(np.float32)
    plain = [VECS[k] + 0.2 * rng.standard_normal(DIM).astype(np.float32) for k in (1, 2, 400, 801)]
    return [VECS[0], VECS[3], AXIS, near / np.linalg.norm(near), *(q / np.linalg.norm(q) for q in plain)]


QUERIES = _queries()
TIED = QUERIES[:4]  # whose answers hold rows tied at the cut (the others are ordinary: no ties, nothing special)
KS = (1, 3, 8, 20, 50, 200)


def _store(tmp: Path) -> SQLiteStore:
    store = SQLiteStore(str(tmp / "m.db"))
    with store.transaction():
        for row, v in enumerate(VECS):
            m = Memory(id=_id(row), content=f"memory {row}", created_at=iso(utcnow()), updated_at=iso(utcnow()))
            store.insert_node(m)
            store.put_vector(m.id, PROVIDER, v, content_hash(m.content), m.created_at)
    return store


def _reference(index: VectorIndex, q: np.ndarray, k: int, *, allowed: set[str] | None = None,
               exclude: frozenset[str] | set[str] = frozenset()) -> list[tuple[str, float]]:
    """The definition: every live row's cosine, the `k` highest — of rows tied at the cut, the first written (matrix
    order) — listed highest first, ties by id."""
    index._refresh()
    sims = cosines(np.stack([index._row(r) for r in range(index._n)]), q)
    rows = [(index._ids[r], float(sims[r]), r) for r in range(index._n) if index._alive[r]]
    rows = [p for p in rows if p[0] not in exclude and (allowed is None or p[0] in allowed)]
    kept = sorted(rows, key=lambda p: (-p[1], p[2]))[:k]
    return sorted(((i, c) for i, c, _ in kept), key=lambda p: (-p[1], p[0]))


@pytest.fixture
def no_builds(monkeypatch):
    monkeypatch.setattr(vector_ann, "start_build", lambda path, policy: True)


def test_a_row_s_cosine_is_the_same_wherever_it_sits():
    q = QUERIES[3]
    full = cosines(VECS, q)
    copies = np.flatnonzero((VECS == VECS[0]).all(axis=1))
    assert len(copies) > 100 and len(set(full[copies].tolist())) == 1, "identical rows, one cosine"
    rng = np.random.default_rng(1)
    for size in [*range(1, 10), 63, 130]:
        rows = rng.integers(0, ROWS, size)
        assert np.array_equal(cosines(VECS[rows], q), full[rows]), f"a gather of {size} rows"


def test_the_exact_scan_keeps_the_rows_first_by_id_of_those_tied_at_the_cut(tmp_path, no_builds):
    index = VectorIndex(_store(tmp_path), PROVIDER)  # 1,200 rows: far below the default threshold, always exact
    some = {_id(r) for r in range(0, ROWS, 2)}
    for q in QUERIES:
        for k in KS:
            assert index.search(q, k) == _reference(index, q, k)
            assert index.scores(q).top(k, allowed=some) == _reference(index, q, k, allowed=some)
            gone = {_id(r) for r in range(0, 60, 3)}
            assert index.search(q, k, exclude=gone) == _reference(index, q, k, exclude=gone)
    assert index._ann_view is None


@pytest.fixture
def indexed(tmp_path, no_builds) -> SQLiteStore:
    """The store's matrix saved and its approximate index built."""
    store = _store(tmp_path)
    first = VectorIndex(store, PROVIDER, ann=POLICY)
    first.search(VECS[0], 1)
    first.persist()
    assert vector_ann.build(f"{store.path}-vectors", min_rows=1000)["built"] is True
    return store


def test_the_approximate_index_answers_tied_rows_as_the_exact_scan(indexed):
    cold = VectorIndex(indexed, PROVIDER)  # a fresh CLI process: the exact scan
    warm = VectorIndex(indexed, PROVIDER, ann=POLICY)
    warm.search(VECS[1], 1)
    assert warm._ann_view is not None, "the index is used"
    for q in TIED:  # (an approximate index may pass over an ordinary neighbour: 0.98 of them is the bar elsewhere)
        for k in KS:
            want = cold.search(q, k)
            assert want == _reference(cold, q, k)
            assert warm.search(q, k) == want, (k, q[:3])
            assert warm.scores(q).top(k) == want
            assert warm.search(q, k, exclude={want[0][0]}) == cold.search(q, k, exclude={want[0][0]})


def test_a_copy_the_index_answered_through_can_be_forgotten(indexed):
    warm = VectorIndex(indexed, PROVIDER, ann=POLICY)
    warm.search(VECS[1], 1)
    first_copies = [_id(r) for r in range(0, 70, 7)]  # the first rows holding the vector, one of them the index's
    _forget(warm, indexed, first_copies)
    cold = VectorIndex(indexed, PROVIDER)
    for k in (1, 8, 20, 200):
        assert warm.search(VECS[0], k) == cold.search(VECS[0], k) == _reference(cold, VECS[0], k)
    assert warm._ann_view is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(0, len(TIED) - 1), k=st.integers(1, 90),
       gone=st.sets(st.integers(0, ROWS - 1), max_size=40), noise=st.floats(0, 0.05))
def test_any_query_near_the_copies_is_answered_as_the_definition_says(indexed, pick, k, gone, noise):
    rng = np.random.default_rng(k)
    q = TIED[pick] + np.float32(noise) * rng.standard_normal(DIM).astype(np.float32)
    q = (q / np.linalg.norm(q)).astype(np.float32)
    exclude = {_id(r) for r in gone}
    warm = VectorIndex(indexed, PROVIDER, ann=POLICY)
    assert warm.search(q, k, exclude=exclude) == _reference(warm, q, k, exclude=exclude)
