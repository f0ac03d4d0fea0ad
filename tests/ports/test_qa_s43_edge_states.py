"""`Store.edge_states`: the (id, status) of those of a batch of edge keys that exist, on both backends, read through
indexes (a restore over a store holding the file asks it once per batch of edges instead of `find_edge` per edge)."""
from __future__ import annotations

from typing import Any

from mnemon.core.model import Edge, Memory, iso, utcnow
from mnemon.ports.store.sqlite import SQLiteStore

from . import test_edge_query_plans as plans


def test_edge_states_name_the_edges_that_exist(store: Any) -> None:
    now = iso(utcnow())
    with store.transaction():
        for i in range(4):
            store.insert_node(Memory(id=f"m{i}", content=f"memory {i}", created_at=now, updated_at=now))
        store.insert_edges([Edge("m0", "m1", "temporal", created_at=now, updated_at=now),
                            Edge("m0", "m2", "causal", status="killed", created_at=now, updated_at=now),
                            Edge("m2", "m3", "entity", status="retired", created_at=now, updated_at=now)])
    keys = [("m0", "m1", "temporal"), ("m0", "m1", "causal"), ("m0", "m2", "causal"), ("m2", "m3", "entity"),
            ("m3", "m2", "entity"), ("m9", "m0", "temporal"), ("m0", "m1", "temporal")]
    states = store.edge_states(keys)
    assert {key: status for key, (_id, status) in states.items()} == {
        ("m0", "m1", "temporal"): "active", ("m0", "m2", "causal"): "killed", ("m2", "m3", "entity"): "retired"}
    assert all(store.find_edge(*key).id == edge_id for key, (edge_id, _s) in states.items())
    assert store.edge_states([]) == {}


def test_edge_states_use_indexes(tmp_path: Any) -> None:
    sqlite_store: SQLiteStore = plans.store.__wrapped__(tmp_path)  # type: ignore[attr-defined]
    seen: list[str] = []
    sqlite_store.conn.set_trace_callback(seen.append)
    try:
        states = sqlite_store.edge_states([("m1", "m2", "temporal"), ("m1", "m5", "temporal"),
                                           ("m2", "m3", "temporal")])
    finally:
        sqlite_store.conn.set_trace_callback(None)
    assert set(states) == {("m1", "m2", "temporal"), ("m2", "m3", "temporal")}
    assert seen and plans._full_scans(sqlite_store.conn, seen) == []
