"""A personal Codex setup writes to the user's own Codex home (`~/.codex/AGENTS.md`, the `codex mcp add` server),
which Codex reads in every project: what its block says removes it must remove it, and a second project set up with
another store must not repoint the first project's agent at it in silence."""
from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


def _own_guide() -> Path:
    return Path(os.environ["HOME"]) / ".codex" / "AGENTS.md"


def _setup(cli_run: CliRun, db: Path, project: Path, *args: str) -> tuple[int, Any]:
    return cli_run(["--db", str(db), "setup", "--project", str(project), "--target", "codex", *args])


def test_the_command_the_users_guide_names_removes_it(cli_run: CliRun, projects: tuple[Path, Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    a, _ = projects
    assert _setup(cli_run, a.parent / "a.db", a)[0] == 0
    marker = _own_guide().read_text().splitlines()[0]
    named = re.search(r"`(mnemon setup[^`]*)` removes it", marker)
    assert named, marker
    monkeypatch.chdir(a)  # run where a user reads it: in the project they set up
    code, out = cli_run(shlex.split(named.group(1))[1:])
    assert code == 0, out
    assert not _own_guide().exists() or "mnemon:begin" not in _own_guide().read_text()


def test_a_second_project_with_another_store_does_not_repoint_the_first(cli_run: CliRun,
                                                                         projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert _setup(cli_run, a.parent / "a.db", a)[0] == 0
    written = _own_guide().read_text()
    for args in ((), ("--dry-run",)):
        code, out = _setup(cli_run, a.parent / "b.db", b, *args)
        assert code != 0 and out["ok"] is False and out["error"]["code"] == "conflict", out
        message = out["error"]["message"]
        assert str(a.parent / "a.db") in message and str(a.parent / "b.db") in message
        assert "setup --global --target codex --eject" in message and "nothing was written" in message
    assert _own_guide().read_text() == written
    assert not (b / "AGENTS.md").exists()
    # the same store again, from the second project: one guide serves both
    code, out = _setup(cli_run, a.parent / "a.db", b)
    assert code == 0 and out["changed_files"] == 0, out
    # after the user-wide eject the named way, the second store is set up
    assert cli_run(["setup", "--global", "--target", "codex", "--eject"])[0] == 0
    code, out = _setup(cli_run, a.parent / "b.db", b)
    assert code == 0 and str(a.parent / "b.db") in _own_guide().read_text()


def test_a_second_project_with_another_store_does_not_replace_the_users_codex_server(
        cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    a, b = projects
    code, out = _setup(cli_run, a.parent / "a.db", a)
    (step,) = [m for m in out["hosts"][0]["manual"] if m["what"] == "mcp server"]
    argv = shlex.split(step["run"])
    argv = argv[argv.index("--") + 1:]
    config = _own_guide().with_name("config.toml")
    config.write_text(f"[mcp_servers.mnemon]\ncommand = {json.dumps(argv[0])}\nargs = {json.dumps(argv[1:])}\n")
    assert cli_run(["setup", "--global", "--target", "codex", "--eject"])[0] == 0  # the guide alone goes
    code, out = _setup(cli_run, a.parent / "b.db", b)
    assert code != 0 and out["error"]["code"] == "conflict", out
    message = out["error"]["message"]
    assert str(a.parent / "a.db") in message and "codex mcp remove mnemon" in message
    code, out = _setup(cli_run, a.parent / "b.db", b, "--no-mcp")  # the server left out: nothing repointed
    assert code == 0, out


def test_a_shared_setup_says_the_users_own_guide_names_another_store(cli_run: CliRun,
                                                                     projects: tuple[Path, Path]) -> None:
    a, b = projects
    assert _setup(cli_run, a.parent / "a.db", a)[0] == 0
    # the team's guide goes to b's AGENTS.md, and Codex reads the user's own before it, in b too
    code, out = cli_run(["--store", "team", "setup", "--project", str(b), "--target", "codex", "--shared"])
    assert code == 0, out
    steps = [m for m in out["hosts"][0]["manual"] if m["what"] == "instructions"]
    assert len(steps) == 1, out["hosts"][0]["manual"]
    assert steps[0]["run"].endswith("setup --global --target codex --eject")
    assert str(_own_guide()) in steps[0]["note"] and str(a.parent / "a.db") in steps[0]["note"]
    # with no guide of the user's, or one of the same store, nothing to say
    code, out = cli_run(["setup", "--global", "--target", "codex", "--eject"])
    code, out = cli_run(["--store", "team", "setup", "--project", str(b), "--target", "codex", "--shared"])
    assert code == 0 and not [m for m in out["hosts"][0]["manual"] if m["what"] == "instructions"]
