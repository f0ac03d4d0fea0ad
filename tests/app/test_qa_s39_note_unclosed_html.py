"""A '<pre>' (or script, style, textarea) never closed makes the rest of the note HTML to ingest, as an unclosed
code fence makes it code; the editor refused an edit landing below a fence but not below one of these: on '# Doc'
over '<pre>' and 'some code', 'mnemon note upsert-section P.md --heading Status --content new' answered ok and
"section": "appended" twice, writing '## Status' twice where ingest sees neither. Each edit is refused as below a
fence (invalid_input, html_line), and so is content that opens such a block it never closes."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest

from mnemon.app import daily_notes, notes
from mnemon.app.note_hidden import hidden_from
from mnemon.core.errors import InvalidInput

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
NOTE = "# Doc\n\n<pre>\nsome code\n"


def test_upsert_below_it_is_refused(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    (tmp_path / "P.md").write_text(NOTE, encoding="utf-8")
    code, answer = cli_run(["note", "upsert-section", "P.md", "--vault", tmp_path, "--heading", "Status",
                            "--content", "new"])
    assert code != 0 and answer["error"]["code"] == "invalid_input"
    message = answer["error"]["message"]
    assert answer["error"]["details"]["html_line"] == 3 and "<pre>" in message and "never closed" in message
    assert (tmp_path / "P.md").read_text(encoding="utf-8") == NOTE


@pytest.mark.parametrize("text, edit", [
    (NOTE, lambda root: notes.add_bullet(root, "P.md", "Status", "x", clock=CLOCK)),
    (NOTE, lambda root: notes.write_note(root, "P.md", "more\n", mode="append")),
    ("# Doc\n\n# Next\n", lambda root: notes.upsert_section(root, "P.md", "Doc", "<script>\nx = 1\n\nmore",
                                                             clock=CLOCK)),
])
def test_every_edit_landing_in_it_is_refused(tmp_path: Path, text: str, edit: Callable[[Path], object]) -> None:
    (tmp_path / "P.md").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        edit(tmp_path)
    assert "html_line" in refused.value.details
    assert (tmp_path / "P.md").read_text(encoding="utf-8") == text


def test_content_opening_one_is_refused_and_closing_it_is_not(tmp_path: Path) -> None:
    (tmp_path / "N.md").write_text("# Doc\n\n# Next\ntext\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.upsert_section(tmp_path, "N.md", "Doc", "<style>\np { }", clock=CLOCK)
    assert refused.value.details["html_line"] == 1
    notes.upsert_section(tmp_path, "N.md", "Doc", "<style>\np { }\n</style>", clock=CLOCK)
    with pytest.raises(InvalidInput):
        daily_notes.daily_note(tmp_path, "append", content="<textarea>\nnotes", clock=CLOCK)


def test_a_closed_one_or_a_div_hides_nothing() -> None:
    assert hidden_from(["<pre>\n", "x\n", "</pre>\n", "after\n"]) is None
    assert hidden_from(["<div>\n", "x\n", "\n", "after\n"]) is None
    assert hidden_from(["# A\n", "<pre>\n", "x\n"]) == ("html", 2)


def test_a_replacement_leaving_one_open_is_refused(tmp_path: Path) -> None:
    text = "# Doc\n\n<pre>x</pre>\n\n# B\n"
    (tmp_path / "R.md").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.replace_in_note(tmp_path, "R.md", "</pre>", "")
    assert refused.value.details["html_line"] == 3
    assert (tmp_path / "R.md").read_text(encoding="utf-8") == text
