"""A Logseq ``((uuid))`` reference to a block of another page (the page holding ``id:: <uuid>``): the referencing
note reads the block's text where the reference is, as a reference to a block of the same page always did, and links
to the page holding it. Before, it stayed the raw "((6571…))" with no edge, so recall found neither the text nor the
page. The referencing note follows the block on the next incremental ingest: edited, removed (the reference reads as
written again), its page renamed; a reference no page holds stays text and parks on no placeholder."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

from app.test_vault_incremental import _write

UUID = "6571c3e2-0000-4000-8000-000000000001"
NOBODY = "6571c3e2-0000-4000-8000-0000000000ff"
FALCON = f"- The vendor contract is due on Friday\n  id:: {UUID}\n- Another block of Falcon\n"
FILES = {
    "logseq/config.edn": "{:meta/version 1}\n",
    "pages/Falcon.md": FALCON,
    "pages/Ada.md": f"- Ada owns (({UUID}))\n",
    "pages/Bram.md": f"- Bram cites (({NOBODY}))\n",
}


def _graph(root: Path) -> str:
    _write(root, FILES)
    return str(root)


def _texts(mem: Mnemon, path: str) -> list[str]:
    return [m.content for m in mem.rt.store.iter_nodes(kind="memory") if m.id.startswith(f"vault:{path}:")]


def _links(mem: Mnemon, src: str) -> list[Any]:
    return [e for e in mem.rt.store.iter_edges(statuses=("active", "candidate"))
            if e.src == f"note:{src}" and e.type == "links_to"]


def test_a_reference_to_a_block_of_another_page_reads_as_it_and_links_to_the_page(mem: Mnemon, tmp_path: Path
                                                                                  ) -> None:
    mem.ingest(_graph(tmp_path / "graph"), embed=False)
    texts = _texts(mem, "pages/Ada.md")
    assert any("Ada owns The vendor contract is due on Friday" in t for t in texts), texts
    assert not any("((" in t for t in texts)
    [edge] = _links(mem, "pages/Ada.md")
    assert edge.dst == "note:pages/Falcon.md"
    assert edge.metadata["block"] == UUID
    assert f"(({UUID}))" in edge.evidence
    found = mem.recall("vendor contract Ada", limit=10)
    assert any(r["insight"]["id"].startswith("vault:pages/Ada.md:") for r in found["results"]), found["results"]


def test_an_edited_block_replans_the_note_that_references_it(mem: Mnemon, tmp_path: Path) -> None:
    root = tmp_path / "graph"
    mem.ingest(_graph(root), embed=False)
    (root / "pages/Falcon.md").write_text(FALCON.replace("due on Friday", "signed by Bram"), encoding="utf-8")
    out = mem.ingest(str(root), embed=False)
    assert out["notes_read"] == 2
    texts = _texts(mem, "pages/Ada.md")
    assert any("Ada owns The vendor contract is signed by Bram" in t for t in texts), texts
    assert not any("due on Friday" in t for t in texts)


def test_a_removed_block_leaves_the_reference_as_written(mem: Mnemon, tmp_path: Path) -> None:
    root = tmp_path / "graph"
    mem.ingest(_graph(root), embed=False)
    assert [e.dst for e in _links(mem, "pages/Ada.md")] == ["note:pages/Falcon.md"]
    (root / "pages/Falcon.md").write_text("- Another block of Falcon\n", encoding="utf-8")
    mem.ingest(str(root), embed=False)
    texts = _texts(mem, "pages/Ada.md")
    assert any(f"Ada owns (({UUID}))" in t for t in texts), texts
    assert not _links(mem, "pages/Ada.md")


def test_a_renamed_page_takes_the_references_to_its_blocks(mem: Mnemon, tmp_path: Path) -> None:
    root = tmp_path / "graph"
    mem.ingest(_graph(root), embed=False)
    (root / "pages/Falcon.md").rename(root / "pages/Vendor.md")
    mem.ingest(str(root), embed=False)
    assert [e.dst for e in _links(mem, "pages/Ada.md")] == ["note:pages/Vendor.md"]
    assert any("Ada owns The vendor contract is due on Friday" in t for t in _texts(mem, "pages/Ada.md"))


def test_a_dangling_reference_stays_text_with_no_placeholder(mem: Mnemon, tmp_path: Path) -> None:
    root = tmp_path / "graph"
    mem.ingest(_graph(root), embed=False)
    assert any(f"Bram cites (({NOBODY}))" in t for t in _texts(mem, "pages/Bram.md"))
    assert not _links(mem, "pages/Bram.md")
    assert not [n for n in mem.rt.store.iter_nodes() if n.id.startswith("placeholder:")]
    # a page later given the block: the reference reads as it from then on
    _write(root, {"pages/Cleo.md": f"- Cleo's block\n  id:: {NOBODY}\n"})
    mem.ingest(str(root), embed=False)
    assert any("Bram cites Cleo's block" in t for t in _texts(mem, "pages/Bram.md"))
    assert [e.dst for e in _links(mem, "pages/Bram.md")] == ["note:pages/Cleo.md"]
