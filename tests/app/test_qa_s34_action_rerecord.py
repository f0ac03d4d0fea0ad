"""Recording an action again (the same side effect, found by its provider handle) names what changed: a key the
payload leaves out keeps what the ledger holds. A bare re-record (an agent replaying its tool log) rewrote the row
from the payload alone: a `succeeded` action read `recorded` again, its beliefs, its verification prediction and its
payload scope were gone (so `forget --source` of that scope no longer removed it)."""
from __future__ import annotations

from mnemon.app.memory import Mnemon

from conftest import FakeClock

CLAIM = {"subject": "Vendor", "predicate": "contract_status", "object": "sent", "object_type": "value",
         "confidence": 0.95, "certainty": "confirmed", "evidence": "sent by mail", "source_path": "mail/7",
         "source_type": "user"}
BARE = {"action_type": "send_email", "title": "Sent the vendor the contract", "side_effect_level": "external",
        "tool_call_id": "call-9"}


def _recorded(mem: Mnemon) -> dict:
    belief = mem.state_assert(CLAIM)["id"]
    return mem.action_record({**BARE, "status": "succeeded", "assertion_ids": [belief],
                              "source_path": "mneme://agent/vendor",
                              "verify": {"sense_type": "gws", "terms": ["contract signed"]}})


def test_a_bare_re_record_keeps_what_the_ledger_holds(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    first = _recorded(mem)
    clock.advance(hours=1)
    again = mem.action_record(BARE)
    assert again["created"] is False and again["action"] == first["action"]
    assert again["spawned_prediction_id"] == first["spawned_prediction_id"] and again["prediction_created"] is False
    out = mem.forget_source("mneme://agent/vendor")
    assert out["world_removed"]["actions"] == 1


def test_a_re_record_changes_what_it_names(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    first = _recorded(mem)["action"]
    clock.advance(hours=1)
    failed = mem.action_record({**BARE, "status": "failed", "source_path": None})["action"]
    assert (failed["status"], failed["source_path"]) == ("failed", None)
    assert {k: v for k, v in failed.items() if k not in ("status", "source_path")} == \
        {k: v for k, v in first.items() if k not in ("status", "source_path")}
