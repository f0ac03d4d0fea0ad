"""`SearchAhead` answers an import's searches from one matrix product per block of upcoming vectors: each answer
the very one `VectorIndex.search` gives at that moment — rows, cosines and the rows kept of those tied at the cut —
with the rows written earlier in the same import among them, and rows dying meanwhile."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.core.model import Memory, content_hash, iso, utcnow
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.vector_index import SearchAhead, VectorIndex

PROVIDER = "test:ahead:24"
DIM, STORED = 24, 300


def _unit(mat: np.ndarray) -> np.ndarray:
    return (mat / np.maximum(np.linalg.norm(mat, axis=-1, keepdims=True), 1e-12)).astype(np.float32)


def _sparse(rng: np.random.Generator) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)  # e0 + two other axes: one cosine with e0 for many different vectors
    v[[0, *rng.choice(np.arange(1, DIM), 2, replace=False)]] = 1.0
    return _unit(v)


def _stored_vectors() -> np.ndarray:
    rng = np.random.default_rng(3)
    mat = _unit(rng.standard_normal((STORED, DIM)))
    mat[::9] = mat[0]  # copies of one text
    for row in range(4, STORED, 11):
        mat[row] = _sparse(rng)
    return mat


STORED_VECS = _stored_vectors()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SQLiteStore:
    s = SQLiteStore(str(Path(tmp_path_factory.mktemp("ahead")) / "m.db"))
    with s.transaction():
        for row, v in enumerate(STORED_VECS):
            m = Memory(id=f"s{(row * 7919) % 10007:05d}", content=f"memory {row}", created_at=iso(utcnow()),
                       updated_at=iso(utcnow()))
            s.insert_node(m)
            s.put_vector(m.id, PROVIDER, v, content_hash(m.content), m.created_at)
    return s


def _upcoming(seed: int, n: int) -> list[np.ndarray | None]:
    """Vectors about to be written: fresh ones, copies of stored rows and of rows of the same import (ties), sparse
    ones of one cosine, and memories without a vector."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray | None] = []
    for _ in range(n):
        kind = rng.integers(0, 6)
        earlier = [v for v in out if v is not None]
        if kind == 0:
            out.append(STORED_VECS[rng.integers(0, STORED)].copy())
        elif kind == 1 and earlier:
            out.append(earlier[rng.integers(0, len(earlier))].copy())
        elif kind == 2:
            out.append(_sparse(rng))
        elif kind == 3:
            out.append(None)
        else:
            out.append(_unit(STORED_VECS[rng.integers(0, STORED)] + 0.3 * rng.standard_normal(DIM)))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 90), k=st.sampled_from([1, 3, 13, 400]),
       block=st.integers(1, 40), deaths=st.lists(st.integers(0, 89), max_size=4))
def test_each_search_ahead_is_the_search_of_that_moment(store: SQLiteStore, seed: int, n: int, k: int, block: int,
                                                        deaths: list[int]) -> None:
    index = VectorIndex(store, PROVIDER, persist=False)
    vectors = _upcoming(seed, n)
    ahead = SearchAhead(index, vectors, k, block=block)
    rng = np.random.default_rng(seed)
    for p, v in enumerate(vectors):
        if p in deaths:  # a row dies between two writes: a stored one, or one this import wrote
            index._refresh()
            index.note_delete([index._ids[int(rng.integers(0, index._n))]], store.vector_generation())
        if v is None:
            continue
        want = index.search(v, k)
        assert ahead.search(p) == want, f"search {p} of {n}"
        index.note_write(f"new{p:03d}", v, store.vector_generation())


def test_an_import_into_an_empty_index_finds_its_own_earlier_rows(tmp_path: Path) -> None:
    empty = SQLiteStore(str(tmp_path / "e.db"))
    index = VectorIndex(empty, PROVIDER, persist=False)
    vectors: list[np.ndarray | None] = [STORED_VECS[p % 5] for p in range(12)]
    ahead = SearchAhead(index, vectors, 3, block=4)
    got = []
    for p, v in enumerate(vectors):
        assert v is not None
        got.append(ahead.search(p))
        assert got[-1] == index.search(v, 3)
        index.note_write(f"new{p:02d}", v, empty.vector_generation())
    assert got[0] == [] and got[5][0] == ("new00", pytest.approx(1.0, abs=1e-6))  # the copy written before it
    assert [i for i, _ in got[11][:2]] == ["new01", "new06"]  # the two written copies of its text
