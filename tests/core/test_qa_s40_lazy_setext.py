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
