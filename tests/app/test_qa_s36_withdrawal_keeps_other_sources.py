"""Two agents' scopes state one belief: the second is kept on the first's row (`corroborated_by`). The first agent
re-sending its payload without the belief retracted the row whole — "CI schedule nightly" was no longer current
though agent B still stated it (forgetting A's scope keeps it: B's claim becomes a row of its own). A withdrawal now
leaves the value in force as the other source's own row, which that source's own re-send can withdraw in turn."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon

from conftest import FakeClock

_BELIEF = {"subject": "CI", "predicate": "schedule", "object": "nightly", "confidence": 0.95,
           "certainty": "confirmed", "source_type": "tool_output", "evidence": "the crontab"}


def _payload(agent: str, *beliefs: dict[str, Any]) -> dict[str, Any]:
    return {"source_path": f"mneme://agent/{agent}", "nodes": [{"ref": "ci"}], "assertions": list(beliefs)}


def _current(mem: Mnemon) -> list[tuple[str, str]]:
    return [(f"{r['subject_name']} {r['predicate']} {r['object']}", r["source_path"])
            for r in mem.state_list(status="current")["assertions"]]


def test_a_belief_another_scope_states_stays_current_when_one_withdraws_it(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    [first] = mem.remember_payload(_payload("a", _BELIEF))["assertions"]
    clock.advance(minutes=5)
    mem.remember_payload(_payload("b", _BELIEF))
    clock.advance(minutes=5)
    preview = mem.remember_payload(_payload("a"), dry_run=True)
    out = mem.remember_payload(_payload("a"))
    assert preview["withdrawn_assertions"] == out["withdrawn_assertions"] == [first["id"]]
    assert preview["stated_elsewhere"] == out["stated_elsewhere"]
    assert [(h["source_path"], h["heir_of"]) for h in out["stated_elsewhere"]] == [("mneme://agent/b", first["id"])]
    assert mem.state_explain(first["id"])["assertion"]["status"] == "retracted"
    assert _current(mem) == [("CI schedule nightly", "mneme://agent/b")]
    # agent B dropping it in turn withdraws it: nothing states it any more
    clock.advance(minutes=5)
    assert len(mem.remember_payload(_payload("b"))["withdrawn_assertions"]) == 1
    assert _current(mem) == []


def test_a_scope_that_dropped_a_belief_is_no_heir_of_it(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.remember_payload(_payload("a", _BELIEF))
    clock.advance(minutes=5)
    mem.remember_payload(_payload("b", _BELIEF))
    clock.advance(minutes=5)
    mem.remember_payload(_payload("b"))  # B no longer states it: A still does
    assert _current(mem) == [("CI schedule nightly", "mneme://agent/a")]
    clock.advance(minutes=5)
    mem.remember_payload(_payload("a"))
    assert _current(mem) == []
