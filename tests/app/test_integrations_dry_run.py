"""`mnemon setup --dry-run` says what a run would do: when it would change nothing, it does not send the user to run
it again to apply nothing."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME"):
        monkeypatch.delenv(variable, raising=False)
    folder = tmp_path / "a project é"
    folder.mkdir()
    return folder


def _setup(cli_run: CliRun, project: Path, *args: str) -> dict[str, Any]:
    code, out = cli_run(["setup", "--project", str(project), "--target", "claude-code", *args])
    assert code == 0, out
    return dict(out)


def test_a_dry_run_that_would_change_nothing_says_so(cli_run: CliRun, project: Path) -> None:
    out = _setup(cli_run, project, "--eject", "--dry-run")
    assert out["changed_files"] == 0 and "without --dry-run" not in out["next"] and "nothing to remove" in out["next"]
    out = _setup(cli_run, project, "--dry-run")
    assert out["changed_files"] == 2 and "run again without --dry-run to apply" in out["next"]
    _setup(cli_run, project)
    out = _setup(cli_run, project, "--dry-run")
    assert out["changed_files"] == 0 and "without --dry-run" not in out["next"], out["next"]
    assert "set up already" in out["next"] and "nothing was written" in out["next"]
    out = _setup(cli_run, project, "--eject", "--dry-run")
    assert out["changed_files"] == 2 and "run again without --dry-run to apply" in out["next"]
