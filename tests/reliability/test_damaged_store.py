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
