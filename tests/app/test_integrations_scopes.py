"""`mnemon setup` in a project a team shares: this machine's commands (its Python, this user's store) go to the
personal files — `.claude/settings.local.json`, Claude Code's local-scope MCP server, Codex's user config — and the
files a team commits (`.claude/settings.json`, `.mcp.json`, `.codex/config.toml`) get only what every teammate can
run, and only with `--shared`. Eject takes mnemon out of all of them, what earlier versions wrote included.
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]
LEGACY = f"{sys.executable} -m mnemon --db /home/ana/.mnemon/data/default/mnemon.db"  # an earlier setup's, elsewhere


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME", "GIT_DIR", "GIT_WORK_TREE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))  # no user's excludesFile
    return folder.resolve()


def _setup(cli_run: CliRun, project: Path, *args: str) -> tuple[int, Any]:
    return cli_run(["setup", "--project", str(project), *args])


def _host(out: dict[str, Any], name: str) -> dict[str, Any]:
    return next(h for h in out["hosts"] if h["host"] == name)


def _steps(host: dict[str, Any], what: str) -> list[dict[str, Any]]:
    return [m for m in host["manual"] if m["what"] == what]


def _commands(settings: dict[str, Any]) -> list[str]:
    return [h["command"] for groups in settings.get("hooks", {}).values() for g in groups for h in g["hooks"]]


def test_a_project_setup_keeps_this_machines_commands_out_of_the_files_a_team_commits(cli_run: CliRun,
                                                                                        project: Path) -> None:
    code, out = _setup(cli_run, project, "--target", "claude-code", "--target", "codex")
    assert code == 0, out
    for shared in (".claude/settings.json", ".mcp.json", ".codex/config.toml"):
        assert not (project / shared).exists(), shared
    local = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert len(_commands(local)) == 2 and all(c.startswith(sys.executable) for c in _commands(local))
    claude, codex = _host(out, "claude-code"), _host(out, "codex")
    assert {c["path"]: c["scope"] for c in claude["changes"]}[str(project / ".claude/settings.local.json")] == \
        "personal"
    (server,) = _steps(claude, "mcp server")  # Claude Code's own state file: `claude mcp add`'s to write
    assert server["run"].startswith(f"cd {shlex.quote(str(project))} && claude mcp add --scope local mnemon -- ")
    assert f" -- {shlex.quote(sys.executable)} -m mnemon " in server["run"] and server["run"].endswith(" mcp serve")
    (codex_server,) = _steps(codex, "mcp server")  # Codex has no personal file in a project: its user config
    assert codex_server["run"].startswith("codex mcp add mnemon -- ") and not _steps(codex, "project trust")
    assert not _steps(claude, "mcp server approval")
    # personal files the project's git does not ignore are named, with the lines to add
    (ignore,) = _steps(claude, "git ignore")
    assert ".claude/settings.local.json" in ignore["add"] and ".claude/skills/mnemon/" in ignore["add"]

    (project / ".gitignore").write_text(ignore["add"] + "\n")
    code, again = _setup(cli_run, project, "--target", "claude-code")
    assert code == 0 and again["changed_files"] == 0 and not _steps(_host(again, "claude-code"), "git ignore")


def test_the_local_mcp_step_is_left_out_once_done_and_eject_says_how_to_undo_it(cli_run: CliRun,
                                                                                   project: Path) -> None:
    code, out = _setup(cli_run, project, "--target", "claude-code")
    (step,) = _steps(_host(out, "claude-code"), "mcp server")
    argv = shlex.split(step["run"].split(" && ", 1)[1])
    argv = argv[argv.index("--") + 1:]
    state = {"projects": {str(project): {"mcpServers": {"mnemon": {"type": "stdio", "command": argv[0],
                                                                   "args": argv[1:], "env": {}}}}}}
    home = Path(os.environ["HOME"])
    home.mkdir(exist_ok=True)
    (home / ".claude.json").write_text(json.dumps(state))  # as `claude mcp add --scope local` writes it
    assert _steps(_host(_setup(cli_run, project, "--target", "claude-code")[1], "claude-code"), "mcp server") == []
    # going shared, the personal server would stand before the project's (`claude mcp list` warns of both)
    (step,) = _steps(_host(_setup(cli_run, project, "--target", "claude-code", "--shared")[1], "claude-code"),
                     "mcp server")
    assert step["run"] == f"cd {shlex.quote(str(project))} && claude mcp remove --scope local mnemon"
    code, ejected = _setup(cli_run, project, "--eject")
    (remove,) = _steps(_host(ejected, "claude-code"), "mcp server")
    assert code == 0 and remove["run"] == f"cd {shlex.quote(str(project))} && claude mcp remove --scope local mnemon"
    assert not any((project / name).exists() for name in (".claude/settings.json", ".claude/settings.local.json",
                                                           ".mcp.json", ".claude/skills/mnemon/SKILL.md"))


def test_shared_setup_writes_commands_every_teammate_can_run(cli_run: CliRun, project: Path) -> None:
    code, out = _setup(cli_run, project, "--target", "claude-code", "--target", "codex", "--shared")
    assert code == 0, out
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert sorted(_commands(settings)) == ["mnemon hook claude-code prompt", "mnemon hook claude-code session-start"]
    assert json.loads((project / ".mcp.json").read_text())["mcpServers"]["mnemon"] == {"command": "mnemon",
                                                                                      "args": ["mcp", "serve"]}
    codex = tomllib.loads((project / ".codex" / "config.toml").read_text())["mcp_servers"]["mnemon"]
    assert codex == {"command": "mnemon", "args": ["mcp", "serve"]}
    for guide in (project / ".claude/skills/mnemon/SKILL.md", project / "AGENTS.md"):
        text = guide.read_text()
        assert "`mnemon recall " in text and sys.executable not in text and os.environ["MNEMON_HOME"] not in text
    assert not (project / ".claude" / "settings.local.json").exists()
    assert {c["scope"] for h in out["hosts"] for c in h["changes"] if c["action"] != "unchanged"} == {"shared"}
    assert _steps(_host(out, "claude-code"), "mcp server approval") and not _steps(_host(out, "claude-code"),
                                                                                   "git ignore")
    # a store named, or a database URL, is the same for every teammate; a path is this machine's
    code, named = cli_run(["--store", "team", "setup", "--project", str(project), "--target", "claude-code",
                           "--shared"])
    assert code == 0 and json.loads((project / ".mcp.json").read_text())["mcpServers"]["mnemon"]["args"] == \
        ["--store", "team", "mcp", "serve"]
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    for flags in (["--db", str(project / "m.db")], ["--config", str(project / "c.json")]):
        code, refused = cli_run([*flags, "setup", "--project", str(project), "--target", "claude-code", "--shared"])
        assert code == 1 and refused["error"]["code"] == "invalid_input" and flags[0] in refused["error"]["message"]
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
    code, out = _setup(cli_run, project, "--eject")  # (the second setup's backups stay: the files as they were)
    assert code == 0 and [p for p in project.rglob("*") if p.is_file() and ".git" not in p.parts
                          and not p.name.endswith(".mnemon-backup")] == []


def test_the_shared_note_names_every_shared_file_the_setup_writes(cli_run: CliRun, project: Path) -> None:
    code, out = _setup(cli_run, project, "--target", "claude-code", "--target", "codex", "--shared", "--dry-run")
    assert code == 0, out
    (note,) = [n for n in out["notes"] if n.startswith("--shared")]
    written = {str(Path(c["path"]).relative_to(project)) for h in out["hosts"] for c in h["changes"]
               if c["scope"] == "shared" and c["action"] != "unchanged"}
    named = {path.removesuffix("SKILL.md") for path in written}  # (the skill by its folder)
    assert named and all(path in note for path in named), (named, note)


def test_a_personal_setup_takes_an_earlier_setups_machine_commands_out_of_the_shared_files(cli_run: CliRun,
                                                                                           project: Path) -> None:
    (project / ".claude").mkdir()
    legacy_hooks = {"permissions": {"allow": ["Bash(ls:*)"]}, "hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": f"{LEGACY} hook claude-code session-start"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo mine"}]},
                             {"hooks": [{"type": "command", "command": f"{LEGACY} hook claude-code prompt"}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(legacy_hooks))
    legacy_server = {"command": sys.executable, "args": shlex.split(LEGACY)[1:] + ["mcp", "serve"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"docs": {"command": "docs"},
                                                                  "mnemon": legacy_server}}))
    code, out = _setup(cli_run, project, "--target", "claude-code")
    assert code == 0, out
    assert json.loads((project / ".claude" / "settings.json").read_text()) == {
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}
    assert json.loads((project / ".mcp.json").read_text()) == {"mcpServers": {"docs": {"command": "docs"}}}
    assert len(_commands(json.loads((project / ".claude" / "settings.local.json").read_text()))) == 2


def test_eject_takes_out_what_an_earlier_setup_wrote_to_the_shared_files(cli_run: CliRun, project: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [
        {"hooks": [{"type": "command", "command": f"{LEGACY} hook claude-code session-start"}]}]}}))
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"mnemon": {
        "command": sys.executable, "args": ["-m", "mnemon", "mcp", "serve"]}}}))
    code, out = _setup(cli_run, project, "--eject")  # (the second setup's backups stay: the files as they were)
    assert code == 0 and [p for p in project.rglob("*") if p.is_file() and ".git" not in p.parts
                          and not p.name.endswith(".mnemon-backup")] == []


def test_a_personal_setup_beside_the_teams_shared_hooks_adds_no_second_pair(cli_run: CliRun, project: Path) -> None:
    assert _setup(cli_run, project, "--target", "claude-code", "--target", "codex", "--shared")[0] == 0
    shared = {p: p.read_bytes() for p in project.rglob("*") if p.is_file() and ".git" not in p.parts}
    code, out = _setup(cli_run, project, "--target", "claude-code", "--target", "codex")
    assert code == 0 and {p: p.read_bytes() for p in project.rglob("*") if p.is_file() and ".git" not in p.parts} \
        == shared  # no settings.local.json: both pairs of hooks would run, every prompt recalled twice
    (note,) = _steps(_host(out, "claude-code"), "hooks")
    assert ".claude/settings.json" in note["note"]
    for host in ("claude-code", "codex"):  # the project's server is the team's: no second one of the same name
        assert not any("run" in m for m in _steps(_host(out, host), "mcp server"))


def _codex_home() -> Path:
    return Path(os.environ["HOME"]) / ".codex"


def test_a_personal_codex_setup_puts_its_guide_in_the_users_own_agents_md(cli_run: CliRun, project: Path) -> None:
    # Codex reads ~/.codex/AGENTS.md (the user's, every project) before the project's AGENTS.md, which teams commit
    rules = "# Project rules\n\nUse tabs.\n"
    (project / "AGENTS.md").write_text(rules)
    code, out = cli_run(["--db", str(project.parent / "mine.db"), "setup", "--project", str(project),
                         "--target", "codex"])
    assert code == 0, out
    assert (project / "AGENTS.md").read_text() == rules  # the team's file: nothing of this machine's
    personal = (_codex_home() / "AGENTS.md").read_text()
    assert "<!-- mnemon:begin" in personal and str(project.parent / "mine.db") in personal
    changes = {c["path"]: c for c in _host(out, "codex")["changes"]}
    assert changes[str(_codex_home() / "AGENTS.md")]["scope"] == "personal"
    assert changes[str(project / "AGENTS.md")]["action"] == "unchanged"
    (note,) = _steps(_host(out, "codex"), "instructions")
    assert str(_codex_home() / "AGENTS.md") in note["note"] and "every project" in note["note"]
    code, again = cli_run(["--db", str(project.parent / "mine.db"), "setup", "--project", str(project),
                           "--target", "codex"])
    assert code == 0 and again["changed_files"] == 0


def test_a_personal_codex_setup_takes_an_earlier_setups_guide_out_of_the_projects_agents_md(
        cli_run: CliRun, project: Path) -> None:
    from mnemon.app.integrations.guide import instructions_block

    rules = "# Project rules\n\nUse tabs.\n"
    for prefix in (sys.executable, "mnemon"):  # `mnemon --db <path>` by name is this machine's store all the same
        block = instructions_block(["--db", "/home/ana/.mnemon/data/default/mnemon.db"]).replace(
            "`mnemon ", f"`{prefix} ")  # (as guide.program() named this installation then)
        (project / "AGENTS.md").write_text(f"{rules}\n<!-- mnemon:begin (written by `mnemon setup`) -->\n{block}"
                                           "<!-- mnemon:end -->\n")
        code, out = _setup(cli_run, project, "--target", "codex")
        assert code == 0, out
        assert (project / "AGENTS.md").read_text() == rules, prefix
        assert "<!-- mnemon:begin" in (_codex_home() / "AGENTS.md").read_text()


def test_a_project_eject_says_what_stays_in_the_users_codex_config_and_how_to_remove_it(
        cli_run: CliRun, project: Path) -> None:
    code, out = _setup(cli_run, project, "--target", "codex")
    (step,) = _steps(_host(out, "codex"), "mcp server")
    argv = shlex.split(step["run"])
    argv = argv[argv.index("--") + 1:]
    table = f"[mcp_servers.mnemon]\ncommand = {json.dumps(argv[0])}\nargs = {json.dumps(argv[1:])}\n"
    _codex_home().mkdir(parents=True, exist_ok=True)
    (_codex_home() / "config.toml").write_text(table)  # as `codex mcp add` writes it
    code, ejected = _setup(cli_run, project, "--eject")
    assert code == 0, ejected
    codex = _host(ejected, "codex")
    (server,) = _steps(codex, "mcp server")
    assert server["run"] == "codex mcp remove mnemon" and "every project" in server["note"]
    (guide,) = _steps(codex, "instructions")
    assert guide["run"].endswith("setup --global --target codex --eject")
    assert str(_codex_home() / "AGENTS.md") in guide["note"]
    assert (_codex_home() / "config.toml").read_text() == table  # the user's own config: theirs to change
    # once both are gone, an eject says nothing of them
    (_codex_home() / "config.toml").write_text("")
    assert cli_run(["setup", "--global", "--target", "codex", "--eject"])[0] == 0
    code, ejected = _setup(cli_run, project, "--eject", "--target", "codex")
    assert code == 0 and _host(ejected, "codex")["manual"] == []


def test_eject_tidies_the_backups_of_what_setup_wrote_and_keeps_the_users_file_as_it_was(
        cli_run: CliRun, project: Path) -> None:
    (project / ".claude").mkdir()
    own = '{"model": "opus"}\n'  # the user's own file, before mnemon first touched it
    (project / ".claude" / "settings.json").write_text(own)
    assert _setup(cli_run, project, "--target", "claude-code")[0] == 0
    assert cli_run(["--store", "team", "setup", "--project", str(project), "--target", "claude-code",
                    "--shared"])[0] == 0  # updates the skill setup made, and the user's settings
    backups = {p.relative_to(project) for p in project.rglob("*.mnemon-backup")}
    assert backups == {Path(".claude/settings.json.mnemon-backup"),
                       Path(".claude/skills/mnemon/SKILL.md.mnemon-backup")}
    assert (project / ".claude" / "settings.json.mnemon-backup").read_text() == own
    code, out = _setup(cli_run, project, "--eject")
    assert code == 0, out
    # the skill's backup was setup's own text: gone with its folder; the settings' is the user's file as it was
    assert {p.relative_to(project) for p in project.rglob("*") if p.is_file() and ".git" not in p.parts} == {
        Path(".claude/settings.json"), Path(".claude/settings.json.mnemon-backup")}
    assert (project / ".claude" / "settings.json.mnemon-backup").read_text() == own
    changes = {c["path"]: c for c in _host(out, "claude-code")["changes"]}
    assert changes[str(project / ".claude/skills/mnemon/SKILL.md")]["backup_removed"] == str(
        project / ".claude/skills/mnemon/SKILL.md.mnemon-backup")
    assert changes[str(project / ".claude/settings.json")]["backup"] == str(
        project / ".claude/settings.json.mnemon-backup")
