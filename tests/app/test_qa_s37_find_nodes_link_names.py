"""`find_nodes` (the workbench's search by title, `mnemon find-nodes`) finds a note by any name a link can give it —
its file name, its path, an alias — as the vault resolves `[[...]]`: "[[bram-okafor]]" (a link written with the file
name) and "bram-okafor" listed no note, since the title is "Bram Okafor" and only titles were read."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

BRAM = "note:People/bram-okafor.md"
LIGHTHOUSE = "note:Projects/lighthouse.md"


@pytest.mark.parametrize(("query", "note"), [
    ("bram-okafor", BRAM), ("[[bram-okafor]]", BRAM), ("People/bram-okafor", BRAM), ("People/bram-okafor.md", BRAM),
    ("[[People/bram-okafor|Bram]]", BRAM), ("LH", LIGHTHOUSE), ("[[Project Lighthouse]]", LIGHTHOUSE),
    ("Projects/lighthouse.md", LIGHTHOUSE), ("PROJECTS/LIGHTHOUSE", LIGHTHOUSE),
])
def test_a_note_is_found_by_the_names_its_links_use(example_vault_mem: Mnemon, query: str, note: str) -> None:
    found = example_vault_mem.find_nodes(query)
    assert found["nodes"][0]["id"] == note
    assert found["nodes"][0]["title"] in ("Bram Okafor", "Lighthouse")
    assert [n["id"] for n in found["nodes"]].count(note) == 1  # once, though its title matches too
    assert found["query"] == query


def test_the_named_note_counts_within_the_limit(example_vault_mem: Mnemon) -> None:
    found = example_vault_mem.find_nodes("bram-okafor", limit=1)
    assert [n["id"] for n in found["nodes"]] == [BRAM]


@pytest.mark.parametrize("query", ["okafor-bram", "People/nobody", "[[Nothing by this name]]"])
def test_a_name_no_note_claims_finds_no_note_by_it(example_vault_mem: Mnemon, query: str) -> None:
    assert BRAM not in [n["id"] for n in example_vault_mem.find_nodes(query)["nodes"]]


def test_a_new_alias_is_found_after_the_ingest_that_reads_it(example_vault_mem: Mnemon, tmp_path: Path) -> None:
    assert example_vault_mem.find_nodes("LH")["nodes"][0]["id"] == LIGHTHOUSE  # (the names read once already)
    note = tmp_path / "vault" / "Projects" / "lighthouse.md"
    note.write_text(note.read_text(encoding="utf-8").replace("aliases: [Project Lighthouse, LH]",
                                                             "aliases: [Beacon Works]"), encoding="utf-8")
    example_vault_mem.ingest(str(tmp_path / "vault"))
    assert example_vault_mem.find_nodes("beacon works")["nodes"][0]["id"] == LIGHTHOUSE
    assert LIGHTHOUSE not in [n["id"] for n in example_vault_mem.find_nodes("LH")["nodes"]]
