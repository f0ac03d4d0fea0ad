"""Bulk import through `AppendBatch` grows exactly the graph that one `write_memory` per memory grows."""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import transfer
from mnemon.app.append_batch import AppendBatch
from mnemon.app.memory import Mnemon
from mnemon.ports.store.base import TIMED

from conftest import FakeClock

PEOPLE = ["Alice", "Bob", "Priya", "Chen Wei", "Marta", "Kubernetes", "Redis", "Kafka"]
CUES = ["because", "so that", "as a result", "therefore", "and then", "while"]


def _items(seed: int, n: int, day: int, *, undated: bool = False) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        who, what = rng.sample(PEOPLE, 2)
        item: dict[str, Any] = {
            "content": f"{who} {rng.choice(['moved', 'tuned', 'split'])} the {what} cluster {rng.choice(CUES)}"
                       f" the {rng.choice(['latency', 'bill', 'pager'])} grew {k % 7}",
            "source": rng.choice(["user", "agent", "import"]),
            "category": rng.choice(["fact", "decision", "insight"]),
        }
        if not (undated and k % 9 == 4):  # undated items are dated at import time
            item["created_at"] = f"2025-06-{day + k // 40:02d}T{(k * 7) % 24:02d}:{(k * 13) % 60:02d}:00Z"
        out.append(item)
    out.append(dict(out[3]))  # an exact repeat inside the batch is skipped, not written twice
    return out


def _graph(m: Mnemon) -> tuple[dict[str, Any], set[tuple[Any, ...]], list[tuple[str, str]]]:
    nodes = {n.content: (n.created_at, n.entities, round(n.effective_importance, 6), n.source)
             for n in m.rt.store.iter_nodes()}
    content = {n.id: n.content for n in m.rt.store.iter_nodes()}
    edges = {(content[e.src], content[e.dst], e.type, e.sub_type, round(e.weight, 6), e.status, e.origin,
              tuple(sorted(e.metadata.items())))
             for e in m.rt.store.iter_edges(statuses=("active", "candidate", "retired"))}
    log = [(o.op, content.get(o.node_id or "", "")) for o in m.rt.store.oplog(10_000)]
    return nodes, edges, sorted(log)


@pytest.fixture
def twin(make_mem: Callable[..., Mnemon], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
         ) -> Callable[[list[list[dict[str, Any]]]], tuple[Any, Any, list[bool]]]:
    """Import the same batches into two stores, one forced through `write_memory` per memory."""
    def run(batches: list[list[dict[str, Any]]]) -> tuple[Any, Any, list[bool]]:
        clock = FakeClock()
        fast = make_mem("none", db=tmp_path / "fast.db", clock=clock)
        slow = make_mem("none", db=tmp_path / "slow.db", clock=clock)
        took: list[bool] = []
        real = AppendBatch.applies
        for batch in batches:
            took.append(real(fast.rt.store, [b.get("created_at") or clock().isoformat() for b in batch]))
            assert fast.import_json({"insights": batch})["errors"] == 0
            with monkeypatch.context() as patched:
                patched.setattr(AppendBatch, "applies", staticmethod(lambda store, created: False))
                slow.import_json({"insights": batch})
            clock.advance(hours=1)
        return _graph(fast), _graph(slow), took

    return run


def test_an_import_into_an_empty_store_grows_the_same_graph_as_one_write_per_memory(twin: Any) -> None:
    fast, slow, took = twin([_items(1, 160, 1, undated=True)])
    assert took == [True]
    assert fast[0] == slow[0]  # same memories, dates, entities, effective importance
    assert len(fast[1]) > 500 and fast[1] == slow[1]  # same edges, weights, metadata
    assert fast[2] == slow[2]  # same oplog


def test_appending_newer_history_continues_the_stored_chains(twin: Any) -> None:
    fast, slow, took = twin([_items(2, 80, 1), _items(3, 80, 10)])
    assert took == [True, True]
    assert fast == slow
    kinds = {(e[2], e[3]) for e in fast[1]}
    assert {("temporal", "backbone"), ("temporal", "proximity"), ("entity", "")} <= kinds


def test_backdated_history_falls_back_to_one_write_per_memory(twin: Any) -> None:
    fast, slow, took = twin([_items(4, 60, 10), _items(5, 60, 1)])
    assert took == [True, False]  # the second batch reaches before stored memories: backbones are re-spliced
    assert fast == slow


def test_a_batch_keeps_only_a_bounded_window_of_history(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("none")
    m.import_json({"insights": _items(6, 300, 1)})
    batch = AppendBatch(m.rt.store)
    holders = batch.entity_holders("Redis", 5)
    assert 0 < len(holders) <= 5
    assert [x.id for x in batch.recent_memories(12, flt=TIMED)] == [
        x.id for x in m.rt.store.recent_memories(12, flt=TIMED)]
    with pytest.raises(NotImplementedError):
        batch.recent_memories(500, flt=TIMED)
    with pytest.raises(NotImplementedError):  # proximity asks only for memories with a time of their own
        batch.recent_memories(12)
    assert transfer.FLUSH_EVERY > 0
