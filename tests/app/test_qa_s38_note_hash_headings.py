"""QA round 38: a '#' at the start of --heading that opens no heading is part of its text.

`--heading "## Status"` names the heading "Status" (its opening run of '#' is markup), but every leading '#' was
stripped: `note add-bullet --heading "#1 Priority"` missed the note's "## #1 Priority", and appended a new section
"## 1 Priority" (another heading, the '#' lost); `--heading "#waiting"` (an Obsidian tag) wrote "## waiting"."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import notes
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


def _headings(vault: Path) -> list[str]:
    return [h.text for h in parse_note("n.md", (vault / "n.md").read_text(encoding="utf-8")).headings]


def test_add_bullet_finds_a_heading_starting_with_a_hash(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text("# Plan\n\n## #1 Priority\n- ship\n", encoding="utf-8")
    out = notes.add_bullet(tmp_path, "n.md", "#1 Priority", "test", clock=CLOCK)
    assert out["heading"] == "#1 Priority"
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "# Plan\n\n## #1 Priority\n- ship\n- test\n"
    assert notes.read_note(tmp_path, "n.md", heading="#1 Priority")["content"] == "- ship\n- test\n"


@pytest.mark.parametrize("heading", ["#waiting", "#1 Priority", "C#"])
def test_a_new_section_keeps_the_heading_as_given(tmp_path: Path, heading: str) -> None:
    (tmp_path / "n.md").write_text("# Plan\n", encoding="utf-8")
    for _ in range(2):  # the second finds the first's section
        notes.upsert_section(tmp_path, "n.md", heading, "x", clock=CLOCK)
    assert _headings(tmp_path) == ["Plan", heading]


@pytest.mark.parametrize("given", ["Status", "## Status", "##  Status ##", "#\tStatus", " ### Status"])
def test_heading_markup_still_names_the_heading(tmp_path: Path, given: str) -> None:
    (tmp_path / "n.md").write_text("## Status\n- a\n", encoding="utf-8")
    out = notes.add_bullet(tmp_path, "n.md", given, "b", clock=CLOCK)
    assert out["heading"] == "Status"
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "## Status\n- a\n- b\n"
