"""`resolve --dry-run` says what the real run does with the payload's `predictions[]` and `assertions[]`: it listed
only the predictions and beliefs a re-run would withdraw, nothing of those it would add, reopen or supersede, and it
passed a prediction whose id the real run refuses (`conflict`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import Conflict

from conftest import FakeClock


def _prediction(title: str, **over: Any) -> dict[str, Any]:
    return {"title": title, "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
            "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z", **over}


def _belief(obj: str, **over: Any) -> dict[str, Any]:
    return {"subject": "Acme", "predicate": "ceo", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "source_type": "tool_output", "evidence": "the filing", **over}


def _research(**over: Any) -> dict[str, Any]:
    return {"slug": "acme", "title": "Acme", "date": "2026-06-01", "predictions": [_prediction("Parcel arrives")],
            "assertions": [_belief("Ana")], **over}


def _same(preview: dict[str, Any], out: dict[str, Any]) -> None:
    assert [(p["created"], p.get("reopened"), p["prediction"]["id"], p["prediction"]["status"])
            for p in preview["predictions"]] == \
        [(p["created"], p.get("reopened"), p["prediction"]["id"], p["prediction"]["status"])
         for p in out["predictions"]]
    keys = ("id", "written", "status", "superseded_ids", "idempotent")
    assert [{k: a.get(k) for k in keys} for a in preview["assertions"]] == \
        [{k: a.get(k) for k in keys} for a in out["assertions"]]


def test_a_dry_run_lists_the_predictions_and_beliefs_it_would_add(world: tuple[Mnemon, FakeClock],
                                                                  tmp_path: Path) -> None:
    mem, _ = world
    preview = mem.resolve(str(tmp_path), _research(), dry_run=True)
    assert mem.predict_due(before="2027-01-01T00:00:00Z")["count"] == 0
    out = mem.resolve(str(tmp_path), _research())
    assert [p["created"] for p in preview["predictions"]] == [True]
    assert [a["written"] for a in preview["assertions"]] == [True]
    _same(preview, out)


def test_a_dry_run_of_a_rerun_says_what_it_reopens_and_supersedes(world: tuple[Mnemon, FakeClock],
                                                                  tmp_path: Path) -> None:
    mem, clock = world
    mem.resolve(str(tmp_path), _research())
    clock.advance(minutes=5)
    mem.resolve(str(tmp_path), _research(predictions=[]))  # withdraws the prediction
    clock.advance(minutes=5)
    again = _research(assertions=[_belief("Bo")])
    preview = mem.resolve(str(tmp_path), again, dry_run=True)
    out = mem.resolve(str(tmp_path), again)
    assert [(p["created"], p.get("reopened"), p["prediction"]["status"]) for p in preview["predictions"]] == \
        [(False, True, "open")]
    assert preview["assertions"][0]["superseded_ids"]
    _same(preview, out)


def test_a_dry_run_refuses_a_prediction_id_the_run_refuses(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, _ = world
    mem.predict_add(_prediction("Invoice arrives", id="p-1"))
    bad = _research(predictions=[_prediction("Parcel arrives", id="p-1")])
    with pytest.raises(Conflict):
        mem.resolve(str(tmp_path), bad)
    with pytest.raises(Conflict):
        mem.resolve(str(tmp_path), bad, dry_run=True)
