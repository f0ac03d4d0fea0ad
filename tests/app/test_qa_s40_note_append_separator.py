"""QA round 40: an appended '---' separator made the note's last paragraph a heading.

On '# Log', '', 'Met Ana about the permits', `note write log.md --content $'---\\nCalled the vendor'` (append) wrote the
'---' right under the paragraph: a setext underline, so 'Met Ana about the permits' became a level-2 heading to
ingest and to Obsidian, a line of the user's own text changed by an edit that only added text. An appended text (a
daily entry too) whose first line would underline the note's last line is now set apart by a blank line."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest

from mnemon.app import daily_notes, notes
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
DAILY = "Daily/2026-03-01.md"


def _headings(text: str) -> list[str]:
    return [heading.text for heading in parse_note("n.md", text).headings]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("underline", ["---", "===", "  ----- "])
@pytest.mark.parametrize("edit, path", [
    (lambda root, content: notes.write_note(root, "log.md", content, clock=CLOCK), "log.md"),
    (lambda root, content: daily_notes.daily_note(root, "append", content=content, day="2026-03-01", clock=CLOCK),
     DAILY),
    (lambda root, content: daily_notes.daily_note(root, "append", content=content, heading="Log",
                                                  day="2026-03-01", clock=CLOCK), DAILY),
], ids=["write_append", "daily_append", "daily_append_heading"])
def test_an_appended_separator_leaves_the_last_paragraph_a_paragraph(tmp_path: Path, newline: str, underline: str,
                                                                     edit: Callable[[Path, str], Any],
                                                                     path: str) -> None:
    text = "# Log\n\nMet Ana about the permits".replace("\n", newline) + newline
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_bytes(text.encode("utf-8"))
    edit(tmp_path, f"{underline}\nCalled the vendor")
    after = (tmp_path / path).read_bytes()
    assert after == (text + newline + underline + newline + "Called the vendor" + newline).encode("utf-8")
    assert _headings(after.decode("utf-8")) == ["Log"]


def test_an_append_after_a_blank_line_or_a_heading_adds_no_gap(tmp_path: Path) -> None:
    for text in ("# Log\n\npara\n\n", "# Log\n"):
        (tmp_path / "log.md").write_text(text, encoding="utf-8")
        notes.write_note(tmp_path, "log.md", "---\nnext", clock=CLOCK)
        assert (tmp_path / "log.md").read_text(encoding="utf-8") == text + "---\nnext\n"


def test_a_thematic_break_is_no_underline_and_needs_no_gap(tmp_path: Path) -> None:
    (tmp_path / "log.md").write_text("# Log\n\npara\n", encoding="utf-8")
    notes.write_note(tmp_path, "log.md", "- - -\nnext", clock=CLOCK)
    assert (tmp_path / "log.md").read_text(encoding="utf-8") == "# Log\n\npara\n- - -\nnext\n"
