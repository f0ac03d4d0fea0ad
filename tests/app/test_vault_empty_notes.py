"""An empty note is a note: Obsidian makes one when a person clicks a link to a note that does not exist yet. It was
skipped as "empty" — counted as removed, its incoming links parked on a placeholder, and given new ids (a decision's
id no longer found) when the person later wrote in it."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def _write(vault: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")


def test_a_link_to_an_empty_note_lands_on_it_and_keeps_its_id_as_the_note_fills(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Budget]]\n", "Budget.md": "# Budget\nnumbers for 2027\n"})
    mem.ingest(str(vault), embed=False)
    link = mem.rt.store.find_edge("note:hub.md", "note:Budget.md", "links_to")
    assert link is not None and link.id is not None
    (vault / "Budget.md").write_bytes(b"")  # emptied, as Obsidian makes a note for a clicked link
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_removed"] == 0 and not [s for s in out["skipped"] if s["path"] == "Budget.md"]
    assert mem.rt.store.find_edge("note:hub.md", "note:Budget.md", "links_to") is not None
    assert mem.rt.store.get_node("note:Budget.md") is not None
    _write(vault, {"Budget.md": "# Budget\nnumbers for 2028\n"})
    mem.ingest(str(vault), embed=False)
    again = mem.rt.store.find_edge("note:hub.md", "note:Budget.md", "links_to")
    assert again is not None and again.id == link.id


def test_a_new_empty_note_is_the_target_of_the_links_naming_it(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Plans 2027]]\n"})
    mem.ingest(str(vault), embed=False)
    assert mem.rt.store.find_edge("note:hub.md", "placeholder:plans 2027", "links_to") is not None
    (vault / "Plans 2027.md").write_bytes(b"")
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_total"] == 2
    assert mem.rt.store.find_edge("note:hub.md", "note:Plans 2027.md", "links_to") is not None
