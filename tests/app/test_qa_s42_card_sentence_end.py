"""A card whose memory is a sentence of its own ended its insight with two stops: `Pack holds “Shipment tracking
number unknown.”.` (what `resolve`'s evidence packs and most prose bullets give). A quote that ends its own sentence
now ends the insight; one without a stop still gets the insight's."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

from app.test_vault_incremental import _write


def test_a_quoted_sentence_ends_the_insight_once(mem: Mnemon, tmp_path: Path) -> None:
    _write(tmp_path / "vault", {"Pack.md": "# Pack\n\n## Unresolved\n- Shipment tracking number unknown.\n",
                                "Open.md": "# Open\n\n## Notes\n- Ask the harbour office about badges\n"})
    mem.ingest(str(tmp_path / "vault"), embed=False)
    insights = [t["insight"] for t in mem.surface(prompt="shipment tracking number", limit=5)["thoughts"]]
    said = [i for i in insights if "Shipment tracking number unknown." in i]
    assert said, insights
    assert all(".”." not in i for i in said), said
    assert all(i.endswith(("”", ".")) for i in said)
    open_loop = [t["insight"] for t in mem.surface(prompt="harbour office badges", limit=5)["thoughts"]
                 if "Ask the harbour office about badges" in t["insight"]]
    assert open_loop and all(i.endswith(".") and ".”." not in i for i in open_loop), open_loop
