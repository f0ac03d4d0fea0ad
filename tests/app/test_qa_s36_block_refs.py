"""`explain-edge` of a block reference says which block it points at, and a block id is not found by search."""
from __future__ import annotations

from pathlib import Path


def test_a_block_reference_is_explained_and_its_id_is_not_searchable(make_mem, tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Spec.md").write_text("# Spec\n\nThe zephyr module must handle retries. ^scope1\n", encoding="utf-8")
    (vault / "Use.md").write_text("# Use\n\nSee [[Spec#^scope1]] and ![[Spec#^scope1]].\n", encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault))
    edges = {e.type: e for e in mem.rt.store.iter_edges() if e.src == "note:Use.md" and e.dst == "note:Spec.md"}
    for relation in ("links_to", "embeds"):
        explained = mem.explain_edge(edges[relation].id)["edge"]
        assert explained["metadata"]["block"] == "scope1" and explained["metadata"]["target"] == "Spec"
    assert [r["id"] for r in mem.search("scope1")["results"] if r["id"].startswith("vault:Spec.md")] == []
    [spec] = [r for r in mem.search("zephyr retries")["results"] if r["id"].startswith("vault:Spec.md")]
    assert spec["content"] == "The zephyr module must handle retries."
