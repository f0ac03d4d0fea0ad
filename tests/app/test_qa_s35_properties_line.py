"""A note's front-matter properties section cites the line its first property is on, not the opening `---`: a pack
item or a citation of "owner: Ana" pointed at line 1, which holds no property (and a title line above it, which the
section leaves out, is no property of it either)."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

NOTE = "---\ntitle: Harbour plan\nowner: Ana Lima\nstatus: draft\n---\n# Harbour plan\n\nThe plan text.\n"


def test_the_properties_section_cites_its_first_property_line(mem: Mnemon, tmp_path: Path) -> None:
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / "Harbour.md").write_text(NOTE, encoding="utf-8")
    mem.ingest(str(tmp_path / "vault"))
    [props] = [n for n in mem.rt.store.iter_nodes(kind="memory")
               if n.metadata.get("memory_kind") == "section" and n.content.startswith("owner:")]
    assert props.metadata["line"] == 3 and NOTE.splitlines()[2] == "owner: Ana Lima"
    pack = mem.retrieve("who owns the harbour plan? Ana Lima", budget=4000)
    [item] = [i for i in pack["items"] if i.get("id") == props.id]
    assert item["line"] == 3
