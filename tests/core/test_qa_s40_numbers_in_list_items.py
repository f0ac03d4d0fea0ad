"""A numbered line not starting at 1 inside a list item's paragraph is that paragraph's text, as CommonMark renders
it (an ordered list starting past 1 cannot interrupt a paragraph, in an item as at the margin): ``- item``,
``  text``, ``  2. x`` was read as a numbered item "x". A line less indented than the item's content leaves the item
and starts a list there, as before."""
from __future__ import annotations

from mnemon.core.vault.parser import parse_note


def _items(text: str) -> list[tuple[int | None, str]]:
    return [(item.number, item.text) for item in parse_note("n.md", text).list_items]


def test_a_number_past_one_in_an_item_s_paragraph_is_its_text() -> None:
    assert _items("- item\n  text\n  2. x\n") == [(None, "item")]
    assert _items("- item\n  2. x\n") == [(None, "item")]
    assert _items("1. item\n   continued\n   2024. Then the vendor was blocked.\n") == [(1, "item")]
    assert _items("> - item\n>   2. x\n") == [(None, "item")]
    assert _items("- a\n  - b\n    2. x\n") == [(None, "a"), (None, "b")]


def test_a_number_past_one_leaving_the_item_is_an_item() -> None:
    assert _items("1. a\n   - b\n2. c\n") == [(1, "a"), (None, "b"), (2, "c")]
    assert _items("- x\n  1. a\n2. b\n") == [(None, "x"), (1, "a"), (2, "b")]
    assert _items("- a\n  - b\n  2. x\n") == [(None, "a"), (None, "b"), (2, "x")]
    assert _items("- item\n  text\n\n  2. x\n") == [(None, "item"), (2, "x")]  # (after a blank line)
