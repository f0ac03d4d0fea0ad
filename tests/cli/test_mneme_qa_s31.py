"""A Mneme user's own variables (`MNEME_CONFIG`, `MNEME_CARD_THEME`) are named in the errors they cause.

`mneme` hands them to mnemon as `--config PATH` and `MNEMON_CARD_THEME`, so mnemon's refusals named the flag and the
variable the user never typed: `MNEME_CONFIG=/nonexistent mneme config` said "(--config) does not exist", and
`MNEME_CARD_THEME=purple mneme status` said "in MNEMON_CARD_THEME".
"""
from __future__ import annotations

import json
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


@pytest.mark.parametrize("line", [["config"], ["retrieve", "--prompt", "supplier"], ["--pretty", "status"],
                                  ["note", "status"]])
def test_a_missing_mneme_config_is_named_by_its_variable(mneme, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         line: list[str]) -> None:
    missing = tmp_path / "nowhere" / "config.json"
    monkeypatch.setenv("MNEME_CONFIG", str(missing))
    code, out = mneme(line)
    assert code == 1 and out["ok"] is False and out["error"]["code"] == "not_found"
    message = out["error"]["message"]
    assert "MNEME_CONFIG" in message and "--config" not in message, message
    assert str(missing) in message and "mneme init" in message
    assert out["error"]["details"] == {"config": str(missing), "named_by": "MNEME_CONFIG"}
    assert not missing.exists()


def test_the_config_flag_is_still_named_when_it_was_the_flag(mneme, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEME_CONFIG", str(tmp_path / "ignored.json"))  # the flag wins, as in Mneme
    missing = tmp_path / "flag.json"
    code, out = mneme(["--config", missing, "config"])
    assert code == 1 and f"{missing} (--config)" in out["error"]["message"]


def test_init_writes_the_file_mneme_config_names_and_the_next_line_reads_it(
        mneme, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, example_vault: Path) -> None:
    named = tmp_path / "mneme" / "config.json"
    monkeypatch.setenv("MNEME_CONFIG", str(named))
    code, out = mneme(["init", "--vault", example_vault, "--db", tmp_path / "m.sqlite"])
    assert code == 0 and out["config"] == str(named) and named.exists()
    code, out = mneme(["ingest"])
    assert code == 0 and out["notes_read"] == 13


def test_an_unknown_mneme_card_theme_is_refused_by_its_own_name(mneme, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MNEMON_CARD_THEME", "")  # unset for mnemon (and restored after the test)
    monkeypatch.setenv("MNEME_CARD_THEME", "purple")
    code, out = mneme(["status"])
    assert code == 1 and out["error"]["code"] == "invalid_input"
    assert "MNEME_CARD_THEME" in out["error"]["message"] and "MNEMON_CARD_THEME" not in out["error"]["message"]
    assert out["error"]["details"]["allowed"] == ["dark", "light"]
    capsys.readouterr()
    assert main(["thought", "--help"]) == 0  # help reads no settings, as `mnemon thought --help` with a bad theme
    assert capsys.readouterr().out.startswith("Usage: mneme thought")


def test_mneme_card_theme_is_read_as_mnemon_reads_its_own(mneme, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("MNEMON_CARD_THEME", "")
    monkeypatch.setenv("MNEME_CARD_THEME", " Light ")
    code, out = mneme(["--db", tmp_path / "m.sqlite", "config"])
    assert code == 0 and out["card_theme"] == "light"
