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
