"""`gc` lists as prune candidates only what auto-prune may take: a weak correction that keeps a live fact demoted
("Mira moved from Lisbon to Porto", by its wording or a supersedes link) was listed with "purge: mnemon forget", and
forgetting it made recall give the stale fact as current again. Auto-prune never takes one."""
from __future__ import annotations

from conftest import FakeClock
from mnemon.app.memory import Mnemon


def test_gc_does_not_offer_a_correction_of_a_live_memory_for_purging(mem: Mnemon, clock: FakeClock) -> None:
    mem.rt.clock = clock
    mem.remember("Mira lives in Lisbon", importance=5)
    clock.advance(minutes=1)
    worded = mem.remember("Mira moved from Lisbon to Porto", importance=1)["id"]
    stale = mem.remember("The standup is at 9:00", importance=5)["id"]
    linked = mem.remember("Standup moved to 9:30", importance=1)["id"]
    mem.link(linked, stale, "supersedes")
    plain = mem.remember("weak thing nobody corrects", importance=1)["id"]
    clock.advance(days=90)
    out = mem.gc(threshold=0.5)
    ids = [c["insight"]["id"] for c in out["candidates"]]
    assert plain in ids and worded not in ids and linked not in ids
    assert out["corrections_kept"] == 2 and out["candidates_found"] == 1
    # once the fact it corrects is gone, a correction is as prunable as any memory
    mem.forget(stale)
    assert linked in [c["insight"]["id"] for c in mem.gc(threshold=0.5)["candidates"]]
