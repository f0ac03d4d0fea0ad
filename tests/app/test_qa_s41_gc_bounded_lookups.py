"""Session 41: `gc` looked every weak memory up for corrections so that its count was exact — a keyword search for
each one worded as a change — and on a store of 100k memories it ran for minutes. It now looks all of them up only
while there are at most CORRECTIONS_COUNTED, then only until the shown ones are known, and says whether its count
is exact."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import FakeClock
from mnemon.app import curation
from mnemon.app.memory import Mnemon


def _fill(m: Mnemon, clock: FakeClock, n: int) -> list[str]:
    ids = []
    for k in range(n):  # worded as changes: each one is a lookup
        ids.append(str(m.remember(f"The crate {k} moved to shed {k + 1000}", importance=1, source=f"s{k}")["id"]))
        clock.advance(minutes=1)
    clock.advance(days=90)
    return ids


def test_a_store_with_many_weak_changes_is_looked_up_only_as_far_as_needed(
        make_mem: Callable[..., Mnemon], clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(curation, "CORRECTIONS_COUNTED", 12)
    m = make_mem(clock=clock, max_insights=0)
    ids = _fill(m, clock, 40)
    searches = 0
    real = m.rt.store.keyword_search

    def counted(*args: object, **kw: object) -> object:
        nonlocal searches
        searches += 1
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(m.rt.store, "keyword_search", counted)
    out = m.gc(threshold=0.5, limit=3)
    assert [c["insight"]["id"] for c in out["candidates"]] == ids[:3]
    assert searches <= 12 and out["candidates_found_exact"] is False
    assert out["candidates_found"] == 40


def test_a_small_store_is_counted_exactly(make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(clock=clock, max_insights=0)
    _fill(m, clock, 5)
    out = m.gc(threshold=0.5, limit=2)
    assert out["candidates_found"] == 5 and out["candidates_found_exact"] is True
