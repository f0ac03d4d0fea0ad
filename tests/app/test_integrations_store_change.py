"""A setup that meets the user's own (user-wide) files naming a store: the same store named another way is the same
store, and a user-wide setup that moves them to another store — Codex's guide and server, Claude Code's hooks and
skill, which every project reads — says which store they named before and which now, dry run too."""
from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


def _codex_home() -> Path:
    return Path(os.environ["HOME"]) / ".codex"


def _steps(out: dict[str, Any], what: str) -> list[dict[str, str]]:
    return [m for h in out["hosts"] for m in h["manual"] if m["what"] == what]


def test_the_default_store_named_by_its_path_is_the_same_store(cli_run: CliRun, projects: tuple[Path, Path],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    a, _ = projects
    monkeypatch.delenv("MNEMON_HOME")  # the default store: ~/.mnemon/data/default/mnemon.db, named by nothing
    assert cli_run(["setup", "--global", "--target", "codex"])[0] == 0
    default = Path(os.environ["HOME"]) / ".mnemon" / "data" / "default" / "mnemon.db"
    default.parent.mkdir(parents=True)
    (a.parent / "link-to-data").symlink_to(default.parent.parent)
    for named in (["--db", str(default)], ["--store", "default"],
                  ["--db", str(a.parent / "link-to-data" / "default" / "mnemon.db")]):
        code, out = cli_run([*named, "setup", "--project", str(a), "--target", "codex", "--dry-run"])
        assert code == 0 and out.get("ok") is not False, (named, out)
    # another store is still refused
    code, out = cli_run(["--store", "work", "setup", "--project", str(a), "--target", "codex"])
    assert code != 0 and out["error"]["code"] == "conflict", out


def test_a_shared_guide_of_the_same_store_named_another_way_says_nothing(
        cli_run: CliRun, projects: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _, b = projects
    monkeypatch.delenv("MNEMON_HOME")
    assert cli_run(["setup", "--global", "--target", "codex"])[0] == 0
    code, out = cli_run(["--store", "default", "setup", "--project", str(b), "--target", "codex", "--shared"])
    assert code == 0 and not _steps(out, "instructions"), out


def test_a_global_codex_setup_with_another_store_says_what_it_moves(cli_run: CliRun,
                                                                    projects: tuple[Path, Path]) -> None:
    a, _ = projects
    code, out = cli_run(["--db", str(a.parent / "a.db"), "setup", "--project", str(a), "--target", "codex"])
    (step,) = _steps(out, "mcp server")
    argv = shlex.split(step["run"])[shlex.split(step["run"]).index("--") + 1:]
    config = _codex_home() / "config.toml"  # what the `codex mcp add` step writes, outside mnemon's block
    config.write_text(f"[mcp_servers.mnemon]\ncommand = {json.dumps(argv[0])}\nargs = {json.dumps(argv[1:])}\n")
    for dry in (["--dry-run"], []):
        code, out = cli_run(["--db", str(a.parent / "b.db"), "setup", "--global", "--target", "codex", *dry])
        assert code == 0, out
        (moved,) = _steps(out, "store")
        assert str(a.parent / "a.db") in moved["note"] and str(a.parent / "b.db") in moved["note"], moved
        assert str(_codex_home() / "AGENTS.md") in moved["note"]
        # the server `codex mcp add` put there still runs a.db, and setup leaves it: said, with the way out
        (server,) = [s for s in _steps(out, "mcp server") if "run" in s]
        assert server["run"] == "codex mcp remove mnemon" and str(a.parent / "a.db") in server["note"], server
    # the same store again: nothing moves, nothing said of it
    code, out = cli_run(["--db", str(a.parent / "b.db"), "setup", "--global", "--target", "codex", "--no-mcp"])
    assert code == 0 and not _steps(out, "store"), out


def test_a_second_global_claude_code_setup_with_another_store_says_what_it_moves(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert cli_run(["--db", str(a.parent / "a.db"), "setup", "--global", "--target", "claude-code"])[0] == 0
    for dry in (["--dry-run"], []):
        code, out = cli_run(["--db", str(a.parent / "b.db"), "setup", "--global", "--target", "claude-code", *dry])
        assert code == 0, out
        (moved,) = _steps(out, "store")
        assert str(a.parent / "a.db") in moved["note"] and str(a.parent / "b.db") in moved["note"], moved
        assert str(Path(os.environ["HOME"]) / ".claude" / "settings.json") in moved["note"]
    code, out = cli_run(["--db", str(a.parent / "b.db"), "setup", "--global", "--target", "claude-code"])
    assert code == 0 and not _steps(out, "store"), out
    # a project Claude Code knows, set up personally with its own store, runs its hooks beside the user's: named
    assert cli_run(["--db", str(a.parent / "a.db"), "setup", "--project", str(a), "--target", "claude-code"])[0] == 0
    _known(a, b)
    code, out = cli_run(["--db", str(a.parent / "c.db"), "setup", "--global", "--target", "claude-code"])
    assert _steps(out, "store"), out
    (beside,) = _steps(out, "hooks")
    assert str(a) in beside["note"] and str(b) not in beside["note"], beside


def _known(*folders: Path) -> None:
    """Claude Code's own state file, naming the projects it has opened."""
    state = Path(os.environ["HOME"]) / ".claude.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps({"projects": {str(f): {} for f in folders}}))


def test_a_first_global_claude_code_setup_names_the_projects_whose_hooks_run_beside_it(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert cli_run(["--db", str(a.parent / "b.db"), "setup", "--project", str(a), "--target", "claude-code",
                    "--no-mcp"])[0] == 0
    assert cli_run(["--db", str(a.parent / "a.db"), "setup", "--project", str(b), "--target", "claude-code",
                    "--no-mcp"])[0] == 0
    _known(a, b)
    for dry in (["--dry-run"], []):  # nothing user-wide before: no store step, the projects named all the same
        code, out = cli_run(["--db", str(a.parent / "a.db"), "setup", "--global", "--target", "claude-code",
                             "--no-mcp", *dry])
        assert code == 0 and not _steps(out, "store"), out
        (beside,) = _steps(out, "hooks")
        assert str(a) in beside["note"] and str(a.parent / "b.db") in beside["note"], beside
        assert "both stores" in beside["note"], beside
        assert str(b) not in beside["note"], beside  # (its hooks are these: Claude Code runs them once)
    # without hooks, nothing runs beside them
    code, out = cli_run(["--db", str(a.parent / "a.db"), "setup", "--global", "--target", "claude-code",
                         "--no-mcp", "--no-hooks"])
    assert code == 0 and not _steps(out, "hooks"), out


def test_a_global_claude_code_setup_names_a_shared_project_of_the_same_store(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert cli_run(["--store", "team", "setup", "--project", str(a), "--target", "claude-code", "--shared",
                    "--no-mcp"])[0] == 0
    _known(a, b)
    # the team's hooks run `mnemon` by name, the user's this machine's Python: two commands, both run
    code, out = cli_run(["--store", "team", "setup", "--global", "--target", "claude-code", "--no-mcp"])
    assert code == 0, out
    (beside,) = _steps(out, "hooks")
    assert str(a) in beside["note"] and "twice" in beside["note"] and "--store team" in beside["note"], beside
    assert str(b) not in beside["note"], beside


def test_a_personal_claude_code_setup_says_the_users_own_hooks_name_another_store(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert cli_run(["--db", str(a.parent / "a.db"), "setup", "--global", "--target", "claude-code"])[0] == 0
    code, out = cli_run(["--db", str(a.parent / "b.db"), "setup", "--project", str(b), "--target", "claude-code"])
    assert code == 0, out
    (both,) = _steps(out, "hooks")
    assert str(a.parent / "a.db") in both["note"] and str(a.parent / "b.db") in both["note"], both
    assert both["run"].endswith("setup --global --target claude-code --eject")
    # the same store: Claude Code runs the same hooks once, nothing to say
    code, out = cli_run(["--db", str(a.parent / "a.db"), "setup", "--project", str(a), "--target", "claude-code"])
    assert code == 0 and not _steps(out, "hooks"), out


def test_a_shared_claude_code_setup_says_the_users_own_hooks_run_beside_the_teams(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert cli_run(["--db", str(a.parent / "a.db"), "setup", "--global", "--target", "claude-code"])[0] == 0
    for dry in (["--dry-run"], []):
        code, out = cli_run(["--store", "team", "setup", "--project", str(b), "--target", "claude-code", "--shared",
                             *dry])
        assert code == 0, out
        (both,) = _steps(out, "hooks")
        assert str(a.parent / "a.db") in both["note"] and "--store team" in both["note"], both
        assert "both stores" in both["note"], both
        assert both["run"].endswith("setup --global --target claude-code --eject")
    # the same store: the user's hooks run this machine's mnemon, the team's `mnemon` by name, so Claude Code runs
    # both (it runs an identical command once) and each prompt is recalled twice from it
    assert cli_run(["--store", "team", "setup", "--global", "--target", "claude-code"])[0] == 0
    code, out = cli_run(["--store", "team", "setup", "--project", str(b), "--target", "claude-code", "--shared"])
    (twice,) = _steps(out, "hooks")
    assert "twice" in twice["note"] and "--store team" in twice["note"], twice
    # without hooks of its own, nothing to say
    code, out = cli_run(["--store", "team", "setup", "--project", str(a), "--target", "claude-code", "--shared",
                         "--no-hooks"])
    assert code == 0 and not _steps(out, "hooks"), out


def test_a_second_setup_with_another_store_keeps_the_backup_of_the_users_own_file(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, _ = projects
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    own = '{"model": "opus", "permissions": {"allow": ["Bash(ls)"]}}\n'  # before mnemon first touched it
    settings.write_text(own)
    backup = settings.with_name("settings.json.mnemon-backup")
    for store in ("a.db", "b.db"):  # the second rewrites the hooks the first added
        code, out = cli_run(["--db", str(a.parent / store), "setup", "--global", "--target", "claude-code"])
        assert code == 0 and backup.read_text() == own, (store, backup.read_text())
        (hooks,) = [c for h in out["hosts"] for c in h["changes"] if c["path"] == str(settings)]
        assert hooks["backup"] == str(backup), hooks
    code, out = cli_run(["setup", "--global", "--target", "claude-code", "--eject"])
    assert code == 0 and backup.read_text() == own, out


def test_a_hermes_setup_with_another_store_says_what_it_moves(cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    # Hermes reads skills user-wide only: a project's setup writes the user's own skill, for every project
    a, b = projects
    skill = Path(os.environ["HOME"]) / ".hermes" / "skills" / "mnemon" / "SKILL.md"
    assert cli_run(["--db", str(a.parent / "a.db"), "setup", "--project", str(a), "--target", "hermes"])[0] == 0
    for old, new, where in (("a.db", "b.db", ["--project", str(b), "--dry-run"]),
                            ("a.db", "b.db", ["--project", str(b)]), ("b.db", "c.db", ["--global"])):
        code, out = cli_run(["--db", str(a.parent / new), "setup", *where, "--target", "hermes"])
        assert code == 0, out
        (moved,) = _steps(out, "store")
        assert str(a.parent / old) in moved["note"] and str(a.parent / new) in moved["note"], moved
        assert str(skill) in moved["note"] and "every project" in moved["note"], moved
    code, out = cli_run(["--db", str(a.parent / "c.db"), "setup", "--project", str(a), "--target", "hermes"])
    assert code == 0 and not _steps(out, "store"), out
