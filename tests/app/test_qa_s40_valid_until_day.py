"""A belief or open loop "valid until 2026-12-31" (a date, as people and Mneme payloads write it) lapsed at the first
instant of that day: on the 31st itself the lease read `lapsed`, and an open loop due that day was listed as lapsed
by `world tick` all of its due day. A date given as `valid_until` (or `due`) now covers the whole day it names."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.world.assertions import parse_assertion, validity_at

from conftest import FakeClock

LAST_DAY = datetime(2026, 12, 31, 10, 0, tzinfo=timezone.utc)


def claim(obj: str, **over: Any) -> dict[str, Any]:
    return {"subject": "Flat 3", "predicate": "leased_to", "object": obj, "confidence": 0.95,
            "certainty": "confirmed", "evidence": "lease (fictional)", "source_path": "chat://lease",
            "metadata": {"validated": True}, **over}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon], clock: FakeClock) -> Mnemon:
    return make_mem("hash", clock=clock)


def test_a_belief_valid_until_a_date_holds_through_that_day(mem: Mnemon, clock: FakeClock) -> None:
    mem.state_assert(claim("Ann", valid_until="2026-12-31"))
    clock.now = LAST_DAY
    [row] = mem.state_list()["assertions"]
    assert (row["validity"], row["truth_policy"]) == ("current", "current_state_assertion")
    assert [r["object"] for r in mem.state_list(as_of="2026-12-31T23:59:59Z", status="current")["assertions"]] == [
        "Ann"]
    assert mem.state_list(as_of="2027-01-01T00:00:00Z", status="current")["count"] == 0
    clock.now = datetime(2027, 1, 1, 0, 0, 1, tzinfo=timezone.utc)
    assert mem.state_list()["assertions"][0]["validity"] == "lapsed"


def test_an_open_loop_due_today_is_not_lapsed_yet(mem: Mnemon, clock: FakeClock) -> None:
    mem.state_assert(claim("waiting on the landlord", predicate="status", object_type="value", state_type="open_loop",
                           due="2026-12-31"))
    clock.now = LAST_DAY
    assert mem.world_tick(dry_run=True)["lapsed_open_loops"] == []
    preflight = mem.agent_preflight("Is the landlord still pending?")
    assert preflight["world"]["lapsed_assertions"] == []
    clock.now = datetime(2027, 1, 1, 8, 0, tzinfo=timezone.utc)
    assert len(mem.world_tick(dry_run=True)["lapsed_open_loops"]) == 1


def test_an_instant_given_as_valid_until_is_kept_as_given(mem: Mnemon, clock: FakeClock) -> None:
    mem.state_assert(claim("Ann", valid_until="2026-12-31T09:00:00Z"))
    clock.now = LAST_DAY
    [row] = mem.state_list()["assertions"]
    assert (row["valid_until"], row["validity"]) == ("2026-12-31T09:00:00+00:00", "lapsed")


@settings(max_examples=60, deadline=None)
@given(day=st.dates(min_value=datetime(1971, 1, 1).date(), max_value=datetime(9999, 12, 31).date()),
       seconds=st.integers(min_value=0, max_value=86_399))
def test_a_date_covers_every_instant_of_its_day_and_none_after(day: Any, seconds: int) -> None:
    row = parse_assertion(claim("Ann", valid_until=day.isoformat()), datetime(1970, 1, 2, tzinfo=timezone.utc))
    start = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
    inside = start.timestamp() + seconds
    assert validity_at(row, datetime.fromtimestamp(inside, tz=timezone.utc)) == "current"
    if day.year < 9999 or (day.month, day.day) != (12, 31):
        after = datetime.fromtimestamp(start.timestamp() + 86_400, tz=timezone.utc)
        assert validity_at(row, after) == "lapsed"
