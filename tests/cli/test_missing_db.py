"""A read on a database the user named that does not exist is an error, not an empty answer.

`--db /tmp/typo/mnemon.db recall x` used to create the folders and an empty store and answer "nothing" with exit 0:
a mistyped path looked like an empty memory. Now a command that only reads (`app.memory.READS_ONLY`) refuses a
named database (--db, MNEMON_DB, the config file's `db`, or a store other than `default` named by --store or
MNEMON_STORE) that is missing with `not_found` naming the path, and
creates nothing; a write still creates it, and the default store under the home still answers a first read."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.interfaces.mneme_cli import main as mneme_main

CliRun = Callable[..., tuple[int, Any]]

# every command that only reads the store, as a user types it
READ_COMMANDS: dict[str, list[str]] = {
    "recall": ["recall", "x"],
    "search": ["search", "x"],
    "show": ["show", "some-id"],
    "related": ["related", "some-id"],
    "graph": ["graph"],
    "status": ["status"],
    "log": ["log"],
    "export": ["export"],
    "embed --status": ["embed", "--status"],
    "retrieve": ["retrieve", "--prompt", "x"],
    "candidates": ["candidates"],
    "debug-candidates": ["debug-candidates"],
    "thought": ["thought"],
    "surface": ["surface"],
    "surface --prompt": ["surface", "--prompt", "x"],
    "explain-edge": ["explain-edge", "1"],
    "state list": ["state", "list"],
    "state conflicts": ["state", "conflicts"],
    "predict due": ["predict", "due"],
    "world watch": ["world", "watch"],
    "alias ls": ["alias", "ls"],
    "agent preflight": ["agent", "preflight", "--prompt", "x"],
}


def _assert_not_found(code: int, out: Any, db: Path) -> None:
    assert code != 0, out
    assert out["ok"] is False
    assert out["error"]["code"] == "not_found", out
    assert str(db) in out["error"]["message"]
    assert out["error"]["details"]["path"] == str(db)


@pytest.mark.parametrize("name", sorted(READ_COMMANDS))
def test_a_read_on_a_missing_db_flag_fails_and_creates_nothing(tmp_path: Path, cli_run: CliRun, name: str) -> None:
    db = tmp_path / "typo" / "mnemon.db"
    code, out = cli_run(["--db", str(db), *READ_COMMANDS[name]])
    _assert_not_found(code, out, db)
    assert not (tmp_path / "typo").exists()


def test_the_error_says_where_the_path_came_from_and_how_to_create_it(tmp_path: Path, cli_run: CliRun) -> None:
    db = tmp_path / "typo.db"
    code, out = cli_run(["--db", str(db), "recall", "x"])
    _assert_not_found(code, out, db)
    assert "--db" in out["error"]["message"] and "remember" in out["error"]["message"]
    assert out["error"]["details"]["named_by"] == "--db"


def test_mnemon_db_in_the_environment_is_named_too(tmp_path: Path, cli_run: CliRun,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "typo" / "mnemon.db"
    monkeypatch.setenv("MNEMON_DB", str(db))
    code, out = cli_run(["status"])
    _assert_not_found(code, out, db)
    assert out["error"]["details"]["named_by"] == "MNEMON_DB"
    assert not (tmp_path / "typo").exists()


def test_the_config_files_db_is_named_too(tmp_path: Path, cli_run: CliRun) -> None:
    db = tmp_path / "typo" / "mnemon.db"
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"db": str(db)}), encoding="utf-8")
    code, out = cli_run(["--config", str(config), "retrieve", "--prompt", "x"])
    _assert_not_found(code, out, db)
    assert str(config) in out["error"]["details"]["named_by"]
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("write", [["remember", "the vendor replied on Monday"],
                                   ["state", "backfill"], ["promote-candidates"]])
def test_a_write_still_creates_the_named_db(tmp_path: Path, cli_run: CliRun, write: list[str]) -> None:
    db = tmp_path / "new" / "mnemon.db"
    code, out = cli_run(["--db", str(db), *write])
    assert code == 0, out
    assert db.is_file()
    code, out = cli_run(["--db", str(db), "status"])  # and reads work on it from then on
    assert code == 0 and out["db_path"] == str(db)


def test_the_default_store_answers_a_first_read_empty(home: Path, cli_run: CliRun) -> None:
    code, out = cli_run(["recall", "x"])
    assert code == 0 and out["results"] == []
    code, out = cli_run(["--store", "default", "status"])
    assert code == 0 and out["total_insights"] == 0


def test_a_read_on_a_store_nobody_created_names_the_store(home: Path, cli_run: CliRun,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`--store wrok recall x` is the same trap as a mistyped --db: `store set wrok` already refused it."""
    code, out = cli_run(["--store", "wrok", "recall", "x"])
    assert code == 1 and out["error"]["code"] == "not_found", out
    assert "'wrok'" in out["error"]["message"] and "store create wrok" in out["error"]["message"]
    assert out["error"]["details"] == {"path": str(home / "data" / "wrok" / "mnemon.db"), "store": "wrok",
                                       "named_by": "--store"}
    assert not (home / "data" / "wrok").exists()
    monkeypatch.setenv("MNEMON_STORE", "wrok")
    code, out = cli_run(["status"])
    assert out["error"]["code"] == "not_found" and out["error"]["details"]["named_by"] == "MNEMON_STORE"


def test_a_created_or_written_store_reads(home: Path, cli_run: CliRun) -> None:
    assert cli_run(["store", "create", "work"])[0] == 0
    code, out = cli_run(["--store", "work", "status"])
    assert code == 0 and out["total_insights"] == 0
    code, out = cli_run(["--store", "side", "remember", "the side project ships in May"])
    assert code == 0, out
    code, out = cli_run(["--store", "side", "search", "side project"])
    assert code == 0 and len(out["results"]) == 1


def test_a_config_naming_the_default_store_path_reads_as_the_default(home: Path, tmp_path: Path,
                                                                      cli_run: CliRun) -> None:
    """`mnemon init --vault DIR` writes the store's own path into the config file: before the first ingest a read
    answers empty, as without the file."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"db": str(home / "data" / "default" / "mnemon.db")}), encoding="utf-8")
    code, out = cli_run(["--config", str(config), "surface"])
    assert code == 0 and out["count"] == 0


def test_readonly_flag_on_a_missing_named_db_is_not_found_too(tmp_path: Path, cli_run: CliRun) -> None:
    db = tmp_path / "typo.db"
    code, out = cli_run(["--readonly", "--db", str(db), "search", "x"])
    _assert_not_found(code, out, db)
    assert not db.exists()


def test_mneme_retrieve_on_a_missing_db_fails_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    code = mneme_main(["retrieve", "--db", "missing.db", "--prompt", "x"])
    out = json.loads(capsys.readouterr().out)
    assert code != 0 and out["error"]["code"] == "not_found", out
    assert "missing.db" in out["error"]["message"]
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_server_on_a_missing_named_db_fails_at_start(tmp_path: Path, cli_run: CliRun) -> None:
    """`serve` without --allow-writes takes no write: pointed at a mistyped path it says so before listening,
    instead of serving an empty store it made there."""
    db = tmp_path / "typo" / "mnemon.db"
    code, out = cli_run(["--db", str(db), "serve", "--port", "0"])
    _assert_not_found(code, out, db)
    assert not (tmp_path / "typo").exists()
