"""A write refused before it writes anything leaves no store behind: `mnemon --store fresh import broken.json`
was refused as invalid JSON, yet `store list` then showed `fresh` with `exists: true` (`remember ""` and
`state assert` with bad JSON the same). A store this very call created and left untouched is removed again."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]

REFUSED: dict[str, list[str]] = {
    "import broken": ["import", "{broken}"],
    "remember empty": ["remember", ""],
    "state assert bad json": ["state", "assert", "--file", "{broken}"],
    "remember --payload bad json": ["remember", "--payload", "{broken}"],
}


def _args(tmp_path: Path, name: str) -> list[str]:
    broken = tmp_path / "broken.json"
    broken.write_text("{bad", encoding="utf-8")
    return [a.replace("{broken}", str(broken)) for a in REFUSED[name]]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_refused_write_leaves_no_named_store(home: Path, tmp_path: Path, cli_run: CliRun, name: str) -> None:
    code, out = cli_run(["--store", "fresh", *_args(tmp_path, name)])
    assert code != 0 and out["ok"] is False, out
    code, listed = cli_run(["store", "list"])
    assert code == 0
    assert "fresh" not in [s["name"] for s in listed["stores"]], listed
    assert not (home / "data" / "fresh").exists()


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_refused_write_leaves_no_file_at_a_new_db(tmp_path: Path, cli_run: CliRun, name: str) -> None:
    db = tmp_path / "new" / "deeper" / "mnemon.db"
    code, out = cli_run(["--db", str(db), *_args(tmp_path, name)])
    assert code != 0 and out["ok"] is False, out
    assert not (tmp_path / "new").exists(), sorted(p.name for p in (tmp_path / "new").rglob("*"))


def test_a_refused_write_keeps_a_store_that_was_there(home: Path, tmp_path: Path, cli_run: CliRun) -> None:
    assert cli_run(["store", "create", "kept"])[0] == 0
    code, _ = cli_run(["--store", "kept", *_args(tmp_path, "import broken")])
    assert code != 0
    assert (home / "data" / "kept" / "mnemon.db").exists()
    db = tmp_path / "mine" / "a.db"
    db.parent.mkdir()
    assert cli_run(["--db", str(db), "remember", "the cache is warm"])[0] == 0
    assert cli_run(["--db", str(db), "remember", ""])[0] != 0
    code, out = cli_run(["--db", str(db), "recall", "cache"])
    assert code == 0 and json.dumps(out).count("the cache is warm") >= 1


def test_a_write_that_succeeds_keeps_the_new_store(home: Path, tmp_path: Path, cli_run: CliRun) -> None:
    good = tmp_path / "good.json"
    assert cli_run(["export", "--out", str(good)])[0] == 0
    assert cli_run(["--store", "fresh", "import", str(good)])[0] == 0
    assert (home / "data" / "fresh" / "mnemon.db").exists()


def test_the_resident_process_forgets_the_store_it_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from mnemon.interfaces.cli import main as cli_main
    from mnemon.interfaces.daemon.server import FacadePool

    pool = FacadePool()
    monkeypatch.setattr(cli_main, "FACADES", pool)
    db = tmp_path / "new" / "m.db"
    try:
        assert cli_main.main(["--db", str(db), "remember", ""], ends_process=False) != 0
        assert not (tmp_path / "new").exists() and pool.stores() == []
        assert cli_main.main(["--db", str(db), "remember", "the standup is at nine"], ends_process=False) == 0
        assert db.exists() and len(pool.stores()) == 1
        assert cli_main.main(["--db", str(db), "remember", ""], ends_process=False) != 0
        assert db.exists() and len(pool.stores()) == 1  # a store that was there stays, and stays open
    finally:
        pool.close_all()
    capsys.readouterr()
