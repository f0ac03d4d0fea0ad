"""A --db path that cannot hold a database is the user's mistake: `store_error` naming the path and the reason, from
the CLI and from the facade alike, never `internal` with a raw OSError (the same code a file that is not a database
gets)."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.core.errors import StoreError


def _a_file(tmp_path: Path) -> Path:
    plain = tmp_path / "plain.txt"
    plain.write_text("not a directory\n", encoding="utf-8")
    return plain


# (the --db path under tmp_path, words the reason must contain)
UNUSABLE: dict[str, tuple[Callable[[Path], Path], str]] = {
    "parent is a file": (lambda tmp: _a_file(tmp) / "x.db", "plain.txt is not a directory"),
    "grandparent is a file": (lambda tmp: _a_file(tmp) / "sub" / "x.db", "plain.txt is not a directory"),
    "parent cannot be created": (lambda tmp: tmp / ("d" * 300) / "x.db", "cannot be created"),
}


@pytest.mark.parametrize("case", sorted(UNUSABLE))
@pytest.mark.parametrize("command", [["status"], ["remember", "a fact worth keeping"], ["recall", "fact"]])
def test_cli_answers_store_error_naming_the_path_and_reason(tmp_path: Path, cli_run: Callable[..., tuple[int, Any]],
                                                             case: str, command: list[str]) -> None:
    make_path, reason = UNUSABLE[case]
    db = make_path(tmp_path)
    code, payload = cli_run(["--db", str(db), *command])
    assert code != 0
    error = payload["error"]
    assert error["code"] == "store_error", error
    assert str(db) in error["message"] and reason in error["message"], error["message"]
    assert error["details"]["path"] == str(db)
    if case != "parent cannot be created":  # the file in the way is left as it was
        assert (tmp_path / "plain.txt").read_text(encoding="utf-8") == "not a directory\n"


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_facade_raises_store_error_naming_the_path_and_reason(tmp_path: Path, case: str) -> None:
    make_path, reason = UNUSABLE[case]
    db = make_path(tmp_path)
    with pytest.raises(StoreError) as raised:
        Mnemon.open(load_config(dict(os.environ), db=str(db)))
    assert str(db) in str(raised.value) and reason in str(raised.value)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_a_directory_without_write_permission_is_named(tmp_path: Path, cli_run: Callable[..., tuple[int, Any]]
                                                      ) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        for db in (locked / "x.db", locked / "sub" / "x.db"):
            code, payload = cli_run(["--db", str(db), "status"])
            assert code != 0 and payload["error"]["code"] == "store_error", payload
            assert str(db) in payload["error"]["message"] and "permission" in payload["error"]["message"]
    finally:
        locked.chmod(0o700)


def test_a_usable_path_still_opens_and_creates_its_directories(tmp_path: Path,
                                                               cli_run: Callable[..., tuple[int, Any]]) -> None:
    db = tmp_path / "new" / "deeper" / "m.db"
    code, payload = cli_run(["--db", str(db), "remember", "a fact worth keeping"])
    assert code == 0 and payload["action"] == "added"
    assert db.is_file()
