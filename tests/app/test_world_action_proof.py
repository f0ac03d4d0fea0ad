"""An action's refusals name what the call gave, its side effect is one of the known levels, and a confirmed
prediction verifies only the action it belongs to (session 37, world round 3)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world.ledger import SIDE_EFFECT_LEVELS
from mnemon.interfaces.operations import BY_NAME, check_args

_SIDE_EFFECT = {"side_effect_level": "external", "tool_call_id": "call-1"}


def _actions(mem: Any) -> list[Any]:
    return list(mem.rt.store.world.actions())


def _refusal(mem: Any, action: dict[str, Any]) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        mem.action_record(json.loads(json.dumps({"action_type": "email", "title": "Sent the invoice", **action})))
    return refused.value


@pytest.mark.parametrize("place", ["verify", "metadata"])
@pytest.mark.parametrize("block", [
    {"sense_type": "email"}, {"terms": ["invoice"]}, {"sense_type": "gws", "terms": "invoice"},
    {"sense_type": "gws", "check_after": "soon"}, {"sense_type": "gws", "check_after": "3d", "expires": "1d"},
    {"sense_type": "gws", "confidence": 2}, {"sense_type": "gws", "expires": "900000w"},
])
def test_a_verify_blocks_refusal_names_its_field_in_the_message_too(mem: Any, place: str,
                                                                     block: dict[str, Any]) -> None:
    """`verify.sense_type: "email"` was refused 'action.verify.sense_type: unknown sense type' with details.field
    verify.sense_type (and in metadata, 'action.metadata.verify…' for metadata.verify…): the message says the
    field details.field names."""
    given = {"verify": block} if place == "verify" else {"metadata": {"verify": block}}
    error = _refusal(mem, {**_SIDE_EFFECT, **given})
    field = str(error.details["field"])
    assert field.startswith("verify" if place == "verify" else "metadata.verify"), error.details
    assert field in error.message and "action.verify" not in error.message, (error.message, field)
    assert "action.metadata" not in error.message, error.message


@pytest.mark.parametrize("level", ["huge", "read", "externall", "n0ne"])
def test_an_unknown_side_effect_level_is_refused_naming_the_field(mem: Any, level: str) -> None:
    """{"side_effect_level": "huge", "tool_call_id": "c"} was stored as given: a level is one of the known ones, in
    the library and in the schema an agent checks (tools/list)."""
    error = _refusal(mem, {"side_effect_level": level, "tool_call_id": "c"})
    assert error.details["field"] == "side_effect_level", error.details
    assert "side_effect_level" in error.message and all(word in error.message for word in SIDE_EFFECT_LEVELS)
    assert _actions(mem) == []
    with pytest.raises(InvalidInput):
        check_args(BY_NAME["action_record"], {"action": {"action_type": "email", "title": "t",
                                                         "side_effect_level": level, "tool_call_id": "c"}})


@pytest.mark.parametrize("level", [*SIDE_EFFECT_LEVELS, " External ", "NONE", ""])
def test_each_known_side_effect_level_is_taken(mem: Any, level: str) -> None:
    action = {"action_type": "email", "title": f"Sent {level!r}", "side_effect_level": level, "tool_call_id": "c"}
    check_args(BY_NAME["action_record"], {"action": action})
    stored = mem.action_record(action)["action"]
    assert stored["side_effect_level"] == (level.strip().casefold() or "none")


def test_the_schemas_levels_are_the_librarys() -> None:
    from mnemon.interfaces import operations
    assert operations.SIDE_EFFECT_LEVELS == SIDE_EFFECT_LEVELS
    # (the schema's rules tell none from a side effect by the letter a, which each other level has)
    assert [level for level in SIDE_EFFECT_LEVELS if "a" not in level] == ["none"]


def _confirmed_verify_prediction(mem: Any, title: str, call: str) -> tuple[str, str]:
    """An action with a verify block, and its spawned prediction confirmed by a matching sense event."""
    out = mem.action_record({"action_type": "email", "title": title, "side_effect_level": "external",
                             "tool_call_id": call, "verify": {"sense_type": "gws", "source_id": f"msg-{call}"},
                             "created_at": "2026-01-01T09:00:00Z"})
    prediction = out["spawned_prediction_id"]
    mem.sense_add([{"sense_type": "gws", "observed_at": "2026-01-01T12:00:00Z", "source_id": f"msg-{call}",
                    "title": "Re: " + title}])
    mem.predict_check(prediction_id=prediction)
    assert mem.rt.store.world.get_prediction(prediction)["status"] == "confirmed"
    return out["action"]["id"], prediction


def test_a_prediction_spawned_by_another_action_cannot_verify_this_one(mem: Any) -> None:
    """'status: verified, verified_by_prediction: <the verify prediction of a different action>' was accepted: the
    ledger read an action as confirmed by evidence about something else."""
    _, others = _confirmed_verify_prediction(mem, "Sent the invoice to Acme", "c-acme")
    unrelated = {"action_type": "email", "title": "Paid the Globex bill", "side_effect_level": "external",
                 "tool_call_id": "c-globex", "status": "verified", "verified_by_prediction": others}
    error = _refusal(mem, unrelated)
    assert error.details["field"] == "verified_by_prediction", error.details
    assert others in error.message
    assert len(_actions(mem)) == 1


def test_the_actions_own_prediction_verifies_it(mem: Any) -> None:
    action_id, own = _confirmed_verify_prediction(mem, "Sent the invoice to Acme", "c-acme")
    again = {"action_type": "email", "title": "Sent the invoice to Acme", "side_effect_level": "external",
             "tool_call_id": "c-acme", "status": "verified", "verified_by_prediction": own}
    assert mem.action_record(again)["action"]["status"] == "verified"
    assert mem.rt.store.world.get_action(action_id)["verified_by_prediction"] == own


def test_a_prediction_naming_this_action_verifies_it_and_a_free_standing_one_does_not(mem: Any) -> None:
    base = {"id": "wa-acme", "action_type": "email", "title": "Sent the invoice to Acme",
            "side_effect_level": "external", "tool_call_id": "c-acme", "created_at": "2026-01-01T09:00:00Z"}
    mem.action_record(base)
    for name, extra in (("named", {"source_action_id": "wa-acme"}), ("free", {})):
        mem.predict_add({"id": f"wp-{name}", "title": "Acme answers", "check_after": "2026-01-01T10:00:00Z",
                         "expires_at": "2026-02-01T00:00:00Z", **extra,
                         "match_json": {"sense_type": "gws", "source_id": f"m-{name}"}})
        mem.sense_add([{"sense_type": "gws", "observed_at": "2026-01-02T00:00:00Z", "source_id": f"m-{name}"}])
        mem.predict_check(prediction_id=f"wp-{name}")
    error = _refusal(mem, {**base, "status": "verified", "verified_by_prediction": "wp-free"})
    assert error.details["field"] == "verified_by_prediction"
    assert mem.rt.store.world.get_action("wa-acme")["status"] == "recorded"
    verified = mem.action_record({**base, "status": "verified", "verified_by_prediction": "wp-named"})
    assert verified["action"]["status"] == "verified"
