"""The warning an ingest gives for a note that is not valid UTF-8 said the opposite of what happened: "its bytes that
are not read as Windows-1252, the rest as UTF-8". Each byte that is not UTF-8 *is* read as Windows-1252; the warning
says so, and that the note editor will refuse the note until it is converted."""
from __future__ import annotations

from pathlib import Path


def test_the_not_utf8_warning_says_how_the_note_was_read(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "latin.md").write_bytes("# Café\n\n- Deadline for the résumé is 2026-05-01\n".encode("cp1252"))
    out = mem.ingest(str(vault), embed=False)
    [warning] = [w for w in out["warnings"] if w["code"] == "not_utf8"]
    assert warning["line"] == 1 and warning["path"] == "latin.md"
    message = warning["message"]
    assert "not read as" not in message
    assert "that are not UTF-8 were read as Windows-1252, the rest as UTF-8" in message
    assert "note editor" in message  # `note add-bullet` on it is refused: said before the user tries
