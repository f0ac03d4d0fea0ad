"""The same claim from a second source re-asserts the value in force: no second row, but the belief keeps who else
stated it. It was dropped without a trace (no row, no event), so forgetting the first source's payload scope took
the value with it though the second scope still stated it, and `state explain` never named the second source."""
from __future__ import annotations

from mnemon.app.memory import Mnemon

from conftest import FakeClock

CLAIM = {"subject": "Project Atlas", "predicate": "status", "object": "in progress", "object_type": "value",
         "confidence": 0.95, "certainty": "confirmed", "evidence": "the standup said it is being built",
         "source_type": "user"}
PLANNING = {**CLAIM, "object": "planning", "evidence": "kickoff notes", "source_path": "meetings/kickoff.md",
            "valid_from": "2026-05-20T09:00:00Z"}
JIRA = {**CLAIM, "subject": "project atlas", "object": "In Progress", "evidence": "ATL-1 is in progress"}


def _current(mem: Mnemon) -> list[tuple[str, str, str]]:
    return [(a["predicate"], a["object"], a["source_path"]) for a in mem.state_list(status="current")["assertions"]]


def _send(mem: Mnemon, scope: str, claim: dict) -> None:
    mem.remember_payload({"source_path": scope, "assertions": [claim]})


def test_a_second_source_of_the_value_in_force_is_named_on_the_belief(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    first = mem.state_assert({**CLAIM, "source_path": "meetings/standup.md"})
    clock.advance(hours=2)
    second = mem.state_assert({**JIRA, "source_path": "jira/ATL-1", "source_type": "research"})
    assert (second["idempotent"], second["stored_id"], second["written"]) == (True, first["id"], True)
    [by] = mem.state_explain(first["id"])["assertion"]["metadata"]["corroborated_by"]
    assert (by["id"], by["source_path"], by["evidence_text"]) == (second["id"], "jira/ATL-1", JIRA["evidence"])
    again = mem.state_assert({**JIRA, "source_path": "jira/ATL-1", "source_type": "research"})
    assert again["written"] is False  # the same source again adds nothing
    assert len(mem.state_explain(first["id"])["assertion"]["metadata"]["corroborated_by"]) == 1


def test_forgetting_one_scope_keeps_the_value_another_scope_states(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.state_assert(PLANNING)
    _send(mem, "mneme://agent/standup", CLAIM)
    clock.advance(hours=2)
    _send(mem, "mneme://agent/jira", JIRA)
    out = mem.forget_source("mneme://agent/standup")
    assert out["world_removed"]["assertions"] == 1
    assert _current(mem) == [("status", "In Progress", "mneme://agent/jira")]
    [kept] = mem.state_list(status="current")["assertions"]
    assert kept["evidence_text"] == JIRA["evidence"] and "corroborated_by" not in kept["metadata"]
    assert kept["supersedes_id"] is not None  # still after the kickoff's planning, which it replaced
    assert mem.contract_check()["ok"] is True


def test_forgetting_the_second_scope_leaves_the_first_source_alone(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    _send(mem, "mneme://agent/standup", CLAIM)
    clock.advance(hours=2)
    _send(mem, "mneme://agent/jira", JIRA)
    mem.forget_source("mneme://agent/jira")
    [kept] = mem.state_list(status="current")["assertions"]
    assert (kept["object"], kept["source_path"]) == ("in progress", "mneme://agent/standup")
    assert "corroborated_by" not in kept["metadata"]
    mem.forget_source("mneme://agent/standup")
    assert _current(mem) == []  # the jira scope no longer states it: nothing comes back
