"""`graph --folder` given a note's path ("Projects/lighthouse.md", typed in the workbench's Folder box) drew nothing
and said nothing of the note: an empty folder whose name is a note's now names it (`note`) and how to draw it."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon

LIGHTHOUSE = "note:Projects/lighthouse.md"


@pytest.mark.parametrize("folder", ["Projects/lighthouse.md", "/Projects/lighthouse.md/", "Projects/lighthouse"])
def test_a_folder_that_is_a_note_names_the_note(example_vault_mem: Mnemon, folder: str) -> None:
    out = example_vault_mem.graph(folder=folder)
    assert out["nodes"] == [] and out["note"]["id"] == LIGHTHOUSE and out["note"]["title"] == "Lighthouse"
    assert "is a note, not a folder" in out["hint"] and LIGHTHOUSE in out["hint"]


@pytest.mark.parametrize("folder", ["Projects", "Nowhere"])
def test_a_folder_with_notes_or_naming_nothing_says_nothing_of_a_note(example_vault_mem: Mnemon, folder: str) -> None:
    out = example_vault_mem.graph(folder=folder)
    assert "note" not in out and "hint" not in out
