"""Hermes' MCP entry lives in its YAML config, which setup does not rewrite: it gives a step. That step was given
the same at every run — "add this", though the config already ran mnemon's server as meant — and an eject gave no
step at all, leaving Hermes starting mnemon's server with nothing said. setup now reads the config: nothing to do
when the entry is there as meant, a word when a server of another program holds the name, and an eject says to take
mnemon's entry out."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

CliRun = Callable[..., tuple[int, Any]]


def _hermes(cli_run: CliRun, *args: str) -> list[dict[str, str]]:
    code, out = cli_run(["setup", "--global", "--target", "hermes", *args])
    assert code == 0, out
    return list(out["hosts"][0]["manual"])


def _config() -> Path:
    return Path(os.environ["HOME"]) / ".hermes" / "config.yaml"


def test_the_entry_added_as_said_needs_no_step_and_an_eject_says_to_remove_it(cli_run: CliRun) -> None:
    (step,) = _hermes(cli_run)
    assert step["file"] == str(_config())
    _config().write_text("model: hermes-3\n" + step["add"] + "\n  other:\n    command: npx\n")
    assert yaml.safe_load(_config().read_text())["mcp_servers"]["mnemon"]["args"][-2:] == ["mcp", "serve"]
    assert _hermes(cli_run) == []
    (gone,) = _hermes(cli_run, "--eject")
    assert gone["what"] == "mcp server" and gone["file"] == str(_config()) and "mnemon" in gone["note"]
    _config().write_text("model: hermes-3\nmcp_servers:\n  other:\n    command: npx\n")
    assert _hermes(cli_run, "--eject") == []


def test_a_server_of_another_program_under_the_name_is_left_and_said(cli_run: CliRun) -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text("mcp_servers:\n  mnemon:\n    command: npx\n    args: [some-other-memory]\n")
    (step,) = _hermes(cli_run)
    assert "add" not in step and "does not run mnemon" in step["note"]
    assert _hermes(cli_run, "--eject") == []


def test_an_entry_for_another_store_is_a_step_to_replace_it(cli_run: CliRun, tmp_path: Path) -> None:
    (step,) = _hermes(cli_run)
    _config().write_text(step["add"] + "\n")
    code, out = cli_run(["--db", str(tmp_path / "other.db"), "setup", "--global", "--target", "hermes"])
    assert code == 0, out
    (again,) = [s for s in out["hosts"][0]["manual"] if s["what"] == "mcp server"]
    assert str(tmp_path / "other.db") in again["add"] and "replace" in again["note"]


def test_an_unreadable_config_still_gets_the_step(cli_run: CliRun) -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text("mcp_servers: [unclosed\n")
    (step,) = _hermes(cli_run)
    assert "mcp_servers:" in step["add"]
