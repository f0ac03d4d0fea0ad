"""`agent preflight` on a prompt that corrects a belief the world model holds: its next step names the beliefs and
the writes that change them (`state assert` as a correction, `state retract`), not `remember`, which leaves the
belief in force."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.world import agent_preflight, propose_assertion
from mnemon.core.surface import tools

from conftest import FakeClock


def claim(**over: Any) -> dict[str, Any]:
    base = {"subject": "Lighthouse", "predicate": "owner", "object": "Bo Lind", "object_type": "person",
            "confidence": 0.95, "certainty": "confirmed", "evidence": "org chart (fictional)",
            "source_path": "mneme://r/org"}
    return {**base, **over}


def test_a_correction_of_a_belief_names_the_belief_and_state_assert(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    owner = propose_assertion(mem.rt, claim())["id"]
    propose_assertion(mem.rt, claim(subject="Beacon", predicate="status", object="shipped", object_type="value"))
    route = agent_preflight(mem.rt, "Actually, correction: Lighthouse is owned by Cy Moss now.")["route"]
    assert route["path"] == "correction"
    assert [(b["id"], b["subject"], b["predicate"], b["object"]) for b in route["beliefs"]] == [
        (owner, "Lighthouse", "owner", "Bo Lind")]  # Beacon's status is not what the prompt names
    step = route["next_step"]
    assert "Lighthouse owner Bo Lind" in step and owner in step
    assert "`mnemon state assert" in step and "user_correction" in step and "`mnemon state retract" in step
    assert not step.startswith("Store the corrected fact")  # remember is named only as what leaves the belief
    with tools():
        over_tools = agent_preflight(mem.rt, "Actually, correction: Lighthouse is owned by Cy Moss now.")["route"]
    assert "`remember_payload`" in over_tools["next_step"] and "`state_retract`" in over_tools["next_step"]
    assert "mnemon state assert" not in over_tools["next_step"]


def test_a_correction_naming_no_belief_keeps_the_memory_step(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    propose_assertion(mem.rt, claim())
    route = agent_preflight(mem.rt, "Actually, correction: the standup moved to 10am.")["route"]
    assert route["path"] == "correction" and route["beliefs"] == []
    assert route["next_step"].startswith("Store the corrected fact with `mnemon remember`")


def test_a_question_names_no_beliefs_to_correct(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    propose_assertion(mem.rt, claim())
    route = agent_preflight(mem.rt, "Who owns Lighthouse?")["route"]
    assert route["path"] == "retrieval" and "beliefs" not in route
