"""The store contract behind the recall graph: which writes move the generation tokens, and what an export holds."""
from __future__ import annotations

from contextlib import closing

from mnemon.ports.store.base import EdgeColumns, Store

from .test_sqlite_store import at, edge, put


def export(store: Store, after=None):
    with closing(store.graph_export(after)) as rows:
        (generation, nodes, marks, _inside), *batches = list(rows)
    ids = [n[0] for n in nodes or ()]  # a full export's edges are columns naming the nodes by index
    return generation, nodes, marks, [e for b in batches for e in (b.rows(ids) if isinstance(b, EdgeColumns) else b)]


def test_inserts_move_the_generation_and_changes_move_the_mutation_too(store: Store) -> None:
    g0 = store.graph_generation()
    put(store, "a", "alpha")
    put(store, "b", "beta")
    g1 = store.graph_generation()
    assert g1[0] != g0[0] and g1[1] == g0[1]  # inserts only
    with store.transaction():
        store.insert_edges([edge("a", "b", weight=0.5)])
    g2 = store.graph_generation()
    assert g2[0] != g1[0] and g2[1] == g1[1]
    with store.transaction():
        store.touch(["a"], at(1))  # what recall itself writes
        store.set_effective_importance({"a": 0.9})
    assert store.graph_generation() == g2
    with store.transaction():
        store.soft_delete(["b"], at(2))
    g3 = store.graph_generation()
    assert g3[0] != g2[0] and g3[1] != g2[1]
    eid = store.find_edge("a", "b", "semantic").id
    with store.transaction():
        store.set_edge_status(eid, "retired", actor="test", reason="test")
    assert store.graph_generation()[1] != g3[1]


def test_export_holds_every_node_and_only_active_edges_and_can_start_after_a_point(store: Store) -> None:
    put(store, "a", "alpha", entities=("Qdrant",))
    put(store, "b", "beta")
    with store.transaction():
        store.insert_edges([edge("a", "b", "entity", weight=0.25), edge("b", "a", "causal", status="candidate")])
    generation, nodes, marks, edges = export(store)
    assert generation == store.graph_generation()
    assert [n[0] for n in nodes] == ["a", "b"] and nodes[0][8] == ["Qdrant"] and nodes[0][6] == "alpha"
    assert edges == [("a", "b", "entity", "", 0.25)]  # the candidate edge is not walked
    put(store, "c", "gamma")
    with store.transaction():
        store.insert_edges([edge("c", "a", "temporal", sub_type="proximity", weight=0.75)])
    _, nodes, marks, edges = export(store, marks)
    assert [n[0] for n in nodes] == ["c"]
    assert edges == [("c", "a", "temporal", "proximity", 0.75)]
    with store.transaction():  # a change: the changed node and all its active out-edges come again
        store.soft_delete(["a"], at(3))
        store.insert_edges([edge("a", "c", "semantic", weight=0.5)])
    _, nodes, marks2, edges = export(store, marks)
    assert [(n[0], n[2]) for n in nodes] == [("a", True)]
    assert edges == [("a", "b", "entity", "", 0.25), ("a", "c", "semantic", "", 0.5)]
    with store.transaction():
        store.conn.execute("DELETE FROM edge_rows WHERE src = (SELECT seq FROM nodes WHERE id = 'c')")  # a deleted row: only a full read follows it
    assert export(store, marks2)[1] is None
