"""A refusal to edit around an HTML block never closed named every tag it could be — "the HTML block (a <pre>,
<script>, <style> or <textarea>) opened at line 3 is never closed" — where the note's line shows which: the
refusal names the block by its own tag."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import notes
from mnemon.core.errors import InvalidInput

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
OTHERS = ("<pre>", "<script>", "<style>", "<textarea>")


def _says_only(message: str, tag: str) -> None:
    assert f"{tag} block" in message
    assert not any(other in message for other in OTHERS if other != tag)


@pytest.mark.parametrize("opener", ["<pre>", "<PRE class='x'>", "<pre"])
def test_an_edit_below_it_names_its_tag(tmp_path: Path, opener: str) -> None:
    (tmp_path / "P.md").write_text(f"# Doc\n\n{opener}\nsome code\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.add_bullet(tmp_path, "P.md", "Status", "x", clock=CLOCK)
    _says_only(refused.value.message, "<pre>")


def test_content_opening_one_names_its_tag(tmp_path: Path) -> None:
    (tmp_path / "N.md").write_text("# Doc\n\n# Next\ntext\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.upsert_section(tmp_path, "N.md", "Doc", "<script>\nx = 1", clock=CLOCK)
    _says_only(refused.value.message, "<script>")


def test_a_replacement_leaving_one_open_names_its_tag(tmp_path: Path) -> None:
    (tmp_path / "R.md").write_text("# Doc\n\n<textarea>x</textarea>\n\n# B\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.replace_in_note(tmp_path, "R.md", "</textarea>", "")
    _says_only(refused.value.message, "<textarea>")
