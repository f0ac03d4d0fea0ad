"""A belief a missed prediction had weakened (0.95 → 0.76, "look for newer evidence") went back to 0.95 when the
same research was replayed — `resolve` of the same payload, or `state assert` of the same claim: no new evidence, yet
the doubt was gone and the contract passed again. The same source stating the same evidence again now leaves the
weakened confidence as it is; new evidence, or another source, still restores it."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

CLAIM = {"subject": "Bob", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95, "certainty": "confirmed",
         "evidence": "Bob's Lisbon lease (fictional)", "source_path": "chat://lease", "metadata": {"validated": True}}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon], clock: FakeClock) -> Mnemon:
    return make_mem("hash", clock=clock)


def miss(mem: Mnemon, clock: FakeClock, assertion_id: str) -> None:
    mem.predict_add({"title": "Bob pays the Lisbon rent", "subject_assertion_id": assertion_id,
                     "match_json": {"sense_type": "gws", "observation_terms_all": ["rent", "lisbon"]},
                     "check_after": "2026-12-01T10:00:00Z", "expires_at": "2026-12-05T00:00:00Z"})
    clock.now = datetime(2026, 12, 3, 9, 0, tzinfo=timezone.utc)
    mem.sense_add({"sense_type": "gws", "source_id": "m-1", "title": "Newsletter", "text": "weekly newsletter",
                   "observed_at": "2026-12-02T10:00:00Z"})
    clock.now = datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc)
    [result] = mem.predict_check()["results"]
    assert result["status"] == "missed" and result["confidence_coupled"]["confidence_after"] == 0.76


def belief(mem: Mnemon, assertion_id: str) -> dict[str, Any]:
    return mem.state_explain(assertion_id)["assertion"]


def test_the_same_claim_asserted_again_keeps_the_doubt(mem: Mnemon, clock: FakeClock) -> None:
    stored = mem.state_assert(CLAIM)["stored_id"]
    miss(mem, clock, stored)
    again = mem.state_assert(CLAIM)
    assert (again["stored_id"], again["written"]) == (stored, False)
    assert belief(mem, stored)["confidence"] == 0.76
    assert [w["rule"] for w in mem.contract_check()["warnings"]] == ["weakened_current_assertion"]


def test_new_evidence_from_the_same_source_restores_it(mem: Mnemon, clock: FakeClock) -> None:
    stored = mem.state_assert(CLAIM)["stored_id"]
    miss(mem, clock, stored)
    mem.state_assert({**CLAIM, "evidence": "Bob's December rent receipt for the Lisbon flat (fictional)"})
    assert belief(mem, stored)["confidence"] == 0.95
    assert mem.contract_check()["warnings"] == []


def test_a_replayed_resolve_keeps_the_doubt(mem: Mnemon, clock: FakeClock, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    payload = {"slug": "bob-home", "title": "Where Bob lives", "date": "2026-11-01", "claims": [
        {"subject": "Bob", "subject_type": "person", "predicate": "lives_in", "object": "Lisbon", "object_type": "place",
         "confidence": 0.95, "strength": 0.93, "certainty": "confirmed", "source_type": "email",
         "evidence": "Bob's Lisbon lease (fictional)"}]}
    [edge] = mem.resolve(str(vault), payload)["edges"]
    miss(mem, clock, edge["assertion_id"])
    mem.resolve(str(vault), payload)
    assert belief(mem, edge["assertion_id"])["confidence"] == 0.76
    mem.state_assert({**CLAIM, "source_path": "chat://landlord", "evidence": "the landlord confirms (fictional)"})
    assert belief(mem, edge["assertion_id"])["confidence"] == 0.95
