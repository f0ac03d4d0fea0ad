"""An `--as-of` replay reads a (subject, predicate) chain as the store held it then: a later correction, back-dated
value or `state retract` is undone whole. Clearing only the pointers to later rows left two values in force (a
collision, a failed contract at T) and kept a value retracted after T out of the replay."""
from __future__ import annotations

import json
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.core.model import iso

from conftest import FakeClock


def claim(obj: str, **over: Any) -> str:
    base = {"subject": "Ana", "predicate": "lives_in", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "evidence": "lease signed (fictional)", "source_path": f"mneme://r/{obj}"}
    return json.dumps({**base, **over})


def in_force(mem: Mnemon, as_of: str) -> list[str]:
    return sorted(a["object"] for a in mem.state_list(status="current", as_of=as_of)["assertions"])


def assert_replay_holds(mem: Mnemon, as_of: str, expected: list[str]) -> None:
    assert in_force(mem, as_of) == expected
    assert mem.state_conflicts(as_of=as_of)["conflicts"] == []
    assert mem.contract_check(as_of=as_of)["ok"] is True
    pf = mem.agent_preflight("where does Ana live?", as_of=as_of)
    assert sorted(a["object"] for a in pf["world"]["current_assertions"]) == expected
    assert pf["failures"] == []


def test_replay_before_a_correction_has_one_value_in_force(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.state_assert(claim("Berlin"))
    clock.advance(days=1)
    lisbon = mem.state_assert(claim("Lisbon"))
    clock.advance(days=1)
    before = iso(clock.now)
    clock.advance(days=1)
    fixed = mem.state_assert(claim("Porto", source_type="user_correction"))
    assert fixed["retracted_ids"] == [lisbon["id"]]
    assert_replay_holds(mem, before, ["Lisbon"])  # Berlin (re-pointed at Porto) was read as current too
    assert in_force(mem, iso(clock.now)) == ["Porto"]


def test_replay_before_a_backdated_value_has_one_value_in_force(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.state_assert(claim("Berlin", valid_from="2020-01-01T00:00:00Z"))
    clock.advance(days=1)
    mem.state_assert(claim("Lisbon", valid_from="2024-01-01T00:00:00Z"))
    clock.advance(days=1)
    before = iso(clock.now)
    clock.advance(days=1)
    mem.state_assert(claim("Paris", valid_from="2022-01-01T00:00:00Z"))  # spliced between the two
    assert_replay_holds(mem, before, ["Lisbon"])


def test_replay_before_a_retraction_reads_the_value_as_it_was(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    berlin = mem.state_assert(claim("Berlin"))
    clock.advance(days=1)
    lisbon = mem.state_assert(claim("Lisbon"))
    clock.advance(days=1)
    before = iso(clock.now)
    clock.advance(days=1)
    out = mem.state_retract(lisbon["id"], reason="wrong person")
    assert out["restored_ids"] == [berlin["id"]]
    assert_replay_holds(mem, before, ["Lisbon"])
    explained = mem.state_explain(lisbon["id"], as_of=before)
    assert explained["assertion"]["validity"] == "current" and "retraction" not in explained["assertion"]["metadata"]
    assert explained["hints"]["known_at_as_of"] is True
    assert mem.state_explain(berlin["id"], as_of=before)["superseded_by_chain"][0]["id"] == lisbon["id"]
    assert mem.state_explain(lisbon["id"])["assertion"]["validity"] == "retracted"  # today: as stored
    assert in_force(mem, iso(clock.now)) == ["Berlin"]


def test_explain_flags_a_row_written_after_the_replayed_instant(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    before = iso(clock.now)
    clock.advance(days=1)
    row = mem.state_assert(claim("Berlin"))
    assert mem.state_explain(row["id"], as_of=before)["hints"]["known_at_as_of"] is False
    assert mem.state_explain(row["id"])["hints"]["known_at_as_of"] is True
