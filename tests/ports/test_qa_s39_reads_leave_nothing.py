"""A read that says it writes nothing leaves nothing: `mnemon doctor` on a SQLite store left empty `mnemon.db-wal`
and `mnemon.db-shm` files beside it (a read-only connection makes them and cannot remove them), and so did every
`--readonly` command and the prompt hook. With no log beside the file the store is read over a connection that
may not write (`query_only`) and, the last to close, removes what it made; with a log (another process has the store
open) it is read through that log's files, as before, safely beside the writer."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.ports.store.sqlite import SQLiteStore

Run = Callable[..., tuple[int, Any]]


def _state(folder: Path) -> dict[str, str]:
    """Every file of the folder, by name, with the sha256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def stored(cli_run: Run, tmp_path: Path) -> Path:
    folder = tmp_path / "store"
    folder.mkdir()
    db = folder / "mnemon.db"
    assert cli_run(["--db", db, "remember", "The payment service is owned by Zhang Wei", "--cat", "fact"])[0] == 0
    assert not (folder / "mnemon.db-wal").exists()  # the writer, the last to close, took its log away
    return db


@pytest.mark.parametrize("line", [
    ["doctor"],
    ["--readonly", "status"],
    ["--readonly", "recall", "who owns the payment service"],
    ["--readonly", "show", "nope"],
], ids=["doctor", "readonly-status", "readonly-recall", "readonly-show"])
def test_a_read_leaves_the_folder_as_it_was(cli_run: Run, stored: Path, line: list[str]) -> None:
    before = _state(stored.parent)
    cli_run(["--db", stored, *line])
    assert _state(stored.parent) == before


def test_the_prompt_hook_leaves_the_folder_as_it_was(cli_run: Run, stored: Path) -> None:
    before = _state(stored.parent)
    code, out = cli_run(["--db", stored, "hook", "claude-code", "prompt"],
                        input=json.dumps({"prompt": "Who owns the payment service?"}))
    assert code == 0 and "Zhang Wei" in json.dumps(out)
    assert _state(stored.parent) == before


def test_a_read_only_open_refuses_a_write_that_reaches_sqlite(stored: Path) -> None:
    store = SQLiteStore(str(stored), readonly=True)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.conn.execute("DELETE FROM nodes")
    finally:
        store.close()
    assert SQLiteStore(str(stored), readonly=True).count_active() == 1


def test_a_read_beside_a_writer_sees_its_writes_and_leaves_its_files(stored: Path) -> None:
    writer = SQLiteStore(str(stored))
    try:
        writer.conn.execute("UPDATE nodes SET content = 'renamed' WHERE kind = 'memory'")  # (autocommit)
        log = stored.with_name("mnemon.db-wal")
        assert log.exists() and log.stat().st_size > 0  # the change lives in the writer's log, not yet in the file
        reader = SQLiteStore(str(stored), readonly=True)
        try:
            assert [r[0] for r in reader.conn.execute("SELECT content FROM nodes WHERE kind = 'memory'")] == [
                "renamed"]
        finally:
            reader.close()
        assert log.exists()  # still the writer's
        writer.conn.execute("UPDATE nodes SET content = 'again' WHERE kind = 'memory'")
    finally:
        writer.close()
    assert sorted(p.name for p in stored.parent.iterdir() if p.name.startswith("mnemon.db-")) == [
        "mnemon.db-vectors", "mnemon.db-vectors.ids"]


def test_two_reads_at_once_leave_nothing(stored: Path) -> None:
    before = _state(stored.parent)
    first = SQLiteStore(str(stored), readonly=True)
    second = SQLiteStore(str(stored), readonly=True)
    assert first.count_active() == second.count_active() == 1
    first.close()
    assert second.count_active() == 1
    second.close()
    assert _state(stored.parent) == before
