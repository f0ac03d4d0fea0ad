"""`state list` filters and `state retract` of a value retracted already, on SQLite and PostgreSQL.

- `--predicate` is read as a write stores it ("Lives In", "LIVES_IN" are lives_in): the raw text found nothing.
- `--type` outside belief|open_loop is `invalid_input`: it listed nothing, as if no such state were held.
- a second `state retract` of one value changes nothing: it rewrote when and why the value was retracted, so a
  replay between the two retractions read the value as in force again, and the first reason was gone."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.world.values import iso

from conftest import FakeClock

from .conftest import WORLD_T0


def claim(obj: str, path: str, **over: Any) -> dict[str, Any]:
    return {"subject": "Ana", "predicate": "lives_in", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "evidence": f"lease for {obj} (fictional)", "source_path": path, **over}


def test_the_predicate_filter_reads_the_predicate_as_stored(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    mem.state_assert(claim("Lisbon", "mneme://r/a", predicate="Lives In"))
    mem.state_assert(claim("Atlas Books", "mneme://r/b", predicate="works_at"))
    for spelling in ("lives_in", "Lives In", "LIVES_IN", "  lives   in "):
        listed = mem.state_list(predicate=spelling)
        assert [a["object_name"] for a in listed["assertions"]] == ["Lisbon"], spelling
    assert mem.state_list(predicate="lives")["count"] == 0  # a filter, not a substring search


def test_an_unknown_state_type_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    mem.state_assert(claim("Lisbon", "mneme://r/a"))
    assert mem.state_list(state_type="belief")["count"] == 1
    assert mem.state_list(state_type="open_loop")["count"] == 0
    with pytest.raises(InvalidInput) as info:
        mem.state_list(state_type="beliefs")
    assert "belief, open_loop" in info.value.message and "'beliefs'" in info.value.message


def test_retracting_twice_keeps_the_first_retraction_and_the_replay_between(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    lisbon = mem.state_assert(claim("Lisbon", "mneme://r/a"))["id"]
    clock.advance(hours=1)
    porto = mem.state_assert(claim("Porto", "mneme://r/b"))["id"]
    clock.advance(hours=1)
    first = mem.state_retract(porto, reason="never moved")
    assert first["already_retracted"] is False and first["current_ids"] == [lisbon]
    retracted_at = clock.now
    clock.advance(days=2)
    again = mem.state_retract(porto, reason="typo in the research")
    assert again["already_retracted"] is True and again["current_ids"] == [lisbon]
    assert again["retraction"] == {"at": iso(retracted_at), "reason": "never moved"}
    row = mem.state_explain(porto)["assertion"]
    assert row["metadata"]["retraction"] == {"at": iso(retracted_at), "reason": "never moved"}
    between = iso(retracted_at + timedelta(days=1))
    replay = {a["object_name"]: a["validity"] for a in mem.state_list(status="all", as_of=between)["assertions"]}
    assert replay == {"Lisbon": "current", "Porto": "retracted"}
    with pytest.raises(InvalidInput):
        mem.state_retract(porto, reason="  ")  # an empty reason is refused, retracted already or not
