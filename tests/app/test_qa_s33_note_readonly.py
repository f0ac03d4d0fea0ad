"""QA round 33: a note the user may not write is refused, not replaced.

A `chmod 444` note was overwritten without a word: the atomic rename replaces the file whatever its mode. Every
editor write to a note (or into a folder) the user cannot write is now `readonly`, with nothing written and no
backup left behind; a dry run says the same. Run as root the same notes are refused (round 38: these tests no longer
pretend not to be root)."""
from __future__ import annotations

import stat
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import daily_notes, note_tools, notes
from mnemon.core.errors import ReadOnly

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
TEXT = "# T\n\n## S\n- a\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    note = tmp_path / "r.md"
    note.write_text(TEXT, encoding="utf-8")
    note.chmod(0o444)
    return tmp_path


EDITS: dict[str, Callable[..., dict[str, Any]]] = {
    "write": lambda v, **k: notes.write_note(v, "r.md", "x", mode="append", **k),
    "overwrite": lambda v, **k: notes.write_note(v, "r.md", "x", mode="overwrite", **k),
    "replace": lambda v, **k: notes.replace_in_note(v, "r.md", "a", "b", **k),
    "upsert": lambda v, **k: notes.upsert_section(v, "r.md", "S", "new", **k),
    "add_bullet": lambda v, **k: notes.add_bullet(v, "r.md", "S", "b", **k),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_read_only_note_is_refused_and_kept(vault: Path, edit: str, dry_run: bool) -> None:
    with pytest.raises(ReadOnly) as refused:
        EDITS[edit](vault, dry_run=dry_run, clock=CLOCK)
    assert refused.value.code == "readonly" and refused.value.details["path"] == "r.md"
    assert "r.md" in refused.value.message
    assert (vault / "r.md").read_text(encoding="utf-8") == TEXT
    assert stat.S_IMODE((vault / "r.md").stat().st_mode) == 0o444
    assert not (vault / notes.BACKUP_DIR).exists()
    assert sorted(p.name for p in vault.iterdir()) == ["r.md"]  # no temporary file either
    (vault / "r.md").chmod(0o644)
    assert EDITS[edit](vault, dry_run=dry_run, clock=CLOCK)["changed"]


def test_a_daily_append_to_a_read_only_note_is_refused(tmp_path: Path) -> None:
    clock = lambda: datetime(2026, 3, 1, 12, 0)  # noqa: E731
    day = tmp_path / "Daily" / "2026-03-01.md"
    day.parent.mkdir()
    day.write_text("x\n", encoding="utf-8")
    day.chmod(0o444)
    with pytest.raises(ReadOnly):
        daily_notes.daily_note(tmp_path, "append", content="y", clock=clock)
    assert day.read_text(encoding="utf-8") == "x\n" and not (tmp_path / notes.BACKUP_DIR).exists()


def test_the_cli_answers_with_the_readonly_envelope(vault: Path, cli_run) -> None:
    code, out = cli_run(["note", "write", "r.md", "--vault", str(vault), "--content", "x"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "readonly"
    assert (vault / "r.md").read_text(encoding="utf-8") == TEXT
    # an edit that changes nothing writes nothing, and answers as before
    code, out = cli_run(["note", "add-bullet", "r.md", "--vault", str(vault), "--heading", "S", "--bullet", "a"])
    assert code == 0 and out["duplicate"] and not out["changed"]


def test_a_move_that_would_rewrite_a_read_only_linking_note_is_refused_before_anything_moves(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    linking = tmp_path / "l.md"
    linking.write_text("# L\nsee [[a]]\n", encoding="utf-8")
    linking.chmod(0o444)
    for dry_run in (True, False):
        with pytest.raises(ReadOnly) as refused:
            note_tools.move_note(tmp_path, "a.md", "Archive/b.md", dry_run=dry_run, clock=CLOCK)
        assert refused.value.details["path"] == "l.md"
    assert (tmp_path / "a.md").exists() and not (tmp_path / "Archive").exists()
    assert linking.read_text(encoding="utf-8") == "# L\nsee [[a]]\n"
    assert not (tmp_path / ".mnemon-backups").exists()
    moved = note_tools.move_note(tmp_path, "a.md", "Archive/b.md", update_links=False, clock=CLOCK)
    assert moved["moved"] and linking.read_text(encoding="utf-8") == "# L\nsee [[a]]\n"  # asked to leave links
