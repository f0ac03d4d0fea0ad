"""The pack took at most two items of a note first, then filled: `retrieve "why did we choose LoRA"` took the
decision note's two best items, then five link edges of other notes scored 0.014 filled `max_items`, and the
note's Context section ("Cellular modems cost too much…", 0.54) and two of its bullets were skipped. A note's third
item onward now competes at half its score: one note still cannot fill the pack while other notes have items nearly
as good, but no item a fraction as relevant takes its place."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.context import _best_first
from mnemon.app.context_budget import pack as _pack
from mnemon.app.memory import Mnemon


def item(item_id: str, score: float, source: str) -> dict[str, Any]:
    return {"id": item_id, "kind": "memory", "item_type": "memory", "title": item_id, "text": "x" * 20,
            "source_path": source, "truth_policy": "active_evidence", "score": score}


def test_a_third_item_of_a_note_beats_items_a_fraction_as_relevant() -> None:
    candidates = sorted([item("a1", 0.9, "A.md"), item("a2", 0.8, "A.md"), item("a3", 0.7, "A.md"),
                         item("b1", 0.02, "B.md"), item("c1", 0.01, "C.md")], key=_best_first)
    skipped: list[dict[str, Any]] = []
    chosen, _used = _pack(candidates, budget=10_000, max_items=4, skipped=skipped)
    assert [i["id"] for i in chosen] == ["a1", "a2", "a3", "b1"]
    assert [(s["id"], s["reason"]) for s in skipped] == [("c1", "max_items")]


def test_why_gets_the_decision_and_its_context(mem: Mnemon, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    texts = [str(i["text"]) for i in mem.retrieve("why did we choose LoRA")["items"]]
    assert "Cellular modems cost too much per unit and drain the batteries." in texts
    assert any(t.startswith("- LoRa gateways at [[Harbour Station]]") for t in texts)
