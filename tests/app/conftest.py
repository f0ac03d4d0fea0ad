"""Fixtures shared by the facade tests under tests/app (on top of tests/conftest.py)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
import subprocess
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/conftest.py (tests/ is on sys.path)

WORLD_T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def example_vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    """`mem` (provider hash, once per backend) after one plain `ingest` of this test's own copy of the example vault
    (embeddings on); the copy is at `tmp_path / "vault"`. The store is this test's alone: it may change it."""
    mem.ingest(str(example_vault))
    return mem


@pytest.fixture
def world(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, FakeClock]:
    """A store (provider hash) for world-model tests, with the settable clock it runs on, starting at `WORLD_T0`."""
    clock = FakeClock(WORLD_T0)
    return make_mem("hash", clock=clock), clock


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two git projects (named with a space, and a letter beyond ASCII) and a home of their own, for `mnemon setup`
    tests: no host's folder named by the environment, no user's git config."""
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME", "GIT_DIR", "GIT_WORK_TREE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    folders = (tmp_path / "project a", tmp_path / "projet b é")  # (a space, a letter beyond ASCII)
    for folder in folders:
        folder.mkdir()
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folders[0].resolve(), folders[1].resolve()
