"""A prediction whose `id` already named another stored prediction was silently not stored: `predict add` answered
`created: false` with the other prediction, and a `resolve` payload giving two predictions one id reported
`predictions_written: 2` with one of them lost. As for assertions and sense events, an id names one prediction: the
same prediction sent again is idempotent (an outcome is never reopened), another one under a stored id is refused
with `conflict` naming the fields that differ, and nothing of the payload is stored."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import Conflict

from conftest import FakeClock


def _prediction(**over: Any) -> dict[str, Any]:
    return {"id": "parcel-1", "title": "Parcel should arrive",
            "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
            "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z", **over}


def _titles(mem: Mnemon) -> list[str]:
    return [p["title"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]]


def test_another_prediction_under_a_stored_id_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    assert mem.predict_add(_prediction())["created"] is True
    assert mem.predict_add(_prediction())["created"] is False  # the same one again
    with pytest.raises(Conflict) as refused:
        mem.predict_add(_prediction(title="Invoice should arrive", expires_at="2026-06-09T00:00:00Z"))
    assert "parcel-1" in refused.value.message
    assert refused.value.details["differs"] == ["title", "expires_at"]
    assert _titles(mem) == ["Parcel should arrive"]


def test_a_content_hashed_prediction_sent_again_with_another_confidence_is_no_conflict(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    first = mem.predict_add({k: v for k, v in _prediction().items() if k != "id"})
    again = mem.predict_add({**{k: v for k, v in _prediction().items() if k != "id"}, "confidence": 0.9})
    assert again["created"] is False and again["prediction"]["id"] == first["prediction"]["id"]


def test_a_resolution_giving_two_predictions_one_id_is_refused_whole(world: tuple[Mnemon, FakeClock],
                                                                      tmp_path: Path) -> None:
    mem, _ = world
    research = {"slug": "parcel", "title": "Parcel", "date": "2026-06-01",
                "predictions": [_prediction(), _prediction(title="Invoice should arrive")]}
    with pytest.raises(Conflict, match="parcel-1"):
        mem.resolve(str(tmp_path), research)
    assert _titles(mem) == [] and not (tmp_path / "Sources").exists()
