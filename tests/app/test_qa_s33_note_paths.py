"""QA round 33: note paths the file system cannot take as asked.

* A path through a file (`Projects/lighthouse.md/x.md`): a dry run reported the note as created, the write itself
  failed with `internal` (FileExistsError). Refused as `invalid_input` by both, as `note move` refused it already.
* A long file name: a note whose name was 229-255 bytes could not be edited at all (the temporary file beside it,
  `.<name>.<token>.tmp`, and its backup, `<name>.<stamp>.bak`, were longer than a file name may be), and a name over
  255 bytes failed with `internal` naming an OSError. Such notes are now written and backed up; a name no file
  system takes is refused up front."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import daily_notes, note_tools, notes
from mnemon.core.errors import InvalidInput

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    (tmp_path / "Projects").mkdir()
    (tmp_path / "Projects" / "lighthouse.md").write_text("# Lighthouse\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.parametrize("edit", [
    lambda v, p, d: notes.write_note(v, p, "x\n", dry_run=d, clock=CLOCK),
    lambda v, p, d: notes.add_bullet(v, p, "Tasks", "x", dry_run=d, clock=CLOCK),
    lambda v, p, d: notes.upsert_section(v, p, "Tasks", "x", dry_run=d, clock=CLOCK),
], ids=["write", "add-bullet", "upsert-section"])
def test_a_path_through_a_file_is_refused_by_a_dry_run_and_a_write(vault: Path, edit, dry_run: bool) -> None:
    with pytest.raises(InvalidInput) as caught:
        edit(vault, "Projects/lighthouse.md/x.md", dry_run)
    assert caught.value.details["file"] == "Projects/lighthouse.md"
    assert (vault / "Projects" / "lighthouse.md").read_text(encoding="utf-8") == "# Lighthouse\n"


def test_a_daily_pattern_through_a_file_is_refused(vault: Path) -> None:
    with pytest.raises(InvalidInput):
        daily_notes.daily_note(vault, "append", content="x", pattern="Projects/lighthouse.md/YYYY-MM-DD",
                              clock=CLOCK)


@pytest.mark.parametrize("name_bytes", [231, 239, 255])
def test_a_note_with_a_long_name_is_edited_and_backed_up(vault: Path, name_bytes: int) -> None:
    name = "é" * ((name_bytes - 3) // 2) + "a" * ((name_bytes - 3) % 2) + ".md"
    assert len(name.encode("utf-8")) == name_bytes
    (vault / name).write_text("# Long\n", encoding="utf-8")
    out = notes.add_bullet(vault, name, "Tasks", "follow up", clock=CLOCK)
    assert out["changed"] is True
    assert (vault / name).read_text(encoding="utf-8") == "# Long\n\n## Tasks\n\n- follow up\n"
    backup = vault / out["backup"]
    assert backup.read_bytes() == b"# Long\n" and backup.name.endswith(".bak")
    assert len(backup.name.encode("utf-8")) <= 255
    notes.add_bullet(vault, name, "Tasks", "again", clock=CLOCK)  # a second backup in the same clock tick
    assert len(list((vault / notes.BACKUP_DIR).iterdir())) == 2
    assert not [p for p in vault.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("path", ["a" * 253 + ".md", "Projects/" + "é" * 127 + ".md", "b" * 256 + "/x.md"])
def test_a_name_longer_than_a_file_system_takes_is_refused(vault: Path, path: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        notes.write_note(vault, path, "x\n", mode="create", clock=CLOCK)
    assert "255 bytes" in caught.value.message
