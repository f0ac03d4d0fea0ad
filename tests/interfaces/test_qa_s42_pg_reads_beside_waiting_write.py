"""`mnemon serve --allow-writes` on a PostgreSQL store while another process holds its write lock (a CLI `ingest`, a
teammate's import): a write sent to the server waits for the lock — and the reads sent meanwhile (status, the
workbench's graph, a recall) used to wait behind it for up to the whole busy wait, the page stuck on "Loading…". They
are answered at once now, as on SQLite (test_qa_s41_reads_beside_waiting_write.py); the write lands once the lock is
free, and one that waits past the busy wait is still `store_busy` (503, Retry-After)."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from interfaces.test_qa_s41_reads_beside_waiting_write import _call, _in_thread, _serving, reads_answered_beside
from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from ports.test_qa_s42_pg_write_wait import watching

psycopg = pytest.importorskip("psycopg")
pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(sys.platform != "linux", reason="libpq's trace (how a test sees a lock asked for)")]

WRITE_LOCK = "hashtext('mnemon:' || current_schema())"


def _open(tmp_path: Path, url: str, busy_wait: str = "60") -> Mnemon:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env.update(MNEMON_HOME=str(tmp_path / "mh"), MNEMON_DAEMON="off", MNEMON_EMBED_PROVIDER="hash",
               MNEMON_BUSY_WAIT=busy_wait)
    return Mnemon.open(load_config(env, db=url))


@contextmanager
def _another_process_writing(url: str) -> Iterator[Any]:
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("BEGIN")
        other.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
        yield other


def test_reads_are_answered_while_a_write_waits_for_another_process(tmp_path: Path, pg_db_url: str) -> None:
    mem = _open(tmp_path, pg_db_url)
    mem.remember("The staging cluster runs Qdrant")
    try:
        with _serving(mem) as api, _another_process_writing(pg_db_url) as other, \
                watching(mem.rt.store, tmp_path) as sent:
            writer, written = _in_thread(_call, api + "remember", {"content": "The standup moved to Tuesday"})
            assert sent("advisory_xact_lock")
            reads_answered_beside(api, writer, written, lambda: other.execute("COMMIT"))
    finally:
        mem.close()


@pytest.mark.parametrize("busy_wait", ["0", "0.3"])
def test_a_write_still_gives_up_after_the_busy_wait(tmp_path: Path, pg_db_url: str, busy_wait: str) -> None:
    mem = _open(tmp_path, pg_db_url, busy_wait=busy_wait)
    try:
        with _serving(mem) as api:
            with _another_process_writing(pg_db_url):
                status, out = _call(api + "remember", {"content": "The standup moved to Tuesday"})
                assert status == 503 and out["error"]["code"] == "store_busy"
                assert out["error"]["details"] == {"retryable": True}
                assert "MNEMON_BUSY_WAIT" in out["error"]["message"]
            assert _call(api + "remember", {"content": "The standup moved to Tuesday"})[0] == 200
            assert _call(api + "status")[1]["total_insights"] == 1
    finally:
        mem.close()
