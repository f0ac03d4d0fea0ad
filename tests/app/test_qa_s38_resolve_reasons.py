"""A `resolve` claim that asked for no status is told why it stayed a candidate. A claim with only a confidence of
0.6 (docs/agents.md's second example claim) answered `"reasons": ["unknown_relation", "requested_candidate"]` in
`mnemon resolve` and its `--dry-run` — yet it requested nothing. Its reasons now name what it lacks of an active
claim (`missing_evidence`, `unsourced`, `unconfirmed`, `below_active_threshold`); `requested_candidate` is kept
for a claim that gave `"status": "candidate"`. The edge's stored `gate` says the same."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.resolve import ACTIVE_THRESHOLD, claim_shortfall, claim_status

FULL = {"confidence": 0.95, "certainty": "confirmed", "source_type": "email",
        "evidence": "Northwind's email of 2026-04-02 confirms the May shipment"}
PAYLOAD: dict[str, Any] = {"title": "Battery supplier status", "date": "2026-04-02", "claims": [
    {"subject": "Lighthouse", "predicate": "at_risk_from", "object": "the June deadline", "confidence": 0.6},
    {"subject": "Lighthouse", "predicate": "relates_to", "object": "Northwind", **FULL, "evidence": ""},
    {"subject": "Lighthouse", "predicate": "relates_to", "object": "Berlin", **FULL, "status": "candidate"},
]}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    root.mkdir()
    (root / "Lighthouse.md").write_text("# Lighthouse\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("dry_run", [True, False])
def test_each_claim_is_told_what_kept_it_a_candidate(mem: Mnemon, vault: Path, dry_run: bool) -> None:
    mem.ingest(str(vault))
    out = mem.resolve(str(vault), copy.deepcopy(PAYLOAD), dry_run=dry_run)
    rows = out["claims"] if dry_run else out["edges"]
    assert [r["status"] for r in rows] == ["candidate"] * 3
    assert [r["reasons"] for r in rows] == [
        ["unknown_relation", "missing_evidence", "unsourced", "unconfirmed", "below_active_threshold"],
        ["missing_evidence"],
        ["requested_candidate"],
    ]
    if not dry_run:
        assert mem.rt.store.get_edge(rows[1]["id"]).metadata["gate"] == ["missing_evidence"]


@settings(max_examples=60, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "confidence": st.floats(0, 1), "certainty": st.sampled_from(["confirmed", "certain", "likely", ""]),
    "source_type": st.sampled_from(["email", "vault", "none", ""]), "evidence": st.sampled_from(["", " ", "seen"])}))
def test_a_claim_is_active_exactly_when_it_lacks_nothing(claim: dict[str, Any]) -> None:
    lacks = claim_shortfall(claim, ACTIVE_THRESHOLD)
    assert claim_status(claim, ACTIVE_THRESHOLD) == (("candidate", False) if lacks else ("active", True))
    assert set(lacks) <= {"missing_evidence", "unsourced", "unconfirmed", "below_active_threshold"}
