"""The approximate index over a large store's saved vector matrix: it only proposes rows — every cosine returned is
exact, rows it does not cover (added or rewritten since its build) are scanned, dead and excluded rows never come
back — and it is used only for the matrix it was built over."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from mnemon.core.model import Memory, content_hash, iso, utcnow
from mnemon.ports import vector_ann, vector_index
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.vector_index import QueryScores, VectorIndex

from .test_vector_index import _forget

pytest.importorskip("usearch.index")

PROVIDER = "test:clustered:32"
DIM, ROWS = 32, 1200
POLICY = vector_ann.AnnPolicy(min_rows=1000)  # a store of 1,200 rows counts as large here


def _clustered(n: int, seed: int) -> np.ndarray:
    """Unit vectors around 40 centres: neighbourhoods, as real embeddings have."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIM))
    mat = centres[rng.integers(0, 40, n)] + 0.35 * rng.standard_normal((n, DIM))
    return (mat / np.linalg.norm(mat, axis=1, keepdims=True)).astype(np.float32)


def _memory(mid: str) -> Memory:
    return Memory(id=mid, content=f"memory {mid}", created_at=iso(utcnow()), updated_at=iso(utcnow()))


def _store_of(tmp_path: Path, vecs: np.ndarray) -> tuple[SQLiteStore, np.ndarray]:
    store = SQLiteStore(str(tmp_path / "m.db"))
    with store.transaction():
        for k, v in enumerate(vecs):
            m = _memory(f"m{k}")
            store.insert_node(m)
            store.put_vector(m.id, PROVIDER, v, content_hash(m.content), m.created_at)
    return store, vecs


@pytest.fixture
def big(tmp_path, monkeypatch):
    """A store over the (lowered) size threshold, its matrix saved and indexed; no background builds."""
    started: list[str] = []
    monkeypatch.setattr(vector_ann, "start_build", lambda path, policy: started.append(path) or True)
    store, vecs = _store_of(tmp_path, _clustered(ROWS, 1))
    first = VectorIndex(store, PROVIDER, ann=POLICY)
    first.search(vecs[0], 1)
    first.persist()
    assert started, "a large matrix saved without an index asks for a build"
    assert vector_ann.build(f"{store.path}-vectors", min_rows=1000)["built"] is True
    started.clear()
    return store, vecs, started


def _exact(index: VectorIndex, q: np.ndarray, k: int, exclude: set[str] | None = None) -> list[tuple[str, float]]:
    """The exact scan's answer: every row's cosine, then the top (never through the approximate index)."""
    index._refresh()
    full = vector_index.cosines(np.stack([index._row(r) for r in range(index._n)]), q)
    return QueryScores(index, q, full).top(k, exclude=exclude)


def _queries(n: int) -> np.ndarray:
    return _clustered(n, 99)


def test_it_finds_what_the_exact_scan_finds_with_exact_cosines(big):
    store, vecs, _ = big
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)
    assert index._ann_view is not None, "the saved index is used"
    agree = total = 0
    for q in _queries(60):
        got, want = index.search(q, 8), _exact(index, q, 8)
        agree += len({i for i, _ in got} & {i for i, _ in want})
        total += len(want)
        for i, cos in got:  # never an approximate score
            assert cos == pytest.approx(float(vecs[int(i[1:])] @ q), abs=1e-6)
    assert agree / total >= 0.98


def test_rows_written_after_the_build_are_found(big):
    store, vecs, _ = big
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)
    fresh = _clustered(1, 7)[0]
    m = _memory("late")
    with store.transaction():
        store.insert_node(m)
        before = store.vector_generation()
        store.put_vector("late", PROVIDER, fresh, content_hash(m.content), m.created_at)
        index.note_write("late", fresh, before)
    assert index.search(fresh, 3)[0] == ("late", pytest.approx(1.0, abs=1e-5))
    index.persist()  # appended in place: same token, so the next process still uses the index, and finds the row
    again = VectorIndex(store, PROVIDER, ann=POLICY)
    assert again.search(fresh, 3)[0][0] == "late" and again._ann_view is not None


def test_a_row_rewritten_in_place_is_scored_by_its_new_vector(big):
    store, vecs, _ = big
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)  # loaded, index in use: the rewrite below is told to it, not reloaded
    target = _clustered(1, 11)[0]
    with store.transaction():
        before = store.vector_generation()
        store.put_vector("m5", PROVIDER, target, content_hash("memory m5"), iso(utcnow()))
        index.note_write("m5", target, before)
    assert index._ann_view is not None
    assert index.search(target, 1)[0] == ("m5", pytest.approx(1.0, abs=1e-5))


def test_forgotten_and_excluded_rows_never_come_back(big):
    store, vecs, _ = big
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    q = vecs[10]
    nearest = [i for i, _ in index.search(q, 5)]
    assert nearest[0] == "m10"
    with store.transaction():
        before = store.vector_generation()
        store.soft_delete(["m10"], iso(utcnow()))
        index.note_delete(["m10"], before)
    after = index.search(q, 5, exclude={nearest[1]})
    assert "m10" not in {i for i, _ in after} and nearest[1] not in {i for i, _ in after}
    assert after == _exact(index, q, 5, exclude={nearest[1]})


def test_a_forget_keeps_the_index_in_use(big):
    store, vecs, started = big
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)
    _forget(index, store, ["m10"])  # tombstoned in place: same matrix, same positions
    again = VectorIndex(store, PROVIDER, ann=POLICY)
    got = again.search(vecs[10], 8)
    assert again._ann_view is not None and not started
    assert "m10" not in {i for i, _ in got} and got == _exact(again, vecs[10], 8)


def test_an_index_of_another_matrix_is_never_used_and_a_new_build_is_asked_for(big, monkeypatch):
    store, vecs, started = big
    monkeypatch.setattr(vector_index, "COMPACT_MIN_DEAD", 5)
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)
    _forget(index, store, [f"m{k}" for k in range(200, 330)])  # past a tenth: saved whole, rows at new positions
    assert started == [f"{store.path}-vectors"], "the process that saved it asks for a new index"
    again = VectorIndex(store, PROVIDER, ann=POLICY)
    q = vecs[700]
    assert again.search(q, 8) == _exact(again, q, 8)
    assert again._ann_view is None and len(started) == 2
    again.search(q, 8)
    assert len(started) == 2, "one build asked for per state, not one per search"


def test_a_metadata_file_that_does_not_describe_the_index_file_is_ignored(big):
    store, vecs, _ = big
    meta = Path(vector_ann.meta_path(f"{store.path}-vectors"))
    outer = json.loads(meta.read_text())
    body = json.loads(outer["body"])
    meta.write_text(json.dumps({"crc": 0, "body": outer["body"]}))  # torn
    assert VectorIndex(store, PROVIDER, ann=POLICY).search(vecs[1], 1)[0][0] == "m1"
    assert vector_ann.read_meta(f"{store.path}-vectors") is None
    body["bytes"] += 1  # another build's file
    text = json.dumps(dict(body, format=vector_ann.FORMAT), sort_keys=True)
    meta.write_text(json.dumps({"crc": __import__("zlib").crc32(text.encode()), "body": text}))
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    assert index.search(vecs[1], 1)[0][0] == "m1" and index._ann_view is None


def test_below_the_threshold_or_without_usearch_the_scan_is_exact(big, monkeypatch):
    store, vecs, started = big
    index = VectorIndex(store, PROVIDER, ann=vector_ann.AnnPolicy(min_rows=ROWS + 10))
    assert index.search(vecs[2], 4) == _exact(index, vecs[2], 4) and index._ann_view is None and not started
    monkeypatch.setattr(vector_ann, "open_view", lambda *_a: None)  # usearch missing: no view can be opened
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    assert index.search(vecs[2], 4) == _exact(index, vecs[2], 4)


def test_one_build_at_a_time_and_none_when_up_to_date(big):
    store, _, _ = big
    path = f"{store.path}-vectors"
    assert vector_ann.build(path, min_rows=1000) == {"built": False, "reason": "up to date", "rows": ROWS,
                                                     "covered": ROWS}
    fcntl = pytest.importorskip("fcntl")
    with open(vector_ann.lock_path(path), "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert vector_ann.build_running(path)
        assert vector_ann.build(path, min_rows=1000)["reason"] == "another build is running"
    assert not vector_ann.build_running(path)


def test_the_background_build_runs_in_its_own_process(tmp_path):
    store, vecs = _store_of(tmp_path, _clustered(ROWS, 3))
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)
    index.persist()
    again = VectorIndex(store, PROVIDER, ann=POLICY)
    again.search(vecs[0], 1)  # the saved matrix has no index yet: a build starts in the background
    meta = vector_ann.meta_path(f"{store.path}-vectors")
    deadline = time.monotonic() + 120
    while not os.path.exists(meta) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert os.path.exists(meta), "the background build never finished"
    while vector_ann.build_running(f"{store.path}-vectors") and time.monotonic() < deadline:
        time.sleep(0.05)
    again.search(vecs[0], 1)
    assert again._ann_view is not None and again._ann_view.rows == ROWS


def test_a_process_s_first_search_scans_exactly_unless_usearch_is_loaded_or_the_store_is_huge(big, monkeypatch):
    store, vecs, _ = big
    monkeypatch.setattr(vector_ann, "loaded", lambda: False)  # a fresh CLI process
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    assert index.search(vecs[4], 3) == _exact(index, vecs[4], 3) and index._ann_view is None
    index.search(vecs[4], 3)  # it searches again: a server, worth loading the index for
    assert index._ann_view is not None
    huge = VectorIndex(store, PROVIDER, ann=vector_ann.AnnPolicy(min_rows=1000, cold_min_rows=1000))
    huge.search(vecs[4], 3)
    assert huge._ann_view is not None, "past cold_min_rows one exact scan costs more than loading the index"
    off = VectorIndex(store, PROVIDER, ann=vector_ann.AnnPolicy(builds=False, min_rows=1000))
    off.search(vecs[4], 3)
    assert off.search(vecs[4], 3)[0][0] == "m4" and off._ann_view is not None, "builds off: a built index still used"


def test_status_describes_the_index_without_loading_it(big):
    store, _, _ = big
    path = f"{store.path}-vectors"
    info = vector_ann.describe(path)
    files = (vector_ann.index_path(path), vector_ann.copies_path(path), vector_ann.meta_path(path))
    assert info["rows"] == ROWS and not info["building"] and info["bytes"] == sum(map(os.path.getsize, files))


def test_a_query_s_scores_are_worked_out_row_by_row_and_equal_the_full_scan(big):
    store, vecs, _ = big
    index = VectorIndex(store, PROVIDER, ann=POLICY)
    index.search(vecs[0], 1)
    q = _queries(1)[0]
    lazy = index.scores(q)
    assert lazy._sims is None, "with an approximate index no full scan is made up front"
    exact = np.stack([index._row(k) for k in range(index._n)]) @ q
    rows = np.array([5, 900, 5, 17, 1199, 3], dtype=np.int64)
    # the same dot products, gathered: equal up to the last bit BLAS may round differently
    assert np.allclose(lazy[rows], exact[rows], rtol=0, atol=1e-6)
    assert np.array_equal(lazy[rows], lazy[rows[::-1]][::-1]), "a row's cosine is worked out once per query"
    allowed = {f"m{k}" for k in range(300, 700)}
    want = sorted(((f"m{k}", float(exact[k])) for k in range(300, 700)), key=lambda p: (-p[1], p[0]))[:6]
    got = lazy.top(6, allowed=allowed)
    assert [i for i, _ in got] == [i for i, _ in want] and np.allclose([c for _, c in got], [c for _, c in want])
    assert lazy.get(["m7", "nope", "m1100"]).keys() == {"m7", "m1100"}
    top = lazy.top(10)
    assert len(top) == 10 and all(c == pytest.approx(float(exact[int(i[1:])]), abs=1e-6) for i, c in top)
    assert np.allclose(lazy.sims, exact, rtol=0, atol=1e-6), "and the whole array when asked for it"


def test_a_read_only_open_never_starts_a_build(big, monkeypatch):
    store, vecs, started = big
    Path(vector_ann.meta_path(f"{store.path}-vectors")).unlink()  # no index: a writer would ask for one
    readonly = SQLiteStore(store.path, readonly=True)
    index = VectorIndex(readonly, PROVIDER, ann=POLICY)
    assert index.search(vecs[3], 2)[0][0] == "m3" and not started
    writer = VectorIndex(store, PROVIDER, ann=POLICY)
    writer.search(vecs[3], 2)
    assert started == [f"{store.path}-vectors"]


def test_a_policy_without_builds_starts_none(tmp_path):
    store, vecs = _store_of(tmp_path, _clustered(ROWS, 5))
    index = VectorIndex(store, PROVIDER, ann=vector_ann.AnnPolicy(builds=False, min_rows=1000))
    index.search(vecs[0], 1)
    index.persist()
    assert not vector_ann.start_build(f"{store.path}-vectors", index.ann)
    assert not os.path.exists(vector_ann.lock_path(f"{store.path}-vectors")), "nothing was even tried"
