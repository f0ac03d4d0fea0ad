"""Research re-run: what the new run of the same research (or a re-sent scoped payload) no longer states is
withdrawn and said in the reply — an open prediction and an `assertions[]` belief of the earlier run used to stay
open and current, silently. History is kept: the belief is retracted with a reason (not deleted), the prediction is
closed with a `withdrawn` outcome summary, and it is no attention item of the preflight."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

from conftest import FakeClock

_BELIEF = {"subject": "Acme", "predicate": "based_in", "object": "Lisbon", "confidence": 0.95,
           "certainty": "confirmed", "source_type": "email", "evidence": "the HQ address"}


def _prediction(title: str) -> dict[str, Any]:
    return {"title": title, "match_json": {"sense_type": "gws", "observation_terms_all": [title.split()[0].lower()]},
            "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}


def _research(**over: Any) -> dict[str, Any]:
    return {"slug": "acme", "title": "Acme", "date": "2026-06-01", "predictions": [_prediction("Parcel arrives")],
            "assertions": [_BELIEF], **over}


def _open(mem: Mnemon) -> list[str]:
    return [p["title"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]]


def _current(mem: Mnemon) -> list[str]:
    rows = mem.state_list(status="current")["assertions"]
    return [f"{r['subject_name']} {r['predicate']} {r['object']}" for r in rows]


def test_a_rerun_withdraws_the_predictions_and_beliefs_it_no_longer_states(world: tuple[Mnemon, FakeClock],
                                                                           tmp_path: Path) -> None:
    mem, _ = world
    first = mem.resolve(str(tmp_path), _research())
    [belief] = first["assertions"]
    [prediction] = first["predictions"]
    again = mem.resolve(str(tmp_path), _research(predictions=[_prediction("Invoice arrives")], assertions=[]))
    assert _open(mem) == ["Invoice arrives"]
    assert _current(mem) == []
    assert again["withdrawn_predictions"] == [prediction["prediction"]["id"]]
    assert again["withdrawn_assertions"] == [belief["id"]]
    # history is kept: the belief is retracted with its reason, not deleted
    explained = mem.state_explain(belief["id"])
    assert explained["assertion"]["status"] == "retracted"
    assert "withdrawn" in str(explained["assertion"]["metadata"]["retraction"]["reason"])
    # the prediction is closed, kept, and no attention item of the preflight
    checked = mem.predict_check(prediction_id=prediction["prediction"]["id"])["results"]
    assert [(r["status"], r["outcome_summary"].startswith("withdrawn")) for r in checked] == [("withdrawn", True)]
    assert mem.agent_preflight("parcel")["world"]["unverifiable_predictions"] == []
    # the same run again withdraws nothing more
    assert "withdrawn_predictions" not in mem.resolve(str(tmp_path), _research(
        predictions=[_prediction("Invoice arrives")], assertions=[]))


def test_a_withdrawn_belief_stated_again_by_the_research_is_current_again(world: tuple[Mnemon, FakeClock],
                                                                          tmp_path: Path) -> None:
    mem, _ = world
    mem.resolve(str(tmp_path), _research())
    mem.resolve(str(tmp_path), _research(assertions=[]))
    assert _current(mem) == []
    mem.resolve(str(tmp_path), _research())
    assert _current(mem) == ["Acme based_in Lisbon"]


def test_a_dry_run_lists_what_a_rerun_would_withdraw(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, _ = world
    first = mem.resolve(str(tmp_path), _research())
    preview = mem.resolve(str(tmp_path), _research(predictions=[], assertions=[]), dry_run=True)
    assert preview["withdrawn_assertions"] == [first["assertions"][0]["id"]]
    assert preview["withdrawn_predictions"] == [first["predictions"][0]["prediction"]["id"]]
    assert _current(mem) == ["Acme based_in Lisbon"] and _open(mem) == ["Parcel arrives"]


def test_a_resent_scoped_payload_withdraws_the_beliefs_it_no_longer_states(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    scope = {"source_path": "mneme://agent/acme", "nodes": [{"ref": "acme"}]}
    first = mem.remember_payload({**scope, "assertions": [_BELIEF]})
    again = mem.remember_payload({**scope, "assertions": []})
    assert _current(mem) == []
    assert again["withdrawn_assertions"] == [first["assertions"][0]["id"]]
    assert mem.state_explain(first["assertions"][0]["id"])["assertion"]["status"] == "retracted"


def test_a_dry_run_does_not_call_a_value_the_run_replaces_withdrawn(world: tuple[Mnemon, FakeClock],
                                                                    tmp_path: Path) -> None:
    mem, _ = world
    mem.resolve(str(tmp_path), _research())
    moved = _research(assertions=[{**_BELIEF, "object": "Porto", "evidence": "the new HQ address"}])
    assert "withdrawn_assertions" not in mem.resolve(str(tmp_path), moved, dry_run=True)
    out = mem.resolve(str(tmp_path), moved)
    assert "withdrawn_assertions" not in out and _current(mem) == ["Acme based_in Porto"]


def test_a_person_retracting_a_withdrawn_belief_keeps_it_retracted(world: tuple[Mnemon, FakeClock],
                                                                   tmp_path: Path) -> None:
    mem, _ = world
    [belief] = mem.resolve(str(tmp_path), _research())["assertions"]
    mem.resolve(str(tmp_path), _research(assertions=[]))
    retracted = mem.state_retract(belief["id"], reason="Acme never had an office in Lisbon")
    assert retracted["already_retracted"] is False  # the person's retraction is recorded over the withdrawal
    [again] = mem.resolve(str(tmp_path), _research())["assertions"]
    assert again["status"] == "blocked_recreation" and _current(mem) == []
