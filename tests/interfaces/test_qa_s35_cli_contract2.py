"""QA session 35, the CLI's JSON contract, second round: `--version` as JSON, a misspelt `log --op`, options that
contradict or would be ignored, a config folder, an import whose every row fails, and '-' reading stdin for every
prompt and query."""
from __future__ import annotations

import io
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
