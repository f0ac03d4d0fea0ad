"""A Codex config whose `mcp_servers` mnemon cannot add a `[mcp_servers.mnemon]` table to — written as an inline
table (`mcp_servers = { other = {...} }`), or as an array of tables — is valid TOML Codex may hold: setup refuses it
as a conflict naming the file and the way on, writes nothing, and never answers `internal`."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]

CONFIGS = {
    "inline table": 'model = "o3"\nmcp_servers = { other = { command = "npx", args = ["x"] } }\n',
    "array of tables": 'model = "o3"\n[[mcp_servers]]\nname = "x"\n',
    "a string": 'model = "o3"\nmcp_servers = "none"\n',
}


@pytest.mark.parametrize("shape", sorted(CONFIGS))
@pytest.mark.parametrize("user", [True, False])
def test_servers_mnemon_cannot_add_to_are_a_conflict_and_nothing_is_written(
        cli_run: CliRun, projects: tuple[Path, Path], shape: str, user: bool) -> None:
    project, _ = projects
    folder = Path(os.environ["HOME"]) / ".codex" if user else project / ".codex"
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.toml"
    config.write_text(CONFIGS[shape])
    where = ["--global"] if user else ["--project", str(project), "--shared"]
    code, out = cli_run(["setup", *where, "--target", "codex"])
    assert code == 1 and out["error"]["code"] == "conflict", out
    message = out["error"]["message"]
    assert str(config) in message and "--no-mcp" in message and "nothing was written" in message
    assert config.read_text() == CONFIGS[shape]
    assert sorted(p.name for p in folder.iterdir()) == ["config.toml"]
    assert not (project / "AGENTS.md").exists()
    # the way on the message names works: the guide alone
    code, out = cli_run(["setup", *where, "--target", "codex", "--no-mcp"])
    assert code == 0, out
    assert config.read_text() == CONFIGS[shape]
