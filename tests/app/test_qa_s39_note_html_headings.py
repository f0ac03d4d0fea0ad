"""The note editor sees the headings ingest sees, none in a raw HTML block: '<div>' over '## Status' and 'html text'
is HTML to ingest (no heading), yet 'mnemon note read H.md --heading Status' answered the section 'html text\\n</div>
\\n\\nbody\\n' and 'mnemon note upsert-section H.md --heading Status --content new' replaced the HTML's lines and what
followed them. Indented code, '~~~' fences and comments already hid a heading from both (the shared code and comment
passes); the HTML pass is now shared the same way."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.app import note_tools, notes
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
NOTE = "# Doc\n\n<div>\n## Status\nhtml text\n</div>\n\nbody\n"


def test_read_does_not_find_a_heading_in_an_html_block(cli_run: Callable[..., tuple[int, Any]],
                                                       tmp_path: Path) -> None:
    (tmp_path / "H.md").write_text(NOTE, encoding="utf-8")
    code, answer = cli_run(["note", "read", "H.md", "--vault", tmp_path, "--heading", "Status"])
    assert code != 0 and answer["error"]["code"] == "not_found"


def test_upsert_and_add_bullet_leave_the_html_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "H.md").write_text(NOTE, encoding="utf-8")
    notes.upsert_section(tmp_path, "H.md", "Status", "new", clock=CLOCK)
    notes.add_bullet(tmp_path, "H.md", "Status", "a bullet", clock=CLOCK)
    text = (tmp_path / "H.md").read_text(encoding="utf-8")
    assert text.startswith(NOTE)
    assert [(h.level, h.text) for h in parse_note("H.md", text).headings] == [(1, "Doc"), (2, "Status")]
    assert notes.read_note(tmp_path, "H.md", heading="Status")["content"] == "\nnew\n- a bullet\n"


def test_a_listing_titles_a_note_by_the_h1_ingest_sees(tmp_path: Path) -> None:
    text = "<details>\n# Not The Title\n</details>\n\n# Real\n"
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    assert [entry["title"] for entry in note_tools.list_notes(tmp_path)["notes"]] == ["Real"]
    assert parse_note("n.md", text).title == "Real"


BLOCKS = ["<div>\n## In Div\n", "<pre>\n\n## In Pre\n</pre>\n", "> <div>\n> ## In Quote\n", "- <div>\n  ## In Item\n",
          "    ## Indented\n", "~~~\n## Tilde\n~~~\n", "<!--\n## Comment\n-->\n", "%%\n## Obsidian\n%%\n",
          "```\n## Fenced\n```\n", "## Seen\n", "Text\n", "Setext\n---\n", "<span>\n## After A Lone Tag\n"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=6), st.booleans())
def test_the_editor_s_headings_are_the_parser_s(blocks: list[str], blank_between: bool) -> None:
    text = ("\n" if blank_between else "").join(blocks)
    lines = text.split("\n")
    assert [(head.first + 1, head.text) for head in notes._headings(lines)] == \
        [(heading.line, heading.text) for heading in parse_note("n.md", text).headings]
