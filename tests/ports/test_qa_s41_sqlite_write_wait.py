"""A SQLite store shared by threads (`mnemon serve`): a write waiting for another process's write lets the other
threads' calls run meanwhile — unless it is a bulk write, whose foreign-key checks are off until it ends, so no
other write of this connection may begin in between."""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mnemon.ports.store.sqlite import SQLiteStore

GENEROUS_S = 20.0


def _asking(store: SQLiteStore) -> threading.Event:
    """Set once the store has asked SQLite for its write lock (a transaction is waiting for it)."""
    asked = threading.Event()
    store.conn.set_trace_callback(lambda sql: asked.set() if sql.upper().startswith("BEGIN IMMEDIATE") else None)
    return asked


def _writing(store: SQLiteStore, transaction: Any) -> tuple[threading.Thread, list[str]]:
    done: list[str] = []

    def write() -> None:
        with store.one_call(), transaction():
            store.conn.execute("INSERT INTO meta(key, value) VALUES ('qa_s41', 'written')")
        done.append("written")

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread, done


@contextmanager
def _waiting_write(tmp_path: Path, bulk: bool) -> Iterator[tuple[SQLiteStore, sqlite3.Connection, threading.Thread,
                                                                list[str]]]:
    """A store whose write (in a thread) waits for the write lock another connection holds."""
    store = SQLiteStore(str(tmp_path / "m.db"))
    other = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        asked = _asking(store)
        writer, done = _writing(store, store.bulk_transaction if bulk else store.transaction)
        assert asked.wait(GENEROUS_S)
        yield store, other, writer, done
    finally:
        other.close()
        store.close()


def test_a_read_runs_while_a_write_waits_for_another_process(tmp_path: Path) -> None:
    with _waiting_write(tmp_path, bulk=False) as (store, other, writer, done):
        read: list[Any] = []

        def reader() -> None:
            with store.one_call():
                read.append(store.conn.execute("SELECT value FROM meta WHERE key = 'qa_s41'").fetchone())

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        thread.join(GENEROUS_S)
        assert read == [None] and writer.is_alive() and not done  # answered, the write still waiting
        other.execute("COMMIT")
        writer.join(GENEROUS_S)
        assert done == ["written"]
        assert store.conn.execute("SELECT value FROM meta WHERE key = 'qa_s41'").fetchone() == ("written",)


def test_a_bulk_write_keeps_its_turn_while_it_waits(tmp_path: Path) -> None:
    with _waiting_write(tmp_path, bulk=True) as (store, other, writer, done):
        taken = store._lock.acquire(timeout=0.5)  # a write of another thread would begin unchecked if this got it
        if taken:
            store._lock.release()
        assert not taken and writer.is_alive()
        other.execute("COMMIT")
        writer.join(GENEROUS_S)
        assert done == ["written"]
        assert store.conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
