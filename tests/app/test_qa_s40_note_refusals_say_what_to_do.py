"""A note the editor cannot take is refused with where and what to do: a Latin-1 note was "note is not valid UTF-8
text" (no line, no byte, no way out, though ingest reads it as Windows-1252), and a note past the editor's size "note
is larger than 5242880 bytes" (nor that ingest still reads it). The file is never touched."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app import notes
from mnemon.core.errors import InvalidInput


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    return root


def test_a_note_not_in_utf8_is_refused_naming_the_line_the_byte_and_a_conversion(vault: Path) -> None:
    data = "# Caf\n\nfirst line\nthe caf\xe9 order\n".encode("latin-1")
    (vault / "cafe.md").write_bytes(data)
    with pytest.raises(InvalidInput) as refused:
        notes.add_bullet(vault, "cafe.md", "Caf", "x")
    message = str(refused.value)
    assert "line 4" in message and "0xe9" in message and "iconv" in message and "cafe.md" in message
    assert refused.value.details.get("line") == 4 and refused.value.details.get("byte") == "0xe9"
    assert (vault / "cafe.md").read_bytes() == data


def test_a_note_past_the_editors_size_is_refused_saying_its_size_and_that_ingest_reads_it(
        vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notes, "MAX_NOTE_BYTES", 64)
    data = ("# Big\n\n" + "- line\n" * 20).encode()
    (vault / "big.md").write_bytes(data)
    with pytest.raises(InvalidInput) as refused:
        notes.add_bullet(vault, "big.md", "Big", "x")
    message = str(refused.value)
    assert str(len(data)) in message and "ingest" in message
    assert (vault / "big.md").read_bytes() == data
