"""`Store.latest_edge_events`: per edge, the latest stored event of the kinds asked, read for many edges at once
(a re-sent payload asks it of every edge it names). Runs on both backends (the `store` fixture)."""
from __future__ import annotations

from mnemon.core.model import Edge
from mnemon.ports.store.base import Store

from .test_sqlite_store import at, put

DECISIONS = [("validated", "user"), ("weakened", "weaken-edge"), ("killed", "kill-edge")]


def test_the_latest_event_of_the_kinds_asked_stands_per_edge(store: Store) -> None:
    for n in "abcd":
        put(store, n)
    with store.transaction():
        ids = [store.upsert_edge(Edge(s, d, "relates_to", created_at=at(0))) for s, d in ("ab", "bc", "cd", "da")]
        first, second, third, fourth = ids
        store.set_edge_status(first, "killed", actor="kill-edge", reason="wrong", when=at(1))
        store.set_edge_status(first, "active", actor="user", reason="no", when=at(2))  # (not a kind asked)
        store.vault.log_edge_events([(second, "weakened", "weaken-edge", {}, at(1)),  # type: ignore[attr-defined]
                                     (second, "validated", "user", {}, at(2)),
                                     (third, "validated", "payload", {}, at(1)),  # another actor: not asked
                                     (third, "weakened", "weaken-edge", {}, at(2)),
                                     (third, "decision_kept", "payload", {}, at(3))])
    got = store.latest_edge_events([*ids, 999_999], DECISIONS)
    assert got == {first: ("killed", "kill-edge"), second: ("validated", "user"), third: ("weakened", "weaken-edge")}
    assert store.latest_edge_events([fourth], DECISIONS) == {}
    assert store.latest_edge_events(ids, []) == {}
    assert store.latest_edge_events([], DECISIONS) == {}


def test_many_edges_are_read_across_chunks(store: Store) -> None:
    put(store, "hub")
    for i in range(1_203):
        put(store, f"n{i}")
    with store.transaction():
        ids = [store.upsert_edge(Edge("hub", f"n{i}", "relates_to", created_at=at(0))) for i in range(1_203)]
        store.vault.log_edge_events([(i, "weakened", "weaken-edge", {}, at(1))  # type: ignore[attr-defined]
                                     for i in ids[::7]])
    got = store.latest_edge_events(ids, DECISIONS)
    assert sorted(got) == sorted(ids[::7]) and set(got.values()) == {("weakened", "weaken-edge")}
