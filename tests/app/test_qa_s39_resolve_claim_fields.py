"""QA round (session 39): a `resolve` claim's refusal names the claim and the value. `"confidence": "high"` answered
details.field "confidence" — no claim index, nothing of what was sent — where a date's refusal names
`claims[1].date`. Every per-claim check now names `claims[<i>].<key>` and says what it got; nothing is written."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

GOOD = {"subject": "Acme", "predicate": "located_in", "object": "Porto", "confidence": 0.95}


def _refused(mem: Mnemon, vault: Path, claim: dict[str, Any]) -> InvalidInput:
    research = {"title": "Warehouse", "date": "2026-05-02", "claims": [dict(GOOD), claim]}
    with pytest.raises(InvalidInput) as refused:
        mem.resolve(str(vault), research, dry_run=True)
    return refused.value


@pytest.mark.parametrize(("change", "field", "said"), [
    ({"confidence": "high"}, "claims[1].confidence", "got 'high'"),
    ({"confidence": 1.5}, "claims[1].confidence", "got 1.5"),
    ({"strength": "strong"}, "claims[1].strength", "got 'strong'"),
    ({"subject": "  "}, "claims[1].subject", "claims[1]"),
    ({"object": ["a"]}, "claims[1].object", "got a list"),
    ({"predicate": "!!"}, "claims[1].predicate", "got '!!'"),
    ({"source_type": 7}, "claims[1].source_type", "got int"),
    ({"evidence": 3}, "claims[1].evidence", "got int"),
    ({"metadata": 5}, "claims[1].metadata", "got int"),
    ({"confidnce": 0.9}, "claims[1].confidnce", "confidence"),
    ({"object": "Porto", "predicate": "located in"}, "claims[1]", "claims[0]"),
])
def test_each_claim_check_names_the_claim_and_the_value(mem: Mnemon, tmp_path: Path, change: dict[str, Any],
                                                        field: str, said: str) -> None:
    claim = {**GOOD, "object": "Lisbon", **change}
    refused = _refused(mem, tmp_path, claim)
    assert refused.details.get("field") == field, refused.details
    assert said in refused.message and "claims[1]" in refused.message, refused.message
    assert not (tmp_path / "Sources").exists() and list(mem.rt.store.iter_edges()) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=8), st.booleans(), st.floats(allow_nan=False).filter(lambda x: not 0 <= x <= 1),
                 st.integers().filter(lambda x: not 0 <= x <= 1), st.none().map(lambda _: [0.5])))
def test_any_unfit_confidence_is_named_with_its_claim(mem: Mnemon, tmp_path: Path, value: Any) -> None:
    refused = _refused(mem, tmp_path, {**GOOD, "object": "Lisbon", "confidence": value})
    assert refused.details.get("field") == "claims[1].confidence"
    assert "got " in refused.message


def test_a_claim_of_an_ingest_relation_is_refused_naming_its_claim(mem: Mnemon, tmp_path: Path) -> None:
    research = {"title": "Warehouse", "claims": [dict(GOOD), {**GOOD, "object": "Lisbon", "predicate": "links_to"}]}
    for dry_run in (True, False):
        out = mem.resolve(str(tmp_path), research, dry_run=dry_run)
        refused = (out["claims"] if dry_run else out["edges"])[1]
        assert refused["status"] == "refused" and refused["error"]["details"]["field"] == "claims[1].predicate"
