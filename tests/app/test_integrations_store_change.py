"""A setup that meets the user's own (user-wide) files naming a store: the same store named another way is the same
store."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


def _codex_home() -> Path:
    return Path(os.environ["HOME"]) / ".codex"


def _steps(out: dict[str, Any], what: str) -> list[dict[str, str]]:
    return [m for h in out["hosts"] for m in h["manual"] if m["what"] == what]


def test_the_default_store_named_by_its_path_is_the_same_store(cli_run: CliRun, projects: tuple[Path, Path],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    a, _ = projects
    monkeypatch.delenv("MNEMON_HOME")  # the default store: ~/.mnemon/data/default/mnemon.db, named by nothing
    assert cli_run(["setup", "--global", "--target", "codex"])[0] == 0
    default = Path(os.environ["HOME"]) / ".mnemon" / "data" / "default" / "mnemon.db"
    default.parent.mkdir(parents=True)
    (a.parent / "link-to-data").symlink_to(default.parent.parent)
    for named in (["--db", str(default)], ["--store", "default"],
                  ["--db", str(a.parent / "link-to-data" / "default" / "mnemon.db")]):
        code, out = cli_run([*named, "setup", "--project", str(a), "--target", "codex", "--dry-run"])
        assert code == 0 and out.get("ok") is not False, (named, out)
    # another store is still refused
    code, out = cli_run(["--store", "work", "setup", "--project", str(a), "--target", "codex"])
    assert code != 0 and out["error"]["code"] == "conflict", out


def test_a_shared_guide_of_the_same_store_named_another_way_says_nothing(
        cli_run: CliRun, projects: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _, b = projects
    monkeypatch.delenv("MNEMON_HOME")
    assert cli_run(["setup", "--global", "--target", "codex"])[0] == 0
    code, out = cli_run(["--store", "default", "setup", "--project", str(b), "--target", "codex", "--shared"])
    assert code == 0 and not _steps(out, "instructions"), out
