"""Block references: a link names the block it points at (``[[Spec#^scope]]`` made an edge to Spec that no reader
of `explain-edge` could tell from a plain ``[[Spec]]``), and the ``^id`` that ends a line — hidden when Obsidian
renders it — is no part of what a section says (searching the id found the section)."""
from __future__ import annotations

from mnemon.core.vault import parse_note

SPEC = ("# Spec\n\nThe zephyr module must handle retries. ^scope1\n\n- Retry three times before failing ^retry\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n^table-1\n\nRun `make ^notanid`\n\n```\nkeep ^incode\n```\n")


def test_a_link_names_the_block_it_points_at() -> None:
    note = parse_note("Use.md", "See [[Spec#^scope1]], ![[Spec#^retry|the rule]], [[Spec#Scope^b2]], [[Spec]] and"
                                " [the table](Spec.md#^table-1).\n")
    assert [(w.target, w.section, w.block, w.is_embed) for w in note.wikilinks] == [
        ("Spec", None, "scope1", False), ("Spec", None, "retry", True), ("Spec", "Scope", "b2", False),
        ("Spec", None, None, False)]
    [md] = note.markdown_links
    assert (md.target, md.section, md.block) == ("Spec.md", None, "table-1")


def test_a_sections_text_leaves_out_the_block_ids_ending_its_lines() -> None:
    [section] = parse_note("Spec.md", SPEC).sections
    assert "^scope1" not in section.body and "^retry" not in section.body and "^table-1" not in section.body
    assert "The zephyr module must handle retries.\n" in section.body
    assert "- Retry three times before failing\n" in section.body
    assert "make ^notanid" in section.body and "keep ^incode" in section.body  # code is as written
    written = SPEC.split("\n")[2:section.line_end]  # each line still a line: the pack cites the note's lines
    assert [line for line, said in zip(written, section.body.split("\n")) if not line.startswith(said)] == []
    assert len(section.body.split("\n")) == len(written)
