"""`--out -` on the card commands is refused: cards are files (an SVG and a PNG each), not a stream, and stdout
carries the one JSON document every command prints — as `graph --format dot --out -` is refused. `thought --out -`
made a folder named `-` in the working directory and wrote its cards there."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "plan.md").write_text("# Plan\n\n- [ ] ship the release before Friday\n", encoding="utf-8")
    return vault


@pytest.mark.parametrize("command", [["thought"], ["surface"], ["surface", "release"], ["run-once", "--vault"]])
def test_a_dash_for_the_card_folder_is_refused_and_makes_nothing(cli_run: Callable[..., tuple[int, Any]],
                                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 command: list[str]) -> None:
    db = tmp_path / "s.db"
    assert cli_run(["--db", str(db), "remember", "ship the release before Friday"])[0] == 0
    if command == ["run-once", "--vault"]:
        command = [*command, str(_vault(tmp_path))]
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    code, reply = cli_run(["--db", str(db), *command, "--out", "-"])
    assert code == 1 and reply["error"]["code"] == "invalid_input", reply
    message = reply["error"]["message"]
    assert "--out" in message and "'-'" in message and "folder" in message
    assert list(cwd.iterdir()) == []


def test_a_folder_whose_name_only_starts_with_a_dash_is_still_a_folder(cli_run: Callable[..., tuple[int, Any]],
                                                                       tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    assert cli_run(["--db", str(db), "remember", "ship the release before Friday"])[0] == 0
    monkeypatch.chdir(tmp_path)
    code, reply = cli_run(["--db", str(db), "thought", "--out", "./-"])
    assert code == 0, reply
    assert (tmp_path / "-").is_dir()
