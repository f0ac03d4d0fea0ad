"""QA round (session 41): undoing the forgets of neighbours in one source's chain gives the chain back as it was.

Forget B, then C, of a chain A ↔ B ↔ C ↔ D: each forget re-joins the chain around the memory it takes (A ↔ C, then
A ↔ D). `forget --undo` of both — in one call or one at a time, in either order — brought B and C back, but the
re-joined steps stayed or came back with them: A stepped forward to B, C and D, and where the memories were within a
day of each other the proximity edges the re-joins had turned into steps came back as steps. The undo now repairs
the chain around each revived memory: a step that skips a live memory of its source is a re-join's, and is retired
(or turned back into the proximity edge it was)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)

TEXTS = ("Kickoff of the harbour project", "Harbour survey delayed by the storm", "Crane hired for the pier",
         "Pier foundations poured", "Harbour project closed")


def _chain(m: Mnemon, clock: FakeClock, hours_apart: float) -> list[str]:
    ids = []
    for k, text in enumerate(TEXTS):
        clock.now += timedelta(minutes=1)
        at = (clock.now - timedelta(hours=hours_apart * (len(TEXTS) - k))).isoformat()
        ids.append(m.remember(text, source="log", created_at=at)["id"])
    return ids


def _edges(m: Mnemon, ids: list[str]) -> set[tuple[Any, ...]]:
    return {(e.src, e.dst, e.type, e.sub_type, round(e.weight, 6), e.status)
            for e in m.rt.store.edges_of(ids, statuses=("active", "candidate"), direction="both")}


@pytest.mark.parametrize("hours_apart", [30.0, 2.0], ids=["apart", "close"])
@pytest.mark.parametrize(("forgotten", "undone", "one_call"), [
    ((1, 2), (1, 2), False), ((1, 2), (2, 1), False), ((1, 2), (1, 2), True),
    ((2, 1), (1, 2), False), ((1, 2, 3), (3, 1, 2), False), ((1, 2, 3), (1, 2, 3), True),
    ((3, 1, 2), (2, 3, 1), False)])
def test_undoing_forgets_of_neighbours_restores_the_chain_edge_for_edge(
        make_mem: Callable[..., Mnemon], clock: FakeClock, hours_apart: float, forgotten: tuple[int, ...],
        undone: tuple[int, ...], one_call: bool) -> None:
    m = make_mem(clock=clock, max_insights=0)
    ids = _chain(m, clock, hours_apart)
    before = _edges(m, ids)
    for k in forgotten:
        clock.now += timedelta(minutes=1)
        m.forget(ids[k])
    clock.now += timedelta(minutes=1)
    if one_call:
        m.undo_forget([ids[k] for k in undone])
    else:
        for k in undone:
            m.undo_forget([ids[k]])
    assert _edges(m, ids) == before
