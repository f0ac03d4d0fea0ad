"""A check at a past instant judges by the sense events recorded by then, but what it stores must hold up against
what the store knows now: an outcome that evidence synced later overturns is reported, not recorded (the prediction
stays open for a check now), and no miss-weakening comes of it; an outcome the later evidence agrees with is stored."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.world import propose_assertion

from conftest import FakeClock

BEFORE = "2026-06-04T00:00:00Z"  # a past instant: after the window (June 2–3), before the late sync (June 20)
SYNCED = datetime(2026, 6, 20, tzinfo=timezone.utc)


def parcel(mem: Mnemon, **over: Any) -> str:
    payload = {"title": "Parcel should arrive", "check_after": "2026-06-02T00:00:00Z",
               "expires_at": "2026-06-03T00:00:00Z",
               "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]}, **over}
    return str(mem.predict_add(payload)["prediction"]["id"])


def mail(mem: Mnemon, source_id: str, text: str, at: str) -> str:
    return str(mem.sense_add({"sense_type": "gws", "source_id": source_id, "observed_at": at, "text": text})
               ["ids"][0])


def past_tick(mem: Mnemon, dry_run: bool = False) -> dict[str, Any]:
    [result] = mem.world_tick(before=BEFORE, dry_run=dry_run)["predictions"]["results"]
    return dict(result)


def past_check(mem: Mnemon, dry_run: bool = False) -> dict[str, Any]:
    [result] = mem.predict_check(as_of=BEFORE, dry_run=dry_run)["results"]
    return dict(result)


PAST_CHECKS = [pytest.param(past_tick, id="world_tick_before"), pytest.param(past_check, id="predict_check_as_of")]


def open_ids(mem: Mnemon) -> list[str]:
    return [p["id"] for p in mem.predict_due()["predictions"]]


def linked_parcel(mem: Mnemon, clock: FakeClock) -> tuple[dict[str, Any], str]:
    """A prediction linked to a belief (a miss weakens it), and a mail recorded in time: the sense was alive."""
    fact = propose_assertion(mem.rt, {"subject": "Ana", "predicate": "works_at", "object": "Atlas Books",
                                      "confidence": 0.95, "certainty": "confirmed", "evidence": "contract",
                                      "source_path": "mneme://r/ana"})
    pid = parcel(mem, subject_assertion_id=fact["id"])
    clock.now = datetime(2026, 6, 2, 13, tzinfo=timezone.utc)
    mail(mem, "n1", "weekly newsletter", "2026-06-02T12:00:00Z")
    return fact, pid


@pytest.mark.parametrize("check", PAST_CHECKS)
def test_evidence_synced_later_keeps_a_past_unverifiable_outcome_from_being_stored(
        world: tuple[Mnemon, FakeClock], check: Callable[..., dict[str, Any]]) -> None:
    mem, clock = world
    pid = parcel(mem)
    clock.now = SYNCED  # the mail is synced weeks later, dated when it came
    late = mail(mem, "m1", "Your parcel was delivered", "2026-06-02T10:00:00Z")
    result = check(mem)
    # the answer at the instant is what the store knew then ...
    assert result["status"] == "unverifiable" and result["matches"] == []
    # ... but it is not recorded: the mail the store holds now confirms it
    assert open_ids(mem) == [pid]
    held = result["not_recorded"]
    assert held["later_event_ids"] == [late] and held["status_with_later_evidence"] == "confirmed"
    assert held["kept_status"] == "open" and "check now" in held["reason"]
    assert "recorded by 2026-06-04T00:00:00+00:00" in result["outcome_summary"]
    assert "no stored events" not in result["outcome_summary"]
    assert mem.agent_preflight("parcel")["world"]["unverifiable_predictions"] == []
    [now] = mem.world_tick()["predictions"]["results"]
    assert now["id"] == pid and now["status"] == "confirmed" and now["outcome_sense_event_id"] == late


@pytest.mark.parametrize("check", PAST_CHECKS)
def test_a_past_miss_overturned_by_later_evidence_weakens_nothing(
        world: tuple[Mnemon, FakeClock], check: Callable[..., dict[str, Any]]) -> None:
    mem, clock = world
    fact, pid = linked_parcel(mem, clock)
    clock.now = SYNCED
    late = mail(mem, "m1", "Your parcel was delivered", "2026-06-02T10:00:00Z")
    result = check(mem)
    assert result["status"] == "missed"
    assert result["not_recorded"]["later_event_ids"] == [late]
    assert result["not_recorded"]["status_with_later_evidence"] == "confirmed"
    assert result["confidence_coupled"]["assertion_id"] == fact["id"]
    assert "applied" not in result["confidence_coupled"] and result["confidence_coupled"]["skipped"]
    explained = mem.state_explain(fact["id"])
    assert explained["assertion"]["confidence"] == 0.95 and explained["prediction_misses"] == []
    assert open_ids(mem) == [pid]
    assert mem.world_tick()["predictions"]["results"][0]["status"] == "confirmed"
    assert mem.state_explain(fact["id"])["assertion"]["confidence"] == 0.95


def test_a_past_dry_run_previews_that_the_outcome_would_not_be_recorded(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    pid = parcel(mem)
    clock.now = SYNCED
    late = mail(mem, "m1", "Your parcel was delivered", "2026-06-02T10:00:00Z")
    tick = mem.world_tick(before=BEFORE, dry_run=True)
    assert tick["predictions"]["results"][0]["not_recorded"]["later_event_ids"] == [late]
    assert tick["predictions"]["transitions"] == {"predictions": 0, "assertions": 0}
    real, preview = mem.world_tick(before=BEFORE)["predictions"], tick["predictions"]
    assert (real["results"], real["transitions"]) == (preview["results"], preview["transitions"])
    assert open_ids(mem) == [pid]


@pytest.mark.parametrize("check", PAST_CHECKS)
def test_a_past_outcome_later_evidence_agrees_with_is_stored(
        world: tuple[Mnemon, FakeClock], check: Callable[..., dict[str, Any]]) -> None:
    mem, clock = world
    fact, pid = linked_parcel(mem, clock)
    clock.now = SYNCED  # synced late, but no parcel in it, and one observed after the instant
    mail(mem, "n2", "another newsletter", "2026-06-02T18:00:00Z")
    mail(mem, "m1", "Your parcel was delivered", "2026-06-10T10:00:00Z")
    result = check(mem)
    assert result["status"] == "missed" and "not_recorded" not in result
    assert result["confidence_coupled"]["applied"] is True
    assert open_ids(mem) == []
    assert mem.state_explain(fact["id"])["assertion"]["confidence"] == 0.76
    assert mem.predict_check(prediction_id=pid)["results"][0]["status"] == "missed"


def test_a_past_unverifiable_outcome_stored_says_recorded_by(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    pid = parcel(mem)
    clock.now = SYNCED
    mail(mem, "m1", "Your parcel was delivered", "2026-06-10T10:00:00Z")  # observed after the window: no say
    result = past_tick(mem)
    assert result["status"] == "unverifiable" and "not_recorded" not in result
    stored = mem.predict_check(prediction_id=pid)["results"][0]
    assert stored["status"] == "unverifiable"
    assert stored["outcome_summary"] == ("no events for sense_type=gws since 2026-06-02T00:00:00+00:00 recorded by "
                                         "2026-06-04T00:00:00+00:00")
