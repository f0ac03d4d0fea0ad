"""An import with an embedder goes through the bulk path (`AppendBatch`) like one without: the same store, and a
number of queries per memory that does not grow with the store (one `write_memory` per memory asked ~20)."""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.append_batch import AppendBatch
from mnemon.app.memory import Mnemon

from conftest import FakeClock

WHO = ["Alice", "Bob", "Priya", "Chen Wei", "Kubernetes", "Redis", "Kafka", "Nimbus"]


def _items(seed: int, n: int, month: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [{"content": f"{rng.choice(WHO)} {rng.choice(['moved', 'tuned', 'split'])} the {rng.choice(WHO)} cluster"
                        f" {rng.choice(['because', 'so that', 'while'])} the {rng.choice(['bill', 'pager'])} grew {k}",
             "source": rng.choice(["user", "agent"]), "category": rng.choice(["fact", "decision"]),
             "created_at": f"2025-{month:02d}-{1 + k // 30:02d}T{(k * 7) % 24:02d}:{(k * 13) % 60:02d}:00Z"}
            for k in range(n)]


def _open(path: Path, clock: FakeClock) -> Mnemon:
    from mnemon.app.config import load_config

    m = Mnemon.open(load_config({"HOME": str(path.parent), "MNEMON_EMBED_PROVIDER": "hash"}, db=str(path)))
    m.rt.clock = clock
    return m


def _queries_per_memory(m: Mnemon, items: list[dict[str, Any]]) -> float:
    count = [0]

    def traced(sql: str) -> None:
        count[0] += sql.lstrip().upper().startswith("SELECT")

    conn = m.rt.store.conn  # type: ignore[attr-defined]
    conn.set_trace_callback(traced)
    try:
        assert m.import_json({"insights": items})["embedded"] == len(items)
    finally:
        conn.set_trace_callback(None)
    return count[0] / len(items)


def test_an_import_with_vectors_asks_a_few_queries_per_memory_at_any_size(tmp_path: Path) -> None:
    m = _open(tmp_path / "m.db", FakeClock())
    try:
        small = _queries_per_memory(m, _items(1, 100, 1))
        larger = _queries_per_memory(m, _items(2, 400, 3))  # appended after 100 stored memories
    finally:
        m.close()
    # the vector generation, probed around each vector written; the rest is asked once per batch
    assert small <= 5 and larger <= 5


def _graph(m: Mnemon) -> tuple[Any, ...]:
    content = {n.id: n.content for n in m.rt.store.iter_nodes()}
    nodes = sorted((n.content, n.created_at, n.entities, round(n.effective_importance, 6), n.source)
                   for n in m.rt.store.iter_nodes())
    edges = sorted((content[e.src], content[e.dst], e.type, e.sub_type, round(e.weight, 6), e.status, e.origin,
                    tuple(sorted(e.metadata.items())))
                   for e in m.rt.store.iter_edges(statuses=("active", "candidate", "retired")))
    vectors = sorted((c, m.rt.index.vector(i).tobytes()) for i, c in content.items())  # type: ignore[union-attr]
    return nodes, edges, vectors


def test_an_import_with_vectors_grows_the_same_store_as_one_write_per_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    fast, slow = _open(tmp_path / "fast.db", clock), _open(tmp_path / "slow.db", clock)
    try:
        for batch in (_items(3, 150, 1), _items(4, 150, 2)):  # into an empty store, then appended to it
            assert fast.import_json({"insights": batch})["embedded"] == 150
            with monkeypatch.context() as patched:
                patched.setattr(AppendBatch, "applies", staticmethod(lambda store, created: False))
                assert slow.import_json({"insights": batch})["embedded"] == 150
        got, want = _graph(fast), _graph(slow)
        assert any(e[2] == "semantic" for e in want[1])  # the vectors took part in the graph
        assert got == want
    finally:
        fast.close()
        slow.close()


def _rows_scanned_per_memory(m: Mnemon, items: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> float:
    from mnemon.ports import vector_index

    scanned = [0]
    exact: Callable[[Any, Any], Any] = vector_index.cosines

    def counted(mat: Any, q: Any) -> Any:
        scanned[0] += mat.shape[0]
        return exact(mat, q)

    with monkeypatch.context() as patched:
        patched.setattr(vector_index, "cosines", counted)
        assert m.import_json({"insights": items})["embedded"] == len(items)
    return scanned[0] / len(items)


def test_an_import_with_vectors_does_not_score_every_stored_row_once_per_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = _open(tmp_path / "m.db", FakeClock())
    try:
        first = _rows_scanned_per_memory(m, _items(5, 200, 1), monkeypatch)
        second = _rows_scanned_per_memory(m, _items(6, 200, 3), monkeypatch)  # onto 200 stored
    finally:
        m.close()
    # one write at a time scored every row held: ~100 rows per memory, then ~300 (200 stored, ~100 written before);
    # now a block's one matrix product proposes each write its few candidates, and the rows written since the
    # block's start (< 64) are scored exactly
    assert first < 60 and second < 60, (first, second)
