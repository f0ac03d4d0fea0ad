"""A context pack's edge items cite the line of their evidence, as its memory items do: ``Due:: 2026-03-14`` came with
its note's path and no line (its edge had one all along), so an agent quoting it could not point at where it says so."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

LEASE = ["---", "tags: [home]", "---", "# Lease", "", "Landlord:: [[Bram Okafor]]", "Renewal due:: 2026-03-14"]


def test_an_edge_item_says_the_line_of_its_evidence(mem: Mnemon, tmp_path: Path) -> None:
    note = tmp_path / "vault" / "Lease.md"
    note.parent.mkdir()
    note.write_text("\n".join(LEASE) + "\n", encoding="utf-8")
    mem.ingest(str(note.parent))
    edges = {item["text"]: item.get("line") for item in mem.retrieve("when is the lease renewal due?", budget=4000)[
        "items"] if item["item_type"] == "edge"}
    assert edges["Renewal due:: 2026-03-14"] == 7
    assert {text: line for text, line in edges.items() if text in LEASE} == {
        text: LEASE.index(text) + 1 for text in edges if text in LEASE}
