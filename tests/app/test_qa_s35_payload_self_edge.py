"""A scoped payload's edge from a node to itself is refused, as `link` refuses one, and nothing of the payload is
written: it was stored and answered ok, a loop no walk or pack reads as anything."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput


def test_a_payload_edge_from_a_node_to_itself_is_refused(mem: Mnemon) -> None:
    payload = {"source_path": "mneme://s/x", "nodes": [{"ref": "a", "name": "A"}, {"ref": "b", "name": "B"}],
               "edges": [{"src": "a", "dst": "b", "relation": "related_to"},
                         {"src": "a", "dst": "a", "relation": "related_to"}]}
    with pytest.raises(InvalidInput, match=r"edges\[1\]: src and dst are both 'a'"):
        mem.remember_payload(payload)
    assert mem.status()["total_insights"] == 0 and mem.status()["edge_count"] == 0
    payload["edges"] = payload["edges"][:1]
    assert mem.remember_payload(payload)["ok"] is True
