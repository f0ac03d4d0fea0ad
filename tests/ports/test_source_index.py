"""The source index without a vault's rows (m058, ports/store/contained_sqlite.py and sources.py): a note's items and
derived edges are found by their ids' ranges, exactly the ones the source gives, through indexes; lookups by any
other source still use the index."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mnemon.ports.store import contained_sqlite as cs
from mnemon.ports.store.sources import NOT_VAULT_ROW

NOTE = "Projects/tidewatch.md"


@pytest.fixture
def mem(make_mem, example_vault: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    m = make_mem("none", db=tmp_path / "src.db")
    m.ingest(str(example_vault))
    return m


def _plan(conn: sqlite3.Connection, sql: str, args: Any = ()) -> list[str]:
    return [r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql, args)]


def _edit(example_vault: Path) -> None:
    path = example_vault / NOTE
    text = path.read_text(encoding="utf-8")
    path.write_text("# Intro\n\n- [ ] call the harbour master\n\n" + text.replace("## ", "### ", 1), encoding="utf-8")


def test_the_index_holds_no_vault_row_and_the_views_lose_no_derived_edge(mem, example_vault: Path) -> None:
    conn = mem.rt.store.conn
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'nodes_source_created'").fetchone()[0]
    assert NOT_VAULT_ROW in sql
    plain = f"SELECT -i.seq, n.id, i.id, k.type, k.status {cs._FROM}"  # the join by source alone
    for _ in range(2):
        derived = sorted(conn.execute("SELECT id, src, dst, type, status FROM derived_edges"))
        assert derived == sorted(conn.execute(plain)) and len(derived) > 50
        heads = sorted(conn.execute("SELECT id, src, dst, type, status FROM edge_heads WHERE id < 0"))
        assert heads == derived
        notes = [r[0] for r in conn.execute("SELECT id FROM nodes WHERE kind = 'note' AND deleted_at IS NULL")]
        for note in notes:  # ...and from each note's side, as walks read them
            got = sorted(conn.execute("SELECT id, src, dst, type, status FROM derived_edges WHERE src = ?", (note,)))
            assert got == [d for d in derived if d[1] == note]
            assert sorted(cs.derived_touching(conn, note, ("active", "candidate", "killed"))) == \
                sorted(d[0] for d in derived if d[1] == note)
        _edit(example_vault)
        mem.ingest(str(example_vault))


def test_a_note_s_edges_are_read_through_its_ids_not_every_item(mem) -> None:
    conn = mem.rt.store.conn
    note = f"note:{NOTE}"
    items = [r[0] for r in conn.execute("SELECT id FROM nodes WHERE source = ? ORDER BY id", (f"vault:{NOTE}",))]
    ids = [note, *items, *[f"note:Other/{i}.md" for i in range(30)]]  # a re-ingest reads a note and all its rows
    assert len(ids) > 30
    marks = ",".join("?" * len(ids))
    for view in ("edges", "edge_heads"):
        plan = _plan(conn, f"SELECT id, src, dst FROM {view} WHERE src IN ({marks}) ORDER BY id", ids)
        assert not [p for p in plan if p.startswith("SCAN i")], plan
        assert any("MULTI-INDEX OR" in p for p in plan), plan


def test_observations_of_notes_are_what_their_source_gives(mem, example_vault: Path) -> None:
    store = mem.rt.store
    sources = sorted({r[0] for r in store.conn.execute("SELECT source FROM nodes WHERE source LIKE 'vault:%'")})
    for _ in range(2):
        got = sorted(store.vault.observation_texts(sources))
        want = sorted(store.conn.execute(  # by the source alone, as before m058
            f"SELECT n.id, n.source, {store.vault._metadata('n')}, {store.vault._text('n')} FROM nodes n"
            f" WHERE n.source IN ({','.join('?' * len(sources))}) AND n.kind = 'memory' AND n.deleted_at IS NULL"
            " AND (n.id LIKE '%:task:%' OR n.id LIKE '%:observation:%')", sources))
        assert got == want and len(got) > 10
        _edit(example_vault)
        mem.ingest(str(example_vault))


def test_observations_of_many_notes_are_read_through_their_ids_not_every_memory(mem) -> None:
    # (as one OR of 100 id ranges, SQLite read every memory through the kind index: 0.2 s per 100 notes)
    store = mem.rt.store
    sources = sorted({r[0] for r in store.conn.execute("SELECT source FROM nodes WHERE source LIKE 'vault:%'")})
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    try:
        store.vault.observation_texts(sources)
    finally:
        store.conn.set_trace_callback(None)
    reads = [s for s in statements if "FROM notes r" in s]
    assert reads
    for sql in reads:
        plan = _plan(store.conn, sql)
        assert any("sqlite_autoindex_nodes_1 (id>? AND id<?)" in p for p in plan), plan
        assert not any("nodes_kind_created" in p for p in plan), plan


def test_lookups_by_other_sources_still_use_the_index(mem) -> None:
    store = mem.rt.store
    for i in range(3):
        mem.remember(f"The pump seal was replaced on day {i}", source="field-notes")
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    try:
        assert store.latest_by_source("field-notes") is not None
        assert len(store.recent_memories(5, source="field-notes")) == 3
    finally:
        store.conn.set_trace_callback(None)
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT") and "source" in s]
    assert len(reads) == 2
    for sql in reads:
        assert any("nodes_source_created" in p for p in _plan(store.conn, sql)), sql


def test_a_store_from_before_m058_upgrades(mem, make_mem, tmp_path: Path) -> None:
    db = tmp_path / "src.db"
    conn = mem.rt.store.conn
    conn.execute("DROP INDEX nodes_source_created")
    conn.execute("CREATE INDEX nodes_source_created ON nodes(source, created_at) WHERE deleted_at IS NULL")
    conn.execute("DELETE FROM migrations WHERE name = ?", (cs.SOURCE_INDEX_MIGRATION[0],))
    before = sorted(conn.execute("SELECT id, src, dst, type, status FROM edges"))
    mem.close()
    again = make_mem("none", db=db)
    conn = again.rt.store.conn
    assert NOT_VAULT_ROW in conn.execute("SELECT sql FROM sqlite_master WHERE name = 'nodes_source_created'").fetchone()[0]
    assert sorted(conn.execute("SELECT id, src, dst, type, status FROM edges")) == before


def test_edge_counts_of_notes_find_their_items_through_the_ids_and_count_every_edge(mem, example_vault: Path) -> None:
    # counted from the notes' side through the items' source, each note scanned every item: the workbench's graph
    # overview (degrees of 2,000 notes) took 30 s
    store = mem.rt.store
    for _ in range(2):
        notes = [r[0] for r in store.conn.execute("SELECT id FROM nodes WHERE kind = 'note' AND deleted_at IS NULL")]
        items = [r[0] for r in store.conn.execute("SELECT id FROM nodes WHERE source = ?", (f"vault:{NOTE}",))]
        want = dict.fromkeys([*notes, *items], 0)
        for _id, src, dst in store.conn.execute("SELECT id, src, dst FROM edge_heads WHERE status = 'active'"):
            for end in {src, dst}:
                if end in want:
                    want[end] += 1
        seen: list[str] = []
        store.conn.set_trace_callback(seen.append)
        try:
            got = store.edge_counts(list(want))
            mem.graph()
            mem.graph(focus=f"note:{NOTE}", depth=2)
        finally:
            store.conn.set_trace_callback(None)
        assert got == want and sum(got[n] for n in notes) > 20 and sum(got[i] for i in items) > 0
        scans = [(sql, p) for sql in seen if sql.lstrip().upper().startswith("SELECT")
                 for p in _plan(store.conn, sql) if p.startswith(("SCAN i", "SCAN n ", "SCAN nodes"))]
        assert scans == []
        _edit(example_vault)
        mem.ingest(str(example_vault))

