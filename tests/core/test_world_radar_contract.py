"""Contradiction radar (read-only alerts) and the contract check."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import (
    Assertion,
    EvidenceClaim,
    apply_assertion,
    check_contract,
    detect_conflicts,
    parse_assertion,
    parse_prediction,
    radar_attention,
    validate_action,
)

UTC = timezone.utc
NOW = datetime(2026, 7, 1, tzinfo=UTC)


def fact(subject: str = "Alice", predicate: str = "lives_in", obj: str = "Paris", **extra: Any) -> Assertion:
    return parse_assertion({"subject": subject, "predicate": predicate, "object": obj, "confidence": 0.95,
                            "certainty": "confirmed", "evidence": "lease", "source_path": "Sources/a.md", **extra}, NOW)


def claim(obj: str, status: str = "active", **extra: Any) -> EvidenceClaim:
    return EvidenceClaim(edge_id=extra.pop("edge_id", f"e-{obj}-{status}"), subject="alice", relation="lives_in",
                         object=obj, status=status, source_path="notes/alice.md", **extra)


# ---- radar --------------------------------------------------------------------------------------------------------

def test_two_current_values_of_a_single_valued_predicate_collide() -> None:
    rows = [fact(), fact(obj="Berlin", valid_from="2026-06-01")]
    [conflict] = detect_conflicts(rows)
    assert (conflict.kind, conflict.severity) == ("world_state_collision", "high")
    assert set(conflict.assertion_ids) == {r.id for r in rows}
    assert "Berlin" in conflict.summary and "Paris" in conflict.summary


def test_multi_valued_predicates_never_collide() -> None:
    rows = [fact(predicate="belongs_to", obj="Chess Club"), fact(predicate="belongs_to", obj="Choir")]
    assert detect_conflicts(rows, evidence_claims=[claim("Other")]) == []


def test_evidence_conflict_severity_follows_edge_status() -> None:
    current = fact()
    conflicts = detect_conflicts([current], evidence_claims=[claim("Berlin"), claim("Rome", "candidate"),
                                                             claim("Oslo", "killed"), claim("paris")])
    assert [(c.kind, c.severity, c.challenger["object"]) for c in conflicts] == [
        ("evidence_conflict", "high", "Berlin"),
        ("evidence_conflict", "review", "Rome"),
    ]
    assert conflicts[0].current is not None and conflicts[0].current["assertion_id"] == current.id
    assert radar_attention(conflicts)[0]["kind"] == "evidence_conflict"


def test_evidence_conflicts_need_explicit_exclusivity() -> None:
    unknown = fact(predicate="favourite_colour", obj="blue")
    colour_claim = replace(claim("green"), relation="favourite_colour")
    assert detect_conflicts([unknown], evidence_claims=[colour_claim]) == []
    exclusive = fact(predicate="favourite_colour", obj="blue", metadata={"conflict_policy": "exclusive"})
    [conflict] = detect_conflicts([exclusive], evidence_claims=[colour_claim])
    assert conflict.kind == "evidence_conflict"


def test_own_and_historical_edges_stay_quiet_unless_newer() -> None:
    paris = fact(valid_from="2025-01-01", source_edge_id="e-old")
    berlin = fact(obj="Berlin", valid_from="2026-05-01", source_edge_id="e-new")
    change = apply_assertion([paris], berlin)
    rows = [*change.updates, berlin]
    own = claim("Berlin", edge_id="e-new")
    old_edge = claim("Paris", edge_id="e-old")
    old_object = claim("Paris", edge_id="e-note")
    assert detect_conflicts(rows, evidence_claims=[own, old_edge, old_object]) == []
    moved_back = claim("Paris", edge_id="e-latest", observed_at=datetime(2026, 6, 15, tzinfo=UTC))
    [conflict] = detect_conflicts(rows, evidence_claims=[moved_back])
    assert conflict.challenger is not None and conflict.challenger["edge_id"] == "e-latest"


def test_radar_is_read_only() -> None:
    rows = [fact(), fact(obj="Berlin")]
    before = [r.to_row() for r in rows]
    detect_conflicts(rows, evidence_claims=[claim("Rome")])
    assert [r.to_row() for r in rows] == before


def test_evidence_claim_from_dict_validates() -> None:
    parsed = EvidenceClaim.from_dict({"edge_id": "e1", "subject": "Alice", "relation": "lives_in",
                                      "object": "Rome", "status": "active", "confidence": 0.7})
    assert parsed.confidence == 0.7
    with pytest.raises(InvalidInput):
        EvidenceClaim.from_dict({"edge_id": "e1", "subject": "Alice", "relation": "r", "object": "o",
                                 "status": "active", "confidence": "high"})


# ---- contract -----------------------------------------------------------------------------------------------------

def prediction_row(**overrides: Any) -> dict[str, Any]:
    base = {"title": "Reply expected", "match_json": {"sense_type": "gws", "source_id": "m-1"},
            "check_after": "2026-07-01T00:00:00Z", "expires_at": "2026-07-02T00:00:00Z"}
    base.update(overrides)
    return base


def clean_world() -> dict[str, Any]:
    return {
        "edges": [
            {"id": "e1", "relation": "belongs_to", "status": "active", "requires_validation": True, "validated": True},
            {"id": "e2", "relation": "links_to", "status": "active", "requires_validation": False},
            {"id": "e3", "relation": "belongs_to", "status": "candidate", "requires_validation": True},
        ],
        "assertions": [fact(), fact(predicate="belongs_to", obj="Chess"), fact(predicate="belongs_to", obj="Choir")],
        "predictions": [parse_prediction(prediction_row(), NOW)],
        "actions": [validate_action({"action_type": "email.send", "title": "Reply", "side_effect_level": "external",
                                     "tool_call_id": "c1"}, NOW)],
    }


def test_clean_world_passes_with_the_mandatory_rules_listed() -> None:
    report = check_contract(**clean_world())
    assert report.ok and report.status == "pass"
    payload = report.to_dict()
    assert "evidence_before_belief" in payload["rules"] and payload["violations"] == []
    assert payload["checked"] == {"edges": 3, "assertions": 3, "predictions": 1, "actions": 1}


def test_active_edge_needing_validation_fails() -> None:
    world = clean_world()
    world["edges"].append({"id": "e9", "relation": "father_of", "status": "active", "requires_validation": True})
    world["edges"].append({"id": "e10", "relation": "mystery", "status": "active"})
    report = check_contract(**world)
    assert not report.ok
    assert [(v.rule, v.target_id) for v in report.violations] == [
        ("semantic_edges_need_validation", "e9"),
        ("semantic_edges_need_validation", "e10"),
    ]


def test_two_current_values_of_a_single_valued_predicate_fail() -> None:
    world = clean_world()
    world["assertions"].append(fact(obj="Berlin"))
    report = check_contract(**world)
    assert {v.rule for v in report.violations} == {"single_valued_predicate"}
    assert len(report.violations) == 2


def test_current_assertion_without_evidence_fails() -> None:
    world = clean_world()
    world["assertions"].append(replace(fact(subject="Bob"), evidence=""))
    report = check_contract(**world)
    assert [v.rule for v in report.violations] == ["evidence_before_belief"]


def test_weakened_current_fact_is_a_warning_not_a_failure() -> None:
    world = clean_world()
    world["assertions"][0] = replace(world["assertions"][0], confidence=0.76)
    report = check_contract(**world)
    assert report.ok and report.status == "warn"
    assert [w.rule for w in report.warnings] == ["weakened_current_assertion"]


@pytest.mark.parametrize("edge_status, warned", [
    ("candidate", True), ("killed", True), ("retired", True), ("active", False), ("missing", False), (None, False)])
def test_a_current_fact_on_an_edge_no_longer_active_is_a_warning(edge_status: str | None, warned: bool) -> None:
    world = clean_world()
    world["assertions"][0] = replace(world["assertions"][0], source_edge_id="7", source_edge_status=edge_status)
    report = check_contract(**world)
    assert report.ok and report.status == ("warn" if warned else "pass")
    assert [(w.rule, w.target_id) for w in report.warnings] == (
        [("unbacked_current_assertion", world["assertions"][0].id)] if warned else [])


def test_invalid_stored_prediction_rows_fail() -> None:
    world = clean_world()
    world["predictions"] += [
        {**prediction_row(), "id": "p-bad-date", "expires_at": "tomorrow"},
        {**prediction_row(), "id": "p-no-sense", "match_json": {"source_id": "m"}},
        {**prediction_row(), "id": "p-window", "expires_at": "2026-06-01T00:00:00Z"},
    ]
    report = check_contract(**world)
    assert [(v.rule, v.target_id) for v in report.violations] == [
        ("prediction_invalid", "p-bad-date"),
        ("prediction_invalid", "p-no-sense"),
        ("prediction_invalid", "p-window"),
    ]


def test_actions_without_handles_or_proof_fail_whether_rows_or_objects() -> None:
    world = clean_world()
    good = world["actions"][0]
    world["actions"] = iter([
        good,
        replace(good, id="a-nohandle", tool_call_id=None),
        replace(good, id="a-unproven", status="verified"),
        {"id": "a-row", "action_type": "pay", "title": "Pay rent", "side_effect_level": "external",
         "created_at": "2026-07-01T00:00:00Z"},
    ])
    report = check_contract(**world)
    assert [(v.rule, v.target_id) for v in report.violations] == [
        ("side_effects_need_handle", "a-row"),
        ("side_effects_need_handle", "a-nohandle"),
        ("verified_needs_proof", "a-unproven"),
    ]


def test_contract_is_deterministic() -> None:
    world = clean_world()
    world["assertions"].append(fact(obj="Berlin", valid_from=(NOW - timedelta(days=1)).isoformat()))
    assert check_contract(**world).to_dict() == check_contract(**clean_world() | {
        "assertions": world["assertions"]}).to_dict()


def test_two_values_in_force_at_once_collide_and_fail_the_contract_at_that_instant() -> None:
    """Stored statuses alone look consistent (one head); read at `as_of`, Berlin and Rome are both in force."""
    future = fact(obj="Lyon", valid_from="2027-01-01")
    berlin = replace(fact(obj="Berlin"), status="superseded", superseded_by_id=future.id,
                     superseded_at=future.valid_from)
    rome = replace(fact(obj="Rome", source_path="Sources/b.md"), status="superseded", superseded_by_id=future.id,
                   superseded_at=future.valid_from)
    assert detect_conflicts([berlin, rome, future]) == []  # (no instant given: stored statuses only)
    [conflict] = detect_conflicts([berlin, rome, future], as_of=NOW)
    assert conflict.kind == "world_state_collision" and set(conflict.assertion_ids) == {berlin.id, rome.id}
    assert check_contract([], [berlin, rome, future], [], []).ok
    report = check_contract([], [berlin, rome, future], [], [], as_of=NOW)
    assert {(v.rule, v.target_id) for v in report.violations} == {("single_valued_predicate", berlin.id),
                                                                  ("single_valued_predicate", rome.id)}
    assert check_contract([], [berlin, rome, future], [], [], as_of=datetime(2027, 2, 1, tzinfo=UTC)).ok


def test_a_value_that_supersedes_itself_fails_the_contract() -> None:
    row = fact()
    broken = replace(row, status="superseded", superseded_by_id=row.id, superseded_at=NOW)
    report = check_contract([], [broken], [], [])
    assert [(v.rule, v.target_id) for v in report.violations] == [("supersession_chain", row.id)]
