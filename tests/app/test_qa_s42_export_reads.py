"""`mnemon export` reads the edges' decision logs once, not once per page of edges.

Each page of 2,000 edges asked the event log which of them a person had killed, validated or weakened: four reads a
page, 9,000 for the 4.5 M edges of a 100k-memory store, when a store holds a handful of decisions. The export now
reads the ids of the decided edges once and asks only about those; the decisions still go out with their edges.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import backup_export
from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge, Memory, iso, utcnow


@pytest.fixture
def open_store(tmp_path: Path) -> Iterator[Any]:
    opened: list[Mnemon] = []

    def factory(n: int) -> Mnemon:
        home = tmp_path / f"s{n}"
        mem = Mnemon.open(load_config({"MNEMON_EMBED_PROVIDER": "none", "MNEMON_HOME": str(home)},
                                      db=str(home / "store.db")))
        opened.append(mem)
        now = iso(utcnow())
        store = mem.rt.store
        with store.transaction():
            for i in range(n):
                store.insert_node(Memory(id=f"m{i}", content=f"memory {i}", created_at=now, updated_at=now))
            store.insert_edges([Edge(f"m{i}", f"m{(i + k) % n}", "temporal", "proximity", 0.5, created_at=now,
                                     updated_at=now) for i in range(n) for k in (1, 2, 3)])
        ids = sorted(int(e.id or 0) for e in store.iter_edges())
        mem.kill_edge(ids[1], reason="wrong")
        mem.validate_edge(ids[-2], reason="checked")
        return mem

    yield factory
    for mem in opened:
        mem.close()


def _export_reads(mem: Mnemon) -> tuple[int, dict[str, Any]]:
    seen: list[str] = []
    conn = mem.rt.store.conn  # type: ignore[attr-defined]
    conn.set_trace_callback(seen.append)
    try:
        doc = mem.export_json(include_vectors=False)
    finally:
        conn.set_trace_callback(None)
    return sum("edge_events" in sql for sql in seen), doc


def test_an_export_reads_the_decision_logs_as_often_at_twice_the_edges(open_store, monkeypatch) -> None:
    monkeypatch.setattr(backup_export, "EDGE_PAGE", 10)  # pages of 10 edges: 9 pages, then 18
    small, big = open_store(30), open_store(60)
    (reads_small, doc_small), (reads_big, doc_big) = _export_reads(small), _export_reads(big)
    assert len(doc_small["edges"]) == 90 and len(doc_big["edges"]) == 180
    assert reads_big == reads_small
    for doc in (doc_small, doc_big):  # the decisions still go out, with who made them
        decided = {row.get("decision") or row.get("status"): row for row in doc["edges"] if "history" in row}
        assert set(decided) == {"killed", "validated"} and decided["validated"]["decision"] == "validated"
        assert [h["event"] for h in decided["killed"]["history"]] == ["killed"]
        assert [h["event"] for h in decided["validated"]["history"]] == ["validated"]
