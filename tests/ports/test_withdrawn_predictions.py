"""m064: a prediction an earlier version closed `unverifiable` because its research withdrew it (`withdrawn_by` in
its metadata) is upgraded in place to the status `withdrawn`, column and row alike, on SQLite and PostgreSQL; a
genuinely unverifiable prediction and every other row stay as they were, nothing is deleted."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

STEP = "m064_withdrawn_predictions"


def _doc(pid: str, status: str, **meta: str) -> str:
    return json.dumps({"id": pid, "title": pid, "status": status, "metadata": meta,
                       "match_json": {"sense_type": "gws", "observation_terms_all": ["x"]},
                       "check_after": "2026-06-02T00:00:00+00:00", "expires_at": "2026-06-05T00:00:00+00:00"},
                      sort_keys=True, separators=(",", ":"))


_ROWS = [("gone", "unverifiable", {"withdrawn_by": "Sources/a.md", "source_path": "Sources/a.md"}),
         ("blind", "unverifiable", {"source_path": "Sources/a.md"}), ("open", "open", {}), ("hit", "confirmed", {})]
_INSERT = ("INSERT INTO world_predictions (id, status, sense_type, check_after, expires_at, source_path, data,"
           " created_at, updated_at) VALUES (?, ?, 'gws', 'c', 'e', '', ?, 't', 't')")
_WANT = [("blind", "unverifiable", "unverifiable"), ("gone", "withdrawn", "withdrawn"),
         ("hit", "confirmed", "confirmed"), ("open", "open", "open")]


def _read(rows: list[tuple[Any, ...]]) -> list[tuple[str, str, str]]:
    return [(pid, status, json.loads(data)["status"]) for pid, status, data in rows]


def test_an_older_sqlite_store_is_upgraded_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mnemon.ports.store.migrate_sqlite as sqlite_backend
    from mnemon.ports.store.schema_sqlite import MIGRATIONS
    from mnemon.ports.store.sqlite import SQLiteStore

    from .test_migrations import _store_before

    db = _store_before(tmp_path / "old.db", STEP, monkeypatch)
    con = sqlite3.connect(db)
    con.executemany(_INSERT, [(pid, status, _doc(pid, status, **meta)) for pid, status, meta in _ROWS])
    con.commit()
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db))
    assert _read(store.conn.execute("SELECT id, status, data FROM world_predictions ORDER BY id").fetchall()) == _WANT
    assert [r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'world_predictions'"
                                             " AND type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")] == [
        "wp_assertion", "wp_source", "wp_status"]
    assert store.world.predictions(status="withdrawn")[0]["id"] == "gone"
    store.close()


@pytest.mark.postgres
def test_an_older_postgres_schema_is_upgraded_in_place(pg_store: Any) -> None:
    from .test_postgres_store import _schema_before

    with _schema_before(pg_store, STEP) as (conn, steps):
        for pid, status, meta in _ROWS:
            conn.execute(_INSERT.replace("?", "%s"), (pid, status, _doc(pid, status, **meta)))
        conn.execute(steps[STEP])
        assert _read(conn.execute("SELECT id, status, data FROM world_predictions ORDER BY id").fetchall()) == _WANT
        conn.execute(_INSERT.replace("?", "%s"), ("new", "withdrawn", _doc("new", "withdrawn")))
