"""Session 35's QA of PostgreSQL against SQLite: a process whose database session the server ended; status orders."""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle

from interfaces.test_mcp import call


def _end_session(pg_url: str, pid: int) -> None:
    """Ends a session as a server restart or an idle timeout does, and waits until the server has let it go (its
    goodbye is then on the session's socket)."""
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
            admin.execute("SELECT pg_sleep(0.01)")


@pytest.mark.postgres
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


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_status_lists_kinds_statuses_and_providers_in_one_order_on_both(backend: str, tmp_path: Any,
                                                                      request: pytest.FixtureRequest) -> None:
    """`status` on PostgreSQL listed nodes_by_kind, edges_by_status and embedding.stored_by_provider in the server's
    hash order ({"note": …, "placeholder": …, "date": …, …}, "candidate" before "active") where SQLite lists them by
    name: the same store printed differently on each backend. Both now list them by name."""
    from mnemon.app.memory import open_store
    from mnemon.core.model import Edge, Memory

    store = open_store(tmp_path / "m.db") if backend == "sqlite" else request.getfixturevalue("pg_store")
    at = "2026-06-01T09:00:00Z"
    kinds = ["note", "placeholder", "date", "heading", "tag", "memory", "email", "entity"]
    for i, kind in enumerate(kinds):
        store.insert_node(Memory(id=f"{kind}-{i}", kind=kind, title=kind, content=f"{kind} {i}", created_at=at))
    store.insert_node(Memory(id="placeholder-x", kind="placeholder", title="x", content="x", created_at=at))
    with store.transaction():
        for status, (src, dst) in zip(["killed", "candidate", "active"], [("note-0", "tag-4"), ("date-2", "tag-4"),
                                                                          ("memory-5", "entity-7")]):
            store.upsert_edge(Edge(src=src, dst=dst, type="relates_to", status=status, created_at=at))
    providers = ["ollama:nomic:768", "hash:signed-bow-v1:256", "openai:small:1536", "e5:small:384"]
    for i, provider in enumerate(providers):
        for j, kind in enumerate(kinds[:4]):
            store.put_vector(f"{kind}-{j}", provider, np.ones(4, dtype=np.float32), f"h{i}", at)
    if backend == "postgres":
        store.conn.execute("ANALYZE")  # as autovacuum soon does: the planner then counts by hash, in no order
    stats = store.stats()
    assert list(stats["edges_by_status"]) == ["active", "candidate", "killed"]
    assert list(stats["nodes_by_kind"]) == sorted(kinds)
    assert list(store.vector_providers()) == sorted(providers)  # (status: embedding.stored_by_provider)
    if backend == "sqlite":
        store.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_an_export_with_a_large_access_count_restores_on_both(backend: str, tmp_path: Any,
                                                              request: pytest.FixtureRequest) -> None:
    """A restore of an export whose memory was read more than 2,147,483,647 times (the import accepts counts up to
    2^62, what a 64-bit column holds) failed on PostgreSQL as `internal: NumericValueOutOfRange`, nothing of the
    export stored, where SQLite restored it: PostgreSQL's access_count column was 32-bit. It is 64-bit now."""
    env = dict(os.environ, MNEMON_EMBED_PROVIDER="hash")
    source = Mnemon.open(load_config(env, db=str(tmp_path / "source.db")))
    try:
        kept = source.remember("The staging database is refreshed every Sunday")["id"]
        doc = json.loads("".join(source.export_stream()))
    finally:
        source.close()
    doc["insights"][0]["access_count"] = 3_000_000_000
    db = str(tmp_path / "target.db") if backend == "sqlite" else request.getfixturevalue("pg_db_url")
    target = Mnemon.open(load_config(env, db=db))
    try:
        out = target.import_json(json.dumps(doc))
        assert (out["imported"], out["errors"]) == (1, 0), out
        assert target.rt.store.get_node(kept).access_count == 3_000_000_000
    finally:
        target.close()


@pytest.mark.postgres
def test_a_writer_held_up_past_the_wait_is_store_busy_as_on_sqlite(pg_store: Any, pg_db_url: str) -> None:
    """Writers of one PostgreSQL store queue for its write lock, as SQLite's BEGIN IMMEDIATE makes them; SQLite gives
    up after its busy wait (store_busy), but PostgreSQL waited for good: with one writer stuck (a paused process, a
    client cut off the network keeps its session for hours), every remember, link and forget of every agent hung
    without a word. The wait is bounded the same here, by the same setting (shortened for the test)."""
    from mnemon.core.errors import StoreBusy

    env = dict(os.environ, MNEMON_EMBED_PROVIDER="hash", MNEMON_BUSY_WAIT="0.2")
    mem = Mnemon.open(load_config(env, db=pg_db_url))
    try:
        with pg_store.transaction():  # the stuck writer
            with pytest.raises(StoreBusy, match="another writer"):
                mem.remember("The pilot starts in June")
            refused = handle(lambda: mem, call(1, "remember", {"content": "The pilot starts in June"}))["result"]
            assert refused["structuredContent"]["error"]["code"] == "store_busy", refused
            assert refused["structuredContent"]["error"]["details"] == {"retryable": True}
        assert mem.remember("The pilot starts in June")["action"] == "added"  # and nothing was half-written
        assert mem.status()["total_insights"] == 1
    finally:
        mem.close()


@pytest.mark.parametrize("url", ["mysql://team@db.example/memory", "postgresq://team@db.example/memory",
                                 "pg://team@db.example/memory", "file:///srv/memory.db"])
def test_a_database_url_mnemon_cannot_open_is_refused_not_made_a_file(url: str, cli_run: Any, tmp_path: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`--db postgresq://…` (a typo), `mysql://…` or `file:///…` was taken for a SQLite file path: `remember` answered
    "added" and wrote the memory into a new file under ./postgresq:/team@db.example/memory, far from the shared
    server the agent meant to write to. Now a URL of any scheme but postgresql:// or postgres:// is invalid_input,
    nothing written; the same from MNEMON_DB."""
    monkeypatch.chdir(tmp_path)
    code, out = cli_run(["--db", url, "remember", "The pilot starts in June"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert "postgresql://" in out["error"]["message"]
    monkeypatch.setenv("MNEMON_DB", url)
    code, out = cli_run(["remember", "The pilot starts in June"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.postgres
def test_a_postgresql_url_with_its_scheme_in_capitals_opens_the_server(pg_db_url: str, cli_run: Any, tmp_path: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`--db POSTGRESQL://…` (URL schemes are case-insensitive) wrote to a SQLite file under ./POSTGRESQL:/…
    instead of the server. It opens the server now."""
    monkeypatch.chdir(tmp_path)
    shouted = "POSTGRESQL" + pg_db_url[len("postgresql"):]
    code, out = cli_run(["--db", shouted, "remember", "The pilot starts in June"])
    assert code == 0 and out["action"] == "added", out
    code, out = cli_run(["--db", pg_db_url, "search", "pilot"])
    assert [r["content"] for r in out["results"]] == ["The pilot starts in June"]
    assert list(tmp_path.iterdir()) == []


def test_init_keeps_a_server_url_and_refuses_another_scheme(cli_run: Any, tmp_path: Any,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`init --db POSTGRESQL://…` wrote <cwd>/POSTGRESQL:/… into the config file, a file path from then on, and
    `init --db postgresq://…` a path too. The first is kept as the server URL, the second refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "vault").mkdir()
    code, out = cli_run(["init", "--vault", "vault", "--db", "POSTGRESQL://team@db.example/memory", "--force"])
    assert code == 0 and out["db"] == "postgresql://team@db.example/memory", out
    code, out = cli_run(["init", "--vault", "vault", "--db", "postgresq://team@db.example/memory", "--force"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
