"""Migrations: named, ordered steps recorded in the database; blank → head gives exactly the expected schema and
re-opening a database at head changes nothing."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import mnemon.ports.store.migrate_sqlite as sqlite_backend
from mnemon.ports.store.base import TIMED
from mnemon.ports.store.schema_sqlite import MIGRATIONS
from mnemon.ports.store.sources import OWNED_SOURCE
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.store.vault_texts_sqlite import register_vault_text_function
from mnemon.ports.store.coded_edges_sqlite import register_edge_metadata_function

# What the foundation steps create. A new step is fine (the per-step test below learns it from the code); changing
# one of these is a schema break and must update this table on purpose.
FOUNDATION_TABLES = {
    "m001_graph": {"nodes", "node_entities", "memory_fts", "vectors", "edges", "edge_events", "oplog", "meta"},
    "m002_fts_vocab": {"memory_fts_vocab"},
}
FTS_SHADOW = {"memory_fts_data", "memory_fts_idx", "memory_fts_content", "memory_fts_docsize", "memory_fts_config"}


def _schema(path: Path) -> dict[str, str]:
    con = sqlite3.connect(path)
    try:
        return {name: sql or "" for name, sql in con.execute(
            "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")}
    finally:
        con.close()


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                          " AND name NOT LIKE 'sqlite_%'")}
    finally:
        con.close()


def test_migration_names_are_unique_and_ordered() -> None:
    names = [n for n, _ in MIGRATIONS]
    assert len(names) == len(set(names))
    assert names == sorted(names), "steps are applied in list order and listed by name: keep both the same"
    assert names[: len(FOUNDATION_TABLES)] == list(FOUNDATION_TABLES)


def test_blank_to_head_creates_exactly_the_expected_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    created_by_step: dict[str, set[str]] = {}
    before: set[str] = set()
    for k, (name, _) in enumerate(MIGRATIONS):
        db = tmp_path / f"step{k}.db"
        monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS[: k + 1])
        SQLiteStore(str(db)).close()
        now = _tables(db)
        created_by_step[name] = now - before - FTS_SHADOW - {"migrations"}
        before = now
    for name, tables in FOUNDATION_TABLES.items():
        assert created_by_step[name] == tables, name
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    head = tmp_path / "head.db"
    store = SQLiteStore(str(head))
    assert store.migrations() == sorted(n for n, _ in MIGRATIONS)
    store.close()
    assert _tables(head) == before  # the same tables, whether the steps ran one open at a time or all at once


def _store_before(db: Path, step: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store at `db` written by the code before `step`: every step up to it applied, `step` and later not yet;
    the next open (with the migrations restored) upgrades it."""
    upto = [n for n, _ in MIGRATIONS].index(step)
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS[:upto])
    SQLiteStore(str(db)).close()
    return db


def test_edges_become_rows_keyed_by_node_seq_behind_a_view_with_nothing_lost(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A store written before m040 keeps every edge, with its id, ends and attributes, and reads them as before."""
    db = _store_before(tmp_path / "old.db", "m040_edge_rows", monkeypatch)
    con = sqlite3.connect(db)
    con.executescript("""
        INSERT INTO nodes (id, content, created_at, updated_at) VALUES ('a', 'A', 't', 't'), ('b', 'B', 't', 't');
        INSERT INTO edges (id, src, dst, type, sub_type, weight, evidence, metadata, created_at, updated_at)
            VALUES (7, 'a', 'b', 'causal', 'causes', 0.5, 'because', '{"k": 1}', 't1', 't2'),
                   (9, 'b', 'a', 'temporal', 'backbone', 1.0, '', '{}', 't1', 't1');
    """)
    con.close()
    before = sqlite3.connect(db).execute("SELECT * FROM edges ORDER BY id").fetchall()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db))
    assert store.conn.execute("SELECT * FROM edges ORDER BY id").fetchall() == before
    assert store.conn.execute("SELECT id, src, dst FROM edge_rows ORDER BY id").fetchall() == [(7, 1, 2), (9, 2, 1)]
    assert store.conn.execute("SELECT type FROM sqlite_master WHERE name = 'edges'").fetchone() == ("view",)
    assert store.find_edge("a", "b", "causal").evidence == "because"  # type: ignore[union-attr]
    assert store.conn.execute("SELECT COUNT(*) FROM oplog WHERE op = 'migrate-drop-edge'").fetchone()[0] == 0
    store.close()


def test_an_edge_to_a_missing_node_is_left_out_of_the_upgrade_with_an_oplog_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _store_before(tmp_path / "dangling.db", "m040_edge_rows", monkeypatch)
    con = sqlite3.connect(db)  # foreign keys off, as a careless tool might have left them
    con.executescript("""
        INSERT INTO nodes (id, content, created_at, updated_at) VALUES ('a', 'A', 't', 't'), ('b', 'B', 't', 't');
        INSERT INTO edges (id, src, dst, type, created_at, updated_at) VALUES (1, 'a', 'b', 'entity', 't', 't'),
            (2, 'a', 'gone', 'entity', 't', 't');
    """)
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db))
    assert [r[0] for r in store.conn.execute("SELECT id FROM edges")] == [1]
    logged = store.conn.execute("SELECT node_id, detail FROM oplog WHERE op = 'migrate-drop-edge'").fetchall()
    assert [(n, json.loads(d)["edge_id"], json.loads(d)["dst"]) for n, d in logged] == [("a", 2, "gone")]
    store.close()


def test_a_migration_that_copies_a_table_gives_the_freed_pages_back(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db = _store_before(tmp_path / "big.db", "m040_edge_rows", monkeypatch)
    con = sqlite3.connect(db)
    con.executemany("INSERT INTO nodes (id, content, created_at, updated_at) VALUES (?, '', 't', 't')",
                    [(f"n{i}",) for i in range(400)])
    con.executemany("INSERT INTO edges (src, dst, type, created_at, updated_at) VALUES (?, ?, 'entity', 't', 't')",
                    [(f"n{i}", f"n{j}") for i in range(400) for j in range(i + 1, min(400, i + 40))])
    con.commit()
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    SQLiteStore(str(db)).close()
    con = sqlite3.connect(db)
    pages, free = (con.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
    # (the `edges` view needs the store's SQL functions since m053: a bare connection counts the table)
    assert con.execute("SELECT COUNT(*) FROM edge_rows").fetchone()[0] == sum(min(400, i + 40) - i - 1 for i in range(400))
    assert free * 4 < pages
    con.close()


def test_foundation_columns(tmp_path: Path) -> None:
    db = tmp_path / "cols.db"
    SQLiteStore(str(db)).close()
    con = sqlite3.connect(db)
    register_vault_text_function(con)  # the `edges` view reads ingested evidence through it (m053)
    register_edge_metadata_function(con)  # ...and a coded row's metadata (m066)
    cols = {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in ("nodes", "edges", "vectors", "oplog")}
    con.close()
    assert {"id", "kind", "content", "content_hash", "category", "importance", "tags", "entities", "source",
            "created_at", "updated_at", "last_accessed_at", "access_count", "effective_importance",
            "deleted_at", "metadata", "inserted_at"} <= cols["nodes"]
    assert {"src", "dst", "type", "sub_type", "weight", "confidence", "status", "evidence", "origin",
            "metadata"} <= cols["edges"]
    assert {"provider", "dim", "content_hash", "vec"} <= cols["vectors"]
    assert {"op", "node_id", "detail", "created_at"} <= cols["oplog"]


def test_reopen_at_head_is_a_no_op(tmp_path: Path) -> None:
    db = tmp_path / "again.db"
    SQLiteStore(str(db)).close()
    con = sqlite3.connect(db)
    applied = con.execute("SELECT name, applied_at FROM migrations ORDER BY name").fetchall()
    con.close()
    schema = _schema(db)
    for _ in range(2):
        SQLiteStore(str(db)).close()
    con = sqlite3.connect(db)
    assert con.execute("SELECT name, applied_at FROM migrations ORDER BY name").fetchall() == applied
    con.close()
    assert _schema(db) == schema


def test_an_old_database_is_upgraded_in_place_keeping_its_rows(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.db"
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS[:1])
    from mnemon.core.model import Memory

    s = SQLiteStore(str(db))
    with s.transaction():
        s.insert_node(Memory(id="keep", content="survives upgrades", created_at="2026-01-01T00:00:00.000000Z"))
    s.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    s = SQLiteStore(str(db))
    try:
        assert s.migrations() == sorted(n for n, _ in MIGRATIONS)
        assert s.get_node("keep") is not None and s.count_active() == 1
    finally:
        s.close()


def test_wal_foreign_keys_and_busy_timeout_are_on(tmp_path: Path) -> None:
    s = SQLiteStore(str(tmp_path / "p.db"))
    try:
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert s.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    finally:
        s.close()


def test_readonly_open_of_a_missing_or_foreign_file_is_a_clear_error(tmp_path: Path) -> None:
    from mnemon.core.errors import StoreError

    with pytest.raises(StoreError, match="no database"):
        SQLiteStore(str(tmp_path / "absent.db"), readonly=True)
    foreign = tmp_path / "foreign.db"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError, match="not a mnemon database"):
        SQLiteStore(str(foreign), readonly=True)


def test_vault_file_observation_counts_upgrade_keeps_every_file_row(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.db"
    step = next(k for k, (name, _) in enumerate(MIGRATIONS) if name == "m021_vault_file_observations")
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS[:step])
    old = SQLiteStore(str(db))
    with old.transaction():
        old.conn.execute("INSERT INTO vault_files(path, content_hash, mtime, size, note_id, title, aliases, ingested_at)"
                         " VALUES ('a.md', 'h', 1.0, 3, 'note:a.md', 'A', '[]', 'now')")
    old.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db))
    try:
        assert "m021_vault_file_observations" in store.migrations()
        files = store.vault.files()
        assert files["a.md"].content_hash == "h" and files["a.md"].title == "A" and files["a.md"].observations == 0
    finally:
        store.close()


def test_a_store_not_yet_upgraded_reads_its_edges_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _store_before(tmp_path / "old.db", "m040_edge_rows", monkeypatch)
    con = sqlite3.connect(db)
    con.executescript("""
        INSERT INTO nodes (id, content, created_at, updated_at) VALUES ('a', 'A', 't', 't'), ('b', 'B', 't', 't');
        INSERT INTO edges (src, dst, type, created_at, updated_at) VALUES ('a', 'b', 'entity', 't', 't');
    """)
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db), readonly=True)
    assert [(e.src, e.dst) for e in store.edges_of(["a"])] == [("a", "b")]
    assert store.graph_generation()[0]  # the recall graph's marks read edge_rows
    assert store.migrations() == sorted(n for n, _ in MIGRATIONS if n < "m040_edge_rows")  # nothing was written
    store.close()


def test_an_older_store_gets_reply_steps_out_of_questions_answered_within_a_day(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """m041: the forward backbone step out of a memory ending with a question, to a memory written within 24 h,
    becomes a reply step; everything else (and the edge's id and weight) stays as it was."""
    db = _store_before(tmp_path / "old.db", "m041_reply_steps", monkeypatch)
    con = sqlite3.connect(db)
    con.executescript("""
        INSERT INTO nodes (seq, id, content, created_at, updated_at) VALUES
            (1, 'q', 'Which club do you support? ', '2025-05-01T10:00:00.000000Z', 't'),
            (2, 'a', 'City.', '2025-05-01T10:05:00.000000Z', 't'),
            (3, 'late', 'Why not United？', '2025-05-01T11:00:00.000000Z', 't'),
            (4, 'days', 'United, then.', '2025-05-04T11:00:00.000000Z', 't');
        INSERT INTO edge_rows (id, src, dst, type, sub_type, weight, metadata, created_at, updated_at) VALUES
            (1, 1, 2, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't'),
            (2, 2, 1, 'temporal', 'backbone', 1.0, '{"direction": "succeeds"}', 't', 't'),
            (3, 2, 3, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't'),
            (4, 3, 4, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't'),
            (5, 1, 3, 'temporal', 'proximity', 0.5, '{"hours_diff": 1.0}', 't', 't');
    """)
    con.commit()
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db))
    rows = store.conn.execute("SELECT id, src, dst, sub_type, rule, weight FROM edges ORDER BY id").fetchall()
    assert rows == [(1, "q", "a", "reply", "temporal:reply", 1.0), (2, "a", "q", "backbone", "", 1.0),
                    (3, "a", "late", "backbone", "", 1.0), (4, "late", "days", "backbone", "", 1.0),
                    (5, "q", "late", "proximity", "", 0.5)]
    store.close()


def _upgraded(db: Path, step: str, rows_sql: str, monkeypatch: pytest.MonkeyPatch) -> SQLiteStore:
    """A store written before `step`, holding the rows `rows_sql` inserts, opened (so upgraded) by today's code."""
    _store_before(db, step, monkeypatch)
    con = sqlite3.connect(db)
    con.executescript(rows_sql)
    con.commit()
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    return SQLiteStore(str(db))


def test_the_repeat_index_leaves_vault_and_payload_rows_after_the_upgrade(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """m045: a store written before it finds a repeat among its own memories only, through the partial index."""
    store = _upgraded(tmp_path / "old.db", "m045_owned_hash", """
        INSERT INTO nodes (id, content, content_hash, source, created_at, updated_at) VALUES
            ('own', 'A', 'h-own', 'agent', 't', 't'), ('bullet', 'B', 'h-vault', 'vault:n.md', 't', 't'),
            ('scoped', 'C', 'h-scope', 'mneme://x', 't', 't');
    """, monkeypatch)
    assert store.find_active_by_hash("h-own") == "own"
    assert store.find_active_by_hash("h-vault") is None and store.find_active_by_hash("h-scope") is None
    assert store.find_active_by_hashes(["h-own", "h-vault", "h-scope"]) == {"h-own": "own"}
    indexed = store.conn.execute("SELECT COUNT(*) FROM nodes INDEXED BY nodes_active_hash WHERE content_hash > ''"
                                 " AND deleted_at IS NULL AND " + OWNED_SOURCE).fetchone()[0]
    assert indexed == 1
    store.close()


def test_time_and_prune_indexes_leave_vault_rows_after_the_upgrade(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """m046/m047: a store written before them answers proximity and prune over the writer's rows only."""
    store = _upgraded(tmp_path / "old.db", "m046_timed_created", """
        INSERT INTO nodes (id, content, source, importance, created_at, updated_at, inserted_at) VALUES
            ('own', 'A', 'agent', 2, '2026-01-01T00:00:00Z', 't', '2026-01-01T00:00:00Z'),
            ('bullet', 'B', 'vault:n.md', 2, '2026-01-01T00:00:01Z', 't', '2026-01-01T00:00:01Z');
    """, monkeypatch)
    assert [m.id for m in store.recent_memories(5, flt=TIMED)] == ["own"]
    assert [m.id for m in store.recent_memories(5)] == ["bullet", "own"]
    assert [r[0] for r in store.prune_pool("2026-02-01T00:00:00Z", [])] == ["own"]
    assert store.count_prunable(10) == 1 and store.count_active() == 2
    for name in ("nodes_timed_created", "nodes_prune", "nodes_prune_age"):
        sql = store.conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
        assert "'vault:'" in sql, name
    store.close()


def test_a_store_a_newer_mnemon_upgraded_is_not_written_by_this_one(tmp_path: Path) -> None:
    """Opened by an older copy of mnemon (another venv, an MCP server pinned to an old release), a store carrying
    steps this one does not know was written as if it had the old layout: rows the newer one then misreads."""
    from mnemon.app.memory import open_store
    from mnemon.core.errors import StoreError

    db = tmp_path / "newer.db"
    SQLiteStore(str(db)).close()
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO migrations(name, applied_at) VALUES ('m999_from_the_future', '2030-01-01T00:00:00Z')")
    before = con.execute("SELECT COUNT(*) FROM nodes").fetchone()[0]
    con.close()
    with pytest.raises(StoreError) as caught:
        open_store(db)
    assert "m999_from_the_future" in caught.value.message and "newer mnemon" in caught.value.message
    reader = open_store(db, readonly=True)  # reading it harms nothing
    try:
        assert reader.count_active() == before
    finally:
        reader.close()
