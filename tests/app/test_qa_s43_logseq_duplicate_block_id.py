"""A Logseq page copied inside its graph carries its blocks' ``id:: <uuid>`` twice. A ``((uuid))`` naming such a
block read as, and linked to, one of the two pages with nothing said. Now the choice is stable (the page with the
shorter path, then the first by path, whichever was written or ingested first) and the ingest's warnings name the uuid
and both pages."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.app.vault.block_index import DUPLICATE_UUIDS_SHOWN, duplicate_warnings

from app.test_qa_s42_logseq_block_refs import FILES, UUID, _links, _texts
from app.test_vault_incremental import _write

COPY = {"pages/Falcon (old).md": f"- The vendor contract was due on Monday\n  id:: {UUID}\n"}
SHORTER = {"pages/Deal.md": f"- The vendor contract was due on Monday\n  id:: {UUID}\n"}


def _duplicates(out: dict) -> list[dict]:
    return [w for w in out["warnings"] if w["code"] == "duplicate_block_id"]


def test_a_block_id_two_pages_hold_is_read_from_the_shorter_path_and_warned(mem: Mnemon, tmp_path: Path) -> None:
    root = tmp_path / "graph"
    _write(root, {**FILES, **COPY})
    out = mem.ingest(str(root), embed=False)
    [warning] = _duplicates(out)
    assert (warning["uuids"], warning["count"]) == ([UUID], 1)
    assert warning["path"] == "pages/Falcon (old).md"  # the page whose block is not the one read
    assert warning["paths"] == ["pages/Falcon.md", "pages/Falcon (old).md"]
    assert "pages/Falcon.md" in warning["message"] and UUID in warning["message"]
    assert [e.dst for e in _links(mem, "pages/Ada.md")] == ["note:pages/Falcon.md"]
    assert any("Ada owns The vendor contract is due on Friday" in t for t in _texts(mem, "pages/Ada.md"))


def test_a_page_with_the_block_added_later_takes_it_by_the_same_rule_and_gives_it_back(mem: Mnemon,
                                                                                      tmp_path: Path) -> None:
    root = tmp_path / "graph"
    _write(root, FILES)
    assert not _duplicates(mem.ingest(str(root), embed=False))
    _write(root, SHORTER)
    out = mem.ingest(str(root), embed=False)
    assert [w["paths"] for w in _duplicates(out)] == [["pages/Deal.md", "pages/Falcon.md"]]
    assert [e.dst for e in _links(mem, "pages/Ada.md")] == ["note:pages/Deal.md"]
    assert any("Ada owns The vendor contract was due on Monday" in t for t in _texts(mem, "pages/Ada.md"))
    # the copy removed: the one page left holds the block, nothing to warn
    (root / "pages/Deal.md").unlink()
    out = mem.ingest(str(root), embed=False)
    assert not _duplicates(out)
    assert [e.dst for e in _links(mem, "pages/Ada.md")] == ["note:pages/Falcon.md"]
    assert any("Ada owns The vendor contract is due on Friday" in t for t in _texts(mem, "pages/Ada.md"))


def test_a_copied_page_is_one_warning_per_pair_of_pages_and_only_when_one_was_read() -> None:
    ids = {f"6571c3e2-0000-4000-8000-{n:012d}": f"block {n}" for n in range(30)}
    pages = {"a.md": ids, "b.md": dict(ids), "c.md": {min(ids): "copied once more"}, "d.md": {"other": "x"}}
    warnings = duplicate_warnings(pages, {"b.md"})
    assert [(w["paths"], w["count"], len(w["uuids"])) for w in warnings] == [(["a.md", "b.md"], 30,
                                                                              DUPLICATE_UUIDS_SHOWN)]
    assert "30 of its block ids" in warnings[0]["message"]
    assert [w["paths"] for w in duplicate_warnings(pages, {"a.md"})] == [["a.md", "b.md"], ["a.md", "c.md"]]
    assert duplicate_warnings(pages, {"d.md"}) == []


def test_a_copy_named_after_its_page_does_not_take_the_pages_references(mem: Mnemon, tmp_path: Path) -> None:
    """A file manager's or Logseq's copy ("Falcon copy.md", "Falcon (1).md", "archive/Falcon.md") has the longer
    path; by plain path order it sorted first (a space before the dot) and took the original's references."""
    root = tmp_path / "graph"
    _write(root, {**FILES, "pages/Falcon copy.md": FILES["pages/Falcon.md"].replace("Friday", "Monday")})
    out = mem.ingest(str(root), embed=False)
    [warning] = _duplicates(out)
    assert (warning["path"], warning["paths"]) == ("pages/Falcon copy.md", ["pages/Falcon.md", "pages/Falcon copy.md"])
    assert [e.dst for e in _links(mem, "pages/Ada.md")] == ["note:pages/Falcon.md"]
    assert any("Ada owns The vendor contract is due on Friday" in t for t in _texts(mem, "pages/Ada.md"))
