"""`graph --folder` (the workbench's Folder box) finds a folder whose name is spelt with another Unicode normal form:
a vault folder "Ärzte" written decomposed (A + U+0308, as macOS file names often are) drew no notes for "Ärzte" typed
composed, which looks the same, and the page said "No notes under Ärzte/ (folder names are case-sensitive)."."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon


@pytest.mark.parametrize("on_disk", ["NFD", "NFC"])
@pytest.mark.parametrize("typed", ["NFD", "NFC"])
def test_a_folder_is_found_whichever_normal_form_names_it(mem: Mnemon, tmp_path: Path, on_disk: str,
                                                          typed: str) -> None:
    vault = tmp_path / "vault"
    folder = vault / unicodedata.normalize(on_disk, "Ärzte")
    folder.mkdir(parents=True)
    (folder / "müller.md").write_text("# Dr. Müller\n\n- Termin am Montag\n", encoding="utf-8")
    (vault / "Other.md").write_text("# Other\n", encoding="utf-8")
    mem.ingest(str(vault))
    view = mem.graph(folder=unicodedata.normalize(typed, "Ärzte"))
    assert [n["title"] for n in view["nodes"]] == ["Dr. Müller"]
    assert mem.graph(folder=unicodedata.normalize(typed, "ärzte"))["nodes"] == []  # still case-sensitive
