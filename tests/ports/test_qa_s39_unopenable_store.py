"""A store SQLite cannot open for the machine's reasons says which and how to read it anyway. A store on a full disk
or in a read-only folder (a backup mount, `chattr +i`) failed every command, reads included, with "cannot use … as a
mnemon store: disk I/O error" or "unable to open database file" and nothing more: a WAL store makes `-wal` and
`-shm` files beside the database on every open. `--readonly` on a full disk failed the same way; it now opens the
file as on read-only media."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from mnemon.ports.store import open_refusals, sqlite as sqlite_store
from mnemon.ports.store.open_refusals import open_failure
from mnemon.ports.store.sqlite import SQLiteStore


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "m.db"
    store = SQLiteStore(str(path))
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.db"]  # closed: no log, no shared memory left
    return path


def _disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(open_refusals.os, "statvfs", lambda _folder: SimpleNamespace(f_bavail=0, f_frsize=4096))


def test_a_full_disk_is_named_with_the_way_to_read_the_store(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _disk_full(monkeypatch)
    said = open_failure(str(db), False, sqlite3.OperationalError("disk I/O error"))
    assert f"no room left on the disk holding {db.parent}" in said and "--readonly reads it" in said
    assert "--readonly" not in open_failure(str(db), True, sqlite3.OperationalError("disk I/O error"))


def test_a_folder_the_log_files_cannot_be_made_in_points_to_readonly(db: Path) -> None:
    said = open_failure(str(db), False, sqlite3.OperationalError("unable to open database file"))
    assert f"the folder {db.parent} may be read-only" in said and "--readonly reads it" in said


def test_other_open_failures_keep_their_words(db: Path, tmp_path: Path) -> None:
    assert open_failure(str(db), False, sqlite3.DatabaseError("file is not a database")) == "file is not a database"
    missing = str(tmp_path / "new.db")  # (a folder it may create files in)
    assert open_failure(missing, False, sqlite3.OperationalError("unable to open database file")) == \
        "unable to open database file"


def test_readonly_on_a_full_disk_reads_the_file_as_it_is(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer = SQLiteStore(str(db))
    writer.conn.execute("INSERT INTO oplog (op, detail, created_at) VALUES ('note', '{}', '')")
    writer.close()
    monkeypatch.setattr(sqlite_store, "has_room", lambda _folder: False)
    reader = SQLiteStore(str(db), readonly=True)
    try:
        assert reader.conn.execute("SELECT COUNT(*) FROM oplog WHERE op = 'note'").fetchone()[0] == 1
        assert not os.path.exists(f"{db}-shm") and not os.path.exists(f"{db}-wal")  # nothing made beside it
    finally:
        reader.close()
