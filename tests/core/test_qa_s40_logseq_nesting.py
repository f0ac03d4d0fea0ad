"""Logseq nests blocks by indentation alone, as deep as a person likes, so an indented line of a graph's note is a
block, never an indented code block: "title:: Falcon", a blank line, "\\t- TODO Call Bram" was read as code (its
task lost), as was a page starting with an indented block. In a plain vault CommonMark's reading stays: a line
indented four after a paragraph and a blank line is code, a list's indented item after a blank line is its item.
(Indented code *inside* a list item — "- a", a blank line, six spaces and "- [ ] x" — is still read as a task in a
plain vault; changing that must leave a graph's deep nesting alone, which `logseq=` now isolates.)"""
from __future__ import annotations

import pytest

from mnemon.core.vault import parse_note
from mnemon.core.vault.logseq import LogseqGraph

GRAPH = LogseqGraph()


@pytest.mark.parametrize("text", [
    "title:: Falcon\n\n\t- TODO Call Bram\n",
    "\t- TODO Call Bram\n",
    "- Kickoff\n\t- Budget\n\n\t\t- TODO Call Bram\n",
    "- Kickoff\n\n\t\t\t- TODO Call Bram\n",
    "Kickoff notes\n\n    - TODO Call Bram\n",
])
def test_an_indented_block_of_a_graph_is_a_block(text: str) -> None:
    note = parse_note("pages/Falcon.md", text, logseq=GRAPH)
    assert [(task.status, task.text) for task in note.tasks] == [("todo", "Call Bram")]


def test_a_plain_vault_keeps_commonmarks_indented_code() -> None:
    note = parse_note("Falcon.md", "Kickoff notes\n\n    - [ ] Call Bram [[Nope]]\n")
    assert not note.tasks and not note.wikilinks
    note = parse_note("Falcon.md", "- Kickoff\n\n\t- [ ] Call Bram\n")
    assert [task.text for task in note.tasks] == ["Call Bram"]
