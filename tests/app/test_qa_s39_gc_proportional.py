"""`gc` reads what the formula needs and counts each memory's links only up to the few the formula counts.

It read every memory whole and counted every active edge of the graph (20k memories and 900k edges: 1.3 s), then
rewrote every memory's effective importance. It now reads (importance, reads, last touched, links up to 5) per
memory, reads whole and counts fully only the candidates it shows, and stores each value as every reader shows it
(4 decimals), rewriting only those that moved. The answer must be exactly the one of the whole computation: this
compares it, on seeded random stores of both backends, with that computation as `gc` did it before."""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from conftest import FakeClock
from mnemon.app.memory import Mnemon
from mnemon.app.remember import corrections_among
from mnemon.core.importance import effective_importance, is_immune
from mnemon.core.model import parse_iso
from mnemon.ports.store.base import TIMED

WORDS = "ferry Porto Mira engine tide harbour lamp rope anchor sail chart wind gull dock".split()


def _whole_computation(m: Mnemon, threshold: float, limit: int) -> tuple[dict[str, Any], dict[str, float]]:
    """`gc`'s answer as it computed it before: every memory read whole, every edge counted."""
    rt = m.rt
    ids = rt.store.memory_ids(TIMED)
    nodes = rt.store.get_nodes(ids)
    counts = rt.store.edge_counts(list(nodes))
    now = rt.now()
    values = {i: effective_importance(n.importance, n.access_count, n.last_accessed_at or n.created_at,
                                      counts.get(i, 0), now) for i, n in nodes.items() if n.kind == "memory"}
    # (session 41: ties oldest first, as auto-prune takes them; every correction counted, not only the shown ones')
    weak = sorted((i for i, v in values.items() if v < threshold and not is_immune(nodes[i].importance,
                                                                                  nodes[i].access_count)),
                  key=lambda i: (values[i], nodes[i].created_at, i))
    kept = corrections_among(rt, weak)
    shown = [i for i in weak if i not in kept]
    cands = []
    for i in shown[:limit]:
        n = replace(nodes[i], effective_importance=values[i])
        last = parse_iso(n.last_accessed_at or n.created_at)
        cands.append({"insight": n.to_dict(), "effective_importance": round(values[i], 4),
                      "days_since_access": round((now - last).total_seconds() / 86400, 2),
                      "edge_count": counts.get(i, 0), "immune": False, "auto_prunable": True})
    return {"total_insights": rt.store.count_active(), "recomputed": len(ids), "threshold": threshold,
            "candidates_found": len(weak) - len(kept), "candidates": cands, "corrections_kept": len(kept),
            "candidates_found_exact": True, "max_insights": rt.max_insights}, values


def _coded_edges(m: Mnemon, rng: random.Random, ids: list[str]) -> None:
    """A few edges as the SQLite vault stores ingested ones (`coded_edges`), some active, touching memories."""
    from mnemon.ports.store.coded_edges_sqlite import EdgeKinds, insert_coded, next_edge_id

    store: Any = m.rt.store
    seq = dict(store.conn.execute("SELECT id, seq FROM nodes").fetchall())
    kinds = EdgeKinds(store)
    with store.transaction():
        first = next_edge_id(store.conn)
        rows = []
        for k in range(12):
            src, dst = rng.sample(ids, 2)
            code = kinds.code(("mentions", "", 1.0, 1.0, rng.choice(["active", "active", "killed"]), "ingest", "",
                               "line"))
            rows.append((first + k, seq[src], seq[dst], code, "evidence", 1, None, None, None))
        insert_coded(store, rows)


def _random_store(m: Mnemon, clock: FakeClock, seed: int) -> list[str]:
    rng = random.Random(seed)
    ids: list[str] = []
    for k in range(30):
        text = " ".join(rng.choice(WORDS) for _ in range(5)) + f" note {k}"
        ids.append(m.remember(text, importance=rng.randint(1, 5))["id"])
        clock.advance(hours=rng.uniform(0, 200))
    hub = ids[0]
    for other in rng.sample(ids[1:], 9):  # more links than the formula counts, on both ends
        if rng.random() < 0.5:
            m.link(hub, other, "semantic")
        else:
            m.link(other, hub, "causal")
    for _ in range(15):
        src, dst = rng.sample(ids, 2)
        m.link(src, dst, rng.choice(["semantic", "causal", "entity"]))
    heads = m.rt.store.edges_of(ids, statuses=("active",), direction="both")
    for e in rng.sample(heads, min(6, len(heads))):  # links that count no more
        m.rt.store.set_edge_status(e.id, rng.choice(["killed", "candidate"]), actor="test", reason="seeded")
    for i in rng.sample(ids[1:], 8):
        m.rt.store.touch([i], clock().isoformat(), amount=rng.randint(1, 3))
    for i in rng.sample(ids[1:], 3):
        m.forget(i)
    if m.rt.store.__class__.__name__ == "SQLiteStore":
        _coded_edges(m, rng, ids)
    clock.advance(days=rng.uniform(10, 120))
    return ids


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gc_answers_as_the_whole_computation_and_stores_what_readers_show(
        make_mem: Callable[..., Mnemon], seed: int) -> None:
    clock = FakeClock()
    m = make_mem(max_insights=0, clock=clock)
    _random_store(m, clock, seed)
    for threshold, limit in ((0.5, 20), (0.2, 3), (100.0, 50), (100.0, 2)):
        want, values = _whole_computation(m, threshold, limit)
        got = m.gc(threshold=threshold, limit=limit)
        assert {k: v for k, v in got.items() if k != "actions"} == want
        # what `show` and an export read back: the value `gc` printed, also after one whose values barely moved
        stored = m.rt.store.get_nodes(list(values))
        assert {i: n.effective_importance for i, n in stored.items()} == {i: round(v, 4) for i, v in values.items()}
        clock.advance(minutes=7)
