"""`mnemon init --vault V` with the config file's folder on a full disk answered `invalid_input` "cannot write config
file …: No space left on device", as if the path were wrong, where every other file a command writes onto a disk
that cannot take it is `store_error` with what to do (`core.errors.write_refused`). A path that cannot hold the file
stays `invalid_input`; both keep `details.config` and add `details.path`, and nothing is left behind."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n- a note\n", encoding="utf-8")
    return folder


def _onto_a_full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The config's temporary file is a link to /dev/full: every write to it fails with ENOSPC, as on a full disk."""
    import mnemon.app.vault.setup as setup

    def full(dir: str, prefix: str = "", suffix: str = "") -> tuple[int, str]:
        name = os.path.join(dir, f"{prefix}full{suffix}")
        os.symlink("/dev/full", name)
        return os.open(name, os.O_WRONLY), name

    monkeypatch.setattr(setup.tempfile, "mkstemp", full)


def test_a_full_disk_is_store_error_with_the_remedy(cli_run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   vault: Path) -> None:
    config = tmp_path / "cfg" / "config.json"
    _onto_a_full_disk(monkeypatch)
    code, out = cli_run(["--config", config, "init", "--vault", vault])
    error = out["error"]
    assert code == 1 and error["code"] == "store_error", out
    assert "No space left on device" in error["message"] and "free some space" in error["message"]
    assert error["message"].startswith(f"cannot write config file {config}")
    assert error["details"] == {"config": str(config), "path": str(config)}
    assert os.listdir(config.parent) == []  # neither the file nor its temporary one


def test_a_path_that_cannot_hold_the_file_stays_invalid_input(cli_run: Run, tmp_path: Path, vault: Path) -> None:
    (tmp_path / "cfg").write_text("a file where the folder should be", encoding="utf-8")
    config = tmp_path / "cfg" / "config.json"
    code, out = cli_run(["--config", config, "init", "--vault", vault])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert out["error"]["details"] == {"config": str(config), "path": str(config)}
