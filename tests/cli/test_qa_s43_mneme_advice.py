"""Advice a `mneme` refusal prints is a command line that runs as printed (with its placeholders filled in).

`mneme --config /missing.json run-once` (Mneme's documented `--config` line, before its `init`) said "create it with
`mneme --config /missing.json init`", and that line, run as printed, is refused: `init` needs `--vault`.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from mnemon.interfaces.mneme_cli import main


@pytest.fixture
def mneme(capsys: pytest.CaptureFixture[str]):
    def run(args: list[Any]) -> tuple[int, Any]:
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, json.loads(out)
    return run


@pytest.mark.parametrize("command", [["run-once"], ["retrieve", "--prompt", "supplier"], ["doctor"]])
def test_the_advice_for_a_missing_config_file_creates_it(mneme, tmp_path: Path, example_vault: Path,
                                                         command: list[str]) -> None:
    missing = tmp_path / "project-mneme.json"
    code, out = mneme(["--config", missing, *command])
    assert code == 1 and out["error"]["code"] in ("not_found", "doctor_failed")
    advice = re.search(r"`(mneme [^`]*init[^`]*)`", json.dumps(out["error"]))
    assert advice, out["error"]
    words = shlex.split(advice.group(1).replace("DIR", shlex.quote(str(example_vault))))
    code, created = mneme(words[1:])
    assert code == 0, created
    assert created["config"] == str(missing) and created["vault"] == str(example_vault)
    assert mneme(["--config", missing, "doctor"])[0] == 0
