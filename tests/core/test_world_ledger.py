"""Sense events (external JSON) and the action ledger with its verification predictions."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import (
    SENSE_TYPES,
    Action,
    SenseEvent,
    evaluate_prediction,
    parse_prediction,
    parse_sense_event,
    parse_sense_events,
    validate_action,
    verification_prediction,
)

UTC = timezone.utc
NOW = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)


# ---- sense events ---------------------------------------------------------------------------------------------------

def sense(**overrides: Any) -> dict[str, Any]:
    base = {"sense_type": "gws", "observed_at": "2026-07-01T10:00:00Z", "source_id": "msg-1",
            "title": "Booking confirmed", "text": "Your table for two is confirmed.", "metadata": {"thread": "t1"}}
    base.update(overrides)
    return base


def test_sense_event_parses_and_round_trips() -> None:
    parsed = parse_sense_event(sense())
    assert parsed.observed_at == datetime(2026, 7, 1, 10, tzinfo=UTC)
    assert parsed.origin == "external"
    assert SenseEvent.from_row(json.loads(json.dumps(parsed.to_row()))) == parsed


def test_sense_event_id_is_a_content_hash() -> None:
    assert parse_sense_event(sense()).id == parse_sense_event(sense(observed_at="2026-07-01T12:00:00+02:00")).id
    assert parse_sense_event(sense()).id != parse_sense_event(sense(text="different")).id
    assert parse_sense_event(sense(id="given")).id == "given"


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"sense_type": None}, "missing required field 'sense_type'"),
        ({"sense_type": "carrier_pigeon"}, "unknown sense type 'carrier_pigeon'"),
        ({"observed_at": None}, "missing required field 'observed_at'"),
        ({"observed_at": "yesterday"}, "observed_at is not a valid ISO-8601"),
        ({"observed_at": 1720000000}, "observed_at must be an ISO-8601 string"),
        ({"source_id": None, "title": "", "text": ""}, "needs at least one of source_id, title or text"),
        ({"metadata": "not json"}, "metadata is not valid JSON"),
        ({"metadata": [1, 2]}, "metadata must be a JSON object"),
        ({"title": 5}, "title must be a string"),
    ],
)
def test_sense_event_errors_are_precise(overrides: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_sense_event(sense(**overrides))
    assert fragment in error.value.message


def test_unknown_sense_type_message_lists_known_types() -> None:
    with pytest.raises(InvalidInput) as error:
        parse_sense_event(sense(sense_type="fax"))
    for known in SENSE_TYPES:
        assert known in error.value.message


def test_event_files_name_the_failing_index() -> None:
    assert len(parse_sense_events({"events": [sense(), sense(source_id="msg-2")]})) == 2
    assert len(parse_sense_events(sense())) == 1
    with pytest.raises(InvalidInput, match=r"events\[1\]: .*observed_at"):
        parse_sense_events([sense(), sense(observed_at="nope")])
    with pytest.raises(InvalidInput):
        parse_sense_events("just a string")


# ---- actions ------------------------------------------------------------------------------------------------------

def action(**overrides: Any) -> dict[str, Any]:
    base = {"actor": "hermes", "action_type": "email.send", "title": "Send landlord the boiler repair request",
            "tool_name": "gws.gmail.send", "side_effect_level": "external", "tool_call_id": "call-77"}
    base.update(overrides)
    return base


def test_side_effects_need_a_provider_handle() -> None:
    with pytest.raises(InvalidInput) as error:
        validate_action(action(tool_call_id=None), NOW)
    assert error.value.details["rule"] == "side_effects_need_handle"
    assert validate_action(action(tool_call_id=None, external_ref="gmail:abc"), NOW).external_ref == "gmail:abc"
    local = validate_action(action(tool_call_id=None, side_effect_level="none"), NOW)
    assert not local.side_effectful


def test_verified_status_needs_proof() -> None:
    with pytest.raises(InvalidInput, match="verified needs"):
        validate_action(action(status="verified"), NOW)
    assert validate_action(action(status="verified", user_confirmed=True), NOW).status == "verified"
    assert validate_action(action(status="verified", verified_by_prediction="wp-1"), NOW).status == "verified"
    with pytest.raises(InvalidInput, match="status must be one of"):
        validate_action(action(status="done-ish"), NOW)


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"action_type": None}, "missing required field 'action_type'"),
        ({"title": "  "}, "title must not be empty"),
        ({"assertion_ids": "wsa-1"}, "assertion_ids must be a list"),
        ({"user_confirmed": "yes"}, "user_confirmed must be true or false"),
        ({"created_at": "31/12/2026"}, "created_at is not a valid ISO-8601"),
        ({"verify": {"terms": ["x"]}}, "verify.sense_type: missing"),
        ({"verify": {"sense_type": "owl"}}, "unknown sense type"),
        ({"verify": {"sense_type": "gws", "check_after": "soon"}}, "check_after is not a valid ISO-8601"),
        ({"verify": {"sense_type": "gws", "check_after": "3d", "expires": "1d"}}, "expires is before check_after"),
        ({"verify": {"sense_type": "gws", "expires": "900000w"}}, "reaches beyond the calendar"),
        ({"verify": {"sense_type": "gws"}, "side_effect_level": "none"}, "needs a side-effectful action"),
        ({"verify": {"sense_type": "gws"}, "title": "Do it for the and"}, "nothing specific to match"),
    ],
)
def test_action_payload_errors(overrides: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidInput) as error:
        validate_action(action(**overrides), NOW)
    assert fragment in error.value.message


def test_action_id_with_a_handle_is_stable_across_replays() -> None:
    first = validate_action(action(), NOW)
    replay = validate_action(action(), NOW + timedelta(hours=5))
    assert first.id == replay.id
    untracked = action(side_effect_level="none", tool_call_id=None)
    assert validate_action(untracked, NOW).id != validate_action(untracked, NOW + timedelta(hours=5)).id


def test_verify_block_spawns_a_deterministic_prediction() -> None:
    verify = {"sense_type": "gws", "terms": ["boiler repair"], "check_after": "1d", "expires": "3d"}
    recorded = validate_action(action(verify=verify), NOW)
    spawned = verification_prediction(recorded)
    assert spawned is not None and recorded.prediction_id == spawned["id"]
    assert spawned["title"] == "Verify: Send landlord the boiler repair request"
    assert spawned["source_action_id"] == recorded.id
    assert spawned["check_after"] == "2026-07-02T12:00:00+00:00"
    assert spawned["expires_at"] == "2026-07-04T12:00:00+00:00"
    # Re-recording later with the stored row keeps the anchor, so no duplicate prediction appears.
    again = validate_action(action(verify=verify), NOW + timedelta(hours=8), existing=recorded)
    assert again.created_at == recorded.created_at
    assert verification_prediction(again) == spawned
    assert parse_prediction(spawned, NOW).id == spawned["id"]


def test_verification_counts_a_confirmation_arriving_before_check_after() -> None:
    recorded = validate_action(action(verify={"sense_type": "gws", "terms": ["boiler"]}), NOW)
    spawned = verification_prediction(recorded)
    assert spawned is not None
    pred = parse_prediction(spawned, NOW)
    quick_reply = parse_sense_event(sense(observed_at="2026-07-01T14:00:00Z", text="Boiler engineer booked Friday"))
    result = evaluate_prediction(pred, [quick_reply], NOW + timedelta(hours=3))
    assert result.new_status == "confirmed"


def test_verify_terms_are_derived_from_the_title_without_filler() -> None:
    recorded = validate_action(action(verify={"sense_type": "gws"}), NOW)
    spawned = verification_prediction(recorded)
    assert spawned is not None
    assert spawned["match_json"]["observation_terms_any"] == ["landlord", "boiler", "repair", "request"]


def test_action_row_round_trip() -> None:
    recorded = validate_action(action(assertion_ids=["wsa-1"], verify={"sense_type": "gws", "source_id": "m-9"},
                                      metadata={"cost": 12}), NOW)
    assert Action.from_row(json.loads(json.dumps(recorded.to_row()))) == recorded
