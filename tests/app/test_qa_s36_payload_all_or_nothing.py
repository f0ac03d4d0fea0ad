"""A scoped payload is written whole or not at all: its `assertions[]` and the withdrawals of a re-send were written
after the nodes and edges had committed, so a failure there left the scope's new rows stored, its old ones gone,
and the beliefs of the earlier send still current. A dry run's `assertions` said only `{"proposed": …}`, not what
the gate would make of each belief, as the real run says."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import StoreError

from conftest import FakeClock

SCOPE = "mneme://agent/ci"


def _belief(obj: str) -> dict[str, Any]:
    return {"subject": "CI", "predicate": "schedule", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "source_type": "tool_output", "evidence": "the crontab"}


def _payload(ref: str, *beliefs: dict[str, Any]) -> dict[str, Any]:
    return {"source_path": SCOPE, "nodes": [{"ref": ref}, {"ref": "runner"}],
            "edges": [{"src": ref, "dst": "runner", "relation": "depends_on"}],
            "observations": [{"node": ref, "text": f"{ref} runs on the shared runner"}], "assertions": list(beliefs)}


def _scope(mem: Mnemon) -> tuple[list[str], list[str]]:
    nodes = sorted(mem.rt.store.vault.nodes_with_source(SCOPE))  # type: ignore[attr-defined]
    current = sorted(f"{r['subject_name']} {r['predicate']} {r['object']}"
                     for r in mem.state_list(status="current")["assertions"])
    return nodes, current


def _failing(monkeypatch: pytest.MonkeyPatch) -> None:
    import mnemon.app.world as world

    def refuse(*_a: Any, **_k: Any) -> Any:
        raise StoreError("the database refused the belief")

    monkeypatch.setattr(world, "propose_assertion", refuse)


def test_a_failure_writing_the_beliefs_leaves_nothing_of_a_new_payload(world: tuple[Mnemon, FakeClock],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    mem, _ = world
    _failing(monkeypatch)
    with pytest.raises(StoreError):
        mem.remember_payload(_payload("ci", _belief("nightly")))
    assert _scope(mem) == ([], [])


def test_a_failure_writing_a_resend_leaves_the_earlier_payload_whole(world: tuple[Mnemon, FakeClock],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    mem, clock = world
    mem.remember_payload(_payload("ci", _belief("nightly")))
    before = _scope(mem)
    assert before[1] == ["CI schedule nightly"]
    clock.advance(minutes=5)
    _failing(monkeypatch)
    with pytest.raises(StoreError):
        mem.remember_payload(_payload("build", _belief("hourly")))
    assert _scope(mem) == before


def test_a_failure_withdrawing_leaves_the_earlier_payload_whole(world: tuple[Mnemon, FakeClock],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    mem, clock = world
    mem.remember_payload(_payload("ci", _belief("nightly")))
    before = _scope(mem)
    clock.advance(minutes=5)
    import mnemon.app.vault.withdrawals as withdrawals

    def refuse(*_a: Any, **_k: Any) -> Any:
        raise StoreError("the database refused the withdrawal")

    monkeypatch.setattr(withdrawals, "withdraw", refuse)
    with pytest.raises(StoreError):
        mem.remember_payload(_payload("build"))
    assert _scope(mem) == before


def test_a_dry_run_says_what_the_gate_makes_of_each_belief(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.remember_payload(_payload("ci", _belief("nightly")))
    clock.advance(minutes=5)
    weak = {**_belief("weekly"), "confidence": 0.2}
    payload = _payload("ci", _belief("hourly"), weak)
    preview = mem.remember_payload(payload, dry_run=True)
    out = mem.remember_payload(payload)
    keys = ("id", "written", "status", "superseded_ids")
    assert [{k: a.get(k) for k in keys} for a in preview["assertions"]] == \
        [{k: a.get(k) for k in keys} for a in out["assertions"]]
    assert [a["written"] for a in out["assertions"]] == [True, False]
    assert preview["assertions"][0]["superseded_ids"]
