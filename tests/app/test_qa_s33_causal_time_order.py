"""A causal edge points cause → effect, and its cause is not younger than its effect unless the effect says it has
a cause ("because", "due to"): an older memory saying what it leads to, or what follows from it, is no effect of a
newer one, nor one whose cause a newer memory does not state (the fix made after a failure follows from it)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from conftest import FakeClock

# (older, newer, whether the newer is the cause), each pair a source of its own
PAIRS = [
    ("Moving the checkout cache to Redis leads to lower checkout latency",
     "Checkout latency dropped after the Redis cache move", False),
    ("The checkout cache moved to Redis, therefore checkout latency should drop",
     "Checkout latency dropped after the Redis cache move", False),
    ("The checkout cache moved to Redis so that checkout latency drops",
     "Checkout latency dropped after the Redis cache move", False),
    ("结账缓存迁移到Redis导致结账延迟降低", "结账延迟降低了", False),
    # the older one names a cause it has: the newer one, giving that cause, is it
    ("The launch moved to June because the enclosure supplier was late",
     "The enclosure supplier was late by two weeks", True),
    ("上线推迟到六月，因为外壳供应商延迟", "外壳供应商延迟了两周", True),
    ("Because the enclosure supplier was late, the launch moved to June",
     "The enclosure supplier was late by two weeks", True),
    ("Checkout is slow due to the N+1 query in the orders API",
     "Found the N+1 query in the orders API: the ORM loads each line item", True),
    # ... but a newer one that does not state that cause follows from the older one
    ("The deploy failed because the Redis cache ran out of memory",
     "We increased the Redis maxmemory to 4GB after the outage", False),
    ("Login broke for every user because the signing token expired",
     "Login works again for every user after the hotfix", False),
    ("Because the enclosure supplier was late, the launch moved to June",
     "Sent the revised June launch plan to the retailers", False),
    ("上线推迟到六月，因为外壳供应商延迟", "我们把推迟到六月的上线计划发给了零售商", False),
]


@pytest.mark.parametrize("arrival", ["in_order", "backdated"])
def test_a_causal_edge_runs_from_the_older_memory_unless_the_older_one_names_its_cause(make_mem,
                                                                                        arrival: str) -> None:
    mem = make_mem("none", clock=FakeClock(datetime(2026, 3, 1, tzinfo=timezone.utc)))
    for k, (older, newer, _) in enumerate(PAIRS):
        writes = [(older, "2026-02-01T09:00:00Z"), (newer, "2026-02-08T09:00:00Z")]
        ids = {}
        for content, at in writes if arrival == "in_order" else writes[::-1]:
            ids[at] = mem.remember(content, source=f"pair{k}", created_at=at, entity_mode="provided",
                                   no_diff=True)["id"]
        first, second = ids["2026-02-01T09:00:00Z"], ids["2026-02-08T09:00:00Z"]
        edges = [(e.src, e.dst) for e in mem.rt.store.edges_of([first], types=["causal"], direction="both")]
        # the forward cues made (second, first): the week-later observation "caused" the plan that predicted it
        assert edges == [(second, first) if PAIRS[k][2] else (first, second)], older
