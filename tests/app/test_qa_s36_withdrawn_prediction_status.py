"""A prediction its research withdrew (a re-run of `resolve` no longer states it) was closed `unverifiable`, the
status of a check the evidence could not decide: `predict check --id` and an export said "unverifiable", its truth
policy `unverifiable_prediction`, and only a metadata key told packs and the preflight to leave it out. It now has a
status of its own, `withdrawn` (truth policy `withdrawn_prediction`), kept as history and never reopened by a check;
stores written before are upgraded in place (`tests/ports/test_withdrawn_predictions.py`)."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.core.world.predictions import Prediction

from conftest import FakeClock
from .test_qa_s35_resolve_rerun_withdraws import _prediction, _research


def test_a_withdrawn_prediction_reads_withdrawn(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, clock = world
    [added] = mem.resolve(str(tmp_path), _research())["predictions"]
    pid = added["prediction"]["id"]
    before = clock().isoformat()
    clock.advance(hours=1)
    mem.resolve(str(tmp_path), _research(predictions=[_prediction("Invoice arrives")]))
    [result] = mem.predict_check(prediction_id=pid)["results"]
    assert result["status"] == "withdrawn" and result["outcome_summary"].startswith("withdrawn")
    [row] = [r for r in mem.export_json(include_vectors=False)["world_predictions"] if r["id"] == pid]
    assert row["status"] == "withdrawn"
    world_block = mem.agent_preflight("parcel arrives")["world"]
    assert pid not in {p["id"] for key in ("unverifiable_predictions", "missed_predictions", "due_predictions")
                       for p in world_block[key]}
    # a check of every due prediction leaves it as it is; before the withdrawal it was the open prediction it was
    clock.advance(days=10)
    assert pid not in {r["id"] for r in mem.predict_check()["results"]}
    assert mem.predict_check(prediction_id=pid)["results"][0]["status"] == "withdrawn"
    items = mem.retrieve("parcel arrives", budget=4000, as_of=before)["items"]
    assert [(i["id"], i["truth_policy"]) for i in items if i.get("item_type") == "world_prediction"] == [
        (pid, "open_prediction")]


def test_a_row_an_earlier_version_closed_unverifiable_as_withdrawn_reads_withdrawn() -> None:
    """An export written before (or a read-only store not yet upgraded) holds the old form."""
    doc = {"id": "p1", "title": "Parcel arrives", "match_json": {"sense_type": "gws", "observation_terms_all": ["x"]},
           "check_after": "2026-06-02T00:00:00+00:00", "expires_at": "2026-06-05T00:00:00+00:00",
           "status": "unverifiable", "outcome_summary": "withdrawn: Sources/a.md no longer states it",
           "checked_at": "2026-06-01T10:00:00+00:00", "metadata": {"withdrawn_by": "Sources/a.md"}}
    assert Prediction.from_row(doc).status == "withdrawn"
    assert Prediction.from_row({**doc, "metadata": {}}).status == "unverifiable"


def test_a_withdrawn_prediction_the_research_states_again_is_open_again(world: tuple[Mnemon, FakeClock],
                                                                         tmp_path: Path) -> None:
    """As a withdrawn belief the same source states again is current again: the prediction stayed closed (the reply
    counted it written, `predict due` never listed it again)."""
    mem, clock = world
    [added] = mem.resolve(str(tmp_path), _research())["predictions"]
    pid = added["prediction"]["id"]
    mem.resolve(str(tmp_path), _research(predictions=[]))
    clock.advance(hours=1)
    [again] = mem.resolve(str(tmp_path), _research())["predictions"]
    assert again["prediction"]["id"] == pid and again["prediction"]["status"] == "open" and again["reopened"]
    assert [p["id"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]] == [pid]
    assert mem.resolve(str(tmp_path), _research(predictions=[]))["withdrawn_predictions"] == [pid]
