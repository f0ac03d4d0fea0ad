"""`note search-content --regex` on notes as Windows and Obsidian write them: `'Porto\\.$'` found nothing in a CRLF
note (each line still ended in its CR, so `$` never met the end), and `'^# Budget'` found nothing in a note saved
with a UTF-8 byte order mark (its first line began with U+FEFF). Lines are now matched as they read: without the
CR of their line break and, for the first, without the byte order mark."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app import note_tools


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "Supplier.md").write_bytes(b"# Supplier\r\n\r\nThe warehouse is in Porto.\r\nCall Ana.\r\n")
    (root / "Budget.md").write_bytes("\ufeff# Budget\n\n- Blocked: approval\n".encode("utf-8"))
    return root


def _hits(vault: Path, pattern: str) -> list[tuple[str, int, str]]:
    out = note_tools.search_content(vault, pattern, regex=True, context=1)
    return [(m["path"], m["line"], m["text"]) for m in out["matches"]]


def test_a_line_end_anchor_matches_in_a_crlf_note(vault: Path) -> None:
    assert _hits(vault, r"Porto\.$") == [("Supplier.md", 3, "The warehouse is in Porto.")]
    assert _hits(vault, r"^Call Ana\.$") == [("Supplier.md", 4, "Call Ana.")]


def test_a_line_start_anchor_matches_the_first_line_of_a_note_with_a_bom(vault: Path) -> None:
    assert _hits(vault, r"^# Budget") == [("Budget.md", 1, "# Budget")]
    [match] = note_tools.search_content(vault, "Blocked", context=3)["matches"]
    assert match["before"] == ["# Budget", ""]  # the context reads as the note does, without the mark
