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
    code, out = _setup(cli_run, project, "--shared")  # (the shared files: the personal ones are setup's own)
    assert code == 0 and out["changed_files"] == 5
    for path, text in files.items():
        after = _read(path)
        assert after.startswith(BOM) and "\n" not in after.replace("\r\n", ""), path  # every line end still CRLF
        assert _read(Path(str(path) + ".mnemon-backup")) == text  # the backup is the file as it was
    assert "mnemon" in json.loads(_read(project / ".mcp.json")[1:])["mcpServers"]
    assert tomllib.loads(_read(project / ".codex" / "config.toml")[1:])["mcp_servers"]["mnemon"]["args"][-1] == "serve"
    assert json.loads(_read(project / ".claude" / "settings.json")[1:])["model"] == "opus"

    assert _setup(cli_run, project, "--shared")[1]["changed_files"] == 0
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


def test_a_linked_file_stays_a_link_and_its_target_is_edited(cli_run: CliRun, project: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    settings = _write(dotfiles / "claude-settings.json", json.dumps({"model": "opus"}, indent=2) + "\n")
    rules = _write(project / "CLAUDE.md", "# Rules\n\nUse tabs.\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").symlink_to(dotfiles / "claude-settings.json")
    (project / "AGENTS.md").symlink_to("CLAUDE.md")  # one instructions file for both hosts
    (project / ".mcp.json").symlink_to(dotfiles / "mcp.json")  # a link to a file not written yet
    code, out = _setup(cli_run, project, "--shared")
    assert code == 0
    for link in (project / ".claude" / "settings.json", project / "AGENTS.md", project / ".mcp.json"):
        assert link.is_symlink(), link
    assert "UserPromptSubmit" in json.loads(_read(dotfiles / "claude-settings.json"))["hooks"]
    assert _read(project / "CLAUDE.md").startswith(rules + "\n<!-- mnemon:begin")
    assert "mnemon" in json.loads(_read(dotfiles / "mcp.json"))["mcpServers"]

    code, out = _setup(cli_run, project, "--eject")
    assert code == 0
    for link in (project / ".claude" / "settings.json", project / "AGENTS.md", project / ".mcp.json"):
        assert link.is_symlink(), link
    assert _read(dotfiles / "claude-settings.json") == settings and _read(project / "CLAUDE.md") == rules
    assert json.loads(_read(dotfiles / "mcp.json")) == {}  # what setup alone wrote: emptied, the link kept


def test_a_read_only_settings_file_fails_the_run_before_anything_is_written(cli_run: CliRun, project: Path) -> None:
    # a rename replaces a file its owner made read-only (chmod 444) without asking, root or not
    mcp = _write(project / ".mcp.json", json.dumps({"mcpServers": {}}, indent=2) + "\n")
    (project / ".mcp.json").chmod(0o444)
    code, out = _setup(cli_run, project, "--shared")
    assert code == 1 and out["error"]["code"] == "invalid_input" and "read-only" in out["error"]["message"]
    assert sorted(p.name for p in project.rglob("*")) == [".mcp.json"] and _read(project / ".mcp.json") == mcp
    assert _setup(cli_run, project, "--dry-run")[0] == 0  # a dry run writes nothing: it reports the plan
