"""`forget --source` keeps what a person decided about the scope's edges, as a re-sent payload dropping a node does:
validate, weaken and kill edges of a payload, forget its scope, send the same payload again — every decided edge
was deleted with the scope ('explain-edge <id>' answered not_found) and the re-sent payload brought the killed
observation edge back active under a new id, the validated one back to candidate, the weakened one to full
strength. Now their rows stay (their ends deleted, `kept_for_decisions`) and the payload sent again takes them up."""
from __future__ import annotations

from tests.app.test_payload_person_decisions import PAYLOAD, SCOPE, _by_relation


def test_forgetting_a_scope_keeps_the_decisions_about_its_edges(mem) -> None:
    first = _by_relation(mem.remember_payload(PAYLOAD))
    validated, weakened = first[("a", "b", "relates_to")], first[("b", "a", "temporal")]
    killed, plain = first[("a", "obs", "has_fact")], first[("b", "c", "temporal")]
    mem.validate_edge(validated["id"], reason="I checked")
    strength = mem.weaken_edge(weakened["id"])["strength"]
    mem.kill_edge(killed["id"])
    decided = {e["id"]: mem.explain_edge(e["id"])["edge"]["status"] for e in (validated, weakened, killed)}
    dry = mem.forget_source(SCOPE, dry_run=True)
    out = mem.forget_source(SCOPE)
    obs = killed["dst"]
    for reply in (dry, out):
        assert reply["kept_for_decisions"] == sorted({f"{SCOPE}#a", f"{SCOPE}#b", obs})
        assert reply["removed"]["edges"] == 2  # a→c and b→c: nobody decided on them
    for edge_id, status in decided.items():
        assert mem.explain_edge(edge_id)["edge"]["status"] == status  # (was not_found)
    assert mem.rt.store.get_edge(plain["id"]) is None
    assert not mem.recall("Alpha fact")["results"]  # the scope is gone from recall all the same
    again = _by_relation(mem.remember_payload(PAYLOAD))
    assert again[("a", "obs", "has_fact")]["id"] == killed["id"]
    assert again[("a", "obs", "has_fact")]["status"] == "killed"
    assert again[("a", "b", "relates_to")]["reasons"] == ["person_decision_kept:validated"]
    assert mem.rt.store.get_edge(weakened["id"]).weight == strength
    assert again[("b", "c", "temporal")]["status"] == "active"


def test_forgetting_a_scope_twice_says_nothing_is_stored(mem) -> None:
    first = _by_relation(mem.remember_payload(PAYLOAD))
    mem.kill_edge(first[("a", "obs", "has_fact")]["id"])
    mem.forget_source(SCOPE)
    again = mem.forget_source(SCOPE)
    assert again["removed"] == {"observations": 0, "memories": 0, "nodes": 0, "edges": 0}
    assert again["warnings"][0]["code"] == "nothing_stored"
    assert mem.explain_edge(first[("a", "obs", "has_fact")]["id"])["edge"]["status"] == "killed"
