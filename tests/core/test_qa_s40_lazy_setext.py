"""A ``===`` (or ``---``) under a list item's paragraph but not indented into the item is a lazy continuation of that
paragraph, text, as CommonMark renders it: ``- a``, a blank line, ``  b``, ``===`` made "b" a heading of the note
(its title, and a section). Indented into the item it is a heading there, as an ATX heading in an item is."""
from __future__ import annotations

from mnemon.core.vault.parser import parse_note


def _headings(text: str) -> list[tuple[int, str]]:
    return [(heading.level, heading.text) for heading in parse_note("n.md", text).headings]


def test_a_lazy_underline_under_an_item_s_paragraph_is_no_heading() -> None:
    assert _headings("- a\n\n  b\n===\n") == []
    assert _headings("1. a\n\n   b\n   c\n===\n") == []
    assert _headings("- a\n  - b\n\n    c\n===\n") == []
    note = parse_note("Real Title.md", "- a\n\n  b\n===\n")
    assert note.title == "Real Title"


def test_an_underline_indented_into_the_item_or_under_a_paragraph_outside_it_is_a_heading() -> None:
    assert _headings("- a\n\n  b\n  ===\n") == [(1, "b")]
    assert _headings("- a\n\nb\n===\n") == [(1, "b")]
    assert _headings("- a\n\n  b\n\nc\n---\n") == [(2, "c")]


def test_a_line_indented_under_a_lazy_underline_goes_on_the_paragraph() -> None:
    # (no heading ended the paragraph, so the indented line below is its text, not a code block hiding its link)
    for text in ("- item\n===\n      see [[Kept]]\n", "Intro\n\n===\n    see [[Kept]]\n",
                 "- a\n\n  b\n===\n      see [[Kept]]\n"):
        note = parse_note("n.md", text)
        assert note.headings == ()
        assert [link.target for link in note.wikilinks] == ["Kept"], text
    assert parse_note("n.md", "Title\n===\n    see [[Code]]\n").wikilinks == ()  # (under a heading: code)
