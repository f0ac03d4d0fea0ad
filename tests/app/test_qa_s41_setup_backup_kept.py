"""A copy of the user's own file that setup left (`.mnemon-backup`) is never written over: the user's own skill of
the name, replaced by setup, edited since (a line of theirs in mnemon's skill), was lost to an eject — which backed
the edited skill up over it — or to a second setup, which did the same before writing its skill again."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

CliRun = Callable[..., tuple[int, Any]]
OWN = "my own skill\n"
ARGS = ["setup", "--global", "--target", "claude-code"]


def _skill() -> Path:
    return Path(os.environ["HOME"]) / ".claude" / "skills" / "mnemon" / "SKILL.md"


def _installed_then_edited(cli_run: CliRun) -> Path:
    skill = _skill()
    skill.parent.mkdir(parents=True)
    skill.write_text(OWN)
    code, out = cli_run(ARGS)
    assert code == 0, out
    with skill.open("a") as f:
        f.write("edited\n")
    return skill


def _skill_change(out: dict[str, Any]) -> dict[str, Any]:
    return next(c for h in out["hosts"] for c in h["changes"] if c["what"] == "skill")


def test_eject_of_an_edited_skill_gives_the_users_own_back_and_keeps_the_edit(cli_run: CliRun) -> None:
    skill = _installed_then_edited(cli_run)
    edited = skill.read_text()
    code, out = cli_run([*ARGS, "--eject"])
    assert code == 0, out
    assert skill.read_text() == OWN
    assert (skill.parent / "SKILL.md.mnemon-backup").read_text() == OWN
    change = _skill_change(out)
    assert Path(change["edited_copy"]).read_text() == edited
    assert change["restored"] == str(skill.parent / "SKILL.md.mnemon-backup")


def test_a_second_setup_over_an_edited_skill_keeps_the_users_own_copy_and_the_edit(cli_run: CliRun) -> None:
    skill = _installed_then_edited(cli_run)
    edited = skill.read_text()
    code, out = cli_run(ARGS)
    assert code == 0, out
    assert (skill.parent / "SKILL.md.mnemon-backup").read_text() == OWN
    assert Path(_skill_change(out)["backup"]).read_text() == edited
    code, out = cli_run([*ARGS, "--eject"])
    assert code == 0, out
    assert skill.read_text() == OWN


def test_a_skill_that_is_the_users_own_copy_again_is_left_by_an_eject(cli_run: CliRun) -> None:
    skill = _skill()
    skill.parent.mkdir(parents=True)
    skill.write_text(OWN)
    assert cli_run(ARGS)[0] == 0
    assert cli_run([*ARGS, "--eject"])[0] == 0
    code, out = cli_run([*ARGS, "--eject"])
    assert code == 0, out
    assert skill.read_text() == OWN == (skill.parent / "SKILL.md.mnemon-backup").read_text()
