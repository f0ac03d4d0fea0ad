"""A team on one shared PostgreSQL, second round: a schema an older mnemon wrote, read before anyone upgrades it."""
from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mnemon.app.memory import open_store
from mnemon.core.errors import StoreError

pytest.importorskip("psycopg")
Run = Callable[..., tuple[int, Any]]


@pytest.fixture
def older_schema(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], str]]:
    """`make(last_step)`: a schema of its own that an older mnemon made and wrote to (its steps end at `last_step`),
    as the URL that opens it; dropped at the end."""
    import psycopg

    from mnemon.ports.store import postgres

    made: list[str] = []
    full = list(postgres.MIGRATIONS)

    def make(last_step: str) -> str:
        schema = f"mnemon_prev_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{schema}"')  # type: ignore[arg-type]
        made.append(schema)
        url = f"{pg_url}{'&' if '?' in pg_url else '?'}options=-csearch_path%3D{schema},public"
        names = [name for name, _ in full]
        monkeypatch.setattr(postgres, "MIGRATIONS", full[:names.index(last_step) + 1])
        older = open_store(url)  # the older mnemon's first open creates its schema
        try:
            older.conn.execute("INSERT INTO nodes(id, content, content_hash, created_at, updated_at, inserted_at)"
                               " VALUES ('m1', 'We chose Qdrant as the vector database', 'h1', %s, %s, %s)",
                               ("2026-01-05T10:00:00+00:00",) * 3)
            older.conn.execute("INSERT INTO memory_fts(node_seq, doc) SELECT seq,"
                               " 'we:1A chose:2A qdrant:3A vector:4A databas:5A'::tsvector FROM nodes")
        finally:
            older.close()
            monkeypatch.setattr(postgres, "MIGRATIONS", full)
        return url

    yield make
    with psycopg.connect(pg_url, autocommit=True) as admin:
        for schema in made:
            admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')  # type: ignore[arg-type]


@pytest.mark.postgres
def test_a_read_only_open_reads_a_schema_an_older_mnemon_wrote(older_schema: Callable[[str], str],
                                                                cli_run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a package upgrade every teammate's read-only prompt hook and `serve` answered 'written by an older
    mnemon; open it once without --readonly' until someone ran a writing command, where SQLite's read-only open reads
    an older store. A schema lacking only steps reads do without (indexes, markers, a wider column) is read as it is."""
    url = older_schema("m056_edge_heads")  # every later step is one readers do without
    code, out = cli_run(["--db", url, "--readonly", "recall", "Qdrant"])
    assert code == 0, out
    assert [r["insight"]["id"] for r in out["results"]] == ["m1"]
    code, out = cli_run(["--db", url, "--readonly", "status"])
    assert code == 0 and out["total_insights"] == 1, out
    monkeypatch.setenv("MNEMON_DB", url)
    code, out = cli_run(["hook", "claude-code", "prompt"], input=json.dumps({"prompt": "Which vector database?"}))
    assert code == 0 and "m1" in json.dumps(out) and "written by" not in json.dumps(out), out
    store = open_store(url, readonly=True)
    try:  # nothing was upgraded by the readers
        assert "m059_deleted_nodes" not in store.migrations()
    finally:
        store.close()


@pytest.mark.postgres
def test_a_read_only_open_refuses_a_schema_lacking_a_step_reads_need_and_names_it(
        older_schema: Callable[[str], str]) -> None:
    url = older_schema("m047_prune_skips_vault")  # before nodes.proactive, which the proactive reads name
    with pytest.raises(StoreError, match="m048_proactive_score") as refused:
        open_store(url, readonly=True)
    assert "m059_deleted_nodes" not in str(refused.value)  # only the steps a reader needs are named
    assert refused.value.details["missing_steps"][0] == "m048_proactive_score"
    open_store(url).close()  # a writable open upgrades it, and then readers read it
    open_store(url, readonly=True).close()


def test_every_step_readers_do_without_is_a_step() -> None:
    from mnemon.ports.store.schema_postgres import MIGRATIONS, READERS_DO_WITHOUT

    assert READERS_DO_WITHOUT <= {name for name, _ in MIGRATIONS}


@pytest.mark.postgres
def test_connections_find_a_dropped_session_in_minutes_not_a_quarter_hour(pg_store: Any, pg_db_url: str) -> None:
    """A long-running `serve` whose idle connection a firewall dropped hung ~15 minutes on its next statement (the
    kernel's 2 h keepalive idle and retransmission timeout): every connection asks libpq for keepalives and a TCP
    user timeout, the reconnected ones too, and a value the URL gives is kept."""
    store = open_store(pg_db_url)
    try:
        params = store.conn.info.get_parameters()
        assert (params.get("keepalives_idle"), params.get("keepalives_interval"), params.get("keepalives_count"),
                params.get("tcp_user_timeout")) == ("60", "10", "6", "30000"), params
        store._conn.close()
        store._conn = store._reconnected()
        assert store.conn.info.get_parameters().get("tcp_user_timeout") == "30000"
    finally:
        store.close()
    store = open_store(f"{pg_db_url}&keepalives_idle=5&tcp_user_timeout=0")
    try:
        params = store.conn.info.get_parameters()
        assert params.get("keepalives_idle") == "5" and params.get("tcp_user_timeout") in (None, "0"), params
        assert params.get("keepalives_count") == "6"
    finally:
        store.close()
