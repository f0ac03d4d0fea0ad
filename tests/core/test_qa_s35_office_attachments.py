"""Files a vault holds beside its notes — Office documents, e-books, Obsidian's other audio and video types — are
attachments: ``![[Contract.docx]]`` made a placeholder note "contract.docx" (a note not yet written, to the graph,
the workbench and the walks), as ``![[scan.pdf]]`` does not. A name that only looks like a file (``[[Node.js]]``,
``[[v1.2]]``) is still a link to a note."""
from __future__ import annotations

from mnemon.core.vault import parse_note

FILES = ["Contract.docx", "Budget 2026.xlsx", "Deck.pptx", "old.doc", "old.xls", "old.ppt", "Essay.odt",
         "Sheet.ods", "Talk.odp", "Book.epub", "Letter.rtf", "clip.3gp", "clip.ogv", "photo.HEIC", "scan.tiff",
         "scan.tif", "backup.7z", "backup.rar"]


def test_office_documents_and_media_are_attachments() -> None:
    note = parse_note("n.md", "# N\n" + " ".join(f"![[{name}]] [[{name}]]" for name in FILES) + "\n")
    assert [w.target for w in note.wikilinks if not w.is_attachment] == []


def test_names_that_only_look_like_files_are_notes() -> None:
    note = parse_note("n.md", "# N\n[[Node.js]] [[v1.2]] [[Dr. Who]] [[package.json]] [[St. Ives]]\n")
    assert [w.target for w in note.wikilinks if not w.is_attachment] == [
        "Node.js", "v1.2", "Dr. Who", "package.json", "St. Ives"]
