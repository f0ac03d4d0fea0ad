"""Writing the same `mneme://` scope again leaves its sense events as one write of that payload would.

Each write used to record an event whose id hashes the time of the write, so a payload sent three times unchanged
left three events (and `forget --source` reported `sense_events: 3`). A scope now has one event per version, as a
vault note does: the same payload again records none; a changed one records the new version's, and the events of
earlier versions stay, as a changed note's do (only `forget --source` deletes world rows).
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/conftest.py (tests/ is on sys.path)

SCOPE = "mneme://test/rewrite"
PAYLOAD: dict[str, Any] = {
    "source_path": SCOPE,
    "nodes": [{"ref": "agent", "type": "agent", "name": "Test agent"},
              {"ref": "task", "type": "task", "name": "Validate retrieval"}],
    "edges": [{"src": "agent", "dst": "task", "relation": "relates_to", "status": "active"}],
    "observations": [{"node": "task", "kind": "fact", "text": "Validate retrieval before trusting output.",
                      "score": 5}],
}


def _payload_events(m: Mnemon) -> list[dict[str, Any]]:
    return [row for row, _recorded in m.rt.store.world.sense_events(source_paths=[SCOPE])]  # type: ignore[attr-defined]


def test_the_same_payload_three_times_is_one_sense_event(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem(clock=clock)
    for _ in range(3):
        m.remember_payload(copy.deepcopy(PAYLOAD))
        clock.advance(minutes=5)  # each write at its own time: the time alone made each event new
    events = _payload_events(m)
    assert len(events) == 1 and events[0]["origin"] == "payload"
    assert m.forget_source(SCOPE, dry_run=True)["world_removed"]["sense_events"] == 1


def test_spacing_and_defaults_do_not_make_a_payload_another_version(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem(clock=clock)
    m.remember_payload(copy.deepcopy(PAYLOAD))
    clock.advance(minutes=5)
    same = copy.deepcopy(PAYLOAD)
    same["observations"][0]["text"] = "  Validate retrieval before trusting output.  "
    same["observations"][0]["kind"] = "fact"
    same["nodes"][0]["summary"] = ""
    m.remember_payload(json.dumps(same))
    assert len(_payload_events(m)) == 1


def test_a_changed_payload_adds_its_version_and_the_first_stays(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem(clock=clock)
    m.remember_payload(copy.deepcopy(PAYLOAD))
    first = _payload_events(m)
    clock.advance(minutes=5)
    changed = dict(copy.deepcopy(PAYLOAD),
                   observations=[{"node": "task", "kind": "risk", "text": "Deadline risk for retrieval"}])
    for _ in range(2):  # the changed version twice: one event for it
        m.remember_payload(copy.deepcopy(changed))
        clock.advance(minutes=5)
    events = _payload_events(m)
    assert len(events) == 2 and events[0]["id"] == first[0]["id"]
    assert events[-1]["text"] == "Deadline risk for retrieval"
    clock.advance(minutes=5)
    m.remember_payload(copy.deepcopy(PAYLOAD))  # back to the first version: a version again, as a note's edit is
    assert len(_payload_events(m)) == 3
    assert m.forget_source(SCOPE)["world_removed"]["sense_events"] == 3
    assert _payload_events(m) == []


def test_a_memory_remembered_under_the_scope_does_not_hide_a_payload_version(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem()
    m.remember_payload(copy.deepcopy(PAYLOAD))
    m.remember("The deploy key lives under ops/deploy", source=SCOPE)  # its own event, origin `remember`
    m.remember_payload(copy.deepcopy(PAYLOAD))
    assert sorted(e["origin"] for e in _payload_events(m)) == ["payload", "remember"]


def test_cli_remember_payload_three_times_then_forget_reports_one_event(cli_run: Callable[..., Any],
                                                                        tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    for _ in range(3):
        code, _out = cli_run(["remember", "--payload", str(path)])
        assert code == 0
    code, out = cli_run(["forget", "--source", SCOPE])
    assert code == 0 and out["world_removed"]["sense_events"] == 1
