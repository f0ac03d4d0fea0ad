"""A re-sent payload scope and a person's decisions about its edges; what a smaller payload removes is reported."""
from __future__ import annotations

from typing import Any

SCOPE = "mneme://agent/decided"
PAYLOAD: dict[str, Any] = {
    "source_path": SCOPE,
    "nodes": [{"ref": "a", "name": "Alpha"}, {"ref": "b", "name": "Beta"}, {"ref": "c", "name": "Gamma"}],
    "edges": [{"src": "a", "dst": "b", "relation": "relates_to", "confidence": 0.5, "evidence": "seen together"},
              {"src": "b", "dst": "a", "relation": "temporal", "confidence": 0.9},
              {"src": "a", "dst": "c", "relation": "weird_relation", "confidence": 0.99, "evidence": "x"},
              {"src": "b", "dst": "c", "relation": "temporal", "confidence": 0.9}],
    "observations": [{"node": "a", "text": "Alpha is a fact"}],
}


def _by_relation(out: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(e["src"].rsplit("#", 1)[-1], e["dst"].rsplit("#", 1)[-1][:3], e["relation"]): e for e in out["edges"]}


def test_resending_a_payload_keeps_what_a_person_decided_about_its_edges(mem) -> None:
    first = _by_relation(mem.remember_payload(PAYLOAD))
    validated, weakened = first[("a", "b", "relates_to")], first[("b", "a", "temporal")]
    killed = first[("a", "obs", "has_fact")]
    assert validated["status"] == "candidate"
    mem.validate_edge(validated["id"], reason="I checked")
    mem.weaken_edge(weakened["id"])
    mem.kill_edge(killed["id"])
    dry = _by_relation(mem.remember_payload(PAYLOAD, dry_run=True))
    again = _by_relation(mem.remember_payload(PAYLOAD))
    store = mem.rt.store
    for out in (dry, again):
        assert out[("a", "b", "relates_to")]["status"] == "active"
        assert out[("a", "b", "relates_to")]["reasons"] == ["person_decision_kept:validated"]
        assert out[("b", "a", "temporal")]["reasons"] == ["person_decision_kept:weakened"]
        assert out[("a", "obs", "has_fact")]["status"] == "killed"
        assert out[("a", "obs", "has_fact")]["reasons"] == ["killed_tombstone_blocks_recreation"]
    edge = store.get_edge(validated["id"])
    assert (edge.status, edge.metadata.get("validated")) == ("active", True)
    assert store.get_edge(weakened["id"]).weight == 0.45
    assert (store.get_edge(killed["id"]).status, store.get_edge(killed["id"]).weight) == ("killed", 0.0)
    events = [e["event"] for e in store.edge_events(validated["id"])]
    assert events[-2:] == ["validated", "decision_kept"]


def test_a_smaller_payload_reports_every_edge_it_removes(mem) -> None:
    first = _by_relation(mem.remember_payload(PAYLOAD))
    smaller = dict(PAYLOAD, nodes=PAYLOAD["nodes"][:2], edges=PAYLOAD["edges"][:1])
    dry = mem.remember_payload(smaller, dry_run=True)
    out = mem.remember_payload(smaller)
    # the self-loop and b→a go with no node of theirs removed; b→c goes with Gamma
    gone = sorted(first[k]["id"] for k in (("b", "a", "temporal"), ("a", "c", "weird_relation"),
                                           ("b", "c", "temporal")))
    assert out["replaced"] == dry["replaced"] == [f"{SCOPE}#c"]
    assert out["replaced_edges"] == dry["replaced_edges"] == gone
    assert all(mem.rt.store.get_edge(i) is None for i in gone)
    assert mem.rt.store.get_edge(first[("a", "b", "relates_to")]["id"]) is not None


def test_a_resent_payload_reads_its_edges_and_their_decisions_once(mem, monkeypatch) -> None:
    """A re-send asked the store for each edge's row and event log in turn: 7k edges, 14k reads. The decisions
    must still be found, from one read of the events for all of them."""
    big = dict(PAYLOAD, edges=[*PAYLOAD["edges"], *({"src": s, "dst": d, "relation": "relates_to", "confidence": 0.5}
                                                    for s in "abc" for d in "abc" if s != d and (s, d) != ("a", "b"))])
    first = _by_relation(mem.remember_payload(big))
    mem.weaken_edge(first[("b", "a", "temporal")]["id"])
    mem.validate_edge(first[("c", "a", "relates_to")]["id"], reason="seen it")
    store = mem.rt.store
    calls: dict[str, int] = {}
    for name in ("edge_events", "find_edge", "latest_edge_events"):
        def counted(*args: Any, _name: str = name, _real: Any = getattr(store, name), **kw: Any) -> Any:
            calls[_name] = calls.get(_name, 0) + 1
            return _real(*args, **kw)
        monkeypatch.setattr(store, name, counted)
    for dry_run in (True, False):
        calls.clear()
        again = _by_relation(mem.remember_payload(big, dry_run=dry_run))
        assert again[("b", "a", "temporal")]["reasons"] == ["person_decision_kept:weakened"]
        assert again[("c", "a", "relates_to")]["reasons"] == ["person_decision_kept:validated"]
        assert again[("a", "c", "relates_to")]["reasons"] != ["person_decision_kept:validated"]
        assert calls.get("edge_events", 0) == calls.get("find_edge", 0) == 0
        assert calls["latest_edge_events"] <= 2  # the payload's edges, then the scope's edges it no longer names
