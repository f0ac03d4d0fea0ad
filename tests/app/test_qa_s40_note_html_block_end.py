"""QA round 40: a bullet or entry added right after an HTML block that runs to the next blank line.

A `<details>`, `<div>` or `<table>` block goes on to the next blank line, its closing tag included (CommonMark, and
Obsidian with it). On '## Links' over '- first', '<details>' … '</details>' and a blank line, `note add-bullet
--heading Links --bullet "new [[Target]]"` put the bullet on the line after '</details>': part of the HTML block, so
ingest saw no item and no link, and Obsidian showed the raw text — while the reply said ok. Such a bullet (a daily
entry, an appended text) is now set apart by a blank line, and every other byte of the note stays as it was."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app import daily_notes, notes
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
DETAILS = ("# P\n\n## Links\n- first\n<details>\n<summary>More</summary>\nhidden stuff\n</details>\n\n"
           "## Next\ntext\n")


def _items(text: str) -> list[str]:
    return [item.text for item in parse_note("P.md", text).list_items]


def test_a_bullet_after_a_details_block_is_a_bullet_to_ingest(tmp_path: Path) -> None:
    (tmp_path / "P.md").write_text(DETAILS, encoding="utf-8")
    notes.add_bullet(tmp_path, "P.md", "Links", "new [[Target]]", clock=CLOCK)
    after = (tmp_path / "P.md").read_text(encoding="utf-8")
    assert after == DETAILS.replace("</details>\n", "</details>\n\n- new [[Target]]\n")
    parsed = parse_note("P.md", after)
    assert "new [[Target]]" in _items(after) and [link.target for link in parsed.wikilinks] == ["Target"]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("edit", [
    lambda root: notes.add_bullet(root, "P.md", "Links", "new entry", clock=CLOCK),
    lambda root: notes.write_note(root, "P.md", "- new entry", clock=CLOCK),
    lambda root: daily_notes.daily_note(root, "append", content="- new entry", pattern="P-YYYY-MM-DD.md",
                                        day="2026-03-01", clock=CLOCK),
    lambda root: daily_notes.daily_note(root, "append", content="- new entry", heading="Links",
                                        pattern="P-YYYY-MM-DD.md", day="2026-03-01", clock=CLOCK),
], ids=["add_bullet", "write_append", "daily_append", "daily_append_heading"])
def test_an_entry_after_a_div_at_the_end_is_seen(tmp_path: Path, edit: Callable[[Path], Any], newline: str) -> None:
    text = "# P\n\n## Links\n<div>\ncard\n</div>".replace("\n", newline)
    for name in ("P.md", "P-2026-03-01.md"):
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    edit(tmp_path)
    after = max((tmp_path / name).read_bytes() for name in ("P.md", "P-2026-03-01.md"))
    assert after == (text + newline + newline + "- new entry" + newline).encode("utf-8")
    assert "new entry" in _items(after.decode("utf-8"))


def test_a_closed_pre_needs_no_gap_and_a_blank_line_after_a_div_stays(tmp_path: Path) -> None:
    (tmp_path / "P.md").write_text("## Links\n<pre>\ncode\n</pre>\n", encoding="utf-8")
    notes.add_bullet(tmp_path, "P.md", "Links", "new entry", clock=CLOCK)
    assert (tmp_path / "P.md").read_text(encoding="utf-8") == "## Links\n<pre>\ncode\n</pre>\n- new entry\n"
    (tmp_path / "P.md").write_text("## Links\n<div>\ncard\n</div>\n\n## Next\n", encoding="utf-8")
    notes.add_bullet(tmp_path, "P.md", "Links", "new entry", clock=CLOCK)
    assert (tmp_path / "P.md").read_text(encoding="utf-8") == \
        "## Links\n<div>\ncard\n</div>\n\n- new entry\n\n## Next\n"


BLOCKS = st.sampled_from(["<div>\n", "</div>\n", "<details>\n", "<table><tr><td>x</td></tr></table>\n",
                          '<span class="a">\n', "<pre>x</pre>\n", "text\n", "- item\n", "\n", "## Sub\n",
                          "<!-- note -->\n", "> <div>\n", "    <div>\n"])


@settings(max_examples=150, deadline=None)
@given(body=st.lists(BLOCKS, max_size=8))
def test_the_bullet_is_always_an_item_and_nothing_else_changes(tmp_path_factory: pytest.TempPathFactory,
                                                                body: list[str]) -> None:
    root = tmp_path_factory.mktemp("v")
    text = "## Links\n" + "".join(body)
    (root / "P.md").write_text(text, encoding="utf-8")
    notes.add_bullet(root, "P.md", "Links", "zq entry", clock=CLOCK)
    after = (root / "P.md").read_text(encoding="utf-8")
    assert "zq entry" in _items(after)
    bullet = after.index("- zq entry\n")
    # only the bullet and blank lines around it were added
    assert (after[:bullet].rstrip("\n") + after[bullet + len("- zq entry\n"):].lstrip("\n")).replace("\n", "") == \
        text.replace("\n", "")


@pytest.mark.parametrize("edit, heading", [
    (lambda root: notes.upsert_section(root, "P.md", "Status", "- zq entry", clock=CLOCK), "Status"),
    (lambda root: notes.add_bullet(root, "P.md", "Status", "zq entry", clock=CLOCK), "Status"),
    (lambda root: notes.add_bullet(root, "P.md", "Links", "zq entry", clock=CLOCK), "Links"),
], ids=["upsert_new_section", "add_bullet_new_section", "add_bullet_after_div"])
def test_a_last_line_ending_in_a_lone_cr_keeps_the_blank_line(tmp_path: Path, edit: Callable[[Path], Any],
                                                               heading: str) -> None:
    """A note of LF lines whose last one ends in a CR (an old Mac editor's): the blank line written after it was an
    LF, which with that CR is one CRLF, so no blank line, and the new section or bullet was in the '<div>' block."""
    text = "# P\n\n## Links\n- a\n<div>\ncard\n</div>\r"
    (tmp_path / "P.md").write_bytes(text.encode("utf-8"))
    edit(tmp_path)
    after = (tmp_path / "P.md").read_bytes().decode("utf-8")
    assert after.startswith(text) and "zq entry" in _items(after)
    parsed = parse_note("P.md", after)
    assert [section.heading_path[-1] for section in parsed.sections if "zq entry" in section.body] == [heading]
