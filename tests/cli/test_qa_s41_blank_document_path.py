"""A blank document path (a script's unset "$FILE": `mnemon import ""`, `state assert --file ""`) is refused as a
blank path, not as "import file  is a directory": the empty path is the working directory to the system, which the
user never named."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize("command", [["import", ""], ["state", "assert", "--file", ""],
                                     ["sense", "add", "--file", ""], ["predict", "add", "--file", ""],
                                     ["action", "record", "--file", ""], ["remember", "--payload", ""],
                                     ["resolve", "--vault", "VAULT", "--file", ""]])
def test_a_blank_document_path_is_refused_as_blank(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "vault").mkdir()
    db = tmp_path / "s.db"
    assert cli_run(["--db", str(db), "remember", "a fact to keep"])[0] == 0
    before = db.read_bytes()
    code, out = cli_run(["--db", str(db), *[str(tmp_path / "vault") if part == "VAULT" else part
                                            for part in command]])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    message = out["error"]["message"]
    assert "blank" in message and "directory" not in message, message
    assert db.read_bytes() == before
