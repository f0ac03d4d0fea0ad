"""QA round 33: control characters in note names.

`mnemon note write $'a\\nb.md'` made a note whose name holds a newline: listed, diffed and logged, it reads as two
lines, and a terminal shown an escape sequence in a name runs it. C0 and C1 controls and DEL are refused in every
part of a path (`invalid_input`), before anything is written."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app import note_tools, notes
from mnemon.core.errors import InvalidInput


@pytest.mark.parametrize("name", ["a\nb.md", "a\rb.md", "a\tb.md", "a\x1b[31mb.md", "a\x7fb.md", "a\x85b.md",
                                  "a\x9bb.md", "Fold\x01er/a.md", "a\x0b.md"])
def test_control_characters_are_refused_in_every_part(tmp_path: Path, name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        notes.write_note(tmp_path, name, "x")
    assert "control character" in refused.value.message
    with pytest.raises(InvalidInput):
        notes.write_note(tmp_path, name, "x", dry_run=True)
    assert list(tmp_path.iterdir()) == []


def test_a_move_to_such_a_name_and_a_folder_so_named_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("x\n", encoding="utf-8")
    with pytest.raises(InvalidInput):
        note_tools.move_note(tmp_path, "a.md", "b\nc.md")
    with pytest.raises(InvalidInput):
        note_tools.list_notes(tmp_path, folder="F\x1bo")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md"]


def test_the_cli_answers_invalid_input(tmp_path: Path, cli_run) -> None:
    code, out = cli_run(["note", "write", "a\nb.md", "--vault", str(tmp_path), "--content", "x"])
    assert code != 0 and out["error"]["code"] == "invalid_input"
    assert list(tmp_path.iterdir()) == []
    for name in ("Caf\u00e9 \u00e0 la carte.md", "\u65e5\u672c.md", "a\u200bb.md", "emoji \U0001f600.md"):
        assert notes.write_note(tmp_path, name, "x")["created"]  # printable names are taken as before
