"""A prediction that expires on a date ("expires_at": "2026-06-05") was read as expiring at that day's first instant:
the parcel's arrival reported at 15:00 that day was outside the window and the prediction `missed`. A date alone
now names the whole day (as a belief's `valid_until` does), while the prediction's id — a content hash that
includes its expiry — is the one it always had: the payload sent again, to a store holding the row written now or
the one an earlier version wrote (expiring at midnight), is the same prediction, not a new one or a conflict."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.world.tables import world_of
from mnemon.core.world.predictions import parse_prediction

from conftest import FakeClock

OLD_ID = "f537ef8a681054a7d6053e32"  # the id an earlier version gave the date-only payload below


def _prediction(**over: Any) -> dict[str, Any]:
    return {"title": "Parcel should arrive", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
            "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05", **over}


def _arrives_on_the_expiry_day(mem: Mnemon, clock: FakeClock) -> None:
    clock.now = datetime(2026, 6, 5, 18, tzinfo=timezone.utc)
    mem.sense_add(json.dumps({"sense_type": "gws", "observed_at": "2026-06-03T08:00:00Z", "text": "newsletter"}))
    mem.sense_add(json.dumps({"sense_type": "gws", "observed_at": "2026-06-05T15:00:00Z", "text": "parcel arrived"}))


def test_evidence_on_the_expiry_date_confirms_the_prediction(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    added = mem.predict_add(json.dumps(_prediction()))["prediction"]
    assert added["id"] == OLD_ID
    assert added["expires_at"] == "2026-06-05T23:59:59.999999+00:00"
    _arrives_on_the_expiry_day(mem, clock)
    result = mem.predict_check(prediction_id=OLD_ID)["results"][0]
    assert result["status"] == "confirmed"


def test_an_expiry_at_an_instant_is_still_that_instant(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    pid = mem.predict_add(json.dumps(_prediction(expires_at="2026-06-05T00:00:00Z")))["prediction"]["id"]
    _arrives_on_the_expiry_day(mem, clock)
    assert mem.predict_check(prediction_id=pid)["results"][0]["status"] == "missed"


def test_the_date_only_payload_sent_again_is_the_same_prediction(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    first = mem.predict_add(json.dumps(_prediction()))
    again = mem.predict_add(json.dumps(_prediction(confidence=0.7)))
    assert first["created"] is True and again["created"] is False
    assert again["prediction"]["id"] == OLD_ID
    assert [p["id"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]] == [OLD_ID]


def test_the_payload_sent_again_to_a_row_an_earlier_version_stored_is_the_same_prediction(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    # what an earlier version stored for the date-only payload: its id, and an expiry at the day's first instant
    old_row = {**parse_prediction(_prediction(expires_at="2026-06-05T00:00:00Z"), mem.rt.clock()).to_row(),
               "id": OLD_ID}
    world_of(mem.rt).put_prediction(old_row)
    again = mem.predict_add(json.dumps(_prediction()))
    assert again["created"] is False and again["prediction"]["id"] == OLD_ID
    assert again["prediction"]["expires_at"] == "2026-06-05T00:00:00+00:00"  # the stored row, as it was
    assert [p["id"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]] == [OLD_ID]
