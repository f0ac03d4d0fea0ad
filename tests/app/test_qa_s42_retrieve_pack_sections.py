"""`retrieve --prompt supplier` on the example vault, after `resolve` wrote an evidence pack titled "Battery supplier
status": the pack's "Sources checked" and "Unresolved" sections — `resolve`'s bookkeeping, found through the pack's
title — came first, above the notes about the suppliers and above the pack's own claims. A title every section of a
note inherits now weighs less than a section's own matching text, and a pack's bookkeeping sections are scored as
such; both factors are named in `score_factors`."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

RESEARCH = {"title": "Battery supplier status", "date": "2026-04-02",
            "claims": [{"subject": "Lighthouse", "predicate": "depends_on", "object": "Northwind Batteries",
                        "confidence": 0.95, "certainty": "confirmed", "source_type": "email",
                        "evidence": "Northwind's email of 2026-04-02 confirms the May shipment"},
                       {"subject": "Lighthouse", "predicate": "at_risk_from", "object": "the June deadline",
                        "confidence": 0.6}],
            "sources_checked": ["supplier email"], "unresolved": ["the June delivery date"]}


def _pack(mem: Mnemon, vault: Path) -> dict:
    mem.resolve(str(vault), RESEARCH)
    mem.ingest(str(vault))
    return mem.retrieve("supplier", max_items=12, budget=20000)


def _heading(item: dict) -> str:  # the heading a memory sits right under
    return (item.get("heading_path") or [""])[-1]


def test_a_packs_bookkeeping_comes_after_the_notes_about_the_supplier(example_vault_mem: Mnemon,
                                                                      example_vault: Path) -> None:
    items = [i for i in _pack(example_vault_mem, example_vault)["items"] if i["item_type"] == "memory"]
    in_pack = [i["source_path"].startswith("Sources/") for i in items]
    bookkeeping = [n for n, i in enumerate(items) if in_pack[n] and _heading(i) in ("Sources checked", "Unresolved")]
    about_it = [n for n, i in enumerate(items) if not in_pack[n] and "supplier" in i["text"].casefold()
                and i["score_factors"]["staleness"] == 1]
    # (the claim the pack dates, "Northwind's email of 2026-04-02 confirms …", is aged as any dated line is)
    claims = [n for n, i in enumerate(items) if in_pack[n] and _heading(i) == "Claims" and "2026" not in i["text"]]
    assert len(bookkeeping) == 2 and len(about_it) >= 4 and claims, [(i["title"], i["text"][:40]) for i in items]
    assert max(about_it + claims) < min(bookkeeping), [(i["title"], i["score"]) for i in items]
    for n in bookkeeping:
        assert items[n]["score_factors"]["pack_bookkeeping"] < 1

