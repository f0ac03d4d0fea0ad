"""A ``===`` (or ``---``) under a list item's paragraph but not indented into the item is a lazy continuation of that
paragraph, text, as CommonMark renders it: ``- a``, a blank line, ``  b``, ``===`` made "b" a heading of the note
(its title, and a section). Indented into the item it is a heading there, as an ATX heading in an item is."""
from __future__ import annotations

import time

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
    # (a '===' right under a heading's underline, or under a code block, underlines nothing either)
    assert [link.target for link in parse_note("n.md", "Title\n===\n===\n    see [[X]]\n").wikilinks] == ["X"]
    text = "Title\n===\n    see [[Code]]\n===\n    see [[Y]]\n"
    assert [link.target for link in parse_note("n.md", text).wikilinks] == ["Y"]


def test_many_underlines_that_underline_nothing_cost_linear_time() -> None:
    # (each '===' going on the paragraph walked back over all of it: 5,000 of them took over half a minute)
    texts = ["- a\n\n" + "  b\n===\n      x\n" * 5000, "- a\n" + "===\n" * 20000 + "    x\n",
             "- a\n" + "===\n    x\n" * 10000]
    for text in texts:
        started = time.process_time()
        note = parse_note("n.md", text)
        assert time.process_time() - started < 2.0
        assert note.headings == ()
