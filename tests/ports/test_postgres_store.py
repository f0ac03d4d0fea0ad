"""What only the PostgreSQL backend needs checking beyond the shared contract suite (`test_sqlite_store.py`, which runs
on both): the CLI end to end on a postgresql:// URL (memories, world and vault commands), read-only sessions, migrations,
keyword ranking by rarity, concurrent writers and connection errors as JSON. The facade suites under tests/app also
run on PostgreSQL (`facade_backend` in conftest)."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mnemon.app.memory import open_store
from mnemon.core.errors import ReadOnly, StoreError
from mnemon.core.model import Edge, Memory, iso, utcnow

pytestmark = pytest.mark.postgres
Run = Callable[..., tuple[int, Any]]


def _put(store: Any, mid: str, content: str) -> None:
    now = iso(utcnow())
    with store.transaction():
        store.insert_node(Memory(id=mid, content=content, created_at=now, updated_at=now))


def test_remember_recall_show_through_the_cli(cli_run: Run, pg_db_url: str) -> None:
    db = ["--db", pg_db_url]
    code, first = cli_run([*db, "remember", "We chose PostgreSQL with pgvector for the shared team memory",
                           "--cat", "decision", "--imp", "4"])
    assert code == 0 and first["action"] == "added", first
    code, second = cli_run([*db, "remember", "Redis stays the cache in front of the API"])
    assert code == 0 and second["action"] == "added"
    code, again = cli_run([*db, "remember", "Redis stays the cache in front of the API"])
    assert code == 0 and again["action"] == "skipped" and again["id"] == second["id"]
    code, out = cli_run([*db, "recall", "which database did we choose for shared memory?"])
    assert code == 0
    results = out["results"] if isinstance(out, dict) else out
    assert results and results[0]["insight"]["id"] == first["id"]
    code, shown = cli_run([*db, "show", first["id"]])
    assert code == 0 and "pgvector" in json.dumps(shown)
    code, search = cli_run([*db, "search", "redis"])
    assert code == 0 and second["id"] in json.dumps(search)
    code, status = cli_run([*db, "status"])
    assert code == 0 and "***" not in json.dumps(status) and status["total_insights"] == 2


def test_world_commands_run_on_the_shared_statements(cli_run: Run, pg_db_url: str, tmp_path: Path) -> None:
    db = ["--db", pg_db_url]
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps({"subject": "Ana", "predicate": "lives_in", "object": "Lisbon",
                                 "confidence": 0.95, "certainty": "confirmed", "evidence": "lease",
                                 "source_path": "mneme://r/ana"}))
    code, out = cli_run([*db, "state", "assert", "--file", str(claim)])
    assert code == 0 and out["status"] == "current", out
    code, out = cli_run([*db, "sense", "add", "--file", "-"],
                        input=json.dumps({"sense_type": "gws", "observed_at": "2025-01-03T00:00:00Z", "text": "x"}))
    assert code == 0 and out["added"] == 1
    code, out = cli_run([*db, "sense", "add", "--file", "-"],
                        input=json.dumps({"sense_type": "gws", "observed_at": "2025-01-03T00:00:00Z", "text": "x"}))
    assert code == 0 and out["added"] == 0  # insert-once
    code, out = cli_run([*db, "state", "list", "--status", "current"])
    assert code == 0 and out["count"] == 1


def test_vault_ingest_update_and_explain_edge_through_the_cli(cli_run: Run, pg_db_url: str,
                                                              example_vault: Path) -> None:
    db = ["--db", pg_db_url]
    code, out = cli_run([*db, "ingest", "--vault", example_vault])
    assert code == 0 and out["notes_read"] == 13, out
    code, out = cli_run([*db, "update", "--vault", example_vault])
    assert code == 0 and out["notes_read"] == 0
    code, out = cli_run([*db, "explain-edge", "1"])
    assert code == 0 and out["edge"]["id"] == 1 and out["debug_log"]
    code, out = cli_run([*db, "recall", "battery supply overdue", "--limit", "5"])
    assert code == 0 and any("battery" in r["insight"]["content"].lower() for r in out["results"])


def test_readonly_session_reads_and_refuses_writes(pg_store: Any, pg_db_url: str) -> None:
    _put(pg_store, "a", "kept")
    ro = open_store(pg_db_url, readonly=True)
    try:
        assert ro.readonly and ro.get_node("a") is not None and ro.count_active() == 1
        with pytest.raises(ReadOnly):
            with ro.transaction():
                ro.insert_node(Memory(id="z", content="z", created_at=iso(utcnow())))
        with pytest.raises(ReadOnly):
            ro.upsert_edge(Edge("a", "a", "semantic", created_at=iso(utcnow())))
        ro.touch(["a"], iso(utcnow()))  # access bookkeeping is skipped, as on SQLite
    finally:
        ro.close()
    assert pg_store.get_node("z") is None and pg_store.get_node("a").access_count == 0


def test_opening_a_search_path_without_a_mnemon_schema_is_a_clear_error(pg_url: str, pg_store: Any) -> None:
    missing = f"{pg_url}{'&' if '?' in pg_url else '?'}options=-csearch_path%3Dno_such_schema"
    with pytest.raises(StoreError, match="does not exist"):
        open_store(missing, readonly=True)
    with pytest.raises(StoreError, match="does not exist"):
        open_store(missing)  # nothing to create the tables in


def test_a_missing_team_schema_does_not_fall_back_to_public(pg_url: str, pg_store: Any) -> None:
    """`search_path=team_b,public` with no schema team_b used to open (and fill) public, shared by every team."""
    url = f"{pg_url}{'&' if '?' in pg_url else '?'}options=-csearch_path%3Dteam_b_missing,public"
    for readonly in (True, False):
        with pytest.raises(StoreError, match="team_b_missing"):
            open_store(url, readonly=readonly)


def test_migrations_are_recorded_and_reopening_changes_nothing(pg_store: Any, pg_db_url: str) -> None:
    from mnemon.ports.store.schema_postgres import MIGRATIONS, POSTGRES_ONLY, SQLITE_ONLY
    from mnemon.ports.store.schema_sqlite import MIGRATIONS as SQLITE_MIGRATIONS

    assert [n for n, _ in MIGRATIONS] == [*(n for n, _ in SQLITE_MIGRATIONS if n not in SQLITE_ONLY),
                                          *(n for n, _ in POSTGRES_ONLY)]
    assert pg_store.migrations() == sorted(n for n, _ in MIGRATIONS)
    applied = pg_store._rows("SELECT name, applied_at FROM migrations ORDER BY name")
    open_store(pg_db_url).close()
    assert pg_store._rows("SELECT name, applied_at FROM migrations ORDER BY name") == applied


def test_keyword_documents_of_an_older_spelling_are_rebuilt_on_open(pg_store: Any, pg_db_url: str) -> None:
    """Documents written before they were split as SQLite splits words ("o'brien" whole, the entity "Redis" stemmed)
    stopped matching query tokens; the next writable open rewrites them all, once."""
    now = iso(utcnow())
    with pg_store.transaction():
        pg_store.insert_node(Memory(id="a", content="Met O'Brien at the harbour", entities=("Redis",),
                                    created_at=now, updated_at=now))
        pg_store._write("UPDATE memory_fts SET doc = %s::tsvector", ("'o''brien':2A 'harbour':3A 'redi':5B",))
        pg_store._write("UPDATE meta SET value = 0 WHERE key = 'keyword_fingerprint'")
    assert pg_store.keyword_search(["brien"], 5) == [] and pg_store.keyword_search(["redi"], 5) != []
    readonly = open_store(pg_db_url, readonly=True)  # a read-only session reads what is there
    assert readonly.keyword_search(["brien"], 5) == []
    readonly.close()
    open_store(pg_db_url).close()
    assert [i for i, _ in pg_store.keyword_search(["brien"], 5)] == ["a"]
    assert [i for i, _ in pg_store.keyword_search(["o'brien"], 5)] == ["a"]
    assert pg_store.keyword_search(["redi"], 5) == [] and [i for i, _ in pg_store.keyword_search(["redis"], 5)] == ["a"]
    docs = pg_store._rows("SELECT doc::text FROM memory_fts")
    open_store(pg_db_url).close()  # up to date: nothing is rewritten
    assert pg_store._rows("SELECT doc::text FROM memory_fts") == docs


def test_a_rare_term_outranks_a_common_one(pg_store: Any) -> None:
    for i in range(6):
        _put(pg_store, f"c{i}", f"common filler {i}")
    _put(pg_store, "rare", "common zebra")
    _put(pg_store, "newest", "common common common")
    ranked = [i for i, _ in pg_store.keyword_search(["common", "zebra"], 3)]
    assert ranked[0] == "rare"
    assert pg_store.token_doc_freq(["common", "zebra", "it's", "a\\b"]) == {"common": 8, "zebra": 1, "it's": 0,
                                                                          "a\\b": 0}


def test_vectors_of_different_widths_share_the_table(pg_store: Any) -> None:
    _put(pg_store, "a", "one")
    _put(pg_store, "b", "two")
    a, b = pg_store.get_node("a"), pg_store.get_node("b")
    with pg_store.transaction():
        pg_store.put_vector("a", "small", np.array([0.25, -1.5], dtype=np.float32), a.content_hash, iso(utcnow()))
        pg_store.put_vector("b", "wide", np.arange(768, dtype=np.float32) / 7, b.content_hash, iso(utcnow()))
    assert pg_store.load_vectors("small")[1].shape == (1, 2)
    assert np.array_equal(pg_store.load_vectors("wide")[1][0], np.arange(768, dtype=np.float32) / 7)


def test_an_unreachable_server_is_a_json_error(cli_run: Run, tmp_path: Path, pg_url: str) -> None:
    code, out = cli_run(["--db", f"postgresql://nobody:secret@/nothing?host={tmp_path}", "status"])
    assert code == 1 and out["error"]["code"] == "store_error"
    assert "secret" not in out["error"]["message"] and "cannot connect" in out["error"]["message"]


def _remember_all(url: str, contents: list[str], start_at: float, results: Any) -> None:
    import os
    import time

    from mnemon.app.config import load_config
    from mnemon.app.memory import Mnemon

    try:
        cfg = load_config({"MNEMON_EMBED_PROVIDER": "none", "MNEMON_MAX_INSIGHTS": "0", "HOME": os.getcwd()}, db=url)
        while time.time() < start_at:  # line the writers up so their transactions really overlap
            time.sleep(0.001)
        with Mnemon.open(cfg) as m:
            results.put([m.remember(c, source="agent")["action"] for c in contents])
    except BaseException as exc:  # report, never hang the parent
        results.put([f"{type(exc).__name__}: {exc}"])


def test_concurrent_writers_lose_nothing_and_store_a_duplicate_once(pg_store: Any, pg_db_url: str) -> None:
    import multiprocessing as mp
    import time

    ctx = mp.get_context("spawn")
    results: Any = ctx.Queue()
    shared = "every writer remembers this same sentence"
    batches = [[f"writer {w} note {i} about build {i % 3}" for i in range(15)] + [shared] for w in range(4)]
    start_at = time.time() + 2.0
    procs = [ctx.Process(target=_remember_all, args=(pg_db_url, b, start_at, results)) for b in batches]
    for p in procs:
        p.start()
    actions = [a for _ in procs for a in results.get(timeout=120)]
    for p in procs:
        p.join(timeout=30)
    assert sorted(set(actions)) == ["added", "skipped"], actions
    assert actions.count("skipped") == 3
    assert pg_store.count_active() == 4 * 15 + 1
    assert len(pg_store.oplog(1000, op="remember")) == 4 * 15 + 1



@contextmanager
def _schema_before(pg_store: Any, step: str) -> Iterator[tuple[Any, dict[str, str]]]:
    """A scratch schema migrated up to (not including) `step`: (connection, every step's script by name)."""
    from mnemon.ports.store.schema_postgres import MIGRATIONS

    names = [n for n, _ in MIGRATIONS]
    conn = pg_store.conn
    conn.execute(f"CREATE SCHEMA mnemon_test_{step}")
    try:
        conn.execute(f"SET search_path TO mnemon_test_{step}, public")
        for _, script in MIGRATIONS[: names.index(step)]:
            conn.execute(script)
        yield conn, dict(MIGRATIONS)
    finally:
        conn.execute(f"DROP SCHEMA mnemon_test_{step} CASCADE")
        conn.execute(f'SET search_path TO "{pg_store._test_schema}", public')


def test_upgrading_edges_to_seq_keyed_rows_keeps_every_edge_and_the_id_sequence(pg_store: Any) -> None:
    """m040 on a schema written before it: the same edges read back through the view, and new edges get new ids."""
    with _schema_before(pg_store, "m040_edge_rows") as (conn, steps):
        conn.execute("INSERT INTO nodes (id, content, created_at, updated_at) VALUES ('a', 'A', 't', 't'),"
                     " ('b', 'B', 't', 't')")
        conn.execute("INSERT INTO edges (id, src, dst, type, sub_type, weight, evidence, metadata, created_at,"
                     " updated_at) VALUES (7, 'a', 'b', 'causal', 'causes', 0.5, 'because', '{\"k\": 1}', 't1', 't2'),"
                     " (9, 'b', 'a', 'temporal', 'backbone', 1.0, '', '{}', 't1', 't1')")
        before = conn.execute("SELECT * FROM edges ORDER BY id").fetchall()
        conn.execute(steps["m040_edge_rows"])
        assert conn.execute("SELECT * FROM edges ORDER BY id").fetchall() == before
        new_id = conn.execute("INSERT INTO edge_rows (src, dst, type, created_at, updated_at)"
                              " VALUES (1, 2, 'entity', 't', 't') RETURNING id").fetchone()[0]
        assert new_id == 10


def test_reply_steps_are_marked_in_an_older_schema_as_on_sqlite(pg_store: Any) -> None:
    """m041 on PostgreSQL: the same edges become reply steps as in the SQLite test of the step."""
    with _schema_before(pg_store, "m041_reply_steps") as (conn, steps):
        conn.execute("""
            INSERT INTO nodes (seq, id, content, created_at, updated_at) VALUES
                (1, 'q', 'Which club do you support? ', '2025-05-01T10:00:00.000000Z', 't'),
                (2, 'a', 'City.', '2025-05-01T10:05:00.000000Z', 't'),
                (3, 'late', 'Why not United？', '2025-05-01T11:00:00.000000Z', 't'),
                (4, 'days', 'United, then.', '2025-05-04T11:00:00.000000Z', 't'),
                (5, 'odd', 'When?', 'yesterday', 't')""")
        conn.execute("""
            INSERT INTO edge_rows (id, src, dst, type, sub_type, weight, metadata, created_at, updated_at) VALUES
                (1, 1, 2, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't'),
                (2, 2, 1, 'temporal', 'backbone', 1.0, '{"direction": "succeeds"}', 't', 't'),
                (3, 2, 3, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't'),
                (4, 3, 4, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't'),
                (5, 1, 3, 'temporal', 'proximity', 0.5, '{"hours_diff": 1.0}', 't', 't'),
                (6, 5, 2, 'temporal', 'backbone', 1.0, '{"direction": "precedes"}', 't', 't')""")
        conn.execute(steps["m041_reply_steps"])
        rows = conn.execute("SELECT id, sub_type, rule FROM edge_rows ORDER BY id").fetchall()
        assert rows == [(1, "reply", "temporal:reply"), (2, "backbone", ""), (3, "backbone", ""),
                        (4, "backbone", ""), (5, "proximity", ""), (6, "backbone", "")]


def test_a_schema_a_newer_mnemon_upgraded_is_not_written_by_this_one(pg_store: Any, pg_db_url: str) -> None:
    """As on SQLite (tests/ports/test_migrations.py): a step this mnemon does not know refuses a writable open."""
    pg_store.conn.execute("INSERT INTO migrations(name, applied_at) VALUES ('m999_from_the_future', 'x')")
    try:
        with pytest.raises(StoreError, match="m999_from_the_future"):
            open_store(pg_db_url)
        open_store(pg_db_url, readonly=True).close()
    finally:  # the schema is handed to a later test emptied, its migrations kept
        pg_store.conn.execute("DELETE FROM migrations WHERE name = 'm999_from_the_future'")
