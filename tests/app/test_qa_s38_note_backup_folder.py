"""QA round 38: a file where the backups go refuses the edit up front, dry run included.

A file named `.mnemon-backups` in the vault (or `.mnemon-backups/Projects`, for a note in Projects/) stands where the
editor copies a note before changing it: the dry run answered ok with its diff, and the write then failed with
`internal` ("FileExistsError: [Errno 17] File exists"). Now both are `conflict` naming the file, the note
untouched; `note move` and `note delete`, which back up too, say the same."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import note_tools, notes
from mnemon.core.errors import Conflict

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
TEXT = "# P\n\n## S\n- a\n"

EDITS: dict[str, Callable[..., dict[str, Any]]] = {
    "write": lambda v, rel, **k: notes.write_note(v, rel, "x\n", **k),
    "replace": lambda v, rel, **k: notes.replace_in_note(v, rel, "- a", "- b", **k),
    "upsert": lambda v, rel, **k: notes.upsert_section(v, rel, "S", "new", **k),
    "add_bullet": lambda v, rel, **k: notes.add_bullet(v, rel, "S", "b", **k),
    "move": lambda v, rel, **k: note_tools.move_note(v, rel, "Other.md", **k),
    "delete": lambda v, rel, **k: note_tools.delete_note(v, rel, **k),
}


@pytest.mark.parametrize("blocker", [".mnemon-backups", ".mnemon-backups/Projects"])
@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_file_in_the_backup_folders_place_is_a_conflict(tmp_path: Path, blocker: str, dry_run: bool,
                                                           edit: str) -> None:
    (tmp_path / "Projects").mkdir()
    note = tmp_path / "Projects" / "p.md"
    note.write_text(TEXT, encoding="utf-8")
    (tmp_path / blocker).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / blocker).write_text("not a folder", encoding="utf-8")
    with pytest.raises(Conflict) as refused:
        EDITS[edit](tmp_path, "Projects/p.md", dry_run=dry_run, clock=CLOCK)
    assert refused.value.details == {"path": "Projects/p.md", "file": blocker}
    assert note.read_text(encoding="utf-8") == TEXT and not (tmp_path / "Other.md").exists()
    assert (tmp_path / blocker).read_text(encoding="utf-8") == "not a folder"


def test_a_new_note_needs_no_backup_folder(tmp_path: Path) -> None:
    (tmp_path / ".mnemon-backups").write_text("not a folder", encoding="utf-8")
    out = notes.write_note(tmp_path, "new.md", "hello\n", mode="create", clock=CLOCK)
    assert out["created"] is True and (tmp_path / "new.md").read_text(encoding="utf-8") == "hello\n"


def test_backups_still_go_to_the_folder(tmp_path: Path) -> None:
    (tmp_path / "p.md").write_text(TEXT, encoding="utf-8")
    (tmp_path / ".mnemon-backups").mkdir()
    out = notes.add_bullet(tmp_path, "p.md", "S", "b", clock=CLOCK)
    assert (tmp_path / out["backup"]).read_text(encoding="utf-8") == TEXT
