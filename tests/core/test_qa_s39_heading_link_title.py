"""A note's title taken from an H1 holding a Markdown link reads as the reader sees it: '# Meeting with
[Ada](People/Ada.md)' was titled 'Meeting with [Ada](People/Ada.md)' ('mnemon show note:Meeting.md' answered that
title), so '[[Meeting with Ada]]' named no note; a wikilink in it already read as its name."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from mnemon.core.vault.parser import parse_note


def test_a_markdown_link_in_the_h1_reads_as_its_text() -> None:
    note = parse_note("Meeting.md", "# Meeting with [Ada](People/Ada.md) and [[Bram|B.]]\n")
    assert note.title == "Meeting with Ada and B."
    assert note.headings[0].is_title  # the H1 is the title, not a second heading beside it
    assert [link.target for link in note.markdown_links] == ["People/Ada.md"]


def test_a_link_to_the_title_reaches_the_note(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "2026-03-04.md").write_text("# Meeting with [Ada](Ada.md)\n", encoding="utf-8")
    (vault / "Ada.md").write_text("# Ada\nSee [[Meeting with Ada]].\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:2026-03-04.md"])
    assert code == 0 and shown["title"] == "Meeting with Ada"
    code, ada = cli_run(["show", "note:Ada.md"])
    assert [e["target_id"] for e in ada["edges"]
            if e["edge_type"] == "links_to" and e["source_id"] == "note:Ada.md"] == ["note:2026-03-04.md"]
