"""A store file damaged where opening it does not look: every command that meets the damage answers `store_error`
(the file, not a bug of ours), names it as damage, and never a traceback or `internal`."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.interfaces.payloads import from_exception

Run = Callable[..., tuple[int, Any]]


def _damage_table(db: Path, table: str) -> None:
    """Overwrite the body of `table`'s root page (its header byte kept), as a bad sector or a torn copy would."""
    con = sqlite3.connect(db)
    root, page_size = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0], \
        con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    with open(db, "r+b") as f:
        f.seek((root - 1) * page_size + 8)
        f.write(b"\xff" * 200)


@pytest.fixture
def damaged_db(cli_run: Run, tmp_path: Path) -> Path:
    db = tmp_path / "m.db"
    for n in range(3):
        code, out = cli_run(["--db", str(db), "remember", f"Alice moved to Lisbon, note {n}"])
        assert code == 0 and out["action"] == "added"
    _damage_table(db, "nodes")
    return db


@pytest.mark.parametrize("args", [["status"], ["recall", "Alice"], ["remember", "Bob lives in Porto"]])
def test_a_table_damaged_past_the_open_is_a_store_error(cli_run: Run, damaged_db: Path, args: list[str]) -> None:
    code, out = cli_run(["--db", str(damaged_db), *args])
    assert code == 1
    assert out["error"]["code"] == "store_error", out
    assert "damaged" in out["error"]["message"] and "malformed" in out["error"]["message"]


@pytest.mark.parametrize("args", [["search", "Alice"], ["remember", "Bob lives in Porto"]])
def test_a_damaged_keyword_index_is_a_store_error(cli_run: Run, tmp_path: Path, args: list[str]) -> None:
    """FTS5 reports its own damaged pages as a failed table constructor: that was `internal` too."""
    db = tmp_path / "m.db"
    for n in range(3):
        assert cli_run(["--db", str(db), "remember", f"Alice moved to Lisbon, note {n}"])[0] == 0
    _damage_table(db, "memory_fts_data")
    code, out = cli_run(["--db", str(db), *args])
    assert code == 1 and out["error"]["code"] == "store_error", out
    assert "damaged" in out["error"]["message"]


@pytest.mark.parametrize("exc", [sqlite3.DatabaseError("database disk image is malformed"),
                                 sqlite3.DatabaseError("file is not a database")])
def test_sqlite_damage_reports_are_store_errors_everywhere(exc: Exception) -> None:
    payload, code = from_exception(exc)  # the one serialiser CLI, MCP and HTTP share
    assert code == 1 and payload["error"]["code"] == "store_error"


@pytest.mark.parametrize("exc", [sqlite3.IntegrityError("UNIQUE constraint failed: nodes.id"),
                                 sqlite3.ProgrammingError("Incorrect number of bindings supplied"),
                                 sqlite3.DatabaseError("some other database error")])
def test_our_own_statement_errors_stay_internal(exc: Exception) -> None:
    payload, _ = from_exception(exc)
    assert payload["error"]["code"] == "internal"


@pytest.fixture
def emptied_beside_its_log(tmp_path: Path) -> Path:
    """A store whose writes are all still in its -wal log (its writer crashed before any checkpoint) and whose
    database file was then emptied (a failed copy, a sync tool's placeholder)."""
    import shutil

    from mnemon.app.memory import open_store
    from mnemon.core.model import Memory, iso, utcnow

    writer = open_store(tmp_path / "live.db")
    try:
        with writer.transaction():
            now = iso(utcnow())
            writer.insert_node(Memory(id="m1", content="the only copy of this memory", created_at=now,
                                      updated_at=now, inserted_at=now))
        copy = tmp_path / "copy"
        copy.mkdir()
        for suffix in ("", "-wal", "-shm"):
            shutil.copy(tmp_path / f"live.db{suffix}", copy / f"m.db{suffix}")
    finally:
        writer.close()
    (copy / "m.db").write_bytes(b"")
    assert (copy / "m.db-wal").stat().st_size > 0
    return copy / "m.db"


@pytest.mark.parametrize("args", [["status"], ["--readonly", "status"], ["remember", "Bob lives in Porto"]])
def test_an_empty_store_file_beside_a_log_of_writes_is_refused_and_the_log_kept(
        cli_run: Run, emptied_beside_its_log: Path, args: list[str]) -> None:
    """SQLite took the empty file for a new database and deleted the log: every memory gone, `status` said 0."""
    db = emptied_beside_its_log
    log = Path(f"{db}-wal")
    size = log.stat().st_size
    code, out = cli_run(["--db", str(db), *args])
    assert code == 1 and out["error"]["code"] == "store_error", out
    assert "m.db-wal" in out["error"]["message"]
    assert log.exists() and log.stat().st_size == size and db.stat().st_size == 0


@pytest.mark.parametrize("args", [["status"], ["recall", "Alice"], ["export"], ["--readonly", "search", "Alice"]])
def test_a_read_of_an_empty_file_named_as_the_store_is_not_found_and_leaves_it_empty(
        cli_run: Run, tmp_path: Path, args: list[str]) -> None:
    """An emptied store file (a failed copy, a truncation) answered `status` with 0 memories, as a store it had just
    made there: the loss looked like an empty memory, and the file was a new store from then on."""
    db = tmp_path / "m.db"
    db.write_bytes(b"")
    code, out = cli_run(["--db", str(db), *args])
    assert code == 1 and out["error"]["code"] == "not_found", out
    assert "empty" in out["error"]["message"]
    assert db.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("m.db")) == [
        "m.db"]


def test_a_write_to_an_empty_file_makes_the_store_there(cli_run: Run, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    db.write_bytes(b"")  # `touch m.db`, or a store being made by another process this instant
    assert cli_run(["--db", str(db), "remember", "Alice moved to Lisbon"])[0] == 0
    assert cli_run(["--db", str(db), "status"])[1]["total_insights"] == 1
