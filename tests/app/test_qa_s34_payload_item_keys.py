"""A misspelt key inside a payload's items passed silently: in `remember --payload`, an observation with
`"kidn": "risk"` was stored as kind `fact` and a node with `"typ": "person"` as type `entity` — the write looked
fine and the risk never surfaced as one. Each item of `nodes`, `edges` and `observations` now refuses a key no rule
reads, naming the closest known one (as the payload's top-level keys already were), and nothing is stored."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.payload import parse_payload
from mnemon.core.errors import InvalidInput

SCOPE = "mneme://agent/s1"


def _payload(**changes: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "source_path": SCOPE,
        "nodes": [{"ref": "vendor", "type": "organisation", "name": "Ferro", "summary": "steel"},
                  {"ref": "deal", "name": "Ferro deal"}],
        "edges": [{"src": "vendor", "dst": "deal", "relation": "relates_to", "status": "active",
                   "confidence": 0.8, "evidence": "the call", "validated": False}],
        "observations": [{"node": "deal", "kind": "risk", "text": "Ferro may miss the delivery date.", "score": 6}],
    }
    for key, (index, item) in changes.items():
        payload[key][index] = item
    return payload


@pytest.mark.parametrize(("key", "item", "where", "typo", "meant"), [
    ("observations", {"node": "deal", "kidn": "risk", "text": "Ferro may slip."}, "observations[0]", "kidn", "kind"),
    ("nodes", {"ref": "vendor", "typ": "person", "name": "Ferro"}, "nodes[0]", "typ", "type"),
    ("edges", {"src": "vendor", "dst": "deal", "relation": "relates_to", "stauts": "active"}, "edges[0]", "stauts",
     "status"),
])
def test_a_misspelt_item_key_is_refused_naming_the_known_one(mem: Mnemon, key: str, item: dict[str, Any],
                                                             where: str, typo: str, meant: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        mem.remember_payload(_payload(**{key: (0, item)}))
    assert where in refused.value.message and repr(typo) in refused.value.message
    assert refused.value.details["did_you_mean"] == {typo: meant}
    assert mem.search("Ferro")["results"] == []  # nothing of the payload was stored


def test_every_key_the_payload_reads_is_accepted(mem: Mnemon) -> None:
    out = mem.remember_payload(_payload())
    assert [o["kind"] for o in out["observations"]] == ["risk"]
    assert [n["type"] for n in out["nodes"]] == ["organisation", "entity"]


@settings(max_examples=50)
@given(st.sampled_from(["nodes", "edges", "observations"]),
       st.text(min_size=1, max_size=12).filter(lambda k: k not in (
           "ref", "type", "name", "summary", "src", "dst", "relation", "status", "confidence", "evidence",
           "validated", "node", "kind", "text", "score")))
def test_any_unknown_item_key_is_refused(key: str, extra: str) -> None:
    payload = _payload()
    payload[key][0] = {**payload[key][0], extra: "x"}
    with pytest.raises(InvalidInput) as refused:
        parse_payload(payload)
    assert refused.value.details["unknown"] == [extra]
