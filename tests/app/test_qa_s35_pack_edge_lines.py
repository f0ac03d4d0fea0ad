"""A context pack's edge items cite the line of their evidence, as its memory items do: ``Due:: 2026-03-14`` came with
its note's path and no line (its edge had one all along), so an agent quoting it could not point at where it says so."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def test_an_edge_item_says_the_line_of_its_evidence(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Lease.md").write_text("---\ntags: [home]\n---\n# Lease\n\nLandlord:: [[Bram Okafor]]\n"
                                    "Renewal due:: 2026-03-14\n", encoding="utf-8")
    mem.ingest(str(vault))
    pack = mem.retrieve("when is the lease renewal due?", budget=4000)
    edges = {item["text"]: item for item in pack["items"] if item["item_type"] == "edge"}
    assert edges["Renewal due:: 2026-03-14"]["line"] == 7
    assert all(item["line"] == (vault / "Lease.md").read_text(encoding="utf-8").split("\n").index(text) + 1
               for text, item in edges.items() if not text.startswith("tags:"))
