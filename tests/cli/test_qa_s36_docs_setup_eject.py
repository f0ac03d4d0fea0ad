"""README "Using it": `mnemon setup --eject` "takes out exactly what setup wrote" — with no `--target`, as the README
shows it, also on a machine where the host's program is not on PATH and its folder not in the home (setup was run
with `--target`, or the host was uninstalled since)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))  # no ~/.claude, ~/.codex, ~/.hermes
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no claude, codex or hermes program
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME"):
        monkeypatch.delenv(variable, raising=False)
    return folder


def test_eject_without_a_target_takes_out_what_setup_wrote_in_the_project(
        cli_run: Callable[..., tuple[int, Any]], project: Path) -> None:
    (project / "AGENTS.md").write_text("# Project rules\n\nUse tabs.\n")
    code, out = cli_run(["setup", "--project", str(project), "--target", "claude-code", "--target", "codex"])
    assert code == 0 and out["changed_files"] == 3  # the skill, settings.local.json, ~/.codex/AGENTS.md
    code, out = cli_run(["setup", "--project", str(project), "--eject"])
    assert code == 0, out
    assert [h["host"] for h in out["hosts"]] == ["claude-code", "codex"]
    assert out["changed_files"] == 2 and out["next"].startswith("mnemon is out of these hosts")
    left = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
    assert left == ["AGENTS.md"]  # the project's own, which setup never touched
    assert (project / "AGENTS.md").read_text() == "# Project rules\n\nUse tabs.\n"
    # nothing of setup's left in the project: what stays user-wide (the guide, for every project) is said
    code, out = cli_run(["setup", "--project", str(project), "--eject"])
    assert code == 0 and out["changed_files"] == 0 and [m["what"] for m in out["hosts"][-1]["manual"]] == [
        "instructions"]


def test_eject_without_a_target_leaves_a_host_it_never_wrote_to(
        cli_run: Callable[..., tuple[int, Any]], project: Path) -> None:
    (project / ".mcp.json").write_text('{"mcpServers": {"other": {"command": "x"}}}\n')
    cli_run(["setup", "--project", str(project), "--target", "codex"])
    code, out = cli_run(["setup", "--project", str(project), "--eject", "--dry-run"])
    assert code == 0 and [h["host"] for h in out["hosts"]] == ["codex"]
    assert (project / ".mcp.json").read_text() == '{"mcpServers": {"other": {"command": "x"}}}\n'


def test_setup_help_names_every_file_shared_writes(cli_raw: Callable[..., tuple[int, str, str]], project: Path,
                                                   cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, text, _ = cli_raw(["setup", "--help"])
    assert code == 0
    shared = " ".join(text.split("--shared", 1)[1].split("--eject", 1)[0].split())
    code, out = cli_run(["--store", "team", "setup", "--project", str(project), "--target", "claude-code",
                         "--target", "codex", "--shared", "--dry-run"])
    assert code == 0, out
    written = {str(Path(c["path"]).relative_to(project)) for h in out["hosts"] for c in h["changes"]
               if c.get("scope") == "shared" and c["action"] != "unchanged"}
    named = {path.removesuffix("SKILL.md") for path in written}  # (the skill by its folder)
    assert named and all(path in shared for path in named), (named, shared)
