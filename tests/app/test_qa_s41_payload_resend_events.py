"""Sending the same scoped payload again is sending it once: every edge of the scope was written again, so each
`explain-edge` timeline gained an identical `updated` event per re-send. An unchanged edge is now left as it is; an
edge the payload changes is still written, with its event."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def payload(confidence: float = 0.95) -> dict[str, Any]:
    return {"source_path": "mneme://agent/session-1",
            "nodes": [{"ref": "bob", "name": "Bob Smith", "type": "person"}, {"ref": "acme", "name": "Acme"}],
            "edges": [{"src": "bob", "dst": "acme", "relation": "works_at", "confidence": confidence,
                       "evidence": "Bob said so", "validated": True},
                      {"src": "acme", "dst": "bob", "relation": "relates_to", "confidence": 0.5}],
            "observations": [{"node": "bob", "kind": "risk", "text": "Bob's contract expires on 31 December"}]}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


def timelines(mem: Mnemon, ids: list[int]) -> list[list[tuple[str, str]]]:
    return [[(e["event"], e["actor"]) for e in mem.rt.store.edge_events(i)] for i in ids]


def test_a_re_sent_payload_leaves_its_unchanged_edges_and_their_timelines(mem: Mnemon) -> None:
    first = mem.remember_payload(payload())
    ids = [e["id"] for e in first["edges"]]
    before = timelines(mem, ids)
    again = mem.remember_payload(payload())
    assert [(e["id"], e["status"]) for e in again["edges"]] == [(e["id"], e["status"]) for e in first["edges"]]
    assert timelines(mem, ids) == before


def test_a_changed_edge_is_still_written_with_its_event(mem: Mnemon) -> None:
    first = mem.remember_payload(payload())
    ids = [e["id"] for e in first["edges"]]
    before = timelines(mem, ids)
    changed = mem.remember_payload(payload(confidence=0.6))
    assert changed["edges"][0]["status"] == "candidate" and mem.rt.store.get_edge(ids[0]).status == "candidate"
    after = timelines(mem, ids)
    assert len(after[0]) == len(before[0]) + 1 and after[1:] == before[1:]
