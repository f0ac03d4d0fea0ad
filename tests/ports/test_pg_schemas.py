"""One schema per team on one PostgreSQL database (README): every schema sees the pgvector extension in `public`."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import pytest

from mnemon.app.memory import open_store
from mnemon.core.errors import StoreError
from mnemon.core.model import Memory

pytestmark = pytest.mark.postgres
WHEN = "2026-02-01T00:00:00Z"


@pytest.fixture
def fresh_db(pg_url: str) -> Iterator[str]:
    """A new database on the test server, without the extension, holding the schemas team_a and team_b."""
    import psycopg

    name = f"mnemon_teams_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    parts = urlsplit(pg_url)
    url = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA team_a; CREATE SCHEMA team_b")
    yield url
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def _in(url: str, path: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{path}"


def _remember(url: str, node_id: str) -> None:
    store = open_store(url)
    try:
        with store.transaction():
            memory = Memory(id=node_id, content=f"{node_id} plan", created_at=WHEN, updated_at=WHEN, inserted_at=WHEN)
            store.insert_node(memory)
            store.put_vector(node_id, "hash", np.ones(4, dtype=np.float32), memory.content_hash, WHEN)
        assert node_id in [m.id for m in store.like_search(f"{node_id} plan", 5)]
        assert node_id in store.load_vectors("hash")[0]
    finally:
        store.close()


def _extension_schema(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
                           " WHERE e.extname = 'vector'").fetchone()
    return str(row[0]) if row else ""


def test_every_team_schema_and_public_open_whichever_comes_first(fresh_db: str) -> None:
    _remember(_in(fresh_db, "team_a,public"), "a1")
    _remember(_in(fresh_db, "team_b,public"), "b1")
    _remember(fresh_db, "p1")
    assert _extension_schema(fresh_db) == "public"
    _remember(_in(fresh_db, "team_a,public"), "a2")


def test_an_extension_an_older_mnemon_put_in_a_team_schema_is_named_with_its_fix(fresh_db: str) -> None:
    import psycopg

    with psycopg.connect(_in(fresh_db, "team_a,public"), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")  # what the first store opened used to do
    _remember(_in(fresh_db, "team_a,public"), "a1")
    for url in (_in(fresh_db, "team_b,public"), fresh_db):
        with pytest.raises(StoreError, match="ALTER EXTENSION vector SET SCHEMA public"):
            open_store(url)
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        conn.execute("ALTER EXTENSION vector SET SCHEMA public")  # the fix the message names
    _remember(_in(fresh_db, "team_b,public"), "b1")
    store = open_store(_in(fresh_db, "team_a,public"))  # team_a's memories and vectors survive the move
    try:
        assert store.load_vectors("hash")[0] == ["a1"] and store.get_node("a1") is not None
    finally:
        store.close()


def test_a_search_path_without_public_is_told_to_add_it(fresh_db: str) -> None:
    with pytest.raises(StoreError, match="not on the search_path"):
        open_store(_in(fresh_db, "team_a"))


def test_a_read_on_a_schema_without_a_store_is_not_found_and_creates_nothing(fresh_db: str, cli_run) -> None:
    """`mnemon --db postgresql://…/db status` on a database with no mnemon store created its tables (in `public`)
    and answered "empty", where a missing SQLite file is `not_found`."""
    import psycopg

    url = _in(fresh_db, "team_a,public")
    for command in (["status"], ["recall", "plan"], ["--readonly", "status"]):
        db_first = command[:1] if command[0] == "--readonly" else []
        code, out = cli_run([*db_first, "--db", url, *command[len(db_first):]])
        assert code != 0 and out["error"]["code"] == "not_found", (command, out)
        assert "no mnemon store" in out["error"]["message"] and "team_a" in out["error"]["message"]
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname IN ('team_a', 'public')").fetchone()
    assert tables == (0,)
    wrote = cli_run(["--db", url, "remember", "a plan"])
    assert wrote[0] == 0, wrote  # a write creates it
    assert cli_run(["--db", url, "status"])[1]["total_insights"] == 1


def test_the_hooks_on_a_team_schema_nobody_wrote_to_yet_say_nothing_is_stored(fresh_db: str, cli_run) -> None:
    """Right after `mnemon setup` for a team's new schema, every session start and every prompt showed the user
    'mnemon hook (…): no mnemon store in …' (a missing SQLite file says 'nothing stored yet' and adds nothing): a
    schema without a store is an empty memory to the read-only hooks too, and they still create nothing."""
    import json

    import psycopg

    url = _in(fresh_db, "team_a,public")
    code, started = cli_run(["--db", url, "hook", "claude-code", "session-start"],
                            input=json.dumps({"hook_event_name": "SessionStart", "source": "startup"}))
    assert code == 0 and "systemMessage" not in started, started
    assert "nothing stored yet" in started["hookSpecificOutput"]["additionalContext"]
    code, prompted = cli_run(["--db", url, "hook", "claude-code", "prompt"],
                             input=json.dumps({"prompt": "Who owns the payment service?"}))
    assert (code, prompted) == (0, {})
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname IN ('team_a', 'public')").fetchone()
    assert tables == (0,)
    code, wrong = cli_run(["--db", _in(fresh_db, "team_x,public"), "hook", "claude-code", "prompt"],
                          input=json.dumps({"prompt": "Who owns the payment service?"}))
    assert code == 0 and "team_x" in wrong["systemMessage"]  # a schema that is not there is still said


def test_a_read_of_a_server_store_opens_one_connection(fresh_db: str, cli_run,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Telling a missing store from an empty one took a connection of its own before the store's: two connects
    for every read command on PostgreSQL."""
    import psycopg

    url = _in(fresh_db, "team_a,public")
    assert cli_run(["--db", url, "remember", "a plan"])[0] == 0
    connects: list[str] = []
    real = psycopg.connect

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        connects.append(str(args[0]) if args else "")
        return real(*args, **kwargs)

    monkeypatch.setattr(psycopg, "connect", counted)
    for command in (["status"], ["recall", "plan"], ["--readonly", "status"]):
        db_first = command[:1] if command[0] == "--readonly" else []
        connects.clear()
        code, out = cli_run([*db_first, "--db", url, *command[len(db_first):]])
        assert code == 0, out
        assert len(connects) == 1, (command, connects)
