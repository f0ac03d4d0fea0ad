"""Every refusal of a world payload names its field (`details.field`), so an agent can fix the value it gave: the
order of two instants names the later one, a rule over several fields names them all (`details.fields`)."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import parse_assertion, parse_match, parse_prediction, parse_sense_event
from mnemon.core.world.match import TERM_KEYS

NOW = datetime(2026, 12, 7, tzinfo=timezone.utc)
CLAIM = {"subject": "Lighthouse", "predicate": "status", "object_value": "planning", "evidence": "kickoff notes",
         "source_path": "Projects/Lighthouse.md", "certainty": "confirmed", "confidence": 0.95}
PREDICTION = {"title": "Acme signs", "match_json": {"sense_type": "gws", "source_id": "msg-1"},
              "check_after": "2026-12-09T00:00:00Z", "expires_at": "2026-12-10T00:00:00Z"}


def assertion(**over: Any) -> Any:
    return parse_assertion({**CLAIM, **over}, NOW)


def prediction(**over: Any) -> Any:
    return parse_prediction({**PREDICTION, **over}, NOW)


@pytest.mark.parametrize(("parse", "field", "fields"), [
    (lambda: assertion(valid_from="2026-12-09", valid_until="2026-12-08"), "valid_until", None),
    (lambda: assertion(state_type="goal"), "state_type", None),
    (lambda: prediction(expires_at="2026-12-08T00:00:00Z"), "expires_at", None),
    (lambda: parse_match({"sense_type": "gws", "source_id": "a", "observed_after": "2026-12-10",
                          "observed_before": "2026-12-09"}), "match_json.observed_before", None),
    (lambda: parse_match({"sense_type": "gws"}), "match_json.source_id", ["source_id", *TERM_KEYS]),
    (lambda: parse_match({"sense_type": "gws", "source_id": "a", "gate": {"sense_type": "gws"}}),
     "match_json.gate.source_id", ["source_id", "event_type", *TERM_KEYS]),
    (lambda: parse_sense_event({"sense_type": "gws", "observed_at": "2026-12-06T00:00:00Z"}, now=NOW),
     "source_id", ["source_id", "title", "text"]),
])
def test_a_world_refusal_names_its_field(parse: Callable[[], Any], field: str, fields: list[str] | None) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse()
    assert refused.value.details.get("field") == field
    assert refused.value.details.get("fields") == fields
