"""A scoped payload re-sent with a misspelt key (`"observation": […]`, `"node": […]`) was read as a payload with
nothing in it — and a payload replaces its scope's rows, so the scope's memories were deleted while the reply said
`ok`. A top-level key no rule reads is now refused, named with the closest known one, and nothing changes (as the
world model's payloads already refuse theirs)."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

SCOPE = "mneme://agent/acme"
PAYLOAD = {"source_path": SCOPE, "nodes": [{"ref": "task", "type": "task", "name": "Validate Acme pricing"}],
           "observations": [{"node": "task", "kind": "risk", "text": "Acme pricing may rise in spring.", "score": 5}]}


def test_a_misspelt_key_is_refused_and_the_scope_kept(mem: Mnemon) -> None:
    mem.remember_payload(PAYLOAD)
    typo = {"source_path": SCOPE, "node": PAYLOAD["nodes"], "observation": PAYLOAD["observations"]}
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.remember_payload(typo, dry_run=dry_run)
        assert "'node' (did you mean 'nodes'?)" in str(refused.value)
        assert "'observation' (did you mean 'observations'?)" in str(refused.value)
    assert [r["content"] for r in mem.search("Acme pricing spring")["results"]] == ["Acme pricing may rise in spring."]
    assert mem.remember_payload(PAYLOAD, dry_run=True)["replaced"] == []  # every row still there


def test_a_resolve_payload_with_a_misspelt_claims_key_drops_nothing(mem: Mnemon, tmp_path) -> None:
    claim = {"subject": "Acme", "predicate": "located_in", "object": "Porto", "confidence": 0.95,
             "certainty": "confirmed", "source_type": "document", "evidence": "The lease names Porto."}
    research = {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02", "claims": [claim]}
    [edge] = mem.resolve(str(tmp_path), research)["edges"]
    typo = {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02", "claim": [claim], "summary": "kept"}
    with pytest.raises(InvalidInput, match="'claim' \\(did you mean 'claims'\\?\\)"):
        mem.resolve(str(tmp_path), typo, dry_run=True)
    assert mem.rt.store.get_edge(edge["id"]).status == "active"
    assert mem.resolve(str(tmp_path), {**research, "summary": "a key far from any known"})["written"]
