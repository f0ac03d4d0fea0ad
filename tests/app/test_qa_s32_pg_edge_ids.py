"""An edge id names one edge for the life of the store, on both backends: an edge deleted for good (a payload re-sent
without it) never lends its id to a later edge. SQLite handed the largest id out again, and the new edge inherited
the old one's audit trail: `explain-edge` of a fresh temporal link showed the payload's update of another edge, and a
decision read from the log (`resolve`, a re-sent payload) could be taken for one made on the new edge. PostgreSQL's
identity column never reuses an id, so both now answer alike."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mnemon.app.memory import Mnemon

SCOPE = "mneme://qa/edge-ids"


def _payload(edges: list[dict[str, Any]]) -> str:
    return json.dumps({"source_path": SCOPE, "nodes": [{"ref": "a", "type": "agent", "name": "Agent"},
                                                       {"ref": "b", "type": "task", "name": "Task"}],
                       "edges": edges, "observations": []})


def _edge(evidence: str) -> dict[str, Any]:
    return {"src": "a", "dst": "b", "relation": "relates_to", "status": "candidate", "evidence": evidence}


def test_a_deleted_edges_id_and_history_stay_with_it(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem()
    mem.remember_payload(_payload([_edge("the agent owns the task")]))
    mem.remember_payload(_payload([_edge("the agent still owns the task")]))  # logged as an update of the edge
    edge = mem.rt.store.find_edge(f"{SCOPE}#a", f"{SCOPE}#b", "relates_to")
    assert edge is not None and [e["event"] for e in mem.explain_edge(edge.id)["debug_log"]] == ["created", "updated"]
    assert mem.remember_payload(_payload([]))["replaced_edges"] == [edge.id]  # re-sent without it: deleted
    first = mem.remember("first memory about apples", source="agent")["id"]
    second = mem.remember("second memory about pears", source="agent")["id"]
    mem.link(first, second, "causal", weight=0.9)
    edges = list(mem.rt.store.iter_edges())
    assert edges and edge.id not in {e.id for e in edges}
    for new in edges:
        assert [e["event"] for e in mem.explain_edge(new.id)["debug_log"]] == ["created"]
