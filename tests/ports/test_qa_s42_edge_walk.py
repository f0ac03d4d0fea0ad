"""`iter_edges` — the walk of every edge an export makes — reads the edges in id order without sorting them first.

Read through the `edges` view `ORDER BY id`, SQLite sorted every edge in a temporary B-tree before handing back the
first, having reached them through the nodes' id index in random order: an export of 100k memories (4.5 M edges)
waited 75 s for its first edge. Each arm of the view is now read in its own id order and the arms merged.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from mnemon.core.model import Edge
from mnemon.ports.store.edges_sqlite import _EDGE_COLS, _edge
from mnemon.ports.store.sqlite import SQLiteStore

from ports.test_edge_query_plans import store  # noqa: F401  (the fixture)

EXPORTED = ("active", "candidate", "killed")
ROW_TABLES = ("e", "c", "edge_rows", "coded_edges")  # the aliases the view gives its stored arms


def _sorted_stored_edges(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, list[str]]]:
    """The statements whose plan reads stored edge rows and sorts them (every row before the first comes back)."""
    found = []
    for sql in statements:
        if not sql.lstrip().upper().startswith("SELECT"):
            continue
        plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
        reads_rows = any(d.split()[0] in {"SCAN", "SEARCH"} and d.split()[1] in ROW_TABLES for d in plan)
        if reads_rows and any("TEMP B-TREE FOR ORDER BY" in d for d in plan):
            found.append((sql, plan))
    return found


def test_walking_every_edge_sorts_no_stored_edge(store: SQLiteStore) -> None:
    # (`store`: 30 edges planned as for the benchmark's 10k store, where the view's plan sorted 421k edges)
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    try:
        walked = list(store.iter_edges(statuses=EXPORTED))
    finally:
        store.conn.set_trace_callback(None)
    assert len(walked) == 30
    assert [p for _sql, p in _sorted_stored_edges(store.conn, seen)] == []


def _as_the_view_reads(conn: Any, statuses: tuple[str, ...] | None) -> list[Edge]:
    where = f" WHERE status IN ({','.join('?' * len(statuses))})" if statuses else ""
    return [_edge(r) for r in conn.execute(f"SELECT {_EDGE_COLS} FROM edges{where} ORDER BY id", statuses or ())]


def test_the_walk_reads_every_edge_of_every_kind_in_the_views_order(make_mem, example_vault: Path) -> None:
    mem = make_mem("hash")
    mem.ingest(str(example_vault))  # rows, coded rows (links, dates, tags) and derived containment edges
    for i in range(6):
        mem.remember(f"Priya moved the session cache to Redis, step {i}", source="agent")
    walker = mem.rt.store
    conn = walker.conn
    kinds = {"rows": "SELECT COUNT(*) FROM edge_rows", "coded": "SELECT COUNT(*) FROM coded_edges",
             "derived": "SELECT COUNT(*) FROM derived_edges"}
    assert all(conn.execute(sql).fetchone()[0] > 0 for sql in kinds.values()), kinds
    edges = list(walker.iter_edges())
    walker.set_edge_status(int(edges[0].id or 0), "killed", actor="kill-edge", reason="wrong")
    walker.set_edge_status(int(edges[-1].id or 0), "retired", actor="test", reason="gone")
    for statuses in (EXPORTED, None):
        walked = list(walker.iter_edges(statuses=statuses))
        assert walked == _as_the_view_reads(conn, statuses)
        assert [e.id for e in walked] == sorted(int(e.id or 0) for e in walked)
    assert any(e.status == "retired" for e in walker.iter_edges())
    assert all(e.status != "retired" for e in walker.iter_edges(statuses=EXPORTED))
