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


def test_ties_go_oldest_first_and_the_auto_prunable_ones_are_what_auto_prune_takes_next(
        make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(clock=clock, max_insights=0, prune_min_age="1h")
    old = []
    for k in range(6):  # a minute apart, then read together: equal importance, and the oldest goes first
        old.append(_weak(m, k))
        clock.advance(minutes=1)
    clock.advance(days=30)
    m.rt.store.touch(old, m.rt.now_iso())  # (as a recall giving them all touches them)
    clock.advance(days=10)
    # remembered now with a date long past (an import): the weakest of all, but inside their grace period
    long_ago = (clock.now - timedelta(days=700)).isoformat()
    fresh = [_weak(m, k, created_at=long_ago) for k in range(6, 8)]
    out = m.gc(threshold=100.0, limit=50)
    rows = out["candidates"]
    listed = [c["insight"]["id"] for c in rows]
    assert set(old) | set(fresh) <= set(listed)
    held = {c["insight"]["id"]: c for c in rows if not c["auto_prunable"]}
    assert set(held) == set(fresh) and listed[:2] == sorted(fresh)  # listed as the weakest, and marked held
    assert all(c["held_by"] == "grace_period" and c["held_until"] > m.rt.now_iso() for c in held.values())
    m.rt.max_insights = 1
    taken = [i for i, _ei in prune_plan(m.rt, ())]
    assert [i for i in listed if i not in held][:len(taken)] == taken
    assert [i for i in listed if i in old] == old  # equal importance: the oldest first, as auto-prune takes them


def test_a_payloads_weak_row_is_listed_as_held_by_its_scope(make_mem: Callable[..., Mnemon],
                                                             clock: FakeClock) -> None:
    m = make_mem(clock=clock, max_insights=0)
    sent = m.remember_payload(json.dumps({"source_path": "mneme://qa/ferry", "nodes": [
        {"ref": "f", "type": "task", "name": "Ferry"}], "observations": [
        {"node": "f", "kind": "fact", "text": "The ferry leaves at nine.", "score": 1}]}))
    row = sent["observations"][0]["id"]
    own = _weak(m, 1)
    clock.advance(days=200)
    rows = {c["insight"]["id"]: c for c in m.gc(threshold=100.0)["candidates"]}
    assert rows[row]["auto_prunable"] is False and rows[row]["held_by"] == "payload_scope"
    assert rows[own]["auto_prunable"] is True and "held_by" not in rows[own]
