"""A re-run withdraws only what it stated itself: the first scoped payload sent under `mneme://agent/ci` retracted a
`state assert` belief filed under that scope ("withdrawn: mneme://agent/ci no longer states it" — the payload never
had), and a research re-run retracted a belief `state assert` had filed under the pack's path. What the earlier
payload or run stated and the new one does not is still withdrawn."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

from conftest import FakeClock

SCOPE = "mneme://agent/ci"


def _belief(subject: str, predicate: str, obj: str, **over: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "source_type": "tool_output", "evidence": "the CI dashboard", **over}


def _current(mem: Mnemon) -> list[str]:
    return sorted(f"{r['subject_name']} {r['predicate']} {r['object']}"
                  for r in mem.state_list(status="current")["assertions"])


def test_a_scoped_payload_leaves_a_state_assert_of_its_scope_alone(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    mem.state_assert(_belief("Build server", "status", "green", source_path=SCOPE))
    payload = {"source_path": SCOPE, "nodes": [{"ref": "ci"}], "assertions": [_belief("CI", "schedule", "nightly")]}
    assert "withdrawn_assertions" not in mem.remember_payload(payload, dry_run=True)
    first = mem.remember_payload(payload)
    assert "withdrawn_assertions" not in first
    assert _current(mem) == ["Build server status green", "CI schedule nightly"]
    # the payload's own belief, dropped by the next send, is still withdrawn — and only it
    again = mem.remember_payload({**payload, "assertions": []})
    assert again["withdrawn_assertions"] == [first["assertions"][0]["id"]]
    assert _current(mem) == ["Build server status green"]


def test_a_research_rerun_leaves_a_state_assert_under_its_pack_alone(world: tuple[Mnemon, FakeClock],
                                                                     tmp_path: Path) -> None:
    mem, _ = world
    research = {"slug": "acme", "title": "Acme", "date": "2026-06-01", "assertions": [_belief("Acme", "ceo", "Ana")]}
    rel = mem.resolve(str(tmp_path), research)["note_path"]
    mem.state_assert(_belief("Acme", "auditor", "KPMG", source_path=rel))
    preview = mem.resolve(str(tmp_path), {**research, "assertions": []}, dry_run=True)
    out = mem.resolve(str(tmp_path), {**research, "assertions": []})
    assert len(preview["withdrawn_assertions"]) == len(out["withdrawn_assertions"]) == 1
    assert _current(mem) == ["Acme auditor KPMG"]


def test_a_research_rerun_leaves_a_predict_add_under_its_pack_open(world: tuple[Mnemon, FakeClock],
                                                                   tmp_path: Path) -> None:
    mem, _ = world

    def prediction(title: str, **over: Any) -> dict[str, Any]:
        return {"title": title, "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
                "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z", **over}

    research = {"slug": "acme", "title": "Acme", "date": "2026-06-01", "predictions": [prediction("Parcel arrives")]}
    first = mem.resolve(str(tmp_path), research)
    mem.predict_add(prediction("Parcel is signed for", source_path=first["note_path"]))
    preview = mem.resolve(str(tmp_path), {**research, "predictions": []}, dry_run=True)
    out = mem.resolve(str(tmp_path), {**research, "predictions": []})
    assert preview["withdrawn_predictions"] == out["withdrawn_predictions"] == [
        first["predictions"][0]["prediction"]["id"]]
    assert [p["title"] for p in mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]] == [
        "Parcel is signed for"]
