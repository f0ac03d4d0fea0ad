"""`mnemon setup` edits a host's files as they are on a user's disk: written by a Windows editor (a byte-order mark,
CRLF line ends), or kept in a dotfiles repository and linked into place. What the hosts read is what it reads, and
what it leaves is the file as it was but for mnemon's own part."""
from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]
BOM = "\ufeff"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME"):
        monkeypatch.delenv(variable, raising=False)
    return folder


def _setup(cli_run: CliRun, project: Path, *args: str) -> tuple[int, Any]:
    return cli_run(["setup", "--project", str(project), "--target", "claude-code", "--target", "codex", *args])


def _write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return text


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n") + "\r\n"


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def test_a_bom_and_crlf_line_ends_are_kept_and_eject_gives_the_files_back_byte_for_byte(cli_run: CliRun,
                                                                                      project: Path) -> None:
    # Claude Code and Codex both read these files with a BOM and CRLF (checked with claude 2.1 and codex 0.171);
    # a JSON file is written back as Claude Code writes it (2 spaces), so one in that form is given back whole
    files = {
        project / ".claude" / "settings.json": BOM + '{\r\n  "model": "opus"\r\n}\r\n',
        project / ".mcp.json": BOM + _crlf(json.dumps({"mcpServers": {"docs": {"command": "docs"}}}, indent=2)),
        project / "AGENTS.md": BOM + "# Rules\r\n\r\nUse tabs.\r\n",
        project / ".codex" / "config.toml": BOM + 'model = "o4"\r\n\r\n[mcp_servers.docs]\r\ncommand = "docs"\r\n',
    }
    for path, text in files.items():
        _write(path, text)
    code, out = _setup(cli_run, project)
    assert code == 0 and out["changed_files"] == 5
    for path, text in files.items():
        after = _read(path)
        assert after.startswith(BOM) and "\n" not in after.replace("\r\n", ""), path  # every line end still CRLF
        assert _read(Path(str(path) + ".mnemon-backup")) == text  # the backup is the file as it was
    assert "mnemon" in json.loads(_read(project / ".mcp.json")[1:])["mcpServers"]
    assert tomllib.loads(_read(project / ".codex" / "config.toml")[1:])["mcp_servers"]["mnemon"]["args"][-1] == "serve"
    assert json.loads(_read(project / ".claude" / "settings.json")[1:])["model"] == "opus"

    assert _setup(cli_run, project)[1]["changed_files"] == 0
    code, out = _setup(cli_run, project, "--eject")
    assert code == 0
    for path, text in files.items():
        assert _read(path) == text, path


def test_a_file_with_mixed_line_ends_keeps_each_line_as_it_was(cli_run: CliRun, project: Path) -> None:
    agents = _write(project / "AGENTS.md", "# Rules\r\nUse tabs.\nNo force pushes.\r\n")
    _setup(cli_run, project)
    assert _read(project / "AGENTS.md").startswith(agents)
    _setup(cli_run, project, "--eject")
    assert _read(project / "AGENTS.md") == agents
