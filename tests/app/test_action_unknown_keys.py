"""World payloads refuse keys no rule reads: a misspelt `side_effect_level` used to be stored as `none`, which skipped
"side effects need external_ref or tool_call_id". Actions, their `verify` block, predictions, sense events and
assertions all answer `invalid_input` naming the key (and the closest known one), and store nothing; documented
aliases, a stored row fed back, and an export's restore keep working."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.world.assertions import ASSERTION_FIELDS
from mnemon.core.world.ledger import ACTION_FIELDS, Action, validate_action
from mnemon.core.world.predictions import PREDICTION_FIELDS, Prediction, parse_prediction
from mnemon.core.world.senses import SENSE_EVENT_FIELDS, SenseEvent, parse_sense_event

from conftest import FakeClock

from .conftest import WORLD_T0

EMAIL = {"action_type": "email_sent", "title": "Emailed admissions", "status": "succeeded"}
PREDICTION = {"title": "Parcel should arrive", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
              "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}
SENSE = {"sense_type": "gws", "observed_at": "2026-05-31T00:00:00Z", "title": "Parcel delivered"}
CLAIM = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95, "certainty": "confirmed",
         "evidence": "lease signed (fictional)", "source_path": "mneme://r/ana"}


def _stored(mem: Mnemon) -> dict[str, int]:
    world = mem.rt.store.world
    return {"actions": len(world.actions()), "predictions": len(world.predictions()),
            "sense_events": world.sense_event_count(), "assertions": len(world.assertions())}


def _refused(call: Callable[[], Any], key: str, suggestion: str | None, field: str | None = None) -> InvalidInput:
    with pytest.raises(InvalidInput) as raised:
        call()
    error = raised.value
    assert repr(key) in error.message and error.details["field"] == (field or key), error.message
    if suggestion is not None:
        assert f"did you mean {suggestion!r}" in error.message
        assert error.details["did_you_mean"][key] == suggestion
    return error


def test_misspelt_side_effect_level_is_refused_not_stored_as_none(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    before = _stored(mem)
    for key in ("side_effect_lvl", "side_effect"):
        _refused(lambda: mem.action_record({**EMAIL, key: "external"}), key, "side_effect_level")
    assert _stored(mem) == before
    # spelt right, the rule the typo skipped applies
    with pytest.raises(InvalidInput) as raised:
        mem.action_record({**EMAIL, "side_effect_level": "external"})
    assert raised.value.details.get("rule") == "side_effects_need_handle"


def test_misspelt_verify_key_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    action = {**EMAIL, "side_effect_level": "external", "external_ref": "msg-1",
              "verify": {"sense_type": "gws", "terms": ["admissions"], "check_afer": "2d"}}
    # (named inside its block, as the block's other refusals are: verify.check_afer)
    _refused(lambda: mem.action_record(action), "check_afer", "check_after", "verify.check_afer")
    assert _stored(mem)["actions"] == 0 and _stored(mem)["predictions"] == 0


@pytest.mark.parametrize("call, payload, key, suggestion", [
    ("predict_add", {**PREDICTION, "expires": "2026-06-05T00:00:00Z"}, "expires", "expires_at"),
    ("predict_add", {**PREDICTION, "subject_assertion": "wsa:1"}, "subject_assertion", "subject_assertion_id"),
    ("sense_add", {**SENSE, "txt": "the parcel came"}, "txt", "text"),
    ("sense_add", [SENSE, {**SENSE, "title": "Other", "observed": "2026-06-04"}], "observed", "observed_at"),
    ("state_assert", {**CLAIM, "valid_untill": "2026-12-31"}, "valid_untill", "valid_until"),
    ("state_assert", {**CLAIM, "source_typ": "user_correction"}, "source_typ", "source_type"),
])
def test_other_world_payloads_refuse_unknown_keys(world: tuple[Mnemon, FakeClock], call: str, payload: Any,
                                                  key: str, suggestion: str) -> None:
    mem, _clock = world
    _refused(lambda: getattr(mem, call)(json.dumps(payload)), key, suggestion)
    assert _stored(mem) == {"actions": 0, "predictions": 0, "sense_events": 0, "assertions": 0}


def test_cli_names_the_key_and_its_closest_match(tmp_path: Path, cli_run: Callable[..., tuple[int, Any]]) -> None:
    payload = json.dumps({**EMAIL, "side_effect_lvl": "external"})
    code, out = cli_run(["--db", str(tmp_path / "m.db"), "action", "record", "--file", "-"], input=payload)
    assert code == 1 and out["error"]["code"] == "invalid_input"
    assert "'side_effect_lvl'" in out["error"]["message"] and "'side_effect_level'" in out["error"]["message"]


def test_mneme_action_record_refuses_the_typo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mnemon.interfaces.mneme_cli import main

    (tmp_path / "a.json").write_text(json.dumps({**EMAIL, "side_effect_lvl": "external"}), encoding="utf-8")
    capsys.readouterr()
    code = main(["action", "record", "--db", str(tmp_path / "m.sqlite"), "--file", str(tmp_path / "a.json")])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["error"]["code"] == "invalid_input"
    assert out["error"]["details"]["did_you_mean"] == {"side_effect_lvl": "side_effect_level"}


def test_documented_aliases_and_stored_rows_are_still_payloads(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    # Mneme's spellings: `match` / `metadata_json` for a prediction, `due` for an assertion, `expires_at` in verify,
    # `claim_status` riding in an assertion
    match = PREDICTION["match_json"]
    added = mem.predict_add({**{k: v for k, v in PREDICTION.items() if k != "match_json"}, "match": match,
                             "metadata_json": {"origin": "mneme"}, "source_path": "mneme://r/parcel"})
    assert added["created"] is True
    asserted = mem.state_assert({**CLAIM, "due": "2027-01-01", "claim_status": "active"})
    assert asserted["written"] is True
    assert mem.rt.store.world.get_assertion(asserted["id"])["valid_until"].startswith("2027-01-01")
    recorded = mem.action_record({**EMAIL, "side_effect_level": "external", "external_ref": "msg-1",
                                  "verify": {"sense_type": "gws", "terms": ["admissions"], "expires_at": "4d"}})
    assert recorded["created"] is True and recorded["spawned_prediction_id"]
    # an action as `action record` printed it is a payload too: re-recording it is the same row
    again = mem.action_record(recorded["action"])
    assert again["created"] is False and again["action"] == recorded["action"]


def test_stored_rows_with_columns_a_later_version_added_still_load() -> None:
    action = validate_action({**EMAIL, "tool_call_id": "c1", "side_effect_level": "external"}, WORLD_T0)
    assert Action.from_row({**action.to_row(), "recorded_at": "2026-06-01T09:00:00Z", "future": 1}) == action
    prediction = parse_prediction(PREDICTION, WORLD_T0)
    assert Prediction.from_row({**prediction.to_row(), "future": 1}).id == prediction.id
    event = parse_sense_event(SENSE)
    assert SenseEvent.from_row({**event.to_row(), "recorded_at": "2026-06-03T00:00:00Z", "future": 1}) == event


_NOT_A_FIELD = st.text(min_size=1, max_size=20).filter(
    lambda key: key not in ACTION_FIELDS | PREDICTION_FIELDS | SENSE_EVENT_FIELDS | ASSERTION_FIELDS)


@given(key=_NOT_A_FIELD, value=st.none() | st.booleans() | st.integers() | st.text(max_size=5))
def test_any_unknown_key_is_refused_by_every_payload_parser(key: str, value: Any) -> None:
    from mnemon.core.world.assertions import parse_assertion

    parsers: list[tuple[Callable[[dict[str, Any]], Any], dict[str, Any]]] = [
        (lambda p: validate_action(p, WORLD_T0), EMAIL),
        (lambda p: parse_prediction(p, WORLD_T0), PREDICTION),
        (parse_sense_event, SENSE),
        (lambda p: parse_assertion(p, WORLD_T0), CLAIM),
    ]
    for parse, valid in parsers:
        parse(valid)  # the payload without the key is fine
        with pytest.raises(InvalidInput) as raised:
            parse({**valid, key: value})
        assert raised.value.details["unknown"] == [key]
