"""A write the database refuses for a cause on the machine says where and what to do: "the database refused the
operation: database or disk is full" named no place (the temporary folder SQLite sorts in fills as often as the
store's disk) and "attempt to write a readonly database" — a `recall` of a store on a read-only file or folder —
no way to read the store anyway."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.interfaces.payloads import from_exception


@pytest.fixture
def mem(tmp_path: Path) -> Mnemon:
    m = Mnemon.open(load_config(dict(os.environ), db=str(tmp_path / "m.db")))
    m.remember("the harbour crane was serviced on Monday")
    yield m
    m.close()


def test_a_full_disk_names_both_places_and_the_remedy(mem: Mnemon, monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path / "sort"))  # (a full one: Python's tempfile would name another)
    conn: sqlite3.Connection = mem.rt.store.conn  # type: ignore[attr-defined]
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")  # as a full disk
    with pytest.raises(sqlite3.OperationalError) as refused:
        mem.remember("the crane needs a new cable " + "cable " * 1000)
    envelope, code = from_exception(refused.value)
    message = envelope["error"]["message"]
    assert code == 1 and envelope["error"]["code"] == "store_error"
    assert "disk is full" in message and str(tmp_path / "sort") in message and "TMPDIR" in message


def test_a_store_that_cannot_be_written_points_to_readonly(mem: Mnemon) -> None:
    mem.rt.store.conn.execute("PRAGMA query_only = 1")  # type: ignore[attr-defined]  (as a read-only file)
    with pytest.raises(sqlite3.OperationalError) as refused:
        mem.remember("the crane needs a new cable")
    envelope, code = from_exception(refused.value)
    assert code == 1 and envelope["error"]["code"] == "store_error"
    assert "readonly database" in envelope["error"]["message"] and "--readonly" in envelope["error"]["message"]


def test_other_refusals_keep_their_words() -> None:
    envelope, _ = from_exception(sqlite3.OperationalError("database is locked"))
    assert envelope["error"]["code"] == "store_busy"
    envelope, _ = from_exception(sqlite3.OperationalError("disk I/O error"))
    assert envelope["error"]["message"] == "the database refused the operation: disk I/O error"
