"""QA session 39, an agent's context pack: the two rows of a link written both ways (temporal proximity and backbone,
entity, semantic: one row each way, same evidence) were two items. `mnemon agent preflight --prompt "who owns the
Lighthouse deployment pipeline now?"` packed 2 memories and 6 edges that were 3 links, each twice with its arrow
turned — about 700 bytes of an agent's context each, nothing new in the second. The second row is skipped as
`duplicate_of_item`, naming the edge item kept."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon

FACTS = ["Bob Chen owns the deployment pipeline for Lighthouse",
         "Alice Martin is the tech lead of Project Lighthouse",
         "Bob Chen left the team; Carol Diaz now owns the deployment pipeline for Lighthouse",
         "Lighthouse's frontend is written in React with TypeScript"]


def _link(item: dict[str, Any]) -> tuple[str, frozenset[str], str]:
    return item["relation"], frozenset((item["src"]["id"], item["dst"]["id"])), str(item.get("text") or "")


def test_a_link_written_both_ways_is_one_item_of_the_pack(mem: Mnemon) -> None:
    for fact in FACTS:
        mem.remember(fact)
    pack = mem.retrieve("who owns the Lighthouse deployment pipeline now?", max_items=8)
    edges = [i for i in pack["items"] if i["item_type"] == "edge"]
    assert edges, pack["items"]
    links = [_link(i) for i in edges]
    assert len(links) == len(set(links)), [i["title"] for i in edges]
    kept = {i["id"] for i in edges}
    twins = [s for s in pack["skipped"] if s["reason"] == "duplicate_of_item" and s["id"].startswith("edge:")]
    # (the row kept may itself give way to a better item: it is then listed as skipped for `max_items`)
    over = {s["id"] for s in pack["skipped"] if s["reason"] == "max_items"}
    assert twins and all(s["duplicate_of"] in kept | over for s in twins)
    assert any(s["duplicate_of"] in kept for s in twins)
    # the budget the twins paid goes to other items: the pack still fills its max_items
    assert len(pack["items"]) == 8


def test_a_directed_link_and_its_reverse_stay_two_items(mem: Mnemon) -> None:
    """A causes B and B causes A are two claims, not one written twice: both are kept."""
    a = mem.remember("Northwind ships the Lighthouse batteries")["id"]
    b = mem.remember("Lighthouse depends on Northwind for batteries")["id"]
    mem.link(a, b, edge_type="causal", weight=0.9)
    mem.link(b, a, edge_type="causal", weight=0.9)
    pack = mem.retrieve("Northwind Lighthouse batteries", max_items=20, budget=20_000)
    causal = {(i["src"]["id"], i["dst"]["id"]) for i in pack["items"]
              if i["item_type"] == "edge" and i["relation"] == "causal"}
    assert causal == {(a, b), (b, a)}
