"""QA round 38: files and folders the editor makes in a user's vault, run as root, are the vault's, not root's.

Run as root (an agent in a container, a cron job), `note write new.md` made root's note, the first edit of a note
made `.mnemon-backups/` and its backup root's, and `note move` wrote the moved note as root's: the user's own next
edit of that note could not write its backup into the folder, and their editor could not save the note. A new file
or folder now takes the owner and group of the folder it is made in; a moved note keeps its own."""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import daily_notes, note_tools, notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
USER = (43210, 43211)  # the vault's owner and group, not the writer's
OTHER = (43220, 43221)

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="only root makes files another user owns")


def owner(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_uid, st.st_gid


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    root.mkdir()
    os.chown(root, *USER)
    return root


def test_a_new_note_and_its_new_folders_are_the_vaults(vault: Path) -> None:
    notes.write_note(vault, "Projects/2026/n.md", "x\n", mode="create", clock=CLOCK)
    for made in ("Projects", "Projects/2026", "Projects/2026/n.md"):
        assert owner(vault / made) == USER, made


def test_the_backup_folder_and_backups_are_the_vaults(vault: Path) -> None:
    (vault / "sub").mkdir()
    os.chown(vault / "sub", *USER)
    note = vault / "sub" / "n.md"
    note.write_text("# N\n", encoding="utf-8")
    os.chown(note, *USER)
    out = notes.add_bullet(vault, "sub/n.md", "S", "b", clock=CLOCK)
    for made in (".mnemon-backups", ".mnemon-backups/sub", out["backup"], "sub/n.md"):
        assert owner(vault / made) == USER, made


def test_a_daily_note_is_the_vaults(vault: Path) -> None:
    out = daily_notes.daily_note(vault, "create", content="- x", clock=lambda: datetime(2026, 3, 1, 12, 0))
    assert owner(vault / out["path"]) == USER and owner(vault / "Daily") == USER


def test_a_moved_note_keeps_its_owner_and_the_journal_is_the_vaults(vault: Path) -> None:
    (vault / "img.png").write_bytes(b"png")
    note = vault / "o.md"
    note.write_text("# O\n![](img.png)\n", encoding="utf-8")  # its link is rebased: the note is written anew
    os.chown(note, *OTHER)
    note.chmod(0o640)
    out = note_tools.move_note(vault, "o.md", "Archive/o.md", clock=CLOCK)
    assert out["content_changed"] and out["moved"]
    moved = vault / "Archive" / "o.md"
    assert owner(moved) == OTHER and moved.stat().st_mode & 0o777 == 0o640
    assert owner(vault / "Archive") == USER
    assert owner(vault / ".mnemon-backups" / "moves.jsonl") == USER and owner(vault / out["backup"]) == USER


def test_a_folder_root_owns_keeps_root_as_owner(tmp_path: Path) -> None:
    """Only what root makes in another user's folder changes hands: root's own vault stays root's."""
    notes.write_note(tmp_path, "a/n.md", "x\n", clock=CLOCK)
    assert owner(tmp_path / "a" / "n.md") == owner(tmp_path) == owner(tmp_path / "a")
