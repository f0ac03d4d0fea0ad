"""An action's refusals name what the call gave, its side effect is one of the known levels, and a confirmed
prediction verifies only the action it belongs to (session 37, world round 3)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput

_SIDE_EFFECT = {"side_effect_level": "external", "tool_call_id": "call-1"}


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
