"""A past `world tick --before T` whose outcome evidence synced later overturns keeps the prediction open and says
so under `not_recorded` — but its `attention` list still named the prediction as missed or unverifiable, as if the
tick had recorded that: an agent acting on attention chased a parcel the store knows was delivered. Attention now
lists only the outcomes the tick records (and a dry run only those a real run would)."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon

from app.test_qa_s34_world_tick_later_evidence import BEFORE, SYNCED, linked_parcel, mail, open_ids, parcel
from conftest import FakeClock


def _failed(tick: dict) -> list[tuple[str, str]]:
    return [(a["id"], a["status"]) for a in tick["attention"] if a["kind"] == "prediction"]


@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.parametrize("alive_by_then", [False, True], ids=["unverifiable_then", "missed_then"])
def test_a_past_outcome_later_evidence_overturns_is_not_in_attention(world: tuple[Mnemon, FakeClock],
                                                                      alive_by_then: bool, dry_run: bool) -> None:
    mem, clock = world
    # nothing recorded by T: unverifiable then; or the sense alive by T with no parcel: missed then
    pid = linked_parcel(mem, clock)[1] if alive_by_then else parcel(mem)
    clock.now = SYNCED
    mail(mem, "m1", "Your parcel was delivered", "2026-06-02T10:00:00Z")  # synced late: it confirms
    tick = mem.world_tick(before=BEFORE, dry_run=dry_run)
    [result] = tick["predictions"]["results"]
    assert result["status"] == ("missed" if alive_by_then else "unverifiable") and "not_recorded" in result
    assert _failed(tick) == []
    assert [p["id"] for p in tick["pending_predictions"]] == open_ids(mem) == [pid]


def test_a_past_outcome_later_evidence_agrees_with_stays_in_attention(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    _fact, pid = linked_parcel(mem, clock)
    clock.now = SYNCED
    mail(mem, "m1", "Your parcel was delivered", "2026-06-10T10:00:00Z")  # observed after the window: no say
    tick = mem.world_tick(before=BEFORE)
    assert _failed(tick) == [(pid, "missed")]
    assert open_ids(mem) == []
