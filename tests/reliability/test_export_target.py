"""`export --out` never replaces a database: naming the store's own file (a slip of tab completion) swapped the
store for its JSON export and answered ok."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.fixture
def db(cli_run: Run, tmp_path: Path) -> Path:
    path = tmp_path / "m.db"
    assert cli_run(["--db", path, "remember", "the only copy of this memory"])[0] == 0
    return path


@pytest.mark.parametrize("target", ["m.db", "./m.db", "m.db-wal", "m.db-vectors.ids", "other.db"])
def test_export_out_refuses_a_database_file(cli_run: Run, db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            target: str) -> None:
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.close()  # another program's
    monkeypatch.chdir(tmp_path)
    before = (tmp_path / target).read_bytes() if (tmp_path / target).exists() else None
    code, out = cli_run(["--db", db, "export", "--out", target])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert ((tmp_path / target).read_bytes() if (tmp_path / target).exists() else None) == before
    code, out = cli_run(["--db", db, "search", "only copy"])
    assert code == 0 and len(out["results"]) == 1


@pytest.mark.parametrize("name", ["backup.json", "m.db-backup.json"])
def test_export_out_still_replaces_an_earlier_export(cli_run: Run, db: Path, tmp_path: Path, name: str) -> None:
    backup = tmp_path / name
    backup.write_text('{"kind": "mnemon-export"}', encoding="utf-8")
    assert cli_run(["--db", db, "export", "--out", backup])[0] == 0
    assert "the only copy of this memory" in backup.read_text(encoding="utf-8")
