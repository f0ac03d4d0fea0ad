"""`store set NAME` says when it does not switch the store the commands use. After the README's `mnemon init --vault
~/notes` (which writes the current store's path into the config file as `db`), `mnemon store set work` answered
`{"status": "active", "name": "work"}` and every later command went on writing to the default store; so with
MNEMON_STORE, MNEMON_DB or a --db / --store flag on the same line. The reply names the database in use and what
overrules the pointer; where nothing does, it is as before."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


def test_store_set_after_init_names_the_config_files_db(cli_run: CliRun, tmp_path: Path) -> None:
    (tmp_path / "vault").mkdir()
    assert cli_run(["store", "create", "work"])[0] == 0
    code, out = cli_run(["store", "set", "work"])
    assert code == 0 and out == {"status": "active", "name": "work"}  # nothing overrules it: as before
    code, listed = cli_run(["store", "list"])
    assert listed["in_use"]["path"].endswith(os.path.join("work", "mnemon.db"))
    assert cli_run(["store", "set", "default"])[0] == 0
    assert cli_run(["init", "--vault", str(tmp_path / "vault")])[0] == 0  # writes the default store's path as `db`
    code, out = cli_run(["store", "set", "work"])
    code, listed = cli_run(["store", "list"])
    used = listed["in_use"]
    assert used["path"].endswith(os.path.join("default", "mnemon.db")) and used["named_by"].startswith("config file")
    assert out["status"] == "active" and out["in_use"] == used
    assert "sets `db`" in out["note"] and "--store work" in out["note"]
    code, out = cli_run(["store", "set", "default"])  # the store the file names: nothing to say
    assert code == 0 and out == {"status": "active", "name": "default"}


@pytest.mark.parametrize("how", ["MNEMON_STORE", "MNEMON_DB", "--store", "--db"])
def test_store_set_names_a_variable_or_flag_that_overrules_it(cli_run: CliRun, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    for name in ("work", "other"):
        assert cli_run(["store", "create", name])[0] == 0
    other = tmp_path / "other.db"
    flags: list[str] = []
    if how == "MNEMON_STORE":
        monkeypatch.setenv("MNEMON_STORE", "other")
    elif how == "MNEMON_DB":
        monkeypatch.setenv("MNEMON_DB", str(other))
    else:
        flags = [how, "other" if how == "--store" else str(other)]
    code, out = cli_run([*flags, "store", "set", "work"])
    assert code == 0 and out["status"] == "active" and out["in_use"]["named_by"] == how, out
    assert "not store 'work'" in out["note"] and how in out["note"]
    assert cli_run([*flags, "store", "list"])[1]["in_use"]["path"] == out["in_use"]["path"]
