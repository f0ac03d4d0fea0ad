"""A database URL given where a store name goes says where a URL goes, and never prints its password. README: "point
`--db` (or `MNEMON_DB`; `MNEMON_STORE` only names SQLite stores) at a PostgreSQL server". A teammate who set
`MNEMON_STORE=postgresql://ann:pw@db.internal/memory` got "invalid store name 'postgresql://ann:pw@db.internal/memory':
use letters, digits, '-' and '_'" — the password printed, and nothing about --db; `mnemon store create <url>` the
same."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]
URL = "postgresql://ann:Hunter2pw@db.internal/memory"


@pytest.mark.parametrize("argv, env", [
    (["--store", URL, "status"], {}),
    (["recall", "hello"], {"MNEMON_STORE": URL}),
    (["remember", "hello"], {"MNEMON_STORE": URL.replace("postgresql", "postgres")}),
    (["store", "create", URL], {}),
    (["store", "set", URL], {}),
])
def test_a_url_as_a_store_name_points_to_db_without_the_password(cli_run: Run, monkeypatch: pytest.MonkeyPatch,
                                                                 argv: list[str], env: dict[str, str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out = cli_run(argv)
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    message = out["error"]["message"]
    assert "Hunter2pw" not in message and "ann:***@db.internal" in message, message
    assert "--db" in message and "MNEMON_DB" in message, message
