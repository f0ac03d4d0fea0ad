"""`store remove` answers what `store list` says of the store. `mnemon --db postgresql://… store remove default`
answered `conflict: store 'default' is in use` while `store list` showed that store `in_use: false, exists: false`:
nothing was there to remove, and the database in use was the URL's. A store that does not exist is `not_found`;
the active store another database is used over is refused as the active store, naming the database this call uses;
the store this call runs on — however its path is spelled — is the one `in use`."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


def _listed(cli_run: CliRun, db: str, name: str) -> dict[str, Any]:
    code, out = cli_run(["--db", db, "store", "list"])
    assert code == 0
    return next(s for s in out["stores"] if s["name"] == name)


@pytest.mark.postgres
def test_removing_the_default_store_beside_a_server_url_says_it_does_not_exist(cli_run: CliRun,
                                                                                pg_db_url: str) -> None:
    listed = _listed(cli_run, pg_db_url, "default")
    assert (listed["exists"], listed["in_use"]) == (False, False)
    code, out = cli_run(["--db", pg_db_url, "store", "remove", "default"])
    assert code != 0 and out["error"]["code"] == "not_found", out
    assert "in use" not in out["error"]["message"]


def test_the_active_store_beside_another_database_is_refused_as_active_not_in_use(cli_run: CliRun,
                                                                                   tmp_path: Path) -> None:
    assert cli_run(["remember", "The release train leaves on Thursdays"])[0] == 0  # the default store, made
    other = str(tmp_path / "other.db")
    listed = _listed(cli_run, other, "default")
    assert (listed["exists"], listed["active"], listed["in_use"]) == (True, True, False)
    code, out = cli_run(["--db", other, "store", "remove", "default", "--force"])
    assert code != 0 and out["error"]["code"] == "conflict"
    assert out["error"]["details"] == {"store": "default", "active": True, "in_use": False}
    assert "active store" in out["error"]["message"] and other in out["error"]["message"]
    assert _listed(cli_run, other, "default")["exists"]  # nothing removed


def test_the_store_this_call_runs_on_by_a_relative_path_is_in_use(cli_run: CliRun, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`--db m/data/work/mnemon.db` (relative) is the store `work`, as `store list` says: remove deleted it under
    the very call, since only an identical Path counted."""
    assert cli_run(["store", "create", "work"])[0] == 0
    code, out = cli_run(["config"])
    home = Path(out["home"])
    monkeypatch.chdir(home.parent)
    relative = str((home / "data" / "work" / "mnemon.db").relative_to(home.parent))
    assert _listed(cli_run, relative, "work")["in_use"] is True
    code, out = cli_run(["--db", relative, "store", "remove", "work", "--force"])
    assert code != 0 and out["error"]["code"] == "conflict" and out["error"]["details"]["in_use"] is True
    assert (home / "data" / "work" / "mnemon.db").exists()
