"""Restoring an export reads the store a bounded number of times per batch of edges, never once per edge.

Restoring a 10k-memory export (421k edges) asked the store whether each edge whose two ends earlier batches had
written was already there, one statement per such edge; now only those a filter of the keys it wrote may hold
(`app/key_filter.py`): a repeat, or now and then a key the filter mistakes for one."""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app import backup
from mnemon.app.key_filter import KeyFilter
from mnemon.app.memory import Mnemon

_IDS = [f"00000000-0000-0000-0000-{k:012d}" for k in range(12)]


def _export(n_edges: int, *, repeat: int = 0) -> dict[str, Any]:
    rows = [{"id": i, "content": f"memory number {k} about topic {k * 7}",
             "created_at": f"2026-01-{k + 1:02d}T00:00:00Z"} for k, i in enumerate(_IDS)]
    pairs = [(a, b, t) for t in ("semantic", "causal", "entity") for a in _IDS for b in _IDS if a != b]
    edges = [{"source_id": a, "target_id": b, "edge_type": t, "weight": 0.5, "origin": "agent",
              "metadata": {"hours_diff": 0.25}, "created_at": "2026-02-01T00:00:00.000000Z"}
             for a, b, t in pairs[:n_edges]]
    # a concatenated backup: the first edges again at the end, batches after their first copies
    return {"kind": "mnemon-export", "schema_version": "4", "provider": None, "insights": rows,
            "edges": edges + [dict(e, weight=0.9) for e in edges[:repeat]]}


def _reads(mem: Mnemon, doc: dict[str, Any]) -> tuple[dict[str, Any], int]:
    seen: list[str] = []
    mem.rt.store.conn.set_trace_callback(seen.append)  # type: ignore[attr-defined]
    try:
        out = mem.import_json(io.StringIO(json.dumps(doc)))
    finally:
        mem.rt.store.conn.set_trace_callback(None)  # type: ignore[attr-defined]
    return out, sum(1 for sql in seen if sql.lstrip().upper().startswith("SELECT"))


@pytest.mark.parametrize("repeat", [0, 40], ids=["distinct", "repeated"])
def test_edge_reads_do_not_grow_with_the_edges(make_mem: Callable[..., Mnemon], monkeypatch: Any, tmp_path: Path,
                                               facade_backend: str, repeat: int) -> None:
    if facade_backend != "sqlite":
        pytest.skip("counts SQLite statements")
    monkeypatch.setattr(backup, "BATCH", 30)  # many batches, so most edges have both ends written by earlier ones
    small_out, small = _reads(make_mem(db=tmp_path / "small.db"), _export(180, repeat=repeat))
    large_out, large = _reads(make_mem(db=tmp_path / "large.db"), _export(360, repeat=repeat))
    assert small_out["edges_inserted"] == 180 and large_out["edges_inserted"] == 360
    assert small_out["edges_skipped"] == large_out["edges_skipped"] == repeat
    # 6 more batches of 30 edges: a few reads each (~5), where a read per edge made it ~180 more
    assert large - small <= 6 * 6, (small, large)


def test_a_repeated_edge_keeps_its_first_copy(make_mem: Callable[..., Mnemon], monkeypatch: Any) -> None:
    monkeypatch.setattr(backup, "BATCH", 30)
    mem = make_mem()
    out = mem.import_json(io.StringIO(json.dumps(_export(90, repeat=5))))
    assert out["edges_inserted"] == 90 and out["edges_skipped"] == 5 and out["edge_errors"] == 0
    first = _export(1)["edges"][0]
    kept = mem.rt.store.find_edge(first["source_id"], first["target_id"], first["edge_type"])
    assert kept is not None and kept.weight == 0.5


def test_edges_are_restored_without_per_row_key_probes_and_the_checks_come_back(
        make_mem: Callable[..., Mnemon], facade_backend: str) -> None:
    if facade_backend != "sqlite":
        pytest.skip("SQLite's foreign-key pragma")
    mem = make_mem()
    seen: list[str] = []
    conn = mem.rt.store.conn  # type: ignore[attr-defined]
    conn.set_trace_callback(seen.append)
    try:
        out = mem.import_json(io.StringIO(json.dumps(_export(60))))
    finally:
        conn.set_trace_callback(None)
    assert out["edges_inserted"] == 60
    inserts = [k for k, sql in enumerate(seen) if sql.startswith("INSERT INTO edge_rows")]
    off = [k for k, sql in enumerate(seen) if sql == "PRAGMA foreign_keys = OFF"]
    # the bulk edge insert ran with SQLite's per-row foreign-key probes off (~15 % of its time) ...
    assert inserts and off and off[0] < inserts[0]
    # ... and the store checks its keys again afterwards
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


@settings(max_examples=50, deadline=None)
@given(st.sets(st.tuples(st.text(max_size=8), st.text(max_size=8), st.sampled_from(["semantic", "causal"])),
               max_size=300))
def test_the_filter_of_written_keys_never_misses_one(keys: set[tuple[str, str, str]]) -> None:
    seen = KeyFilter()
    assert not any(key in seen for key in keys)  # (empty: no key is "maybe")
    seen.update(keys)
    assert all(key in seen for key in keys)  # a repeat is always asked of the store
