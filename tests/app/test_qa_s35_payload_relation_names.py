"""A scoped payload's edge relation was only lower-cased: "Located In" was stored as the relation "located in", which
the ontology does not know (no category, no inverse, counted in no graph), where `resolve` reads the same words as
`located_in`; "!!!" was stored as a relation. A payload's relation is now spelt as a resolve claim's predicate, and
one with no letter or digit is refused, naming the edge."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

SCOPE = "mneme://agent/relations"


def _payload(relation: str) -> dict[str, object]:
    return {"source_path": SCOPE, "nodes": [{"ref": "depot"}, {"ref": "porto"}],
            "edges": [{"src": "depot", "dst": "porto", "relation": relation, "status": "active", "confidence": 0.95,
                       "evidence": "The lease names Porto.", "validated": True}]}


@pytest.mark.parametrize("relation", ["Located In", "located-in", " LOCATED_IN "])
def test_a_relation_is_spelt_as_a_resolve_predicate(mem: Mnemon, relation: str) -> None:
    [edge] = mem.remember_payload(_payload(relation))["edges"]
    assert edge["relation"] == "located_in" and "unknown_relation" not in edge["reasons"]
    assert mem.explain_edge(edge["id"])["edge"]["relationship_type"]["name"] == "located_in"


def test_a_relation_without_letters_is_refused(mem: Mnemon) -> None:
    with pytest.raises(InvalidInput, match=r"edges\[0\]\.relation"):
        mem.remember_payload(_payload("!!!"))
    assert mem.rt.store.get_node(f"{SCOPE}#depot") is None
