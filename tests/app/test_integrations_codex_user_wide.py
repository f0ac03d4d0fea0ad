"""A personal Codex setup writes to the user's own Codex home (`~/.codex/AGENTS.md`, the `codex mcp add` server),
which Codex reads in every project: what its block says removes it must remove it, and a second project set up with
another store must not repoint the first project's agent at it in silence."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME", "GIT_DIR", "GIT_WORK_TREE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    folders = (tmp_path / "project a", tmp_path / "projet b é")  # (a space, a letter beyond ASCII)
    for folder in folders:
        folder.mkdir()
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folders[0].resolve(), folders[1].resolve()


def _own_guide() -> Path:
    return Path(os.environ["HOME"]) / ".codex" / "AGENTS.md"


def _setup(cli_run: CliRun, db: Path, project: Path, *args: str) -> tuple[int, Any]:
    return cli_run(["--db", str(db), "setup", "--project", str(project), "--target", "codex", *args])


def test_the_command_the_users_guide_names_removes_it(cli_run: CliRun, projects: tuple[Path, Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    a, _ = projects
    assert _setup(cli_run, a.parent / "a.db", a)[0] == 0
    marker = _own_guide().read_text().splitlines()[0]
    named = re.search(r"`(mnemon setup[^`]*)` removes it", marker)
    assert named, marker
    monkeypatch.chdir(a)  # run where a user reads it: in the project they set up
    code, out = cli_run(shlex.split(named.group(1))[1:])
    assert code == 0, out
    assert not _own_guide().exists() or "mnemon:begin" not in _own_guide().read_text()
