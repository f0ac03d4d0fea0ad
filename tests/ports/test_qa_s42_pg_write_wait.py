"""A PostgreSQL store shared by threads (`mnemon serve`): a write waiting for the schema's write lock, held by another
process (a CLI `ingest`, a teammate's import), lets the other threads' calls run meanwhile — they used to queue
behind it for up to the whole busy wait, every page stuck on "Loading…" — and still gives up after the busy wait
with `store_busy`. Likewise an ingest waiting for another ingest's lock."""
from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import open_store
from mnemon.core.errors import StoreBusy
from mnemon.ports.store.base import WriterBusy

psycopg = pytest.importorskip("psycopg")
pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(sys.platform != "linux", reason="libpq's trace (how a test sees a lock asked for)")]

GENEROUS_S = 20.0  # a bound nobody meets unless something is stuck; the assertions are on order, not on time
WRITE_LOCK = "hashtext('mnemon:' || current_schema())"
INGEST_LOCK = "hashtext('mnemon-ingest:' || current_schema())"


@contextmanager
def _held_by_another_process(url: str, lock: str, *, session: bool = False) -> Iterator[Any]:
    with psycopg.connect(url, autocommit=True) as other:
        if session:
            other.execute(f"SELECT pg_advisory_lock({lock})")
        else:
            other.execute("BEGIN")
            other.execute(f"SELECT pg_advisory_xact_lock({lock})")
        yield other


@contextmanager
def watching(store: Any, tmp_path: Path) -> Iterator[Callable[[str], bool]]:
    """libpq's trace of the store's session: the function yielded waits until the session has sent a statement
    holding `what` (asked for a lock: whether it then waits on the server or tries again later)."""
    trace = tmp_path / "libpq.trace"
    fd = os.open(trace, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    pgconn = store.conn.pgconn
    pgconn.trace(fd)

    def sent(what: str) -> bool:
        deadline = time.monotonic() + GENEROUS_S
        while what not in trace.read_text(errors="replace"):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    try:
        yield sent
    finally:
        pgconn.untrace()
        os.close(fd)


def _in_thread(fn: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # reported to the test
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def _remember_a_row(store: Any) -> str:
    with store.one_call(), store.transaction():
        store.log("qa_s42", None, {"written": 42}, "2026-01-01T00:00:00Z")
    return "written"


def _read_the_row(store: Any) -> Any:
    with store.one_call():
        return [entry.detail["written"] for entry in store.oplog(5, op="qa_s42")]


def test_a_read_runs_while_a_write_waits_for_another_process(pg_db_url: str, tmp_path: Path) -> None:
    store = open_store(pg_db_url, busy_wait_s=60)
    try:
        with _held_by_another_process(pg_db_url, WRITE_LOCK) as other, watching(store, tmp_path) as sent:
            writer, written = _in_thread(lambda: _remember_a_row(store))
            assert sent("advisory_xact_lock")
            reader, read = _in_thread(lambda: _read_the_row(store))
            reader.join(GENEROUS_S)
            assert not reader.is_alive(), "the read waited behind the write"
            assert read == {"value": []}  # answered, and nothing half-written seen
            assert writer.is_alive() and not written  # the write still waits for the other process
            other.execute("COMMIT")
            writer.join(GENEROUS_S)
        assert written == {"value": "written"}
        assert _read_the_row(store) == [42]
    finally:
        store.close()


def test_a_write_still_gives_up_after_the_busy_wait(pg_db_url: str) -> None:
    store = open_store(pg_db_url, busy_wait_s=0.4, busy_wait_set_by="MNEMON_BUSY_WAIT")
    try:
        with _held_by_another_process(pg_db_url, WRITE_LOCK):
            began = time.monotonic()
            with pytest.raises(StoreBusy) as refused:
                _remember_a_row(store)
            waited = time.monotonic() - began
            assert refused.value.code == "store_busy" and "0.4 s" in str(refused.value)
            assert "MNEMON_BUSY_WAIT" in str(refused.value)
            assert 0.4 <= waited < 0.4 + GENEROUS_S / 4  # the whole budget was waited, not one try
            with pytest.raises(WriterBusy):  # a write that does not wait is told at once
                with store.transaction(wait=False):
                    pass
        assert _read_the_row(store) == []  # nothing of the refused write landed
        assert _remember_a_row(store) == "written" and _read_the_row(store) == [42]  # the lock is free again
    finally:
        store.close()


def test_a_read_runs_while_an_ingest_waits_for_another_ingest(pg_db_url: str, tmp_path: Path) -> None:
    store = open_store(pg_db_url, busy_wait_s=60)
    try:
        with _held_by_another_process(pg_db_url, INGEST_LOCK, session=True) as other, \
                watching(store, tmp_path) as sent:

            def ingest() -> str:
                with store.one_call(), store.vault.ingest_lock():
                    return "ingested"

            ingesting, ingested = _in_thread(ingest)
            assert sent("advisory_lock")
            reader, read = _in_thread(lambda: _read_the_row(store))
            reader.join(GENEROUS_S)
            assert not reader.is_alive(), "the read waited behind the ingest"
            assert read == {"value": []} and ingesting.is_alive() and not ingested
            other.execute(f"SELECT pg_advisory_unlock({INGEST_LOCK})")
            ingesting.join(GENEROUS_S)
        assert ingested == {"value": "ingested"}
    finally:
        store.close()


def test_an_ingest_still_gives_up_after_the_busy_wait(pg_db_url: str) -> None:
    store = open_store(pg_db_url, busy_wait_s=0.3)
    try:
        with _held_by_another_process(pg_db_url, INGEST_LOCK, session=True):
            began = time.monotonic()
            with pytest.raises(StoreBusy) as refused, store.vault.ingest_lock():
                pass
            assert 0.3 <= time.monotonic() - began < 0.3 + GENEROUS_S / 4
            assert refused.value.code == "store_busy" and "another ingest" in str(refused.value)
        with store.vault.ingest_lock():  # free again: taken at once
            assert store.session_locks == 1
        assert store.session_locks == 0
    finally:
        store.close()
