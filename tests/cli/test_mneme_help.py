"""`mneme --help` (and every subcommand's) names the program the user typed: `mneme`, not `mnemon`."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemon.interfaces.cli.main import main as mnemon_main
from mnemon.interfaces.mneme_cli import main as mneme_main

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("args", [["--help"], ["note", "--help"], ["note", "read", "--help"], ["state", "--help"],
                                  ["action", "record", "--help"], ["remember", "add", "--help"]])
def test_mneme_help_says_mneme(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    capsys.readouterr()
    code = mneme_main(args)
    out, err = capsys.readouterr()
    assert code == 0, out + err
    usage = out.lstrip().splitlines()[0]
    assert usage.startswith("Usage: mneme "), usage
    assert "mnemon" not in usage


@pytest.mark.parametrize("args", [["--help"], ["note", "--help"]])
def test_mnemon_help_still_says_mnemon(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    capsys.readouterr()
    assert mnemon_main(args) == 0
    assert capsys.readouterr().out.lstrip().startswith("Usage: mnemon ")


def test_the_installed_program_says_mneme(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC), MNEMON_HOME=str(tmp_path / "home"), MNEMON_DAEMON="off")
    proc = subprocess.run([sys.executable, "-m", "mnemon.interfaces.mneme_cli", "note", "--help"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Usage: mneme note "), proc.stdout[:200]
