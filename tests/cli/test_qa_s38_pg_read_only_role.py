"""A teammate whose PostgreSQL role may only read gets a store_error that says to read with --readonly, not an
`internal` error. `mnemon --db postgresql://reader@…/memory recall hello` (a role granted SELECT on the store's tables:
a recall writes access counts and its log row) answered `{"code": "internal", "message": "InsufficientPrivilege:
permission denied for table nodes"}`, the code for a bug of mnemon's, where SQLite's refusal to write a read-only
file is a `store_error`."""
from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.fixture
def reader_url(pg_store: Any, pg_db_url: str) -> Iterator[str]:
    """`pg_db_url` as a role that may read the store's schema and write nothing."""
    role = f"reader_{uuid.uuid4().hex[:10]}"
    pg_store.conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'read-only-pw'")
    yield re.sub(r"://[^@/]*@", f"://{role}:read-only-pw@", pg_db_url, count=1)
    pg_store.conn.execute(f"DROP OWNED BY {role}")
    pg_store.conn.execute(f"DROP ROLE {role}")


@pytest.mark.postgres
def test_a_role_that_may_only_read_is_told_to_read_with_readonly(cli_run: Run, pg_store: Any, pg_db_url: str,
                                                                 reader_url: str) -> None:
    code, out = cli_run(["--db", pg_db_url, "remember", "The harbour pilot starts in May"])
    assert code == 0, out
    schema = pg_store.conn.execute("SELECT current_schema()").fetchone()[0]
    role = reader_url.split("://", 1)[1].split(":", 1)[0]
    pg_store.conn.execute(f'GRANT USAGE ON SCHEMA "{schema}" TO {role}')
    pg_store.conn.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA "{schema}" TO {role}')
    for command in (["recall", "harbour pilot"], ["remember", "another note"]):
        code, out = cli_run(["--db", reader_url, *command])
        assert code == 1 and out["error"]["code"] == "store_error", out
        assert "permission denied" in out["error"]["message"] and "--readonly" in out["error"]["message"], out
        assert "read-only-pw" not in out["error"]["message"]
    code, out = cli_run(["--readonly", "--db", reader_url, "recall", "harbour pilot"])
    assert code == 0 and out["results"][0]["insight"]["content"] == "The harbour pilot starts in May", out
