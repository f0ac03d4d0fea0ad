"""Breadth-first walks: nearest first, ties in edge-id order, and a limit that only cuts the walk short — it never
changes which nodes come first, however the frontier's neighbours are fetched."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.graph import bfs
from mnemon.core.model import Edge

NODES = [f"n{k}" for k in range(12)]

edge_lists = st.lists(st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)), max_size=60)


def _graph(pairs: list[tuple[str, str]]) -> dict[str, list[tuple[str, Edge]]]:
    g: dict[str, list[tuple[str, Edge]]] = {}
    for k, (a, b) in enumerate(pairs):
        if a != b:
            g.setdefault(a, []).append((b, Edge(a, b, "entity", id=k + 1)))
    return g


@settings(max_examples=200, deadline=None)
@given(edge_lists, st.integers(1, 3), st.integers(1, 15), st.none() | st.integers(1, 5))
def test_a_limited_walk_is_the_unlimited_walk_cut_short(pairs, depth, limit, cap):
    g = _graph(pairs)
    asked: list[list[str]] = []

    def neighbors(ids):
        asked.append(list(ids))
        return {i: g.get(i, []) for i in ids}

    full = bfs("n0", neighbors, max_depth=depth, frontier_cap=cap)
    asked.clear()
    cut = bfs("n0", neighbors, max_depth=depth, limit=limit, frontier_cap=cap)
    assert [(r.id, r.depth, r.via.id) for r in cut] == [(r.id, r.depth, r.via.id) for r in full][:limit]
    fetched = [i for batch in asked for i in batch]
    assert len(fetched) == len(set(fetched)), "no node's neighbours are fetched twice"


def test_a_walk_that_reaches_its_limit_early_does_not_fetch_the_rest_of_the_frontier():
    hub = {f"h{k}": [(f"x{k}_{j}", Edge(f"h{k}", f"x{k}_{j}", "entity", id=1000 * k + j)) for j in range(30)]
           for k in range(10)}
    start = [(f"h{k}", Edge("s", f"h{k}", "entity", id=k + 1)) for k in range(10)]
    asked: list[str] = []

    def neighbors(ids):
        asked.extend(ids)
        return {i: start if i == "s" else hub.get(i, []) for i in ids}

    out = bfs("s", neighbors, max_depth=2, limit=25, frontier_cap=10)
    assert len(out) == 25 and [r.id for r in out[:10]] == [f"h{k}" for k in range(10)]
    assert asked == ["s", "h0"], "15 more nodes come from the first hub: the other nine are never read"
