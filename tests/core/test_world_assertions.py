"""State assertions: the write gate, cardinality, supersession, validity at read time, truth policies."""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import (
    Assertion,
    apply_assertion,
    assertion_gate,
    lapsed_assertions,
    parse_assertion,
    policy_for,
    retract,
    truth_policy_for_assertion,
    validity_at,
)
from mnemon.core.world.assertions import corroborations

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=timezone.utc)


def claim(**overrides: Any) -> dict[str, Any]:
    base = {
        "subject": "Alice",
        "predicate": "lives_in",
        "object": "Paris",
        "object_type": "place",
        "confidence": 0.95,
        "certainty": "confirmed",
        "source_type": "research",
        "evidence": "Tenancy agreement signed for a Paris flat.",
        "source_path": "Sources/alice.md",
    }
    base.update(overrides)
    return base


def assertion(now: datetime = T0, **overrides: Any) -> Assertion:
    return parse_assertion(claim(**overrides), now)


# ---- gate ---------------------------------------------------------------------------------------------------------

def test_gate_accepts_confirmed_sourced_high_confidence_claim() -> None:
    result = assertion_gate(assertion())
    assert result.accepted
    assert result.reasons == ()


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"confidence": 0.89}, "low_confidence"),
        ({"evidence": ""}, "missing_evidence"),
        ({"certainty": "likely"}, "not_confirmed"),
        ({"certainty": None}, "not_confirmed"),
        ({"status": "candidate"}, "status_not_current"),
        ({"source_type": "vault"}, "needs_validation"),
        ({"source_type": "llm"}, "needs_validation"),
    ],
)
def test_gate_refuses_each_rule_with_its_reason(overrides: dict[str, Any], code: str) -> None:
    result = assertion_gate(assertion(**overrides))
    assert not result.accepted
    assert result.codes == (code,)
    assert result.to_dict()["reasons"][0]["code"] == code


def test_gate_reports_every_failing_rule_at_once() -> None:
    result = assertion_gate(assertion(confidence=0.5, evidence="", certainty="maybe"))
    assert set(result.codes) == {"low_confidence", "missing_evidence", "not_confirmed"}


def test_vault_source_is_validated_by_explicit_user_confirmation() -> None:
    confirmed = assertion(source_type="vault", metadata={"user_confirmed": True})
    assert assertion_gate(confirmed).accepted
    assert assertion_gate(assertion(source_type="vault", certainty="user_confirmed")).accepted


def test_predicate_that_needs_no_validation_passes_from_the_vault() -> None:
    status = assertion(predicate="status", object="blocked", object_type="value", source_type="vault")
    assert assertion_gate(status).accepted


# ---- parsing --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"subject": None}, "'subject'"),
        ({"predicate": ""}, "predicate must not be empty"),
        ({"object": None}, "'object'"),
        ({"object_value": "x"}, "exactly one"),
        ({"valid_from": "2026-13-01"}, "valid_from is not a valid ISO-8601"),
        ({"valid_from": "2026-07-02", "valid_until": "2026-07-01"}, "before valid_from"),
        ({"confidence": 1.5}, "confidence must be in [0, 1]"),
        ({"confidence": True}, "confidence must be a number"),
        ({"state_type": "dream"}, "state_type"),
        ({"metadata": [1]}, "metadata must be a JSON object"),
        ({"source_path": None}, "'source_path'"),
    ],
)
def test_parse_assertion_names_the_bad_field(payload: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_assertion(claim(**payload), T0)
    assert fragment in error.value.message


def test_parse_assertion_refuses_non_objects_and_naive_now() -> None:
    with pytest.raises(InvalidInput):
        parse_assertion(["not", "an", "object"], T0)
    with pytest.raises(InvalidInput, match="timezone-aware"):
        parse_assertion(claim(), datetime(2026, 7, 1))


def test_literal_objects_become_values_and_entities_names() -> None:
    dated = assertion(predicate="due_on", object="2026-07-09", object_type="date")
    assert (dated.object_name, dated.object_value) == (None, "2026-07-09")
    assert (assertion().object_name, assertion().object_value) == ("Paris", None)


def test_subject_is_canonicalised_through_aliases() -> None:
    row = parse_assertion(claim(subject="  the LANDLORD "), T0, aliases={"the landlord": "St James"})
    assert row.subject == "St James"


def test_row_round_trip_is_json_and_lossless() -> None:
    row = assertion(valid_from="2026-06-01", valid_until="2026-12-31T23:59:59Z", metadata={"k": [1, "x"]})
    stored = json.loads(json.dumps(row.to_row()))
    assert Assertion.from_row(stored) == row
    assert stored["valid_until"] == "2026-12-31T23:59:59+00:00"


# ---- cardinality and supersession -----------------------------------------------------------------------------------

def test_single_valued_new_value_supersedes_the_previous_one() -> None:
    paris = assertion(valid_from="2026-01-01")
    berlin = assertion(T0 + timedelta(days=1), object="Berlin", valid_from="2026-06-01")
    change = apply_assertion([paris], berlin, policy_for("lives_in"))
    assert change.insert is not None and change.insert.id == berlin.id
    assert change.insert.supersedes_id == paris.id
    [old] = change.updates
    assert (old.id, old.status, old.superseded_by_id) == (paris.id, "superseded", berlin.id)
    assert old.superseded_at == berlin.valid_from
    assert change.current_ids == (berlin.id,)


def test_multi_valued_predicate_keeps_every_current_object() -> None:
    chess = assertion(predicate="belongs_to", object="Chess Club", object_type="organization")
    choir = assertion(T0 + timedelta(hours=1), predicate="belongs_to", object="Choir", object_type="organization")
    change = apply_assertion([chess], choir, policy_for("belongs_to"))
    assert change.updates == ()
    assert change.insert == choir
    assert set(change.current_ids) == {chess.id, choir.id}


def test_metadata_cardinality_overrides_the_table() -> None:
    exclusive = policy_for("belongs_to", metadata={"conflict_policy": "exclusive"})
    assert exclusive.single_valued and exclusive.explicitly_exclusive
    assert not policy_for("lives_in", metadata={"cardinality": "many"}).single_valued
    assert policy_for("lives_in", metadata={"cardinality": 1}).single_valued


def test_unknown_predicates_default_to_single_valued_but_not_explicitly_exclusive() -> None:
    policy = policy_for("favourite_colour")
    assert policy.single_valued
    assert not policy.explicitly_exclusive
    assert policy.requires_validation


def test_identical_reassertion_is_idempotent() -> None:
    paris = assertion()
    again = assertion(T0 + timedelta(days=3))
    change = apply_assertion([paris], again, policy_for("lives_in"))
    assert change.idempotent and change.insert is None and change.updates == ()
    assert change.current_ids == (paris.id,)


def test_the_same_value_from_another_source_is_named_on_the_row_in_force() -> None:
    paris = assertion()
    other = assertion(T0 + timedelta(days=3), source_path="Sources/other.md")
    change = apply_assertion([paris], other, policy_for("lives_in"))
    [named] = change.updates
    assert change.idempotent and change.insert is None and change.current_ids == (paris.id,)
    assert [(c["id"], c["source_path"]) for c in corroborations(named)] == [(other.id, "Sources/other.md")]
    assert apply_assertion([named], other, policy_for("lives_in")).updates == ()  # named once


def test_reassertion_with_stronger_confidence_merges_into_the_existing_row() -> None:
    paris = assertion()
    stronger = assertion(T0 + timedelta(days=3), object="  paris ", confidence=0.99, valid_until="2027-01-01")
    change = apply_assertion([paris], stronger, policy_for("lives_in"))
    [merged] = change.updates
    assert change.insert is None and merged.id == paris.id
    # (a date alone is valid through that day)
    assert merged.confidence == 0.99 and merged.valid_until == datetime(2027, 1, 1, 23, 59, 59, 999999, timezone.utc)


def test_backdated_value_is_recorded_as_history_not_as_the_present() -> None:
    berlin = assertion(object="Berlin", valid_from="2026-06-01")
    old_paris = assertion(T0 + timedelta(days=1), valid_from="2025-01-01")
    change = apply_assertion([berlin], old_paris, policy_for("lives_in"))
    [relinked] = change.updates  # the present value stays current; its chain now reaches back to the older value
    assert (relinked.id, relinked.status, relinked.supersedes_id) == (berlin.id, "current", old_paris.id)
    assert change.insert is not None
    assert (change.insert.status, change.insert.superseded_by_id) == ("superseded", berlin.id)
    assert change.current_ids == (berlin.id,)


def test_correction_retracts_the_previous_value() -> None:
    paris = assertion()
    fixed = assertion(T0 + timedelta(hours=2), object="Lyon", source_type="user_correction")
    [old] = apply_assertion([paris], fixed, policy_for("lives_in")).updates
    assert old.status == "retracted"
    assert validity_at(old, T0 - timedelta(days=365)) == "retracted"


def test_returning_to_an_old_value_creates_a_new_row() -> None:
    first = assertion(valid_from="2025-01-01")
    second = assertion(object="Berlin", valid_from="2025-06-01")
    third = assertion(valid_from="2026-01-01")
    assert third.id != first.id
    superseded_first = apply_assertion([first], second).updates[0]
    change = apply_assertion([second], third)
    assert change.insert is not None and change.insert.id == third.id
    assert superseded_first.status == "superseded"


def test_apply_ignores_rows_of_other_subjects_and_predicates() -> None:
    bob = assertion(subject="Bob", object="Rome")
    work = assertion(predicate="works_at", object="ACME", object_type="organization")
    berlin = assertion(object="Berlin")
    change = apply_assertion([bob, work], berlin)
    assert change.updates == () and change.current_ids == (berlin.id,)


def test_apply_refuses_a_non_current_proposal() -> None:
    with pytest.raises(InvalidInput):
        apply_assertion([], assertion(status="candidate"))


# ---- validity and truth policy ------------------------------------------------------------------------------------

def test_validity_window_is_inclusive_and_read_only() -> None:
    row = assertion(valid_from="2026-07-01", valid_until="2026-07-10T00:00:00Z")
    snapshot = row.to_row()
    assert validity_at(row, datetime(2026, 6, 30, tzinfo=timezone.utc)) == "future"
    assert validity_at(row, datetime(2026, 7, 10, tzinfo=timezone.utc)) == "current"
    assert validity_at(row, datetime(2026, 7, 10, 0, 0, 1, tzinfo=timezone.utc)) == "lapsed"
    assert row.to_row() == snapshot and row.status == "current"


def test_superseded_row_is_current_when_replayed_before_the_successor() -> None:
    paris = assertion(valid_from="2026-01-01")
    berlin = assertion(object="Berlin", valid_from="2026-06-01")
    [old] = apply_assertion([paris], berlin).updates
    assert validity_at(old, datetime(2026, 3, 1, tzinfo=timezone.utc)) == "current"
    assert validity_at(old, datetime(2026, 6, 1, tzinfo=timezone.utc)) == "superseded"
    assert truth_policy_for_assertion(old, datetime(2026, 3, 1, tzinfo=timezone.utc)) == "current_state_assertion"
    assert truth_policy_for_assertion(old, T0) == "superseded_state_assertion"


def test_truth_policies_follow_validity() -> None:
    row = assertion(valid_until="2026-07-05")
    assert truth_policy_for_assertion(row, T0) == "current_state_assertion"
    assert truth_policy_for_assertion(row, T0 + timedelta(days=10)) == "lapsed_state_assertion"
    gone = retract(row, T0, "user said it was never true")
    assert truth_policy_for_assertion(gone, T0) == "retracted_state_assertion"


def test_a_belief_whose_source_edge_is_no_longer_active_is_unbacked_not_current() -> None:
    row = replace(assertion(source_edge_id="12"), source_edge_status="candidate")
    assert validity_at(row, T0) == "unbacked"
    assert truth_policy_for_assertion(row, T0) == "unbacked_state_assertion"
    assert validity_at(replace(row, source_edge_status="killed"), T0) == "unbacked"
    # active again, or gone in a rebuild (assertions outlive their graph rows): the stored reading stands
    assert [validity_at(replace(row, source_edge_status=s), T0) for s in ("active", "missing", None)] == ["current"] * 3
    assert "source_edge_status" not in row.to_row()  # read-time only: never written back with the row
    assert validity_at(retract(row, T0, "never true"), T0) == "retracted"


def test_as_of_replay_is_deterministic() -> None:
    rows = [assertion(valid_until="2026-07-05"), assertion(subject="Bob", valid_from="2026-08-01")]
    as_of = datetime(2026, 7, 20, tzinfo=timezone.utc)
    first = [(truth_policy_for_assertion(r, as_of), validity_at(r, as_of)) for r in rows]
    second = [(truth_policy_for_assertion(r, as_of), validity_at(r, as_of)) for r in reversed(rows)]
    assert first == list(reversed(second))
    assert first == [("lapsed_state_assertion", "lapsed"), ("future_state_assertion", "future")]


def test_lapsed_assertions_lists_only_elapsed_current_rows() -> None:
    loop = assertion(predicate="status", object="waiting on landlord", object_type="value", state_type="open_loop",
                     valid_until="2026-07-02")
    belief = assertion(valid_until="2026-07-03")
    fresh = assertion(subject="Bob", valid_until="2026-12-01")
    now = datetime(2026, 7, 4, tzinfo=timezone.utc)
    assert [r.id for r in lapsed_assertions([fresh, belief, loop], now)] == [loop.id, belief.id]
    assert [r.id for r in lapsed_assertions([fresh, belief, loop], now, state_type="open_loop")] == [loop.id]
    retracted = retract(loop, now, "wrong")
    assert lapsed_assertions([retracted], now) == []


# ---- one chain per single-valued pair -------------------------------------------------------------------------------

def test_a_present_value_is_chained_before_an_already_known_future_value() -> None:
    berlin = assertion(object="Berlin")
    paris = assertion(T0 + timedelta(days=1), valid_from="2027-03-01")
    first = apply_assertion([berlin], paris)
    [berlin_then] = first.updates
    assert first.insert is not None and first.insert.status == "current"
    assert (berlin_then.superseded_by_id, berlin_then.superseded_at) == (paris.id, paris.valid_from)
    rome = assertion(T0 + timedelta(days=2), object="Rome", source_path="Sources/c3.md")
    change = apply_assertion([berlin_then, first.insert], rome)
    assert change.insert is not None
    assert (change.insert.supersedes_id, change.insert.superseded_by_id) == (berlin.id, paris.id)
    by_id = {row.id: row for row in change.updates}
    assert (by_id[berlin.id].superseded_by_id, by_id[berlin.id].superseded_at) == (rome.id, rome.created_at)
    assert by_id[paris.id].supersedes_id == rome.id and change.current_ids == (paris.id,)
    now = T0 + timedelta(days=3)
    assert [validity_at(r, now) for r in (by_id[berlin.id], change.insert, by_id[paris.id])] == [
        "superseded", "current", "future"]


def test_a_claim_over_before_it_was_written_starts_no_later_than_its_end() -> None:
    berlin = assertion(object="Berlin")
    paris = assertion(T0 + timedelta(days=1), valid_until="2020-01-01")
    assert paris.ended_before_written and paris.starts_at == datetime(2020, 1, 1, 23, 59, 59, 999999, timezone.utc)
    change = apply_assertion([berlin], paris)
    assert change.insert is not None and change.insert.status == "superseded"
    assert change.current_ids == (berlin.id,)
    same = assertion(T0 + timedelta(days=1), object="Berlin", valid_until="2020-01-01", source_path="Sources/o.md")
    assert apply_assertion([berlin], same).insert is not None  # history, not a re-assertion of the present


def test_rechain_without_a_retracted_value_puts_its_predecessor_back_in_force() -> None:
    from mnemon.core.world.assertions import rechain
    from mnemon.core.world.policies import policy_for as policy

    berlin = assertion(object="Berlin")
    paris = assertion(T0 + timedelta(days=1))
    [old] = apply_assertion([berlin], paris).updates
    chain = rechain([old, retract(paris, T0 + timedelta(days=2), "never moved")], policy("lives_in"))
    by_id = {row.id: row for row in chain}
    assert (by_id[berlin.id].status, by_id[berlin.id].superseded_by_id) == ("current", None)
    assert by_id[paris.id].status == "retracted"


def test_a_correction_retracts_the_value_in_force_not_a_known_future_one() -> None:
    berlin = assertion(object="Berlin")
    paris = assertion(T0 + timedelta(days=1), valid_from="2027-03-01")
    [berlin_then] = apply_assertion([berlin], paris).updates
    fixed = assertion(T0 + timedelta(days=2), object="Rome", source_type="user_correction")
    change = apply_assertion([berlin_then, paris], fixed)
    by_id = {row.id: row for row in change.updates}
    assert by_id[berlin.id].status == "retracted"
    assert by_id.get(paris.id, paris).status == "current"  # the future value is untouched by the correction
    assert change.insert is not None and change.insert.superseded_by_id == paris.id


def test_a_correction_leaves_a_value_that_had_already_lapsed_as_history() -> None:
    # "Ada owned it until 2 July" had ended when the user said "actually Bo owns it": nothing in force was wrong
    ada = assertion(object="Ada", valid_until="2026-07-02T00:00:00Z")
    fixed = assertion(T0 + timedelta(days=2), object="Bo", source_type="user_correction")
    change = apply_assertion([ada], fixed)
    [ada_after] = change.updates
    assert ada_after.status == "superseded" and ada_after.superseded_by_id == fixed.id
    assert validity_at(ada_after, T0 + timedelta(hours=1)) == "current"  # history keeps Ada until her end
    assert validity_at(ada_after, T0 + timedelta(days=1, hours=12)) == "lapsed"
    assert change.insert is not None and change.insert.supersedes_id == ada.id
    assert change.current_ids == (fixed.id,)


def test_an_explicit_id_reused_for_another_value_of_the_pair_is_refused() -> None:
    from mnemon.core.errors import Conflict

    berlin = assertion(object="Berlin", id="a1")
    with pytest.raises(Conflict):
        apply_assertion([berlin], assertion(T0 + timedelta(days=1), id="a1"))


def test_nfc_and_nfd_subjects_and_objects_share_their_keys() -> None:
    import unicodedata

    composed = assertion(subject=unicodedata.normalize("NFC", "José"), object=unicodedata.normalize("NFC", "Évora"))
    decomposed = assertion(subject=unicodedata.normalize("NFD", "José"), object=unicodedata.normalize("NFD", "Évora"))
    assert composed.pair_key == decomposed.pair_key and composed.object_key == decomposed.object_key
    assert composed.id == decomposed.id and decomposed.subject == composed.subject
