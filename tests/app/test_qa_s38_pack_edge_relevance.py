"""A context pack's edges are scored from the edge itself, so they never crowd out the memories a prompt is about.

`mnemon retrieve --prompt "why did we switch to Postgres?"` on a store where the Postgres decision was linked to six
unrelated memories answered the decision and seven links (each 0.7523: a link inherited the decision's score and
the word-match credit of the decision's own title), and skipped the second Postgres memory (0.3848) for `max_items`.
"""
from __future__ import annotations

from mnemon.app.memory import Mnemon

PROMPT = "why did we switch to Postgres?"
UNRELATED = ["The launch is scheduled for March 3", "The marketing team prepared a press kit for the launch",
             "Ops added a new on-call rotation after the outage", "Customers asked for a dark mode in the dashboard",
             "We hired two new backend engineers in January", "The data team uses dbt for transformations"]


def _store(mem: Mnemon) -> tuple[str, str]:
    switch = mem.remember("We switched from MySQL to Postgres because of JSON support", category="decision")["id"]
    downtime = mem.remember("Postgres migration caused two hours of downtime", category="fact")["id"]
    for text in UNRELATED:
        other = mem.remember(text, category="fact")["id"]
        mem.link(other, switch, "temporal")
        mem.link(switch, other, "temporal")
    mem.link(downtime, switch, "temporal")
    return switch, downtime


def test_both_postgres_memories_are_packed_before_links_to_unrelated_memories(mem: Mnemon) -> None:
    switch, downtime = _store(mem)
    pack = mem.retrieve(PROMPT)
    ids = [i["id"] for i in pack["items"]]
    assert switch in ids and downtime in ids, pack["skipped"][:5]
    memory_scores = [i["score"] for i in pack["items"] if i["item_type"] == "memory"]
    for edge in (i for i in pack["items"] + pack["skipped"] if i["kind"] == "edge"):
        unrelated_end = any(t in edge["title"] for t in UNRELATED)
        if unrelated_end:  # a link of the decision to a memory the prompt is not about ranks below both memories
            assert edge["score"] < min(memory_scores), edge


def test_an_edge_reports_both_ends_and_only_the_terms_it_adds(mem: Mnemon) -> None:
    switch, downtime = _store(mem)
    pack = mem.retrieve(PROMPT, max_items=40, budget=20_000)
    edges = [i for i in pack["items"] if i["item_type"] == "edge"]
    assert edges
    for edge in edges:
        f = edge["score_factors"]
        assert f["ends"] == round((f["anchor"] + f["other_end"]) / 2, 4)
        # the decision's own words ("switch", "postgres") are credited to the decision, not again to its links
        assert "switch" not in edge["added_terms"]
        assert f["lexical"] == 1.0 + 0.25 * len(edge["added_terms"])
        assert set(edge["added_terms"]) <= set(edge["matched_terms"])
        product = f["ends"] * f["quality"] * f["category"] * f["status"] * f["lexical"]
        assert abs(edge["score"] - product) < 1e-3
    joined = [e for e in edges if {e["src"]["id"], e["dst"]["id"]} == {switch, downtime}]
    loose = [e for e in edges if e["score_factors"]["other_end"] == 0.0 and e["relation"] == "temporal"]
    assert joined and loose
    # a link between the two memories the prompt is about outranks a link of one of them to an unrelated memory
    assert min(e["score"] for e in joined if e["relation"] == "temporal") > max(e["score"] for e in loose)
