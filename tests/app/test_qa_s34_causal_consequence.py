"""WHY recall reads a failure that names its cause before the fix made after it: the fix does not state that cause,
so it is the failure's consequence, not its cause (the causal edge ran fix → failure; more pairs in
test_qa_s33_causal_time_order.py)."""
from __future__ import annotations

from datetime import datetime, timezone

from conftest import FakeClock


def test_why_recall_puts_the_failure_before_the_fix_made_after_it(make_mem) -> None:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 12, 6, tzinfo=timezone.utc)))
    failed = mem.remember("The deploy failed because the Redis cache ran out of memory", source="agent",
                          created_at="2026-11-10T09:00:00Z")["id"]
    fixed = mem.remember("We increased the Redis maxmemory to 4GB after the outage", source="agent",
                         created_at="2026-11-10T12:00:00Z")["id"]
    edges = [(e.src, e.dst) for e in mem.rt.store.edges_of([failed], types=["causal"], direction="both")]
    assert edges == [(failed, fixed)]
    order = [r["insight"]["id"] for r in mem.recall("why did the deploy fail", intent="WHY")["results"]]
    assert order.index(failed) < order.index(fixed)
