"""QA round 38: run as root, a note (or folder) its owner made read-only is refused, as the owner is refused.

`chmod 444 ro.md; mnemon note write ro.md --content x` as root (an agent in a container, a cron job) answered ok and
changed the note: root may write any file, so the check let it through, while the same command by the note's owner
answered `readonly`. A note or folder without its owner's write bit is now refused whoever runs the editor."""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import notes
from mnemon.core.errors import ReadOnly

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
USER = 43210

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="what root is refused")


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o044])
def test_root_is_refused_a_note_its_owner_made_read_only(tmp_path: Path, mode: int) -> None:
    note = tmp_path / "ro.md"
    note.write_text("# R\n", encoding="utf-8")
    os.chown(note, USER, USER)
    note.chmod(mode)
    for dry_run in (True, False):
        with pytest.raises(ReadOnly):
            notes.write_note(tmp_path, "ro.md", "x", dry_run=dry_run, clock=CLOCK)
    assert note.read_text(encoding="utf-8") == "# R\n" and not (tmp_path / notes.BACKUP_DIR).exists()


def test_root_still_edits_a_note_its_owner_may_write(tmp_path: Path) -> None:
    note = tmp_path / "n.md"
    note.write_text("# N\n", encoding="utf-8")
    os.chown(note, USER, USER)
    note.chmod(0o600)  # root has no bit of its own here: the owner's write bit is what counts
    assert notes.write_note(tmp_path, "n.md", "x\n", clock=CLOCK)["changed"]
    assert note.read_text(encoding="utf-8") == "# N\nx\n"


def test_root_is_refused_a_folder_its_owner_made_read_only(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    with pytest.raises(ReadOnly) as refused:
        notes.write_note(tmp_path, "locked/n.md", "x", clock=CLOCK)
    assert refused.value.details["folder"] == str(folder)
    assert list(folder.iterdir()) == []


def test_the_cli_as_root_answers_readonly(tmp_path: Path, cli_run) -> None:
    (tmp_path / "ro.md").write_text("# R\n", encoding="utf-8")
    (tmp_path / "ro.md").chmod(0o444)
    code, out = cli_run(["note", "write", "ro.md", "--vault", str(tmp_path), "--content", "x"])
    assert code != 0 and out["error"]["code"] == "readonly" and "chmod u+w" in out["error"]["message"]
    assert (tmp_path / "ro.md").read_text(encoding="utf-8") == "# R\n"
