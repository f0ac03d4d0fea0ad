"""`sense add` refuses an event observed in the future (beyond the clock skew `action record` and `predict add`
allow), on SQLite and PostgreSQL: a mistyped year was stored, invisible to every check until that date, and then
decided predictions it was never evidence for. A refused file stores nothing."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.world.values import iso

from conftest import FakeClock

from .conftest import WORLD_T0


def event(observed_at: str, title: str = "Parcel") -> dict[str, Any]:
    return {"sense_type": "gws", "observed_at": observed_at, "title": title, "text": "your parcel was delivered"}


def stored_ids(mem: Mnemon) -> list[str]:
    return sorted(row["id"] for row, _recorded in mem.rt.store.world.sense_events())  # type: ignore[attr-defined]


def test_an_event_observed_years_ahead_is_refused_naming_the_field_and_value(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    with pytest.raises(InvalidInput) as info:
        mem.sense_add(json.dumps(event("2099-01-01T00:00:00Z")))
    assert info.value.details["field"] == "observed_at"
    assert "observed_at 2099-01-01T00:00:00+00:00 is in the future" in info.value.message
    assert iso(WORLD_T0) in info.value.message
    assert stored_ids(mem) == []


def test_one_future_event_refuses_the_whole_file_and_names_its_index(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    past = event("2026-05-30T08:00:00Z", "Earlier")
    ahead = event(iso(WORLD_T0 + timedelta(days=3)), "Later")
    with pytest.raises(InvalidInput) as info:
        mem.sense_add(json.dumps({"events": [past, ahead]}))
    assert info.value.details["index"] == 1 and info.value.details["field"] == "observed_at"
    assert info.value.message.startswith("events[1]: ")
    assert stored_ids(mem) == []  # all or nothing: the valid event was not stored either


def test_clock_skew_within_a_day_is_accepted_and_the_boundary_follows_the_clock(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    skewed = mem.sense_add(json.dumps(event(iso(WORLD_T0 + timedelta(hours=23)))))
    assert skewed["added"] == 1
    two_days = event(iso(WORLD_T0 + timedelta(days=2)), "Two days on")
    with pytest.raises(InvalidInput):
        mem.sense_add(json.dumps(two_days))
    clock.advance(days=2)  # once that day has come, the same event is evidence like any other
    assert mem.sense_add(json.dumps(two_days))["added"] == 1
    assert len(stored_ids(mem)) == 2


def test_a_stored_event_is_read_back_whatever_the_clock(world: tuple[Mnemon, FakeClock]) -> None:
    """Only a producer's payload is checked: a row already stored parses as it is, whatever the clock says."""
    mem, clock = world
    mem.sense_add(json.dumps(event(iso(WORLD_T0 + timedelta(hours=12)))))
    clock.now = WORLD_T0 - timedelta(days=30)  # a clock set back reads the stored event, it does not refuse it
    due = mem.predict_due()
    assert due["count"] == 0
    assert len(stored_ids(mem)) == 1
