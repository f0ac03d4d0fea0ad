"""A tick or a check at a past instant judges the world as the store knew it then: predictions made later are not
listed, checked or missed, and evidence recorded later does not decide an outcome dated then."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

PAST = "2026-06-03T00:00:00Z"


def late_prediction(mem: Mnemon, clock: FakeClock) -> str:
    """A prediction written on June 10 about a window (June 2–5) before it was written."""
    clock.now = datetime(2026, 6, 10, tzinfo=timezone.utc)
    return str(mem.predict_add({"title": "Parcel should arrive", "check_after": "2026-06-02T00:00:00Z",
                                "expires_at": "2026-06-05T00:00:00Z",
                                "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]}})
               ["prediction"]["id"])


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_tick_before_a_prediction_was_made_does_not_judge_it(world: tuple[Mnemon, FakeClock],
                                                               dry_run: bool) -> None:
    mem, clock = world
    pid = late_prediction(mem, clock)
    tick = mem.world_tick(before=PAST, dry_run=dry_run)
    assert tick["predictions"]["due"] == 0 and tick["predictions"]["results"] == []
    assert pid not in {p["id"] for p in tick["pending_predictions"]}
    assert pid not in {item.get("id") for item in tick["attention"]}
    assert tick["contract"]["checked"]["predictions"] == 0
    assert [p["id"] for p in mem.predict_due(before="1d")["predictions"]] == [pid]  # still open, judged by nothing


def test_a_check_as_of_before_a_prediction_was_made_does_not_judge_it(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    pid = late_prediction(mem, clock)
    assert mem.predict_check(as_of=PAST)["results"] == []
    assert mem.predict_check(as_of=PAST, dry_run=True)["results"] == []
    assert [p["id"] for p in mem.predict_due(before="1d")["predictions"]] == [pid]


def test_a_past_tick_reads_only_evidence_recorded_by_then(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    added = mem.predict_add({"title": "Parcel should arrive", "check_after": "2026-06-02T00:00:00Z",
                             "expires_at": "2026-06-03T00:00:00Z",
                             "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]}})
    pid = added["prediction"]["id"]
    clock.now = datetime(2026, 6, 20, tzinfo=timezone.utc)  # the mail is only synced weeks later, back-dated
    mem.sense_add({"sense_type": "gws", "source_id": "m1", "observed_at": "2026-06-02T10:00:00Z",
                   "title": "Parcel", "text": "Your parcel was delivered"})
    [at_the_time] = mem.world_tick(before="2026-06-04T00:00:00Z", dry_run=True)["predictions"]["results"]
    assert at_the_time["id"] == pid and at_the_time["status"] == "unverifiable"
    [now] = mem.world_tick(dry_run=True)["predictions"]["results"]
    assert now["status"] == "confirmed"


def test_a_past_tick_lists_no_open_loop_asserted_later(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    clock.now = datetime(2026, 6, 10, tzinfo=timezone.utc)
    written = mem.state_assert({
        "subject": "Lease", "predicate": "awaiting", "object": "landlord reply", "state_type": "open_loop",
        "confidence": 0.95, "certainty": "confirmed", "source_type": "user", "evidence": "asked the landlord",
        "source_path": "notes/lease.md", "valid_from": "2026-05-01T00:00:00Z", "valid_until": "2026-06-02T00:00:00Z"})
    assert written["status"] == "current"
    assert mem.world_tick(before=PAST, dry_run=True)["lapsed_open_loops"] == []
    assert [loop["subject"] for loop in mem.world_tick(dry_run=True)["lapsed_open_loops"]] == ["Lease"]


def test_checking_one_prediction_before_it_was_made_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    pid = late_prediction(mem, clock)
    with pytest.raises(InvalidInput, match="made after --as-of"):
        mem.predict_check(prediction_id=pid, as_of=PAST)
    assert mem.predict_check(prediction_id=pid)["results"][0]["status"] == "unverifiable"
