"""One edge per (source, target, relation): a `resolve` payload or a scoped payload naming the same edge twice used to
store whichever came last, silently. A strong sourced claim followed by a weak restatement left its belief current
on an edge that was now a candidate (the contract's `unbacked_current_assertion`) and its evidence gone; a payload
edge sent twice lost the first one's evidence and confidence, and the reply listed two edges under one id. Both are
now refused whole, before anything is written, naming the two entries."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

STRONG = {"subject": "Lighthouse", "predicate": "owned_by", "object": "Ada Quill", "confidence": 0.95,
          "certainty": "confirmed", "source_type": "email", "evidence": "Ada's email says she owns Lighthouse."}
# the same claim again, weaker and unsourced, the names spelt another way: it resolves to the same two notes
WEAK = {"subject": "lighthouse", "predicate": "Owned By", "object": "ada quill", "confidence": 0.5}
RESOLUTION: dict[str, Any] = {"slug": "owners", "title": "Owners resolved", "date": "2026-04-26",
                              "claims": [STRONG, WEAK]}


def test_resolve_refuses_a_claim_stated_twice_and_writes_nothing(example_vault_mem: Mnemon,
                                                                 example_vault: Path) -> None:
    mem = example_vault_mem
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.resolve(str(example_vault), copy.deepcopy(RESOLUTION), dry_run=dry_run)
        assert "claims[1]" in refused.value.message and "claims[0]" in refused.value.message
    assert not (example_vault / "Sources" / "2026-04-26-owners.md").exists()
    assert mem.rt.store.vault.edges_by_keys(  # type: ignore[attr-defined]
        [("note:Projects/lighthouse.md", "note:People/ada-quill.md", "owned_by")]) == {}
    assert mem.contract_check()["warnings"] == []

    # said once, the strong claim is written active, its belief current and backed by it
    out = mem.resolve(str(example_vault), dict(RESOLUTION, claims=[STRONG]))
    (edge,) = out["edges"]
    assert edge["status"] == "active" and edge["assertion_id"]
    assert mem.explain_edge(edge["id"])["edge"]["evidence_text"] == STRONG["evidence"]
    assert mem.contract_check()["warnings"] == []


PAYLOAD: dict[str, Any] = {
    "source_path": "mneme://agent/dups",
    "nodes": [{"ref": "agent", "name": "Test agent"}, {"ref": "task", "name": "Validate retrieval"}],
    "edges": [{"src": "agent", "dst": "task", "relation": "part_of", "confidence": 0.95,
               "evidence": "The agent was assigned the task."},
              {"src": "agent", "dst": "task", "relation": "Part_Of", "status": "candidate", "confidence": 0.3}],
}


def test_a_scoped_payload_naming_one_edge_twice_is_refused(mem: Mnemon) -> None:
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.remember_payload(copy.deepcopy(PAYLOAD), dry_run=dry_run)
        assert "edges[1]" in refused.value.message and "edges[0]" in refused.value.message
    assert mem.rt.store.get_node("mneme://agent/dups#agent") is None  # nothing of the scope was written

    # the same two ends under two relations are two edges: accepted
    two = copy.deepcopy(PAYLOAD)
    two["edges"][1]["relation"] = "relates_to"
    out = mem.remember_payload(two)
    assert len({e["id"] for e in out["edges"]}) == 2
    part_of = next(e for e in out["edges"] if e["relation"] == "part_of")
    assert mem.explain_edge(part_of["id"])["edge"]["evidence_text"] == "The agent was assigned the task."


def test_a_node_ref_shaped_as_an_observation_id_is_refused_not_a_database_error(mem: Mnemon) -> None:
    """A node is `<scope>#<ref>` and an observation `<scope>#obs/<node>/<digest>`: a ref of that shape named one row
    twice, and the write failed with an `internal` IntegrityError instead of a clear refusal."""
    text = "Collide with me please"
    observation_id = mem.remember_payload({"source_path": "mneme://agent/ids", "nodes": [{"ref": "a"}],
                                           "observations": [{"node": "a", "text": text}]},
                                          dry_run=True)["observations"][0]["id"]
    ref = observation_id.split("#", 1)[1]
    clash = {"source_path": "mneme://agent/ids", "nodes": [{"ref": "a"}, {"ref": ref, "name": "b"}],
             "observations": [{"node": "a", "text": text}]}
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.remember_payload(copy.deepcopy(clash), dry_run=dry_run)
        assert "nodes[1].ref" in refused.value.message
    assert mem.rt.store.get_node("mneme://agent/ids#a") is None
