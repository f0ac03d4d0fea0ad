"""A dry run changes nothing, so on a database the user named that does not exist it answers as a read does
(`not_found`, nothing created): `promote-candidates --dry-run` on a mistyped --db left an empty store there."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]
PAYLOAD = {"source_path": "mneme://agent/dry", "nodes": [{"ref": "a", "name": "A"}], "edges": [],
           "observations": [{"node": "a", "kind": "fact", "text": "A ships on Friday"}]}

DRY_RUNS: dict[str, list[str]] = {
    "promote-candidates": ["promote-candidates", "--dry-run", "--mode", "all"],
    "forget --days-threshold": ["forget", "--days-threshold", "30", "--dry-run"],
    "forget --source": ["forget", "--source", "mneme://agent/dry", "--dry-run"],
    "remember --payload": ["remember", "--payload", "{payload}", "--dry-run"],
    "world tick": ["world", "tick", "--dry-run"],
}


@pytest.mark.parametrize("name", sorted(DRY_RUNS))
def test_a_dry_run_on_a_missing_named_db_is_not_found_and_creates_nothing(tmp_path: Path, cli_run: CliRun,
                                                                          name: str) -> None:
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    db = tmp_path / "typo" / "mnemon.db"
    args = [a.replace("{payload}", str(payload)) for a in DRY_RUNS[name]]
    code, out = cli_run(["--db", str(db), *args])
    assert code != 0 and out["error"]["code"] == "not_found", out
    assert out["error"]["details"]["path"] == str(db)
    assert not (tmp_path / "typo").exists()


def test_the_same_commands_without_dry_run_create_the_named_db(tmp_path: Path, cli_run: CliRun) -> None:
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    db = tmp_path / "new" / "mnemon.db"
    code, out = cli_run(["--db", str(db), "remember", "--payload", str(payload)])
    assert code == 0, out
    code, out = cli_run(["--db", str(db), "promote-candidates", "--dry-run", "--mode", "all"])
    assert code == 0 and out["dry_run"] is True, out  # an existing store: the dry run answers
