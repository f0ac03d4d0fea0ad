"""`find_nodes` (the workbench's search by title, `mnemon find-nodes`) reads a query written as an Obsidian link as
the note it links to: "[[Lighthouse]]" pasted from a note listed no note at all ("title holds the words": the
brackets are no title's), while the page's recall half listed the bullets that link to it."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon

LIGHTHOUSE = "note:Projects/lighthouse.md"


@pytest.mark.parametrize("query", ["[[Lighthouse]]", " [[lighthouse|LH]] ", "[[Lighthouse#Budget]]",
                                   "![[Lighthouse]]", "[[Projects/lighthouse]]", "[[Lighthouse#^block|the plan]]"])
def test_a_wikilink_finds_the_note_it_names(example_vault_mem: Mnemon, query: str) -> None:
    found = example_vault_mem.find_nodes(query)
    assert found["nodes"][0]["id"] == LIGHTHOUSE
    assert found["query"] == query.strip()  # said as it was asked


@pytest.mark.parametrize("query", ["[[", "[[]]", "]]", "[[Nothing by this name]]", "a [[Lighthouse]] b"])
def test_anything_else_is_searched_as_written(example_vault_mem: Mnemon, query: str) -> None:
    assert LIGHTHOUSE not in [n["id"] for n in example_vault_mem.find_nodes(query)["nodes"]]
