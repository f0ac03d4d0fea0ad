"""A store on a full disk still answers its reads: `recall`, `search` and `show` failed with "database or disk is
full" (store_error) because counting their hits as accessed is a write, so an agent lost every memory it had the
moment the disk filled. The read answers without its bookkeeping (as behind a busy writer); writes still fail with
the error, and keep nothing half-written."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.interfaces.payloads import from_exception


def _fill(conn: sqlite3.Connection) -> None:
    """The database can grow no more (SQLite's SQLITE_FULL, as on a full disk): capped at its size, and every byte
    of its last pages taken, so the smallest row a write adds fails."""
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    for size in (4000, 400, 40, 1):
        with pytest.raises(sqlite3.OperationalError, match="full"):
            while True:
                conn.execute("INSERT INTO oplog (op, detail, created_at) VALUES ('filler', ?, '')", ("x" * size,))


@pytest.fixture
def full(tmp_path: Path) -> tuple[Mnemon, list[str]]:
    mem = Mnemon.open(load_config(dict(os.environ), db=str(tmp_path / "m.db")))
    ids = [mem.remember(f"the harbour crane {n} was serviced on Monday")["id"] for n in range(3)]
    _fill(mem.rt.store.conn)  # type: ignore[attr-defined]
    yield mem, ids
    mem.close()


def test_reads_answer_on_a_full_disk(full: tuple[Mnemon, list[str]]) -> None:
    mem, ids = full
    assert {r["insight"]["id"] for r in mem.recall("harbour crane serviced")["results"]} == set(ids)
    assert {r["id"] for r in mem.search("harbour crane")["results"]} == set(ids)
    assert mem.show(ids[0])["content"] == "the harbour crane 0 was serviced on Monday"


def test_a_write_on_a_full_disk_fails_with_the_store_error_and_keeps_nothing(full: tuple[Mnemon, list[str]]) -> None:
    mem, ids = full
    with pytest.raises(sqlite3.OperationalError) as refused:
        mem.remember("the crane needs a new cable " + "cable " * 1000)
    envelope, code = from_exception(refused.value)
    assert code == 1 and envelope["error"]["code"] == "store_error" and "full" in envelope["error"]["message"]
    assert mem.status()["total_insights"] == 3
    assert sorted(n.id for n in mem.rt.store.iter_nodes()) == sorted(ids)
