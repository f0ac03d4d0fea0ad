"""QA round 38: an edit of a note with other names (hard links) reaches every name.

With `ln o.md hard.md`, `note add-bullet o.md …` renamed a new file over `o.md` (the atomic write), so `hard.md`
kept the old text and the two names were two notes from then on, without a word. A note with other names is now
written in place, as vim and Emacs do (backed up first, as always), and the reply says so (`hard_linked`); a note
with one name is still replaced whole or not at all."""
from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import daily_notes, note_tools, notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
TEXT = "# O\n\n## S\n- a\n"

EDITS: dict[str, Callable[..., dict[str, Any]]] = {
    "append": lambda v, **k: notes.write_note(v, "o.md", "x\n", **k),
    "overwrite": lambda v, **k: notes.write_note(v, "o.md", "x\n", mode="overwrite", **k),
    "replace": lambda v, **k: notes.replace_in_note(v, "o.md", "- a", "- b", **k),
    "upsert": lambda v, **k: notes.upsert_section(v, "o.md", "S", "new", **k),
    "add_bullet": lambda v, **k: notes.add_bullet(v, "o.md", "S", "b", **k),
}


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    (tmp_path / "o.md").write_text(TEXT, encoding="utf-8")
    os.link(tmp_path / "o.md", tmp_path / "hard.md")
    return tmp_path


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_every_name_of_a_hard_linked_note_shows_the_edit(linked: Path, edit: str) -> None:
    inode = (linked / "o.md").stat().st_ino
    preview = EDITS[edit](linked, dry_run=True, clock=CLOCK)
    assert [w["code"] for w in preview["warnings"]] == ["hard_linked"] and preview["warnings"][0]["links"] == 2
    assert (linked / "hard.md").read_text(encoding="utf-8") == TEXT
    out = EDITS[edit](linked, clock=CLOCK)
    assert out["changed"] and [w["code"] for w in out["warnings"]] == ["hard_linked"]
    new = (linked / "o.md").read_text(encoding="utf-8")
    assert new != TEXT and (linked / "hard.md").read_text(encoding="utf-8") == new
    assert (linked / "o.md").stat().st_ino == inode and (linked / "o.md").stat().st_nlink == 2
    assert (linked / out["backup"]).read_text(encoding="utf-8") == TEXT
    assert sorted(p.name for p in linked.iterdir()) == [".mnemon-backups", "hard.md", "o.md"]  # no temp file


def test_a_shorter_text_leaves_no_tail_of_the_old_one(linked: Path) -> None:
    notes.write_note(linked, "o.md", "x", mode="overwrite", clock=CLOCK)
    assert (linked / "hard.md").read_bytes() == b"x\n"


def test_a_note_with_one_name_is_still_replaced_whole(tmp_path: Path) -> None:
    (tmp_path / "o.md").write_text(TEXT, encoding="utf-8")
    inode = (tmp_path / "o.md").stat().st_ino
    out = notes.add_bullet(tmp_path, "o.md", "S", "b", clock=CLOCK)
    assert "warnings" not in out
    assert (tmp_path / "o.md").stat().st_ino != inode  # a new file renamed over it: never half written


def test_a_daily_append_reaches_every_name(tmp_path: Path) -> None:
    clock = lambda: datetime(2026, 3, 1, 12, 0)  # noqa: E731
    day = tmp_path / "Daily" / "2026-03-01.md"
    day.parent.mkdir()
    day.write_text("# 2026-03-01\n", encoding="utf-8")
    os.link(day, tmp_path / "today.md")
    out = daily_notes.daily_note(tmp_path, "append", content="- call Bob", clock=clock)
    assert [w["code"] for w in out["warnings"]] == ["hard_linked"]
    assert (tmp_path / "today.md").read_text(encoding="utf-8") == day.read_text(encoding="utf-8")
    assert "- call Bob" in day.read_text(encoding="utf-8")


def test_a_move_rewrites_a_hard_linked_linking_note_in_place(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "l.md").write_text("see [[a]]\n", encoding="utf-8")
    os.link(tmp_path / "l.md", tmp_path / "copy.md")
    dry = note_tools.move_note(tmp_path, "a.md", "b.md", dry_run=True, clock=CLOCK)
    # both names are notes of the vault, each rewritten: each is said
    assert sorted((w["code"], w["path"]) for w in dry["warnings"]["warnings"]) == [("hard_linked", "copy.md"),
                                                                                  ("hard_linked", "l.md")]
    out = note_tools.move_note(tmp_path, "a.md", "b.md", clock=CLOCK)
    assert out["moved"] and out["warnings"]["count"] == 2
    assert (tmp_path / "l.md").stat().st_ino == (tmp_path / "copy.md").stat().st_ino
    assert (tmp_path / "l.md").read_text(encoding="utf-8") == "see [[b]]\n"
    assert (tmp_path / "copy.md").read_text(encoding="utf-8") == "see [[b]]\n"


def test_a_moved_hard_linked_note_whose_links_change_stays_the_same_file(tmp_path: Path) -> None:
    (tmp_path / "img.png").write_bytes(b"png")
    (tmp_path / "o.md").write_text("# O\n![](img.png)\n", encoding="utf-8")
    os.link(tmp_path / "o.md", tmp_path / "other.md")
    inode = (tmp_path / "o.md").stat().st_ino
    out = note_tools.move_note(tmp_path, "o.md", "sub/o.md", clock=CLOCK)
    assert out["content_changed"] and [w["code"] for w in out["warnings"]["warnings"]] == ["hard_linked"]
    moved = tmp_path / "sub" / "o.md"
    assert moved.read_text(encoding="utf-8") == "# O\n![](../img.png)\n" and not (tmp_path / "o.md").exists()
    assert moved.stat().st_ino == inode and (tmp_path / "other.md").read_text(encoding="utf-8") == \
        moved.read_text(encoding="utf-8")
    assert (tmp_path / out["backup"]).read_text(encoding="utf-8") == "# O\n![](img.png)\n"
