"""A note whose file name macOS wrote decomposed (NFD: "Cafe" + U+0301) is `note:Café.md` with that spelling of the
é in its id, as the file is named. Its links resolve whichever form they are written in, but an id typed composed
(NFC: `mnemon show note:Café.md`, what a keyboard or an agent writes) answered not_found: the same id on screen was
another id to `show`, `related`, `forget` (`--undo` said the note no longer held it), `link`, `gc --keep` and
`graph --focus`. An id is now found in either Unicode form; the stored id (the file's own spelling) is kept, and the
file on disk is never renamed."""
from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest
from mnemon.app.memory import Mnemon
from mnemon.core.errors import NotFound

CAFE_NFD = unicodedata.normalize("NFD", "Café")
NFD_ID = f"note:{CAFE_NFD}.md"
NFC_ID = "note:Café.md"


def _nfd_vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    fd = os.open(str(vault / f"{CAFE_NFD}.md"), os.O_WRONLY | os.O_CREAT, 0o644)  # (Linux keeps the bytes given)
    os.write(fd, "# Café\nWe buy the beans from the roaster on Main Street.\n".encode())
    os.close(fd)
    (vault / "hub.md").write_text("# Hub\nSee [[Café]] and [[Tea]].\n", encoding="utf-8")
    return vault


def test_the_nfd_named_note_keeps_its_file_and_its_id_and_its_nfc_link_reaches_it(mem: Mnemon,
                                                                                  tmp_path: Path) -> None:
    vault = _nfd_vault(tmp_path)
    mem.ingest(str(vault), embed=False)
    mem.ingest(str(vault), embed=False)  # (again: the same ids, nothing moved)
    assert sorted(os.listdir(vault)) == sorted([f"{CAFE_NFD}.md", "hub.md"])  # never renamed on disk
    assert mem.rt.store.find_edge("note:hub.md", NFD_ID, "links_to") is not None


def test_show_and_related_find_the_note_by_its_id_typed_composed(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_nfd_vault(tmp_path)), embed=False)
    shown = mem.show(NFC_ID)
    assert shown["id"] == NFD_ID
    assert any(e["source_id"] == "note:hub.md" for e in shown["edges"])  # (its link from hub.md)
    assert mem.related(NFC_ID)["id"] == NFD_ID
    assert [n["id"] for n in mem.related(NFC_ID)["related"]] == [n["id"] for n in mem.related(NFD_ID)["related"]]
    assert mem.graph(focus=NFC_ID)["focus"] == NFD_ID


def test_forget_and_link_take_the_composed_id_and_act_on_the_stored_note(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_nfd_vault(tmp_path)), embed=False)
    memory = mem.remember("The roaster on Main Street closes on Mondays")["id"]
    linked = mem.link(memory, NFC_ID, "semantic")
    assert linked["target_id"] == NFD_ID
    assert mem.rt.store.find_edge(memory, NFD_ID, "semantic") is not None
    assert mem.gc(keep=NFC_ID)["id"] == NFD_ID
    assert mem.forget(NFC_ID)["id"] == NFD_ID
    assert mem.rt.store.get_node(NFD_ID) is None  # (forgotten: the stored note, not a name nobody has)


def test_an_id_no_form_of_which_is_stored_is_still_not_found(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_nfd_vault(tmp_path)), embed=False)
    with pytest.raises(NotFound):
        mem.show("note:Cafè.md")  # (another accent: another note)


@pytest.mark.parametrize("stored", ["NFC", "NFD"])
@pytest.mark.parametrize("typed", ["NFC", "NFD"])
def test_either_form_typed_finds_a_note_named_in_either_form(mem: Mnemon, tmp_path: Path, stored: str,
                                                             typed: str) -> None:
    name = unicodedata.normalize(stored, "Zoë Ångström.md")
    (tmp_path / "vault").mkdir()
    fd = os.open(str(tmp_path / "vault" / name), os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, "# Zoë\nNotes from the call with Zoë.\n".encode())
    os.close(fd)
    mem.ingest(str(tmp_path / "vault"), embed=False)
    assert mem.show(unicodedata.normalize(typed, f"note:{name}"))["id"] == f"note:{name}"


def test_a_link_from_the_note_to_its_own_id_in_the_other_form_is_refused(mem: Mnemon, tmp_path: Path) -> None:
    from mnemon.core.errors import InvalidInput

    mem.ingest(str(_nfd_vault(tmp_path)), embed=False)
    with pytest.raises(InvalidInput, match="two different memories"):
        mem.link(NFC_ID, NFD_ID, "semantic")


def test_forget_undo_takes_the_composed_id_of_a_forgotten_decomposed_note(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_nfd_vault(tmp_path)), embed=False)
    mem.forget(NFD_ID)
    undone = mem.undo_forget([NFC_ID])
    assert NFD_ID in str(undone)
    mem.ingest(str(tmp_path / "vault"), embed=False)  # (a note's undo has the next ingest read it again)
    assert mem.show(NFC_ID)["id"] == NFD_ID
