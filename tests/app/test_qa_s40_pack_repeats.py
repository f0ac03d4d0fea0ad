"""QA session 40, what a context pack repeats. Two defects of one cause — an item was judged a repeat before the pack
was packed, against every item ranked in rather than the items taken:

* a skipped entry marked `duplicate_of_item` (or `covered_by_observation`) named an item that was itself left out for
  `max_items` or the budget (`retrieve "what is Lighthouse" --max-items 1` listed the "Risk: battery supply…" bullet's
  observation edge as a duplicate of the bullet, which the pack did not hold): neither was in the pack;
* a section with prose of its own was packed whole beside its bullet the pack also took: `retrieve "what changed
  about the gateway count"` paid for "Correction: the gateway count is three, not two…" twice, as the bullet and as
  a line of the Decision section.

An item repeating another now waits for it: it is skipped naming it when the pack took it, competes as any item when
the pack did not, and a section with prose is packed without the lines the pack holds as items of their own, naming
them (`omitted_repeats`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.context import _best_first
from mnemon.app.context_budget import pack
from mnemon.app.memory import Mnemon

PROMPTS = ["what is Lighthouse", "who is Ada Quill", "is the pilot still blocked",
           "what changed about the gateway count", "gateway firmware updates", "battery supply risk"]
CORRECTION = "Correction: the gateway count is three, not two (updated after the site survey)"


@pytest.fixture
def vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    mem.ingest(str(example_vault))
    return mem


@pytest.mark.parametrize("max_items", [1, 2, 4, 8])
def test_a_repeat_names_an_item_the_pack_holds(vault_mem: Mnemon, max_items: int) -> None:
    for prompt in PROMPTS:
        for budget in (300, 2500):
            out = vault_mem.retrieve(prompt, max_items=max_items, budget=budget)
            held = {i["id"] for i in out["items"]}
            texts = [str(i["text"]) for i in out["items"]]
            for skip in out["skipped"]:
                if skip["reason"] in ("duplicate_of_item", "deduped_by_world_state_assertion"):
                    assert skip["duplicate_of"] in held, (prompt, max_items, budget, skip)
                elif skip["reason"] == "covered_by_observation":
                    assert any(skip["covered_by"].rstrip("…") in t for t in texts), (prompt, max_items, skip)


def test_a_section_with_prose_leaves_out_the_bullet_the_pack_holds(vault_mem: Mnemon) -> None:
    out = vault_mem.retrieve("what changed about the gateway count")
    [bullet] = [i for i in out["items"] if i["text"] == CORRECTION]
    [section] = [i for i in out["items"] if i["kind"] == "section" and "LoRa gateways" in i["text"]]
    assert "Correction" not in section["text"]  # the budget pays for the sentence once
    assert section["text"] == "- LoRa gateways at [[Harbour Station]] and the lighthouse tower"
    assert section["omitted_repeats"] == [bullet["id"]]
    assert out["used_budget"] == sum(len(i["title"]) + len(str(i["text"])) for i in out["items"])


def _item(item_id: str, score: float, text: str, **extra: Any) -> dict[str, Any]:
    return {"id": item_id, "kind": "observation", "item_type": "memory", "title": "T", "text": text,
            "source_path": f"{item_id}.md", "truth_policy": "source_contained_observation", "score": score, **extra}


def test_a_repeat_of_an_item_left_out_competes_for_its_place() -> None:
    big = _item("bullet", 0.9, "b" * 500)
    edge = _item("edge", 0.5, "short", _repeats={"bullet": {"reason": "duplicate_of_item", "duplicate_of": "bullet"}})
    skipped: list[dict[str, Any]] = []
    chosen, _ = pack(sorted([big, edge], key=_best_first), budget=60, max_items=5, skipped=skipped)
    assert [i["id"] for i in chosen] == ["edge"] and "_repeats" not in chosen[0]
    assert [(s["id"], s["reason"]) for s in skipped] == [("bullet", "budget_limit")]


def test_an_item_ranked_above_what_it_repeats_waits_for_it() -> None:
    bullet = _item("bullet", 0.4, "the sentence")
    edge = _item("edge", 0.9, "the sentence", _repeats={"bullet": {"reason": "duplicate_of_item",
                                                                   "duplicate_of": "bullet"}})
    skipped: list[dict[str, Any]] = []
    chosen, _ = pack(sorted([bullet, edge], key=_best_first), budget=1000, max_items=5, skipped=skipped)
    assert [i["id"] for i in chosen] == ["bullet"]
    assert [(s["id"], s["reason"], s["duplicate_of"]) for s in skipped] == [("edge", "duplicate_of_item", "bullet")]
