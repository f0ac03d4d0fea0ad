"""`mneme CMD --help` says what `mneme` does differently from the mnemon command it runs.

The help text is mnemon's, and it stated mnemon's defaults for lines `mneme` runs with Mneme's: `agent preflight`
said `[default: 0]` thought cards (mneme surfaces 5), `note daily` said Daily/YYYY-MM-DD.md (mneme uses Mneme's
memory/YYYY-MM-DD.md), `note delete` said --force deletes a linked note (through mneme it never does), and
`note delete -h` was refused as a delete without its confirmation.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemon.interfaces.mneme_cli import main

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize(("line", "says"), [
    (["agent", "preflight", "--help"], "--surface-limit defaults to 5"),
    (["note", "daily", "--help"], "memory/YYYY-MM-DD.md"),
    (["note", "delete", "--help"], "required confirmation"),
    (["note", "delete", "-h"], "required confirmation"),
    (["forget", "-h"], "--days-threshold 30"),
    (["note", "read", "--help"], "--force is accepted and ignored"),
    (["--help"], "else $MNEME_CONFIG, else"),  # mnemon's help said "default under the user config dir" only
    (["-h"], "MNEME_CARD_THEME picks the card theme"),
    (["init", "--help"], "not Mneme's ~/.local/share/mneme/mneme.sqlite"),
])
def test_help_names_mnemes_behaviour(capsys: pytest.CaptureFixture[str], line: list[str], says: str) -> None:
    capsys.readouterr()
    code = main(line)
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith(f"Usage: mneme {' '.join(w for w in line if not w.startswith('-'))}"), out[:80]
    tail = out.split("Through `mneme`:", 1)
    assert len(tail) == 2 and says in " ".join(tail[1].split()), out


def test_help_without_a_difference_has_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["retrieve", "--help"]) == 0
    assert "Through `mneme`" not in capsys.readouterr().out


def test_the_installed_program_states_the_preflight_default(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC), MNEMON_HOME=str(tmp_path / "home"), MNEMON_DAEMON="off")
    proc = subprocess.run([sys.executable, "-m", "mnemon.interfaces.mneme_cli", "agent", "preflight", "--help"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    assert proc.stdout.startswith("Usage: mneme agent preflight")
    assert "defaults to 5" in proc.stdout
