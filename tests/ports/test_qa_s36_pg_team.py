"""The PostgreSQL backend as a team meets it on one shared server: a server that does not answer."""
from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from mnemon.app.memory import open_store
from mnemon.core.errors import StoreError

pytest.importorskip("psycopg")


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that takes connections (the kernel completes them) and never answers: a hung or overloaded server, a
    proxy with nothing behind it."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield int(listener.getsockname()[1])


def _open_in_thread(url: str) -> dict[str, Any]:
    outcome = _open_in_thread_started(url)
    outcome["thread"].join(30)
    outcome["waiting"] = outcome["thread"].is_alive()
    return outcome


def test_a_server_that_never_answers_is_a_store_error_not_a_wait_of_minutes(
        silent_server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command (and the prompt hook, which the agent host kills after its timeout, delaying every prompt)
    waited psycopg's 130 s for a server that took the connection and said nothing. Now a connection is given
    `CONNECT_TIMEOUT_S` (10 s; here 1) unless the URL or PGCONNECT_TIMEOUT says otherwise, then `store_error`."""
    from mnemon.ports.store import postgres

    monkeypatch.delenv("PGCONNECT_TIMEOUT", raising=False)
    monkeypatch.setattr(postgres, "CONNECT_TIMEOUT_S", 1, raising=False)
    outcome = _open_in_thread(f"postgresql://team:secret@127.0.0.1:{silent_server}/memory")
    assert not outcome["waiting"], "the open waited on a server that never answers"
    error = outcome.get("error")
    assert isinstance(error, StoreError) and error.code == "store_error", outcome
    assert "cannot connect" in str(error) and "secret" not in str(error)
    assert "connect_timeout" in str(error)  # the message says how to wait longer


def test_a_connect_timeout_the_url_gives_is_kept(silent_server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.ports.store import postgres

    monkeypatch.setattr(postgres, "CONNECT_TIMEOUT_S", 600, raising=False)
    outcome = _open_in_thread(f"postgresql://team@127.0.0.1:{silent_server}/memory?connect_timeout=1")
    assert not outcome["waiting"] and isinstance(outcome.get("error"), StoreError), outcome


@pytest.mark.postgres
def test_an_upgrade_waits_for_the_writer_in_progress_and_the_writers_after_it_see_it(
        pg_store: Any, pg_db_url: str, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A newer mnemon's upgrade ran beside a write already in progress (it took only the migration lock, not the
    schema's write lock): that writer, past its check of the steps, went on writing rows in the old layout after the
    upgrade committed. Now an upgrade takes the write lock as every writer does: it waits for the writer in progress,
    and the writers after it find its steps."""
    import psycopg

    from mnemon.ports.store import postgres

    with pg_store.transaction():  # a teammate's write in progress, holding the schema's write lock
        newer = ("m999_newer", "CREATE TABLE newer (x int)")
        monkeypatch.setattr(postgres, "MIGRATIONS", [*postgres.MIGRATIONS, newer])
        opened = _open_in_thread_started(pg_db_url)  # the newer mnemon's first open: it upgrades
        with psycopg.connect(pg_url, autocommit=True) as admin:
            for _ in range(200):
                waiting = admin.execute("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                                        ).fetchone()[0]
                upgraded = admin.execute("SELECT COUNT(*) FROM pg_tables WHERE tablename = 'newer'").fetchone()[0]
                if waiting or upgraded:
                    break
                opened["thread"].join(0.05)
        assert not upgraded, "the upgrade committed while a writer held the write lock"
        assert waiting
    opened["thread"].join(30)
    try:
        assert "store" in opened, opened
        assert "m999_newer" in pg_store.migrations()
        opened["store"].close()
    finally:
        pg_store.conn.execute("DROP TABLE IF EXISTS newer; DELETE FROM migrations WHERE name = 'm999_newer'")


def _open_in_thread_started(url: str) -> dict[str, Any]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["store"] = open_store(url)
        except BaseException as exc:  # reported to the test
            outcome["error"] = exc

    outcome["thread"] = threading.Thread(target=run, daemon=True)
    outcome["thread"].start()
    return outcome
