"""QA round 38: `note list --pattern` matches names whatever their Unicode form.

`mnemon note list --pattern 'café*'` answered count 0 in a vault where macOS had written "Café notes.md" as "Cafe" plus
a combining accent (NFD), while `note search café` found it. The glob and the names are now compared composed (NFC)
and case-folded, so a '?' is one character as the reader sees it."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from mnemon.app import note_tools


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


@pytest.mark.parametrize("pattern", [nfc("café*"), nfd("café*"), "CAF? N*", nfc("*/Crème*")])
def test_a_glob_finds_a_name_in_either_form(tmp_path: Path, pattern: str) -> None:
    (tmp_path / nfd("Café notes.md")).write_text("# C\n", encoding="utf-8")
    (tmp_path / "Desserts").mkdir()
    (tmp_path / "Desserts" / nfd("Crème.md")).write_text("# C\n", encoding="utf-8")
    (tmp_path / "Cafeteria.md").write_text("# C\n", encoding="utf-8")
    out = note_tools.list_notes(tmp_path, pattern=pattern)
    expected = [nfd("Desserts/Crème.md")] if "Cr" in pattern else [nfd("Café notes.md")]
    assert [n["path"] for n in out["notes"]] == expected  # the path as on disk
