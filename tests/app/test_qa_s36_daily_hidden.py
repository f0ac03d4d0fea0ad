"""`note daily append` wrote content that opens a `%%` comment it never closes, and appended after such an opener:
the day's later entries were hidden from Obsidian and the graph while each append reported success. The other
note edits refuse both (app/note_hidden.py); a daily note, appended to all day, does too."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.daily_notes import daily_note
from mnemon.app.notes import replace_in_note
from mnemon.core.errors import InvalidInput

DAY = {"day": "2026-03-01", "pattern": "Daily/YYYY-MM-DD"}
NOTE = "Daily/2026-03-01.md"


@pytest.mark.parametrize("action, content, heading, detail", [
    ("append", "%% private start", None, "comment_line"),
    ("append", "- 100%% sure", "Log", "comment_line"),
    ("create", "notes %% from here", None, "comment_line"),
    ("append", "```sh\nmake all", None, "fence_line"),
])
def test_daily_content_that_hides_what_follows_is_refused(tmp_path: Path, action: str, content: str,
                                                          heading: str | None, detail: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        daily_note(tmp_path, action, content=content, heading=heading, **DAY)
    assert detail in refused.value.details
    assert not (tmp_path / NOTE).exists()


@pytest.mark.parametrize("heading", [None, "Log"])
def test_nothing_is_appended_after_an_unclosed_opener(tmp_path: Path, heading: str | None) -> None:
    text = "## Log\n- met Ana\nwords %% unsure\n"
    (tmp_path / "Daily").mkdir()
    (tmp_path / NOTE).write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        daily_note(tmp_path, "append", content="- [ ] call Bo", heading=heading, **DAY)
    assert refused.value.details["comment_line"] == 3
    assert (tmp_path / NOTE).read_text(encoding="utf-8") == text


def test_a_comment_that_closes_is_appended(tmp_path: Path) -> None:
    daily_note(tmp_path, "append", content="- call Bo %%not this%%", **DAY)
    daily_note(tmp_path, "append", content="- then Ana", **DAY)
    assert (tmp_path / NOTE).read_text(encoding="utf-8") == "- call Bo %%not this%%\n- then Ana\n"



@pytest.mark.parametrize("replacement, detail, line", [("pack %% bags", "comment_line", 2),
                                                       ("pack bags\n```sh", "fence_line", 3)])
def test_a_replacement_that_opens_what_hides_the_rest_is_refused(tmp_path: Path, replacement: str, detail: str,
                                                                 line: int) -> None:
    """`note replace --find 'pack bags' --replace 'pack %% bags'` hid every line after it, reporting 1 replacement."""
    text = "## Tasks\n- pack bags\n- call Bo\n\n## Later\n- ship it\n"
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        replace_in_note(tmp_path, "n.md", "pack bags", replacement)
    assert refused.value.details[detail] == line and (tmp_path / "n.md").read_text(encoding="utf-8") == text
    replace_in_note(tmp_path, "n.md", "pack bags", "pack %%two%% bags")  # a comment that closes
    assert "- pack %%two%% bags\n- call Bo\n" in (tmp_path / "n.md").read_text(encoding="utf-8")


def test_a_replacement_in_a_note_already_open_is_the_writers_own(tmp_path: Path) -> None:
    text = "## Log\n- a\nwords %% unsure\n- b\n"
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    replace_in_note(tmp_path, "n.md", "unsure", "unsure %%")  # closing it: the rest is seen again
    replace_in_note(tmp_path, "n.md", "- a", "- A")
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "## Log\n- A\nwords %% unsure %%\n- b\n"
