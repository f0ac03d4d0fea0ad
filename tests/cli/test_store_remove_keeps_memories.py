"""`mnemon store remove` deletes a store's files for good: a store holding memories (or one that cannot be read to
tell) goes only with --force, so a slip of a name never takes a user's memories."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

CliRun = Callable[..., tuple[int, Any]]


def _store_dir(home: Path, name: str) -> Path:
    return home / "data" / name


def test_a_store_holding_memories_is_kept_without_force(cli_run: CliRun, tmp_path: Path) -> None:
    cli_run(["store", "create", "work"])
    code, out = cli_run(["--store", "work", "remember", "the release train leaves on Thursdays"])
    assert code == 0 and out["action"] == "added", out
    code, out = cli_run(["store", "remove", "work"])
    assert code != 0 and out["error"]["code"] == "conflict", out
    assert out["error"]["details"] == {"memories": 1, "nodes": 1}
    assert "export" in out["error"]["message"] and "--force" in out["error"]["message"]
    code, out = cli_run(["--store", "work", "recall", "release train"])
    assert code == 0 and [r["insight"]["content"] for r in out["results"]] == ["the release train leaves on Thursdays"]
    code, out = cli_run(["store", "remove", "work", "--force"])
    assert code == 0 and out == {"status": "removed", "name": "work", "memories": 1, "nodes": 1}
    assert "work" not in [s["name"] for s in cli_run(["store", "list"])[1]["stores"]]


def test_an_empty_store_goes_without_force(cli_run: CliRun) -> None:
    cli_run(["store", "create", "scratch"])
    code, out = cli_run(["store", "remove", "scratch"])
    assert code == 0 and out == {"status": "removed", "name": "scratch", "memories": 0, "nodes": 0}


def test_a_store_that_cannot_be_read_goes_only_with_force(cli_run: CliRun) -> None:
    cli_run(["store", "create", "broken"])
    db = _store_dir(Path(os.environ["MNEMON_HOME"]), "broken") / "mnemon.db"
    db.write_bytes(b"not a database at all" * 100)
    code, out = cli_run(["store", "remove", "broken"])
    assert code != 0 and out["error"]["code"] == "conflict" and "--force" in out["error"]["message"], out
    assert db.exists()
    code, out = cli_run(["store", "remove", "broken", "--force"])
    assert code == 0 and out["status"] == "removed" and not db.parent.exists()
