"""The note tools in a Logseq graph walk the vault as ingest does. Before, `note list` listed Logseq's backup copies
(`logseq/bak/…`, `logseq/version-files/…`) as notes, and `note move` rewrote the links inside them, files the user
never named; a listing and a name search knew neither a journal page's title ("Mar 4th, 2026"), a namespaced page's
("Projects/Falcon" of `Projects___Falcon.md`) nor an `alias::`."""
from __future__ import annotations

from pathlib import Path

from mnemon.app import note_tools

from app.test_vault_incremental import _write

BACKUP = "logseq/bak/pages/Ada/2026-03-01T10_00_00.000Z.Desktop.md"
VERSION = "logseq/version-files/base/pages_Ada.md"


def _graph(root: Path) -> Path:
    _write(root, {"logseq/config.edn": "{:meta/version 1}\n", "pages/Ada.md": "- Works on [[Falcon]]\n",
                  "pages/Falcon.md": "alias:: Hawk\n\n- A project\n", BACKUP: "- Works on [[Falcon]]\n",
                  VERSION: "- Works on [[Falcon]]\n", "pages/Projects___Atlas.md": "- The atlas\n",
                  "journals/2026_03_04.md": "- Kickoff of [[Falcon]]\n"})
    return root


def test_a_listing_and_the_status_leave_out_the_graphs_own_folder(tmp_path: Path) -> None:
    vault = _graph(tmp_path / "graph")
    listed = {n["path"] for n in note_tools.list_notes(vault)["notes"]}
    assert listed == {"pages/Ada.md", "pages/Falcon.md", "pages/Projects___Atlas.md", "journals/2026_03_04.md"}
    status = note_tools.vault_status(vault)
    assert status["notes"] == 4
    assert {"path": "logseq", "reason": "logseq_folder"} in status["skipped"]["paths"]
    assert not note_tools.search_content(vault, "Works on")["matches"][1:]


def test_a_move_leaves_logseqs_backups_as_they_are(tmp_path: Path) -> None:
    vault = _graph(tmp_path / "graph")
    out = note_tools.move_note(vault, "pages/Falcon.md", "pages/Kestrel.md")
    assert {f["path"] for f in out["rewritten"]["files"]} == {"pages/Ada.md", "journals/2026_03_04.md"}
    assert (vault / BACKUP).read_text() == (vault / VERSION).read_text() == "- Works on [[Falcon]]\n"
    assert (vault / "pages/Ada.md").read_text() == "- Works on [[Kestrel]]\n"


def test_a_listing_and_a_name_search_know_a_pages_logseq_names(tmp_path: Path) -> None:
    vault = _graph(tmp_path / "graph")
    titles = {n["path"]: (n["title"], n.get("aliases")) for n in note_tools.list_notes(vault)["notes"]}
    assert titles["journals/2026_03_04.md"] == ("Mar 4th, 2026", None)
    assert titles["pages/Projects___Atlas.md"] == ("Projects/Atlas", None)
    assert titles["pages/Falcon.md"] == ("Falcon", ["Hawk"])
    hawk = note_tools.search_notes(vault, "hawk")["matches"]
    assert [(m["path"], m["matched"]) for m in hawk] == [("pages/Falcon.md", "alias")]
    assert [m["path"] for m in note_tools.search_notes(vault, "Mar 4th")["matches"]] == ["journals/2026_03_04.md"]
    assert [m["path"] for m in note_tools.search_notes(vault, "projects/atlas")["matches"]][:1] == \
        ["pages/Projects___Atlas.md"]
