"""Obsidian block references — ``[[Target^blockid]]``, ``[[Target#Heading^blockid]]``, ``[[Target^blockid|Alias]]``
— point into the note ``Target``, as ``[[Target#Heading]]`` and ``[[Target#^blockid]]`` do. The block id used to stay
in the target, so the link parked on a placeholder named ``Target^blockid`` instead of reaching the note."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemon.app import note_tools
from mnemon.app.memory import Mnemon
from mnemon.core.vault import parse_note, placeholder_key, split_link_target
from mnemon.core.vault.links import display_links


def test_a_block_id_is_no_part_of_the_target_nor_the_section() -> None:
    assert split_link_target("Target^blockid") == ("Target", None, None)
    assert split_link_target("Target#Heading^blockid") == ("Target", "Heading", None)
    assert split_link_target("Target^blockid|Alias") == ("Target", None, "Alias")
    assert split_link_target("Target#^blockid") == ("Target", None, None)
    assert split_link_target("^blockid") == ("", None, None)  # a block of this very note: no link to make
    assert display_links("see [[Target^b1]] and [[Target^b2|that line]]") == "see Target and that line"


def test_parsed_block_references_name_their_note() -> None:
    note = parse_note("a.md", "# A\n\n[[Target^b1]] [[Target#Plan^b2]] ![[Target^b3|quoted]] [[^b4]]\n")
    assert [(w.target, w.section, w.alias, w.is_embed) for w in note.wikilinks] == [
        ("Target", None, None, False), ("Target", "Plan", None, False), ("Target", None, "quoted", True)]


_NAME = st.text(alphabet=st.characters(blacklist_characters="[]|#^\n\\", blacklist_categories=("Cs",)),
                min_size=1, max_size=12).filter(lambda name: placeholder_key(name) != "")
_BLOCK = st.text(alphabet="abcdef0123456789-", min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(_NAME, _BLOCK, st.sampled_from(["{t}^{b}", "{t}#^{b}", "{t}#Heading^{b}", "{t}^{b}|Alias", "{t} ^{b}"]))
def test_a_block_reference_looks_up_the_key_of_its_note(target: str, block: str, form: str) -> None:
    assert placeholder_key(form.format(t=target, b=block)) == placeholder_key(target)


def test_ingest_resolves_block_references_to_the_note(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Target.md").write_text("# Target\n\n## Plan\n\nShip it. ^b2\n\nA quoted line. ^b1\n", encoding="utf-8")
    (vault / "linker.md").write_text("# Linker\n\nSee [[Target^b1]], [[Target#Plan^b2]] and [[Target^b1|that]].\n",
                                     encoding="utf-8")
    mem.ingest(str(vault))
    store = mem.rt.store
    links = [e for e in store.iter_edges() if e.type == "links_to" and e.src == "note:linker.md"]
    assert [e.dst for e in links] == ["note:Target.md"]  # one edge per target
    assert not [n.id for n in store.iter_nodes(kind="placeholder")]


def test_renaming_a_note_keeps_the_block_ids_of_the_links_to_it(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Target.md").write_text("# Target\n\nA quoted line. ^b1\n", encoding="utf-8")
    (vault / "linker.md").write_text("See [[Target^b1]], [[Target#^b1]] and [[Target^b1|that]].\n", encoding="utf-8")
    note_tools.move_note(vault, "Target.md", "Renamed.md", clock=lambda: datetime(2026, 3, 1, tzinfo=timezone.utc))
    assert (vault / "linker.md").read_text(encoding="utf-8") == (
        "See [[Renamed^b1]], [[Renamed#^b1]] and [[Renamed^b1|that]].\n")
