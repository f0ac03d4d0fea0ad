"""QA round 38: an edited note keeps its owner and group.

A write replaces the note by renaming a new file over it, and the new file was the writer's: run as root (an agent
in a container, a cron job), `note add-bullet` made a user's 0640 note root's, and the user could no longer read
their own note. The new file now takes the replaced note's owner and group (as far as the writer may give them)."""
from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
OTHER = 43210  # a user and group that are not the writer's

EDITS: dict[str, Callable[..., dict[str, Any]]] = {
    "write": lambda v: notes.write_note(v, "n.md", "x\n", clock=CLOCK),
    "overwrite": lambda v: notes.write_note(v, "n.md", "x\n", mode="overwrite", clock=CLOCK),
    "replace": lambda v: notes.replace_in_note(v, "n.md", "- a", "- b", clock=CLOCK),
    "upsert": lambda v: notes.upsert_section(v, "n.md", "S", "new", clock=CLOCK),
    "add_bullet": lambda v: notes.add_bullet(v, "n.md", "S", "b", clock=CLOCK),
}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file away")
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edit_as_root_keeps_the_users_ownership(tmp_path: Path, edit: str) -> None:
    note = tmp_path / "n.md"
    note.write_text("# N\n\n## S\n- a\n", encoding="utf-8")
    os.chown(note, OTHER, OTHER)
    note.chmod(0o640)
    out = EDITS[edit](tmp_path)
    assert out["changed"] is True
    after = note.stat()
    assert (after.st_uid, after.st_gid, after.st_mode & 0o777) == (OTHER, OTHER, 0o640)

