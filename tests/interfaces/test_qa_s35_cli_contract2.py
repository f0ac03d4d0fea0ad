"""QA session 35, the CLI's JSON contract, second round: `--version` as JSON, a misspelt `log --op`, options that
contradict or would be ignored, a config folder, an import whose every row fails, and '-' reading stdin for every
prompt and query."""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import parse_one_json

CliRaw = Callable[..., tuple[int, str, str]]
CliRun = Callable[..., tuple[int, Any]]


# ── 1. --version ───────────────────────────────────────────────────────────────────────────────────────────────
def test_version_is_one_json_document(cli_raw: CliRaw) -> None:
    """It printed `mnemon, version 0.1.0`: the one answer no JSON reader could take."""
    from mnemon import __version__

    code, out, err = cli_raw(["--version"])
    assert code == 0 and err == ""
    assert parse_one_json(out) == {"name": "mnemon", "version": __version__}


def test_mneme_version_is_one_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    from mnemon import __version__
    from mnemon.interfaces.mneme_cli import main as mneme_main

    capsys.readouterr()
    code = mneme_main(["--version"])
    out, _err = capsys.readouterr()
    assert code == 0
    assert parse_one_json(out) == {"name": "mneme", "version": __version__}


# ── 2. log --op ────────────────────────────────────────────────────────────────────────────────────────────────
def test_log_with_a_misspelt_op_names_the_known_ones_closest_first(cli_run: CliRun) -> None:
    """`log --op remeber` answered `{"entries": []}`: the log looked empty when the word was wrong."""
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, doc = cli_run(["log", "--op", "remeber"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert "remeber" in doc["error"]["message"]
    assert doc["error"]["details"]["valid"][0] == "remember"
    assert "kill-edge" in doc["error"]["details"]["valid"]


def test_log_with_a_known_op_not_yet_written_is_an_empty_log(cli_run: CliRun) -> None:
    assert cli_run(["log", "--op", "kill-edge"]) == (0, {"entries": []})
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, doc = cli_run(["log", "--op", "remember"])
    assert code == 0 and [e["op"] for e in doc["entries"]] == ["remember"]


def test_every_op_the_code_logs_is_a_known_op() -> None:
    """The list `log --op` checks against holds every literal operation name the package writes to the oplog."""
    import re

    from mnemon.app.memory import LOG_OPS

    src = Path(__file__).resolve().parents[2] / "src" / "mnemon"
    written: set[str] = set()
    pattern = re.compile(r"""(?:\.log\(|\.log\(\*_decision\(|record_access\(rt, \[[^\]]*\], |log_many\(\[\()"""
                         r"""["']([a-z][a-z_:-]*)["']""")
    for path in src.rglob("*.py"):
        written.update(pattern.findall(path.read_text(encoding="utf-8")))
    assert written and written <= set(LOG_OPS), sorted(written - set(LOG_OPS))
