"""`action record` ties an action to stored rows and dates it when it was done: an `assertion_ids` or `prediction_id`
naming nothing is `not_found` (as `predict add`'s `subject_assertion_id` is), and a `created_at` more than a day
past the clock is refused — a mistyped year opened the verification window years ahead, so the spawned prediction
never came due and nothing said so. And `alias add` says when beliefs stored under the alias stay apart."""
from __future__ import annotations

import json
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput, NotFound

from conftest import FakeClock

CLAIM = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95, "certainty": "confirmed",
         "evidence": "lease signed (fictional)", "source_path": "mneme://r/ana"}
EMAIL = {"action_type": "email_sent", "title": "Emailed the landlord about rent", "side_effect_level": "external",
         "external_ref": "gmail:1", "verify": {"sense_type": "gws", "terms": ["rent"]}}


def _record(mem: Mnemon, **over: Any) -> dict[str, Any]:
    return mem.action_record(json.dumps({**EMAIL, **over}))


def test_an_action_against_a_belief_that_does_not_exist_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    belief = mem.state_assert(json.dumps(CLAIM))["id"]
    with pytest.raises(NotFound, match="nope"):
        _record(mem, assertion_ids=[belief, "nope"])
    with pytest.raises(NotFound, match="prediction_id"):
        _record(mem, verify=None, prediction_id="wp-missing")
    assert mem.rt.store.world.actions() == [] and mem.predict_due(before="30d")["count"] == 0
    out = _record(mem, assertion_ids=[belief])
    assert out["created"] and out["action"]["assertion_ids"] == [belief]


def test_an_action_dated_ahead_of_the_clock_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    with pytest.raises(InvalidInput, match="in the future") as refused:
        _record(mem, created_at="2062-06-01T09:00:00Z")
    assert refused.value.details.get("field") == "created_at"
    assert mem.rt.store.world.actions() == [] and mem.rt.store.world.predictions() == []
    slip = (clock.now.replace(hour=20)).isoformat()  # another machine's clock, hours ahead: still an action
    assert _record(mem, created_at=slip, external_ref="gmail:2")["prediction_created"] is True


def test_a_prediction_made_in_the_future_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    payload = {"title": "Rent receipt", "match_json": {"sense_type": "gws", "observation_terms_any": ["rent"]},
               "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}
    with pytest.raises(InvalidInput, match="in the future"):
        mem.predict_add(json.dumps({**payload, "created_at": "2070-01-01T00:00:00Z"}))
    assert mem.rt.store.world.predictions() == []
    assert mem.predict_add(json.dumps({**payload, "created_at": "2026-05-30T00:00:00Z"}))["created"] is True


def test_an_alias_over_beliefs_stored_under_it_says_they_stay_apart(world: tuple[Mnemon, FakeClock]) -> None:
    """`alias add` names future writes only: "Jim lives_in Leeds" stayed current under Jim while the next write
    under James Smith put York in force too, with no word; the reply now counts them and names `alias merge`."""
    mem, _ = world
    mem.state_assert(json.dumps({**CLAIM, "subject": "Jim", "object": "Leeds"}))
    out = mem.alias_add("Jim", "James Smith")
    assert out["stored_under_alias"] == 1 and 'mnemon alias merge Jim "James Smith"' in out["hint"]
    assert "hint" not in mem.alias_add("Annie", "Ana")  # nothing stored under Annie
    merged = mem.alias_merge("Jim", "James Smith")
    assert merged and "hint" not in mem.alias_add("Jim", "James Smith")
