"""With stdin closed (`<&-`, a service without one), a document asked for with '-' is refused naming the way the
command itself takes a file: `remember --payload -` and `import -` said "give it with --file PATH", an option
neither command has."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(("command", "named"), [(["remember", "--payload", "-"], "--payload"),
                                                (["import", "-"], "import FILE"),
                                                (["state", "assert", "--file", "-"], "--file")])
def test_no_stdin_names_the_commands_own_option(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch, command: list[str],
                                                named: str) -> None:
    monkeypatch.setattr("sys.stdin", None)
    code, out = cli_run(["--db", str(tmp_path / "s.db"), *command])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    message = out["error"]["message"]
    assert named in message and "stdin" in message, message
    if named != "--file":
        assert "--file" not in message, message


def test_a_file_left_out_still_names_file(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", None)
    code, out = cli_run(["--db", str(tmp_path / "s.db"), "action", "record"])
    assert code == 2 and "--file PATH" in out["error"]["message"], out


def test_mneme_remember_add_names_its_own_file_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from mnemon.interfaces.mneme_cli import main

    monkeypatch.setattr("sys.stdin", None)
    code = main(["remember", "add", "--db", str(tmp_path / "d.sqlite")])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and "--file PATH" in out["error"]["message"] and "--payload" not in out["error"]["message"], out
