"""QA round (session 41): `gc`'s count and order are the ones auto-prune acts on.

- `candidates_found` subtracted only the corrections found among the candidates it listed: a weak correction further
  down (auto-prune never takes one, and `gc` does not list one) was still counted as a candidate.
- The list broke ties of effective importance by id, where auto-prune takes the oldest first, and listed memories
  still inside their grace period (or a payload's rows, which live as long as their scope) unmarked among them: its
  top entries were not the ones auto-prune takes next. Ties now go oldest first, and each candidate says whether
  auto-prune may take it now (`auto_prunable`) or what holds it (`held_by`, with `held_until` for a grace period);
  the auto-prunable ones, in the list's order, are what auto-prune takes next."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

import pytest

from conftest import FakeClock
from mnemon.app.memory import Mnemon
from mnemon.app.remember import prune_plan

TOPICS = ("ferry timetable", "lamp oil", "gull census", "anchor chain", "tide gauge", "chart table", "rope locker",
          "dock crane")


def _weak(m: Mnemon, k: int, **kw: object) -> str:
    return str(m.remember(f"note {k} about the {TOPICS[k % len(TOPICS)]} number {k * 7919}", importance=1,
                          source=f"s{k}", **kw)["id"])  # (a source each: no backbone links between them)


@pytest.mark.parametrize("limit", [1, 2, 3, 10])
def test_candidates_found_leaves_out_every_correction_not_only_the_listed_ones(
        make_mem: Callable[..., Mnemon], clock: FakeClock, limit: int) -> None:
    m = make_mem(clock=clock, max_insights=0)
    plain = []
    for k in range(3):  # a minute apart: the older decayed more, and sorts first
        plain.append(_weak(m, k))
        clock.advance(minutes=1)
    clock.advance(days=20)  # the corrections decayed less: they sort after the plain ones
    stale = [m.remember(f"The {t} is kept in shed {k}", importance=5, source=f"f{k}")["id"]
             for k, t in enumerate(("ladder", "winch"))]
    fixes = [m.remember(f"The {t} moved to shed {k + 5}", importance=1, source=f"c{k}")["id"]
             for k, t in enumerate(("ladder", "winch"))]
    for fix, old in zip(fixes, stale):
        m.link(fix, old, "supersedes")
    clock.advance(days=60)
    out = m.gc(threshold=0.5, limit=limit)
    listed = [c["insight"]["id"] for c in out["candidates"]]
    assert not set(listed) & set(fixes)
    assert out["candidates_found"] == len(plain) and out["corrections_kept"] == len(fixes)
    assert listed == plain[:limit]

