"""`surface --prompt` makes no card of a link between two things earlier cards already walked through.

On a store holding "We switched from MySQL to Postgres because of JSON support" and "Postgres migration caused two
hours of downtime", linked both ways by `remember`'s entity edges and by hand, `mnemon surface --prompt "why did we
switch to Postgres?" --limit 5` answered the decision's card (whose walk reached the downtime memory) and four
cards of the same pair: each entity and temporal link of the two, in each direction.
"""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_links_of_a_pair_already_walked_are_no_cards_of_their_own(mem: Mnemon) -> None:
    switch = mem.remember("We switched from MySQL to Postgres because of JSON support", category="decision")["id"]
    downtime = mem.remember("Postgres migration caused two hours of downtime", category="fact")["id"]
    mem.link(downtime, switch, "temporal")
    mem.link(switch, downtime, "temporal")
    out = mem.surface(prompt="why did we switch to Postgres?", limit=5)
    walked: set[str] = set()
    for card in out["thoughts"]:
        ids = [step["id"] for step in card["path"]]
        assert not set(ids) <= walked, (card["title"], ids)  # every card names something no earlier card did
        walked.update(ids)
    assert {switch, downtime} <= walked
    pairs = [frozenset(step["id"] for step in card["path"]) for card in out["thoughts"]
             if card["surface"]["kind"] == "edge"]
    assert len(pairs) == len(set(pairs))


def test_a_candidate_link_of_a_walked_pair_keeps_its_review_card(mem: Mnemon) -> None:
    """A walk keeps to active edges, so a candidate link's card (validate or kill it) says what no walk did."""
    switch = mem.remember("We switched from MySQL to Postgres because of JSON support", category="decision")["id"]
    downtime = mem.remember("Postgres migration caused two hours of downtime", category="fact")["id"]
    mem.link(switch, downtime, "causal", sub_type="causes")
    edge = mem.rt.store.find_edge(switch, downtime, "causal")
    assert edge is not None
    mem.weaken_edge(edge.id, factor=0.05)
    assert mem.rt.store.find_edge(switch, downtime, "causal").status == "candidate"
    out = mem.surface(prompt="why did we switch to Postgres?", limit=5)
    assert f"edge:{edge.id}" in [card["surface"]["source_id"] for card in out["thoughts"]]
