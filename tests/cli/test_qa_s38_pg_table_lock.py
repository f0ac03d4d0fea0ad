"""A read waits for a table lock another session holds at most busy_wait, then is store_busy. A write waited for the
schema's write lock at most `busy_wait` (SQLite's busy timeout), but every read waited without end behind a lock a
write had not taken through mnemon — another mnemon's upgrade altering a table, an administrator's `VACUUM FULL` or
`LOCK TABLE nodes`: `MNEMON_BUSY_WAIT=2s mnemon --db postgresql://… status` answered only when that session ended
(23 s in one try; a prompt hook until its host killed it). SQLite's readers never wait for a writer at all."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.fixture(params=["nodes", "migrations"])  # (the second is read as the store opens)
def locked_table(request: pytest.FixtureRequest, pg_store: Any, pg_db_url: str, cli_run: Run) -> Iterator[None]:
    """A table of the store locked by another session (ACCESS EXCLUSIVE) until the test ends."""
    import psycopg

    code, out = cli_run(["--db", pg_db_url, "remember", "The harbour pilot starts in May"])
    assert code == 0, out
    schema = pg_store.conn.execute("SELECT current_schema()").fetchone()[0]
    holder = psycopg.connect(pg_store._url)
    holder.execute(f'LOCK TABLE "{schema}".{request.param} IN ACCESS EXCLUSIVE MODE')
    released = threading.Timer(30, holder.rollback)  # (a bound on the test itself, should the command hang)
    released.start()
    try:
        yield
    finally:
        released.cancel()
        holder.rollback()
        holder.close()


@pytest.mark.postgres
@pytest.mark.parametrize("command", [["status"], ["recall", "harbour pilot"], ["--readonly", "show", "nope"]])
def test_a_read_behind_a_table_lock_waits_busy_wait_then_is_store_busy(
        cli_run: Run, pg_db_url: str, locked_table: None, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.setenv("MNEMON_BUSY_WAIT", "1s")
    began = time.monotonic()
    code, out = cli_run(["--db", pg_db_url, *command] if command[0] != "--readonly" else
                        ["--readonly", "--db", pg_db_url, *command[1:]])
    assert time.monotonic() - began < 10, "the read waited past busy_wait"
    assert code == 1 and out["error"]["code"] == "store_busy", out
    assert out["error"]["details"]["retryable"] is True
