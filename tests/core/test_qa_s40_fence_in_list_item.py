"""A list item whose text opens a code fence (``- ```python``, the way Logseq writes every code block, and CommonMark
reads as a fenced block inside the item) was no fence: the code's lines were read as prose, so a "- [ ] x" or
"- TODO x" in a pasted snippet was an open loop and its "[[link]]" an edge."""
from __future__ import annotations

from mnemon.core.vault import parse_note
from mnemon.core.vault.logseq import LogseqGraph


def test_a_fence_opened_by_a_list_item_is_code() -> None:
    note = parse_note("Falcon.md", "- Example:\n- ```markdown\n  - [ ] not a task [[Nope]] #nope\n  ```\n- [ ] real\n")
    assert [task.text for task in note.tasks] == ["real"]
    assert not note.wikilinks and not note.tags
    assert [item.text for item in note.list_items] == ["Example:"]


def test_a_graphs_code_block_is_code() -> None:
    text = "- Example\n\t- ```python\n\t  # TODO not a task [[Nope]]\n\t  - TODO nor this\n\t  ```\n\t- TODO real\n"
    note = parse_note("pages/Falcon.md", text, logseq=LogseqGraph())
    assert [task.text for task in note.tasks] == ["real"]
    assert not note.wikilinks


def test_inline_code_after_a_marker_is_no_fence() -> None:
    note = parse_note("Falcon.md", "- ```npm ci``` fails\n- [ ] fix it\n")
    assert [task.text for task in note.tasks] == ["fix it"]
