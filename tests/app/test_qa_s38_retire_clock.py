"""QA round (session 38): the edges a forget or an auto-prune retires are dated by the store's clock.

`mnemon forget ID` wrote the memory's `deleted_at` and its log row at the runtime's clock, but each retired edge's
`updated_at` and `retired` event at the wall clock: on a store whose clock is not the machine's (a replay, a test's
fake clock) `explain-edge` dated the retirement elsewhere than the forget, and an as-of read of the graph at the
forget's time still saw the edge active. Both backends."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

from mnemon.app.memory import Mnemon
from mnemon.core.model import iso

from conftest import FakeClock

T0 = datetime(2031, 5, 4, 10, 0, tzinfo=timezone.utc)  # far from the wall clock


def _retirements(m: Mnemon, node_id: str) -> list[tuple[str, str]]:
    edges = m.rt.store.edges_of([node_id], statuses=("retired",), direction="both")
    assert edges, "the memory had edges to retire"
    return [(e.updated_at, m.rt.store.edge_events(int(e.id or 0))[-1]["created_at"]) for e in edges]


def test_a_forget_retires_edges_at_the_store_s_clock(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(T0)
    m = make_mem("hash", clock=clock)
    first = m.remember("The harbour pilot boards at the outer buoy")["id"]
    clock.advance(minutes=5)
    m.remember("The harbour pilot leaves at the inner buoy")
    clock.advance(hours=2)
    m.forget(first)
    assert set(_retirements(m, first)) == {(iso(clock.now), iso(clock.now))}


def test_an_auto_prune_retires_edges_at_the_store_s_clock(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(T0)
    m = make_mem("hash", clock=clock, max_insights=2, prune_min_age="1h")
    low = m.remember("The harbour pilot boards at the outer buoy", importance=1)["id"]
    clock.advance(minutes=5)
    m.remember("The harbour pilot leaves at the inner buoy", importance=1)
    clock.advance(days=2)
    out = m.remember("The ferry timetable changes in October", importance=2)
    assert low in out["auto_pruned_ids"]
    assert set(_retirements(m, low)) == {(iso(clock.now), iso(clock.now))}
