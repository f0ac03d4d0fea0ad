"""A person's decision about a payload edge outlives the payload dropping one of the edge's nodes for a while."""
from __future__ import annotations

from typing import Any

SCOPE = "mneme://agent/s32"
FULL: dict[str, Any] = {
    "source_path": SCOPE,
    "nodes": [{"ref": "agent", "name": "Test agent"}, {"ref": "zoe", "name": "Zoë Marsh"}],
    "edges": [{"src": "agent", "dst": "zoe", "relation": "links_to", "status": "active"}],
    "observations": [{"node": "zoe", "kind": "blocked", "text": "Waiting on Zoë for the battery invoice", "score": 6}],
}
WITHOUT_ZOE: dict[str, Any] = dict(FULL, nodes=FULL["nodes"][:1], edges=[], observations=[])


def _edge(out: dict[str, Any], relation: str) -> dict[str, Any]:
    return next(e for e in out["edges"] if e["relation"] == relation)


def test_a_killed_edge_stays_killed_when_its_node_leaves_the_payload_and_comes_back(mem) -> None:
    first = mem.remember_payload(FULL)
    link = _edge(first, "links_to")
    assert link["status"] == "active"
    mem.kill_edge(link["id"], reason="wrong person")

    dry = mem.remember_payload(WITHOUT_ZOE, dry_run=True)
    smaller = mem.remember_payload(WITHOUT_ZOE)
    for out in (dry, smaller):
        assert f"{SCOPE}#zoe" in out["replaced"]
        assert link["id"] not in out["replaced_edges"]
        assert out["kept_for_decisions"] == [f"{SCOPE}#zoe"]
    pack = mem.retrieve("Zoë battery invoice", budget=2000, max_items=8)
    assert not [i for i in pack["items"] if str(i["id"]).startswith(SCOPE)]  # gone from what the agent reads

    again = mem.remember_payload(FULL)
    back = _edge(again, "links_to")
    assert (back["id"], back["status"], back["reasons"]) == (link["id"], "killed",
                                                             ["killed_tombstone_blocks_recreation"])
    assert mem.rt.store.get_edge(link["id"]).status == "killed"
    pack = mem.retrieve("Zoë battery invoice", budget=2000, max_items=8)
    assert any(i["text"] == "Waiting on Zoë for the battery invoice" for i in pack["items"])
    assert not [i for i in pack["items"] if i.get("edge_id") == link["id"]]

    # a forget of the scope keeps the tombstone too, its ends deleted (test_qa_s37_forget_source_decisions.py)
    assert mem.forget_source(SCOPE)["kept_for_decisions"] == [f"{SCOPE}#agent", f"{SCOPE}#zoe"]
    assert mem.rt.store.get_edge(link["id"]).status == "killed"
    assert mem.forget_source(SCOPE, dry_run=True)["removed"] == {"observations": 0, "memories": 0, "nodes": 0,
                                                                 "edges": 0}


def test_a_resend_does_not_list_a_kept_row_as_replaced_again(mem) -> None:
    link = _edge(mem.remember_payload(FULL), "links_to")
    mem.kill_edge(link["id"])
    mem.remember_payload(WITHOUT_ZOE)
    twice = mem.remember_payload(WITHOUT_ZOE)
    assert twice["replaced"] == [] and twice["kept_for_decisions"] == []
