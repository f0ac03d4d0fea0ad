"""The active-store pointer (`<home>/active`, written by `store set`) naming a store that is not there — its folder
removed or moved by hand, or the pointer itself cut short — is a store the user named: a read is `not_found`, as
for `--store`, never an empty store made on the spot that answers "nothing"."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.mark.parametrize("pointer", ["work-gone\n", "wo"])  # a removed store; "work\n" cut short while written
def test_a_read_of_the_active_store_that_is_not_there_is_not_found(cli_run: Run, home: Path, pointer: str) -> None:
    assert cli_run(["store", "create", "work"])[0] == 0
    assert cli_run(["store", "set", "work"])[0] == 0
    assert cli_run(["remember", "the memory lives in work"])[0] == 0
    (home / "active").write_text(pointer, encoding="utf-8")
    code, out = cli_run(["status"])
    assert code == 1 and out["error"]["code"] == "not_found", out
    assert str(home / "active") in out["error"]["message"]
    assert sorted(p.name for p in (home / "data").iterdir()) == ["work"]  # nothing made


def test_the_active_store_pointer_still_picks_an_existing_store_and_a_write_still_makes_one(
        cli_run: Run, home: Path) -> None:
    assert cli_run(["store", "create", "work"])[0] == 0
    assert cli_run(["store", "set", "work"])[0] == 0
    assert cli_run(["remember", "the memory lives in work"])[0] == 0
    assert cli_run(["status"])[1]["total_insights"] == 1
    (home / "active").write_text("fresh\n", encoding="utf-8")
    assert cli_run(["remember", "a first memory of fresh"])[0] == 0
    assert cli_run(["status"])[1]["total_insights"] == 1 and (home / "data" / "fresh" / "mnemon.db").exists()
