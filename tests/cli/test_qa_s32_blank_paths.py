"""A blank `--db` / `--home` (a script's unset "$DB") or a blank `db` / `home` in the config file is refused,
naming the setting: `--db "  "` created a database file named by two spaces in the working directory, `--db ""`
quietly used the default store, `--home ""` put a store under the working directory and `"db": ""` in the config
file answered "… is a directory"."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize("flags", [["--db", ""], ["--db", "  "], ["--home", ""], ["--home", " "]])
@pytest.mark.parametrize("command", [["status"], ["remember", "a fact to keep"]])
def test_a_blank_path_flag_is_refused(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch, flags: list[str], command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli_run([*flags, *command])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert flags[0].lstrip("-") in out["error"]["message"]
    assert list(tmp_path.iterdir()) == []  # nothing written where the command ran


@pytest.mark.parametrize("setting", ["db", "home"])
def test_a_blank_path_in_the_config_file_is_refused(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    monkeypatch.delenv("MNEMON_HOME")  # (the environment outranks the file)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({setting: ""}), encoding="utf-8")
    code, out = cli_run(["--config", str(config), "status"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert out["error"]["details"]["setting"] == setting
