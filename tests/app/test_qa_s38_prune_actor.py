"""Edges auto-prune retires say `prune`, not `forget`. `mnemon explain-edge <id>` of an edge of a memory the
store's cap took answered, in its debug_log, `{"event": "retired", "actor": "forget"}` — only the detail's reason
`auto-prune` told it from a forget nobody ran. The retirement is now by actor `prune` (the oplog row's op), and
`forget --undo` still gives those edges back, on a store written before too (actor `forget`, reason `auto-prune`).
Once per backend (`make_mem`)."""
from __future__ import annotations

import json
from collections.abc import Callable

from mnemon.app.memory import Mnemon


def _pruned_pair(make_mem: Callable[..., Mnemon], *, old_actor: bool = False) -> tuple[Mnemon, str, int]:
    """A memory the cap of 1 took when the next was written, and the id of the edge between them."""
    m = make_mem(max_insights=1, prune_min_age="0")
    first = m.remember("Alice leads the Berlin office", importance=1, created_at="2026-01-01T09:00:00Z")["id"]
    if old_actor:  # what an earlier mnemon's auto-prune wrote: the retirement by `forget`, told by its reason
        prune = m.rt.store.retire_edges_of
        m.rt.store.retire_edges_of = (  # type: ignore[method-assign]
            lambda node_id, **kw: prune(node_id, **{**kw, "actor": "forget"}))
    out = m.remember("Bob joined the Berlin office", importance=2, created_at="2026-01-02T09:00:00Z")
    assert out["auto_pruned_ids"] == [first]
    retired = m.rt.store.edges_of([first], statuses=("retired",), direction="both")
    edge = next(e for e in retired if {e.src, e.dst} == {first, out["id"]})
    return m, first, int(edge.id or 0)


def test_an_edge_auto_prune_retired_is_explained_as_pruned(make_mem: Callable[..., Mnemon]) -> None:
    m, _first, edge_id = _pruned_pair(make_mem)
    last = m.explain_edge(edge_id)["debug_log"][-1]
    assert (last["event"], last["actor"], last["thinking"]["reason"]) == ("retired", "prune", "auto-prune")


def test_forget_undo_gives_back_what_prune_retired(make_mem: Callable[..., Mnemon]) -> None:
    m, first, edge_id = _pruned_pair(make_mem)
    out = m.undo_forget([first])
    assert out["revived"][0]["removed_by"] == "prune"
    assert edge_id in [e["id"] for e in out["edges_revived"]]
    assert m.explain_edge(edge_id)["edge"]["status"] == "active"


def test_forget_undo_still_reads_a_prune_an_older_store_logged_as_forget(make_mem: Callable[..., Mnemon]) -> None:
    m, first, edge_id = _pruned_pair(make_mem, old_actor=True)
    assert m.explain_edge(edge_id)["debug_log"][-1]["actor"] == "forget"
    out = m.undo_forget([first])
    assert edge_id in [e["id"] for e in out["edges_revived"]]
    assert m.explain_edge(edge_id)["edge"]["status"] == "active"


def test_a_forget_is_still_logged_as_forget(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem()
    a = m.remember("Dana runs the Lisbon office", created_at="2026-01-01T09:00:00Z")["id"]
    m.remember("Eve joined the Lisbon office", created_at="2026-01-02T09:00:00Z")
    edge_id = int(m.show(a)["edges"][0]["id"])
    m.forget(a)
    last = m.explain_edge(edge_id)["debug_log"][-1]
    assert (last["event"], last["actor"], last["thinking"]["reason"]) == ("retired", "forget", "forget")


def test_a_restore_revives_what_prune_retired(make_mem: Callable[..., Mnemon]) -> None:
    """`import --revive-forgotten` of a backup made before the prune gives the edges back as forget --undo does."""
    m = make_mem(max_insights=2, prune_min_age="0")
    held = [m.remember(text, created_at=f"2026-01-0{day}T09:00:00Z")["id"] for day, text in
            ((1, "Alice leads the Berlin office"), (2, "Bob joined the Berlin office"))]
    backup = m.export_json()
    [pruned] = m.remember("Carol moved to the Berlin office", created_at="2026-01-03T09:00:00Z")["auto_pruned_ids"]
    assert pruned in held
    edge_ids = [int(e.id or 0) for e in m.rt.store.edges_of([pruned], statuses=("retired",), direction="both")
                if {e.src, e.dst} <= set(held)]  # the backup's edges: the third memory's are not in it
    assert edge_ids and m.explain_edge(edge_ids[0])["debug_log"][-1]["actor"] == "prune"
    out = m.import_json(json.dumps(backup), revive_forgotten=True)
    assert out["revived"] == 1 and out["edges_revived"] == len(edge_ids)
    assert {m.explain_edge(i)["edge"]["status"] for i in edge_ids} == {"active"}
