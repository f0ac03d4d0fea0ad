"""QA round 38: `note move` and `note delete` respect a read-only note and a read-only folder, as the edits do.

`chmod 444 r.md; mnemon note move r.md --to sub/r.md` rewrote the note's own relative links on the way (moved:
true, content_changed: true), a note its owner made read-only coming out with other text; `note delete` removed a
read-only note without a word (`rm` asks first); and a note in a folder it could not be removed from was backed up,
then failed at the unlink, a move leaving two copies. Each is now `readonly` before anything is written."""
from __future__ import annotations

import stat
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import note_tools, notes
from mnemon.core.errors import ReadOnly

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_read_only_note_whose_links_a_move_would_rebase_is_refused(tmp_path: Path, dry_run: bool) -> None:
    (tmp_path / "img.png").write_bytes(b"png")
    note = tmp_path / "r.md"
    note.write_text("# R\n![](img.png)\n", encoding="utf-8")
    note.chmod(0o444)
    with pytest.raises(ReadOnly) as refused:
        note_tools.move_note(tmp_path, "r.md", "sub/r.md", dry_run=dry_run, clock=CLOCK)
    assert refused.value.details["path"] == "r.md" and "--no-update-links" in refused.value.message
    assert note.read_text(encoding="utf-8") == "# R\n![](img.png)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["img.png", "r.md"]
    # asked to leave its links, it moves as it is (mv asks nothing of the file itself)
    moved = note_tools.move_note(tmp_path, "r.md", "sub/r.md", update_links=False, clock=CLOCK)
    assert moved["moved"] and (tmp_path / "sub" / "r.md").read_text(encoding="utf-8") == "# R\n![](img.png)\n"
    assert stat.S_IMODE((tmp_path / "sub" / "r.md").stat().st_mode) == 0o444


def test_a_read_only_note_moved_unchanged_moves(tmp_path: Path) -> None:
    (tmp_path / "r.md").write_text("# R\n", encoding="utf-8")
    (tmp_path / "r.md").chmod(0o444)
    assert note_tools.move_note(tmp_path, "r.md", "s.md", clock=CLOCK)["moved"]
    assert (tmp_path / "s.md").read_text(encoding="utf-8") == "# R\n"


def test_a_note_in_a_read_only_folder_is_neither_moved_out_nor_deleted(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "r.md").write_text("# R\n", encoding="utf-8")
    folder.chmod(0o555)
    try:
        for act in (lambda: note_tools.move_note(tmp_path, "locked/r.md", "r.md", clock=CLOCK),
                    lambda: note_tools.delete_note(tmp_path, "locked/r.md", clock=CLOCK)):
            with pytest.raises(ReadOnly) as refused:
                act()
            assert refused.value.details["folder"] == str(folder)
        assert (folder / "r.md").exists() and not (tmp_path / "r.md").exists()
        assert not (tmp_path / notes.BACKUP_DIR).exists()
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_read_only_note_is_not_deleted(tmp_path: Path, dry_run: bool, cli_run) -> None:
    (tmp_path / "r.md").write_text("# R\n", encoding="utf-8")
    (tmp_path / "r.md").chmod(0o444)
    args = ["note", "delete", "r.md", "--vault", str(tmp_path)] + (["--dry-run"] if dry_run else [])
    code, out = cli_run(args)
    assert code != 0 and out["error"]["code"] == "readonly" and "delete it" in out["error"]["message"]
    assert (tmp_path / "r.md").exists() and not (tmp_path / notes.BACKUP_DIR).exists()
    (tmp_path / "r.md").chmod(0o644)
    code, out = cli_run(args)
    assert code == 0 and out["deleted"] is not dry_run
