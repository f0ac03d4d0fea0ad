"""QA round 40: a numbered item added under a paragraph was that paragraph's text to every renderer.

On '## Steps', '1. first', '', 'A note about the steps', `note add-bullet --heading Steps --bullet second` wrote
'2. second' right under the paragraph. CommonMark lets only an item numbered 1 start a list that interrupts a
paragraph, so Obsidian showed "A note about the steps 2. second" as one paragraph, while ingest counted an item. Such
an item is now set apart by a blank line; under a list item, or numbered 1, it needs none."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.mark.parametrize("text, bullet, expected", [
    ("## Steps\n1. first\n\nA note about the steps\n", "second",
     "## Steps\n1. first\n\nA note about the steps\n\n2. second\n"),
    ("## Steps\n1) first\n\nA note\n\n## Next\n", "second", "## Steps\n1) first\n\nA note\n\n2) second\n\n## Next\n"),
    ("## Steps\nA note\n", "3. third", "## Steps\nA note\n\n3. third\n"),
    # no gap: under an item, an item numbered 1, a bullet (which may interrupt a paragraph)
    ("## Steps\n1. first\n", "second", "## Steps\n1. first\n2. second\n"),
    ("## Steps\nA note\n", "1. one", "## Steps\nA note\n1. one\n"),
    ("## Steps\nA note\n", "item", "## Steps\nA note\n- item\n"),
])
def test_a_numbered_item_under_a_paragraph_starts_a_list(tmp_path: Path, text: str, bullet: str,
                                                         expected: str) -> None:
    (tmp_path / "S.md").write_text(text, encoding="utf-8")
    notes.add_bullet(tmp_path, "S.md", "Steps", bullet, clock=CLOCK)
    assert (tmp_path / "S.md").read_text(encoding="utf-8") == expected
