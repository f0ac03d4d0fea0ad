"""Notes that are not plain UTF-8, as real vaults hold them. A UTF-8 note with one stray Windows-1252 byte (a line
pasted from an old file) was read whole as Windows-1252: every accent its UTF-8 lines held came out garbled ("Zoë"
stored as "ZoÃ«", and a search for "Zoë" found nothing). A UTF-16 note (Windows PowerShell's `>` writes one) was
read as Windows-1252 too: one mangled section and "37 NUL characters" warned of. Now each invalid byte alone is read
as Windows-1252, the rest as UTF-8, and a note starting with a UTF-16 byte order mark is read as UTF-16."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

MIXED = ("# Contacts\n\n- Risk: call Zoë about the lease renewal\n".encode("utf-8")
         + "- Risk: the old résumé line pasted from a Latin-1 file\n".encode("cp1252"))
UTF16 = "# Parcel\n\n- Risk: the parcel to Zoë is overdue\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    return root


def _contents(mem: Mnemon, query: str) -> list[str]:
    return [mem.show(r["id"])["content"] for r in mem.search(query)["results"]]


def test_a_stray_legacy_byte_leaves_the_utf8_text_as_written(mem: Mnemon, vault: Path) -> None:
    (vault / "Contacts.md").write_bytes(MIXED)
    out = mem.ingest(str(vault), embed=False)
    [warning] = [w for w in out["warnings"] if w["code"] == "not_utf8"]
    assert warning["line"] == 4  # the line of the first byte that is not UTF-8
    assert any("call Zoë about the lease renewal" in text for text in _contents(mem, "lease renewal"))
    assert any("the old résumé line" in text for text in _contents(mem, "pasted Latin"))
    assert not any("Ã" in text for text in _contents(mem, "lease renewal"))
    assert (vault / "Contacts.md").read_bytes() == MIXED  # the note itself is never rewritten


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_note_is_read_as_utf16(mem: Mnemon, vault: Path, encoding: str) -> None:
    data = UTF16.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    (vault / "Parcel.md").write_bytes(data)
    out = mem.ingest(str(vault), embed=False)
    assert [w["code"] for w in out["warnings"]] == ["utf16"]
    assert any("the parcel to Zoë is overdue" in text for text in _contents(mem, "parcel overdue"))
