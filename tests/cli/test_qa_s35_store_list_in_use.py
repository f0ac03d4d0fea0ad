"""`store list` says which database the commands actually use: after `init --db PATH` (or with --db / MNEMON_DB) it
listed only the stores under the home, `default` marked active at a path that did not exist, while every command
wrote to PATH — a user looking for their memories was sent to the wrong file."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

CliRun = Callable[..., tuple[int, Any]]


def test_store_list_names_the_database_in_use_and_who_named_it(cli_run: CliRun, tmp_path: Path) -> None:
    code, out = cli_run(["store", "list"])
    home_db = Path(out["stores"][0]["path"])
    assert code == 0 and out["in_use"] == {"path": str(home_db), "named_by": "home and store"}
    assert [s["in_use"] for s in out["stores"]] == [True]
    team = tmp_path / "team" / "memory.db"
    (tmp_path / "vault").mkdir()
    assert cli_run(["init", "--vault", str(tmp_path / "vault"), "--db", str(team)])[0] == 0
    code, out = cli_run(["store", "list"])
    assert code == 0 and out["in_use"]["path"] == str(team) and out["in_use"]["named_by"].startswith("config file")
    assert not any(s["in_use"] for s in out["stores"])  # none of the home's stores is what the commands use
    assert cli_run(["remember", "The release train leaves on Thursdays"])[0] == 0
    assert team.exists() and os.path.getsize(team) > 0
    other = tmp_path / "other.db"
    code, out = cli_run(["--db", str(other), "store", "list"])
    assert out["in_use"] == {"path": str(other), "named_by": "--db"}
