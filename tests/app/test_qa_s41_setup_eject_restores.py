"""`setup` then `setup --eject` with nothing else changed in between leaves the user's files as they were, byte for
byte: a hand-formatted settings file (committed, with `--shared`) was re-serialised by the eject — every line of it
a change in `git diff` — and a file without a final line end got one."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]

SETTINGS = ('{ "permissions": {"allow": ["Bash(ls:*)"]},\n'
            '    "hooks": { "UserPromptSubmit": [ { "matcher": "", "hooks": [ { "type": "command", '
            '"command": "echo other" } ] } ] } }')
SERVERS = '{"mcpServers": {"other": {"command": "npx", "args": ["-y", "other"]}}}'
AGENTS = "# Agents\n\nBe nice."
CODEX = '# mine\nmodel = "o3"   # inline\n\n[profiles.fast]\nmodel = "gpt-5"'


@pytest.mark.parametrize("shared", [True, False])
def test_eject_after_setup_gives_the_users_files_back_byte_for_byte(cli_run: CliRun, projects: tuple[Path, Path],
                                                                     shared: bool) -> None:
    project, _ = projects
    (project / ".claude").mkdir()
    (project / ".codex").mkdir()
    files = {project / ".claude" / "settings.json": SETTINGS, project / ".claude" / "settings.local.json": SETTINGS,
             project / ".mcp.json": SERVERS, project / "AGENTS.md": AGENTS, project / ".codex" / "config.toml": CODEX}
    for path, text in files.items():
        path.write_text(text)
    args = ["setup", "--project", str(project), "--target", "claude-code", "--target", "codex"]
    code, out = cli_run([*args, *(["--shared"] if shared else [])])
    assert code == 0, out
    changed = [c["path"] for h in out["hosts"] for c in h["changes"] if c["action"] == "update"]
    assert changed and set(changed) <= {str(p) for p in files}
    for path in map(Path, changed):
        assert path.read_text() != files[path]
        json.loads(path.read_text()) if path.suffix == ".json" else None
    code, out = cli_run([*args, "--eject"])
    assert code == 0, out
    for path, text in files.items():
        assert path.read_text() == text, path
