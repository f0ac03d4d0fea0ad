"""QA round (session 33): a restore that revives a forgotten memory undoes the re-join its forgetting made.

`forget` re-joins its source's chain around the memory it takes out (`rejoin_backbone`: A ↔ C when B between them
goes). Export, forget B, then `import --revive-forgotten`: B and its steps came back, but the A ↔ C steps made at
forget time stayed, so A stepped forward to both B and C. The revive now retires the steps the re-join made (or
turns back into proximity the edge it had turned into a step), with an event saying why: the chain is A ↔ B ↔ C
again, edge for edge as it was exported."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)


def _at(clock: FakeClock, hours: float) -> str:
    return (clock.now - timedelta(hours=hours)).isoformat()


def _live_edges(m: Mnemon) -> set[tuple[Any, ...]]:
    return {(e.src, e.dst, e.type, e.sub_type, round(e.weight, 6), e.status, e.rule,
             json.dumps(e.metadata, sort_keys=True), e.created_at)
            for e in m.rt.store.iter_edges(statuses=("active", "candidate", "killed"))}


def _forward(m: Mnemon, a: str) -> set[str]:
    """Where `a` steps forward in its source's chain."""
    return {e.dst for e in m.rt.store.edges_of([a], types=("temporal",), direction="out")
            if e.sub_type in ("backbone", "reply") and e.metadata.get("direction") == "precedes"}


def _chain(m: Mnemon, clock: FakeClock, layout: str) -> tuple[str, str, str]:
    """A, B, C of one source. "apart": more than a day between each (no proximity edges); "close": within a day
    (A ↔ C proximity, which the re-join turns into the step); "backdated": B written last, spliced between A and C
    (the A ↔ C steps it retired are the ones the re-join brings back)."""
    hours = {"apart": (100, 70, 40), "close": (30, 29, 20), "backdated": (50, 35, 20)}[layout]
    texts = ("Kickoff of the harbour project", "Harbour survey delayed by the storm", "Harbour project closed")
    ids: dict[int, str] = {}
    for k in ((0, 2, 1) if layout == "backdated" else (0, 1, 2)):
        clock.now += timedelta(minutes=1)
        ids[k] = m.remember(texts[k], source="log", created_at=_at(clock, hours[k]))["id"]
    return ids[0], ids[1], ids[2]


@pytest.mark.parametrize("layout", ["apart", "close", "backdated"])
def test_reviving_the_middle_memory_undoes_the_rejoin_of_its_neighbours(
        make_mem: Callable[..., Mnemon], clock: FakeClock, layout: str) -> None:
    m = make_mem(clock=clock)
    a, b, c = _chain(m, clock, layout)
    assert _forward(m, a) == {b}
    exported = _live_edges(m)
    backup = json.dumps(m.export_json())
    clock.now += timedelta(minutes=1)
    assert m.forget(b)["backbone_rejoined"] == 2
    assert _forward(m, a) == {c}

    clock.now += timedelta(minutes=1)
    planned = m.import_json(backup, dry_run=True, revive_forgotten=True)
    assert planned["would_revive"] == 1 and _forward(m, a) == {c}  # a dry run changes nothing
    out = m.import_json(backup, revive_forgotten=True)
    assert out["revived"] == 1
    assert _forward(m, a) == {b} and _forward(m, b) == {c}
    assert _live_edges(m) == exported  # edge for edge as exported: no A ↔ C step left over
    assert out["backbone_resplit"] == 2
    # each edge the revive changed says why
    for src, dst in ((a, c), (c, a)):
        edge = m.rt.store.find_edge(src, dst, "temporal")
        if edge is not None:
            last = m.rt.store.edge_events(int(edge.id or 0))[-1]
            assert last["actor"] == "import" and b in last["detail"]["reason"] and "revived" in last["detail"]["reason"]
    logged = m.rt.store.oplog(5, op="import")[0].detail
    assert logged["backbone_resplit"] == 2
    # and forgetting it again re-joins as the first forget did
    assert m.forget(b)["backbone_rejoined"] == 2 and _forward(m, a) == {c}


def test_a_step_a_person_decided_on_since_the_forget_stays(make_mem: Callable[..., Mnemon],
                                                           clock: FakeClock) -> None:
    """Only what the re-join made is undone: a step someone validated after the forget is theirs."""
    m = make_mem(clock=clock)
    a, b, c = _chain(m, clock, "apart")
    backup = json.dumps(m.export_json())
    m.forget(b)
    step = m.rt.store.find_edge(a, c, "temporal")
    assert step is not None
    m.validate_edge(int(step.id or 0))
    out = m.import_json(backup, revive_forgotten=True)
    assert out["revived"] == 1
    assert _forward(m, a) == {b, c} and _forward(m, b) == {c}
    back = m.rt.store.find_edge(c, a, "temporal")
    assert back is not None and back.status == "retired"  # the step back from C, which nobody touched
    assert out["backbone_resplit"] == 1
