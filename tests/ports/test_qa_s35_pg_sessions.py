"""Session 35's QA of PostgreSQL against SQLite: a long-running process whose database session the server ended."""
from __future__ import annotations

import json
import os
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle

from interfaces.test_mcp import call

pytestmark = pytest.mark.postgres


def _end_session(pg_url: str, pid: int) -> None:
    """Ends a session as a server restart or an idle timeout does, and waits until the server has let it go (its
    goodbye is then on the session's socket)."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
            admin.execute("SELECT pg_sleep(0.01)")


def test_a_session_ended_between_calls_is_replaced_before_the_next_call(pg_db_url: str, pg_url: str) -> None:
    """`mnemon serve` and `mcp serve` on PostgreSQL answered the first call after every database restart with
    store_error (HTTP 500), a search as well as a remember, though none of the call had reached the server: the
    server had ended the idle session and said so on its socket before the call began. Now a session the server
    ended between calls is replaced before the call's first statement; every call answers."""
    mem = Mnemon.open(load_config(dict(os.environ), db=pg_db_url))
    try:
        def ask(i: int, name: str, args: dict[str, Any]) -> dict[str, Any]:
            return handle(lambda: mem, call(i, name, args))["result"]  # type: ignore[index]

        assert ask(1, "remember", {"content": "The pilot starts in June"})["isError"] is False
        _end_session(pg_url, mem.rt.store.conn.info.backend_pid)
        found = ask(2, "search", {"query": "pilot"})
        assert found["isError"] is False, found
        assert [r["content"] for r in found["structuredContent"]["results"]] == ["The pilot starts in June"]
        _end_session(pg_url, mem.rt.store.conn.info.backend_pid)
        added = ask(3, "remember", {"content": "The pilot moved to July"})
        assert added["isError"] is False and added["structuredContent"]["action"] == "added", added
        _end_session(pg_url, mem.rt.store.conn.info.backend_pid)
        answer = Api(lambda: mem).handle("GET", "/api/search?query=pilot", {"host": "localhost"}, b"")
        assert answer.status == 200, answer.body
        assert {r["content"] for r in json.loads(answer.body)["results"]} == {"The pilot starts in June",
                                                                               "The pilot moved to July"}
    finally:
        mem.close()
