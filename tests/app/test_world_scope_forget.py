"""Forgetting a payload scope re-chains what its assertions superseded, and the contract check catches a chain that
points at a deleted assertion (both backends)."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.world import forget_world_scope, propose_assertion
from mnemon.core.errors import ContractViolation
from mnemon.core.world import check_contract, parse_assertion

from conftest import FakeClock

SCOPE = "mneme://agent/session-1"


def claim(**over: Any) -> dict[str, Any]:
    base = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95,
            "certainty": "confirmed", "evidence": "lease signed (fictional)", "source_path": "vault:People/Ana.md"}
    return {**base, **over}


def row(mem: Mnemon, assertion_id: str) -> dict[str, Any]:
    found = mem.rt.store.world.get_assertion(assertion_id)  # type: ignore[attr-defined]
    assert found is not None
    return dict(found)


def current(mem: Mnemon, predicate: str = "lives_in") -> list[str]:
    return sorted(a["object"] for a in mem.state_list(status="current", predicate=predicate)["assertions"])


def test_forgetting_a_scope_restores_the_vault_belief_its_assertion_superseded(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    vault = propose_assertion(mem.rt, claim())
    clock.advance(days=1)
    scoped = propose_assertion(mem.rt, claim(object="Porto", source_path=f"{SCOPE}/claims"))
    assert scoped["superseded_ids"] == [vault["id"]] and current(mem) == ["Porto"]

    dry = forget_world_scope(mem.rt, SCOPE, dry_run=True)
    assert dry["assertions"] == 1 and dry["assertions_restored"] == 1
    assert current(mem) == ["Porto"] and row(mem, vault["id"])["status"] == "superseded"  # a dry run changes nothing

    done = forget_world_scope(mem.rt, SCOPE)
    assert done == dry
    restored = row(mem, vault["id"])
    assert restored["status"] == "current" and restored.get("superseded_by_id") is None
    assert current(mem) == ["Lisbon"]
    assert [e["event"] for e in mem.state_explain(vault["id"])["events"]][-1] == "restored"
    assert mem.contract_check()["ok"]


def test_a_forgotten_predecessor_leaves_no_pointer_behind(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    scoped = propose_assertion(mem.rt, claim(object="Porto", source_path=f"{SCOPE}/claims"))
    clock.advance(days=1)
    vault = propose_assertion(mem.rt, claim())
    assert row(mem, vault["id"])["supersedes_id"] == scoped["id"]
    out = forget_world_scope(mem.rt, SCOPE)
    assert out["assertions_restored"] == 0 and out["assertions_relinked"] == 1
    kept = row(mem, vault["id"])
    assert kept["status"] == "current" and kept.get("supersedes_id") is None
    assert mem.state_explain(vault["id"])["supersedes_chain"] == []
    assert mem.contract_check()["ok"]


def test_a_value_a_forgotten_correction_retracted_comes_back_but_a_persons_retraction_stays(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    vault = propose_assertion(mem.rt, claim())
    clock.advance(days=1)
    propose_assertion(mem.rt, claim(object="Porto", source_type="user_correction", source_path=f"{SCOPE}/fix"))
    assert row(mem, vault["id"])["status"] == "retracted" and current(mem) == ["Porto"]
    forget_world_scope(mem.rt, SCOPE)
    assert row(mem, vault["id"])["status"] == "current" and current(mem) == ["Lisbon"]

    clock.advance(days=1)
    other = propose_assertion(mem.rt, claim(subject="Rui"))
    clock.advance(days=1)
    propose_assertion(mem.rt, claim(subject="Rui", object="Faro", source_path="mneme://agent/session-2/x"))
    mem.state_retract(other["id"], reason="never lived there")
    forget_world_scope(mem.rt, "mneme://agent/session-2")
    kept = row(mem, other["id"])
    assert kept["status"] == "retracted" and kept.get("superseded_by_id") is None
    assert mem.contract_check()["ok"]


def test_other_objects_of_a_multi_valued_pair_are_left_as_they_were(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    chess = propose_assertion(mem.rt, claim(predicate="member_of", object="Chess Club"))
    clock.advance(days=1)
    propose_assertion(mem.rt, claim(predicate="member_of", object="Choir", source_path=f"{SCOPE}/c"))
    before = row(mem, chess["id"])
    out = forget_world_scope(mem.rt, SCOPE)
    assert out["assertions"] == 1 and out["assertions_relinked"] == 0
    assert row(mem, chess["id"]) == before and current(mem, "member_of") == ["Chess Club"]


def test_the_contract_fails_a_belief_superseded_by_an_assertion_that_no_longer_exists(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    vault = propose_assertion(mem.rt, claim())
    clock.advance(days=1)
    scoped = propose_assertion(mem.rt, claim(object="Porto", source_path=f"{SCOPE}/claims"))
    # what a forget did before it re-chained: the rows go, the pointer to them stays
    with mem.rt.store.transaction():
        mem.rt.store.world.forget_scope(SCOPE, mem.rt.now_iso())  # type: ignore[attr-defined]
    try:
        mem.contract_check()
    except ContractViolation as exc:
        failures = exc.details["violations"]
    else:
        raise AssertionError("the contract passed a chain pointing at a deleted assertion")
    assert [(v["rule"], v["id"]) for v in failures] == [("supersession_chain", vault["id"])]
    assert scoped["id"] in failures[0]["message"]


def test_a_dangling_supersedes_pointer_fails_only_a_whole_store_check() -> None:
    at = datetime(2026, 6, 1, tzinfo=timezone.utc)
    stray = replace(parse_assertion(claim(), at), supersedes_id="gone")
    # a replay's view leaves out a predecessor written after its instant: not a broken chain
    assert check_contract([], [stray], [], [], as_of=at).ok
    report = check_contract([], [stray], [], [], whole_store=True)
    assert [(v.rule, v.target_id) for v in report.violations] == [("supersession_chain", stray.id)]


def test_the_live_contract_fails_a_dangling_supersedes_pointer_and_a_replay_does_not(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    propose_assertion(mem.rt, claim(object="Porto", source_path=f"{SCOPE}/claims"))
    clock.advance(days=1)
    vault = propose_assertion(mem.rt, claim())
    assert row(mem, vault["id"])["supersedes_id"] is not None
    with mem.rt.store.transaction():  # the rows go, the pointer to them stays (a forget before it re-chained)
        mem.rt.store.world.forget_scope(SCOPE, mem.rt.now_iso())  # type: ignore[attr-defined]
    try:
        mem.contract_check()
    except ContractViolation as exc:
        assert [(v["rule"], v["id"]) for v in exc.details["violations"]] == [("supersession_chain", vault["id"])]
    else:
        raise AssertionError("the live contract passed a chain pointing at a deleted assertion")
    # a replay's view may lack a predecessor by design (written later, dated earlier): not a failure there
    assert mem.contract_check(as_of=mem.rt.now_iso())["ok"]
