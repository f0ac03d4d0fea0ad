"""A project's setup said in its `notes` where this machine's commands went — Claude Code's and Codex's files — even
when only Hermes (or only one of them) was set up: the note names the files of the hosts set up, and none for a
host that writes nothing in the project."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.integrations import setup as integrations_setup


def _notes(tmp_path: Path, targets: list[str], shared: bool) -> str:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir(exist_ok=True), home.mkdir(exist_ok=True)
    out = integrations_setup.setup(targets=targets, user=False, project=str(project), eject=False, dry_run=True,
                                   hooks=True, mcp=True, options=["--db", str(home / "m.db")],
                                   environ={"HOME": str(home), "PATH": ""}, python="/usr/bin/python3",
                                   shared=[] if shared else None)
    return " ".join(out["notes"])


@pytest.mark.parametrize("shared", [False, True])
def test_the_notes_name_only_the_files_of_the_hosts_set_up(tmp_path: Path, shared: bool) -> None:
    assert _notes(tmp_path, ["hermes"], shared) == ""
    codex = _notes(tmp_path, ["codex"], shared)
    assert "codex" in codex and ".claude" not in codex and "claude mcp" not in codex
    claude = _notes(tmp_path, ["claude-code"], shared)
    assert ".claude" in claude and "codex" not in claude and "AGENTS.md" not in claude
    both = _notes(tmp_path, ["claude-code", "codex", "hermes"], shared)
    assert ".claude" in both and "codex" in both


def test_a_setup_baking_the_embedding_provider_says_a_change_of_it_needs_setup_again(tmp_path: Path) -> None:
    """The hooks and servers run with the provider this command used (a host starts them without the shell's
    MNEMON_EMBED_PROVIDER, and a query by another provider than the store's vectors recalls by keywords alone)."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir(), home.mkdir()

    def notes(options: list[str]) -> str:
        return " ".join(integrations_setup.setup(
            targets=["claude-code"], user=False, project=str(project), eject=False, dry_run=True, hooks=True,
            mcp=True, options=options, environ={"HOME": str(home), "PATH": ""}, python="/usr/bin/python3")["notes"])

    said = notes(["--embed", "ollama"])
    assert "--embed ollama" in said and "setup again" in said
    assert "--embed" not in notes([])
