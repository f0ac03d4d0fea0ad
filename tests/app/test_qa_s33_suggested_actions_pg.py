"""A thought card's `suggested_actions` on a PostgreSQL store: a command that can run, and no password printed.

The commands named the store by `--db <the store's path>`, and a server store's path is its URL with the password
masked (`postgresql://u:***@host/db`): pasted, the command connected with the password `***` and failed. The rule
(`app.suggested_actions`): a URL that holds a password is left out of the commands (they reach the store through the
same config or `MNEMON_DB` that opened it, and say so); a URL without one stays in `--db`, as a file path does
(tests/app/test_thoughts.py, on both backends).
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon

pytestmark = pytest.mark.postgres

PASSWORD = "hunter2-s33"


def _with_password(url: str) -> str:
    with_pw = re.sub(r"^(postgres(?:ql)?://[^:/@]+)@", rf"\1:{PASSWORD}@", url)
    if with_pw == url:
        pytest.skip("the test server's URL names no user to give a password to")
    return with_pw


@pytest.fixture
def open_mem(tmp_path: Path) -> Iterator[Callable[[str], Mnemon]]:
    opened: list[Mnemon] = []

    def factory(db: str) -> Mnemon:
        vault = tmp_path / "vault"
        vault.mkdir(exist_ok=True)
        (vault / "vendor.md").write_text("# Vendor\n- [ ] Call the vendor about the overdue invoice\n",
                                         encoding="utf-8")
        m = Mnemon.open(load_config(dict(os.environ, MNEMON_EMBED_PROVIDER="hash"), db=db))
        opened.append(m)
        m.ingest(str(vault), embed=False)
        return m

    yield factory
    for m in opened:
        m.close()


def _actions(mem: Mnemon) -> list[dict[str, Any]]:
    cards = mem.surface(limit=5)["thoughts"] + mem.surface(prompt="vendor invoice", limit=5)["thoughts"]
    actions = [a for card in cards for a in card["suggested_actions"]]
    assert {a["type"] for a in actions} >= {"inspect", "vault_append_bullet"}
    return actions


def _commands(action: dict[str, Any]) -> list[list[str]]:
    return [action["command"]] if "command" in action else list(action["commands"].values())


def test_a_url_with_a_password_is_never_printed_and_the_commands_run_on_the_configured_store(
        open_mem: Callable[[str], Mnemon], pg_db_url: str, cli_run: Callable[..., tuple[int, Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    url = _with_password(pg_db_url)
    mem = open_mem(url)
    actions = _actions(mem)
    shown = json.dumps(actions)
    assert PASSWORD not in shown and "***" not in " ".join(c for a in actions for cmd in _commands(a) for c in cmd)
    for action in actions:
        for argv in _commands(action):
            assert argv[0] == "mnemon" and "--db" not in argv
        assert "MNEMON_DB" in action["store"]  # why there is no --db, and how the command reaches the store
    # run as given where the store is configured, the command reaches it
    monkeypatch.setenv("MNEMON_DB", url)
    inspect = next(a for a in actions if a["type"] == "inspect" and a["id"])
    code, out = cli_run(inspect["command"][1:])
    assert code == 0 and out["id"] == inspect["id"]

