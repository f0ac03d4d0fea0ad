"""`mnemon resolve --file r.json` with a claim `"status": "actve"` (or "bogus") was accepted silently: the misspelt
wish read as no wish, the claim became a candidate and a dry run echoed `requested_status: "actve"`. A claim's
status is one of active, candidate, killed (any case, or none); anything else is refused naming the claim, what it
got and the valid values, and nothing is written."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.resolve_input import CLAIM_STATUSES
from mnemon.core.errors import InvalidInput

CLAIM = {"subject": "Acme", "predicate": "located_in", "object": "Porto", "confidence": 0.95, "certainty": "confirmed",
         "source_type": "document", "evidence": "The lease names Porto."}


def _research(status: Any) -> dict[str, Any]:
    return {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02",
            "claims": [dict(CLAIM), {**CLAIM, "object": "Lisbon", "status": status}]}


@pytest.mark.parametrize("status", ["actve", "bogus", 1, ["active"]])
def test_a_misspelt_claim_status_is_refused(mem: Mnemon, tmp_path: Path, status: Any) -> None:
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.resolve(str(tmp_path), _research(status), dry_run=dry_run)
        details = refused.value.details
        assert details["field"] == "claims[1].status" and details["got"] == status
        assert details["valid"] == ["active", "candidate", "killed"]
    assert not (tmp_path / "Sources").exists()
    assert list(mem.rt.store.iter_edges()) == []


@pytest.mark.parametrize(("status", "edge"), [(" Killed ", "killed"), ("CANDIDATE", "candidate"), ("", "active"),
                                              (None, "active"), ("active", "active")])
def test_every_valid_status_in_any_case_is_read(mem: Mnemon, tmp_path: Path, status: Any, edge: str) -> None:
    out = mem.resolve(str(tmp_path), _research(status))
    assert [e["status"] for e in out["edges"]] == ["active", edge]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.text(max_size=12))
def test_only_the_three_statuses_pass(mem: Mnemon, tmp_path: Path, status: str) -> None:
    valid = status.strip().lower() in ("", *CLAIM_STATUSES)
    try:
        mem.resolve(str(tmp_path), _research(status), dry_run=True)
    except InvalidInput as refused:
        assert not valid and refused.details["field"] == "claims[1].status"
    else:
        assert valid
