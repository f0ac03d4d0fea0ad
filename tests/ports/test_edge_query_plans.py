"""The edge reads a write or a recall makes find their rows through indexes, whatever the store's size.

Edges are read through the `edges` view (edge_rows joined twice to nodes for the ids). A view hides the shape of the
query from whoever writes it: `ORDER BY id DESC LIMIT 1` through it scanned every edge (283 ms per CLI recall at
10k). These tests record the statements each read issues and ask SQLite's planner how it would run them: a full
scan of `edge_rows` or `nodes` is a bug a user would feel as a store that slows down as it grows.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.core.model import Edge, Memory, iso, utcnow
from mnemon.ports.store.sqlite import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    s = SQLiteStore(str(tmp_path / "plans.db"))
    now = iso(utcnow())
    with s.transaction():
        for i in range(30):
            s.insert_node(Memory(id=f"m{i}", content=f"memory {i} about topic {i % 3}", created_at=now,
                                 updated_at=now))
        s.insert_edges([Edge(f"m{i}", f"m{(i + 1) % 30}", "temporal", "proximity", 0.5, created_at=now,
                             updated_at=now) for i in range(30)])
    # plan as for a store of 10k memories with statistics (ANALYZE's numbers from the benchmark's 10k store): with
    # them the planner weighs the view's joins by table size, which is where the scan through the view showed up
    s.conn.execute("ANALYZE")
    s.conn.execute("DELETE FROM sqlite_stat1 WHERE tbl IN ('nodes', 'edge_rows')")
    s.conn.executemany("INSERT INTO sqlite_stat1(tbl, idx, stat) VALUES (?, ?, ?)", [
        ("edge_rows", "edge_rows_dst", "421162 43 43"), ("edge_rows", "sqlite_autoindex_edge_rows_1", "421162 43 1 1"),
        ("nodes", "nodes_prune", "10000 2"), ("nodes", "nodes_source_created", "10000 2000 1"),
        ("nodes", "nodes_kind_created", "10000 10000 1"), ("nodes", "nodes_active_hash", "10000 1"),
        ("nodes", "sqlite_autoindex_nodes_1", "10000 1")])
    s.conn.execute("ANALYZE sqlite_schema")  # reload the statistics
    return s


def _full_scans(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, str]]:
    """Statements that would pass over a whole edge or node table (an index scan counts). A scan that stops at the
    first row — `ORDER BY <key> DESC LIMIT 1` on a table, with no sorting step — is not one."""
    scans = []
    for sql in statements:
        if not sql.lstrip().upper().startswith("SELECT"):
            continue
        plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
        sorts = any("TEMP B-TREE" in d for d in plan)
        for detail in plan:
            words = detail.split()
            if words[0] == "SCAN" and words[1] in {"e", "edge_rows", "s", "d", "n", "i", "nodes"}:
                if "LIMIT" in sql.upper() and not sorts:
                    continue
                scans.append((sql, detail))
    return scans


READS: dict[str, Callable[[SQLiteStore], Any]] = {
    "adjacency": lambda s: s.adjacency(["m1", "m2"]),
    "adjacency per node": lambda s: s.adjacency(["m1", "m2"], per_node=5),
    "edges out": lambda s: s.edges_of(["m1"], direction="out"),
    "edges in": lambda s: s.edges_of(["m1"], direction="in"),
    "edges both": lambda s: s.edges_of(["m1"], direction="both", types=["temporal"]),
    "edge heads": lambda s: s.edge_heads(["m1"], ["active"]),
    "edge counts": lambda s: s.edge_counts(["m1", "m2"]),
    "find edge": lambda s: s.find_edge("m1", "m2", "temporal"),
    "edge by id": lambda s: s.get_edge(3),
    "edges by id": lambda s: s.get_edges([1, 2, 3]),
    "edge history": lambda s: s.edge_events(3),
    "graph generation": lambda s: s.graph_generation(),
    "graph changes since": lambda s: list(s.graph_export(s.test_marks)),
}


@pytest.mark.parametrize("name", sorted(READS))
def test_edge_reads_use_indexes(store: SQLiteStore, name: str) -> None:
    store.test_marks = next(iter(store.graph_export()))[2]  # type: ignore[attr-defined]  (what a reader holds)
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    try:
        READS[name](store)
    finally:
        store.conn.set_trace_callback(None)
    assert seen, "the read issued no statement"
    assert _full_scans(store.conn, seen) == []


def test_the_check_catches_a_scan_through_the_view(store: SQLiteStore) -> None:
    # the statement that once cost 283 ms per recall: the planner cannot use edge_rows' key through the view
    sql = "SELECT id, src || ' ' || dst || ' ' || type FROM edges ORDER BY id DESC LIMIT 1"
    assert _full_scans(store.conn, [sql])


def test_a_remember_and_a_recall_scan_no_table(store: SQLiteStore, tmp_path: Path) -> None:
    from mnemon.app.config import load_config
    from mnemon.app.memory import Mnemon

    store.close()
    mem = Mnemon.open(load_config({"MNEMON_EMBED_PROVIDER": "hash", "MNEMON_HOME": str(tmp_path)},
                                  db=str(tmp_path / "plans.db")))
    mem.recall("topic")  # the recall graph is read whole once per store (by design), then followed
    seen: list[str] = []
    mem.rt.store.conn.set_trace_callback(seen.append)  # type: ignore[attr-defined]
    try:
        mem.remember("memory 31 about topic 1, because topic 2 needed it", source="agent")
        mem.recall("why topic 1")
    finally:
        mem.rt.store.conn.set_trace_callback(None)  # type: ignore[attr-defined]
    try:
        assert _full_scans(mem.rt.store.conn, seen) == []  # type: ignore[attr-defined]
    finally:
        mem.close()


def test_auto_prune_over_a_store_still_in_its_grace_period_reads_one_index_entry(store: SQLiteStore) -> None:
    # after a bulk import every memory is young: walking nodes_prune to find no candidate cost 230 ms per write at 100k
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    try:
        assert store.prune_pool("2000-01-01T00:00:00Z", []) == []
    finally:
        store.conn.set_trace_callback(None)
    assert len(seen) == 1, seen  # the question "is any memory old enough?" and nothing else
    plan = " ".join(row[3] for row in store.conn.execute("EXPLAIN QUERY PLAN " + seen[0]))
    assert "nodes_prune_age" in plan and "inserted_at<" in plan.replace(" ", ""), plan
    assert store.prune_pool("2999-01-01T00:00:00Z", [])  # old enough: candidates as before
