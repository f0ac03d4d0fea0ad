"""A line indented four columns past a list item's content, after a blank line, is code inside that item, as
CommonMark and Obsidian show it: ``- a``, a blank line, ``      - [ ] x`` (the item's content starts at column 2, the
line at 6) is an example in a code block, and it was read as an open task. A line indented less than that is the
item's content, still read."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note


def _tasks(text: str) -> list[str]:
    return [task.text for task in parse_note("n.md", text).tasks]


def test_a_task_four_columns_past_an_item_s_content_is_code() -> None:
    assert _tasks("- a\n\n      - [ ] x\n") == []
    assert _tasks("1. a\n\n       - [ ] x\n") == []
    assert _tasks("- a\n\n  b\n\n      - [ ] x [[Example]] #example\n") == []
    assert parse_note("n.md", "- a\n\n      [[Example]] #example\n").wikilinks == ()
    assert _tasks("- a\n  - b\n\n        - [ ] x\n") == []  # (the nested item's content is at 4)


def test_the_item_s_content_after_its_code_is_read_again() -> None:
    text = "- a\n\n      - [ ] example\n    more [[Kept]]\n\n      - [ ] another example\n  - [ ] real one\n"
    assert _tasks(text) == ["real one"]
    assert [link.target for link in parse_note("n.md", text).wikilinks] == ["Kept"]


def test_content_indented_less_than_four_past_the_item_is_still_read() -> None:
    assert _tasks("- a\n\n     - [ ] x\n") == ["x"]  # (3 past the content column)
    assert _tasks("10. a\n\n       - [ ] x\n") == ["x"]  # (the content column is 4)
    assert _tasks("- a\n  - b\n\n      - [ ] x\n") == ["x"]


@settings(max_examples=80, deadline=None)
@given(marker=st.sampled_from(["-", "*", "1.", "10.", "3)"]), spaces=st.integers(1, 4), past=st.integers(0, 7),
       between=st.sampled_from(["", "  more of it\n\n"]))
def test_a_task_is_code_exactly_when_four_columns_past_the_content(marker: str, spaces: int, past: int,
                                                                     between: str) -> None:
    content = len(marker) + spaces
    text = f"{marker}{' ' * spaces}item\n\n{between.replace('  ', ' ' * content, 1)}{' ' * (content + past)}- [ ] x\n"
    assert _tasks(text) == ([] if past >= 4 else ["x"])


def test_a_block_indented_four_under_a_paragraph_no_item_holds_is_code() -> None:
    assert _tasks("  Indented intro.\n\n      - [ ] x\n") == []
    assert _tasks("100. item\n\n    - [ ] x\n") == []  # (the item's content starts at 5: the line is outside it)
    assert _tasks("- a\n\n  b\n\nc\n  d\n\n      - [ ] x\n") == []  # ("c" ended the list)
    assert _tasks("100. item\n\n     - [ ] x\n") == ["x"]
