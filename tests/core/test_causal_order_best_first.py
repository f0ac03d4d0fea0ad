"""WHY recall's causal order (Kahn's algorithm over the results' causal edges): causes before effects, and among the
causes ready to go, the one leading to the best result first — so the best result is preceded only by what causes
it, never by an unrelated chain of weaker causes."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.graph import topo_order


def _ancestors(node: str, edges: list[tuple[str, str]]) -> set[str]:
    found: set[str] = set()
    todo = [node]
    while todo:
        cur = todo.pop()
        for a, b in edges:
            if b == cur and a not in found:
                found.add(a)
                todo.append(a)
    return found


def test_the_best_result_comes_right_after_its_causes() -> None:
    # a chain of four weak causes ready first by score used to put the best result (0.79) 9th of 10
    ids = ["best", "w1", "w2", "w3", "w4", "c1", "x1", "x2", "x3", "x4"]
    score = {"best": 0.79, "w1": 0.65, "w2": 0.6, "w3": 0.55, "w4": 0.5, "c1": 0.42, "x1": 0.4, "x2": 0.39,
             "x3": 0.38, "x4": 0.37}
    edges = [("w1", "w2"), ("w2", "w3"), ("w3", "w4"), ("c1", "best")]
    order = topo_order(ids, edges, score)
    assert order[:2] == ["c1", "best"]
    assert order.index("w1") < order.index("w2") < order.index("w3") < order.index("w4")


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] < e[1]), max_size=20),
    st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n, unique=True))))
def test_topological_and_best_first_on_any_dag(case: tuple[int, list[tuple[int, int]], list[float]]) -> None:
    n, raw_edges, scores = case
    ids = [f"m{i}" for i in range(n)]
    edges = [(ids[a], ids[b]) for a, b in raw_edges]  # a < b: acyclic
    score = dict(zip(ids, scores))
    order = topo_order(ids, edges, score)
    assert sorted(order) == sorted(ids)
    assert all(order.index(a) < order.index(b) for a, b in edges)
    best = max(ids, key=score.__getitem__)
    assert set(order[:order.index(best)]) == _ancestors(best, edges)
