"""A full build of the recall graph reads the edges as columns (`EdgeColumns`): the snapshot is the one the rows,
named and read one by one in edge-id order, make — classes numbered in the order the edges first show them."""
from __future__ import annotations

from contextlib import closing

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.ports.graph_index import GraphSnapshot
from mnemon.ports.store.base import EdgeColumns
from mnemon.ports.store.sqlite import SQLiteStore

from .test_sqlite_store import at, edge, put

CLASSES = [("semantic", ""), ("temporal", "proximity"), ("temporal", "backbone"), ("entity", ""), ("causal", "")]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 8), data=st.data())
def test_a_full_build_is_the_snapshot_the_rows_in_edge_id_order_make(tmp_path_factory, n, data) -> None:
    store = SQLiteStore(str(tmp_path_factory.mktemp("g") / "m.db"))
    ids = [f"m{k}" for k in range(n)]
    for k, mid in enumerate(ids):
        put(store, mid, f"memory {mid} about Qdrant and deploy {k}", entities=("Qdrant",) if k % 2 else ())
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids), st.sampled_from(CLASSES),
                                         st.sampled_from([0.25, 0.5, 1.0, 0.1]), st.booleans()),
                               unique_by=lambda e: (e[0], e[1], e[2][0]), max_size=20))
    with store.transaction():
        store.insert_edges([edge(s, d, t, sub_type=sub, weight=w, status="active" if on else "candidate")
                            for s, d, (t, sub), w, on in pairs])
    gone = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=2))
    if gone:
        with store.transaction():
            store.soft_delete(gone, at(5))
    built = GraphSnapshot.build(store)
    with closing(store.graph_export()) as export:
        generation, nodes, _marks, _inside = next(export)
    rows = sorted((e.id, e.src, e.dst, e.type, e.sub_type, e.weight) for e in store.iter_edges(statuses=["active"]))
    expected = GraphSnapshot.from_rows(generation[0], nodes, [[r[1:] for r in rows]])
    assert built.classes == expected.classes and built.ids == expected.ids
    for name in GraphSnapshot._ARRAYS:
        got, want = getattr(built, name), getattr(expected, name)
        assert got.dtype == want.dtype and np.array_equal(got, want), name
    store.close()


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from(CLASSES),
                          st.sampled_from([0.25, 0.5, 1.0])), max_size=12), st.permutations(CLASSES))
def test_columns_and_rows_make_the_same_snapshot_whatever_order_a_store_numbers_its_classes(edges, numbering):
    nodes = [(f"m{k}", "memory", False, "general", "user", None, f"text {k}", [], [], 3, at(k)) for k in range(4)]
    rows = [(f"m{s}", f"m{d}", *c, w) for s, d, c, w in edges]
    columns = EdgeColumns(src=np.array([e[0] for e in edges], dtype=np.int64),
                          dst=np.array([e[1] for e in edges], dtype=np.int64),
                          cls=np.array([numbering.index(e[2]) for e in edges], dtype=np.int64),
                          classes=list(numbering), weight=np.array([e[3] for e in edges], dtype=np.float64))
    a, b = GraphSnapshot.from_rows("g", nodes, [rows]), GraphSnapshot.from_rows("g", nodes, [columns])
    assert a.classes == b.classes
    for name in ("indptr", "dst", "cls", "weight"):
        assert getattr(a, name).dtype == getattr(b, name).dtype and np.array_equal(getattr(a, name), getattr(b, name))
