"""`predictions_written` counted the same prediction given twice in one resolution as 2, for the one row stored:
it counts the predictions the run holds, once each."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

from conftest import FakeClock

_PARCEL = {"title": "Parcel arrives", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
           "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}


def test_the_same_prediction_given_twice_is_one_written(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, _ = world
    out = mem.resolve(str(tmp_path), {"slug": "parcel", "title": "Parcel", "predictions": [_PARCEL, dict(_PARCEL)]})
    assert out["predictions_written"] == 1
    assert [p["title"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]] == ["Parcel arrives"]
