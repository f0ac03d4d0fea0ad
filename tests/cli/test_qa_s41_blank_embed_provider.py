"""A blank embedding provider given on purpose is refused, as a blank --db is: `--embed ""` (a script's unset
"$PROVIDER") quietly fell back to MNEMON_EMBED_PROVIDER, the config file or the default — a store embedded by
another model than the one named. An empty MNEMON_EMBED_PROVIDER stays "not set", as every empty variable does."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BLANKS = ["", " ", "\t\n"]


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize("command", [["status"], ["remember", "alpha"], ["config"]])
def test_a_blank_embed_flag_is_refused_naming_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                                 blank: str, command: list[str]) -> None:
    db = tmp_path / "s.db"
    code, reply = cli_run(["--db", str(db), "--embed", blank, *command])
    assert code == 1 and reply["error"]["code"] == "invalid_input", reply
    message = reply["error"]["message"]
    assert "--embed" in message and "blank" in message, message
    assert not db.exists()


@pytest.mark.parametrize("blank", [" ", "\t"])
def test_a_blank_but_not_empty_variable_is_refused_naming_it(cli_run: Callable[..., tuple[int, Any]],
                                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             blank: str) -> None:
    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", blank)
    code, reply = cli_run(["--db", str(tmp_path / "s.db"), "status"])
    assert code == 1 and reply["error"]["code"] == "invalid_input", reply
    assert "MNEMON_EMBED_PROVIDER" in reply["error"]["message"] and "blank" in reply["error"]["message"]


def test_an_empty_variable_is_not_set(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"embed_provider": "none"}), encoding="utf-8")
    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", "")
    code, reply = cli_run(["--config", str(config), "--db", str(tmp_path / "s.db"), "config"])
    assert code == 0, reply
    assert reply["embed_provider"] == "none"
    assert reply["sources"]["embed_provider"] == f"config file {config}"


def test_a_blank_provider_in_the_config_file_is_refused_naming_the_file(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"embed_provider": ""}), encoding="utf-8")
    monkeypatch.delenv("MNEMON_EMBED_PROVIDER")
    code, reply = cli_run(["--config", str(config), "--db", str(tmp_path / "s.db"), "status"])
    assert code == 1 and reply["error"]["code"] == "invalid_input", reply
    assert str(config) in reply["error"]["message"] and "blank" in reply["error"]["message"]


def test_the_flag_is_named_as_the_source_of_the_provider(cli_run: Callable[..., tuple[int, Any]],
                                                         tmp_path: Path) -> None:
    code, reply = cli_run(["--db", str(tmp_path / "s.db"), "--embed", "none", "config"])
    assert code == 0, reply
    assert reply["embed_provider"] == "none" and reply["sources"]["embed_provider"] == "--embed"
