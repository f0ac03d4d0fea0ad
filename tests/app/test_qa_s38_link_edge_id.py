"""`link` names the edge it wrote, so the decisions that take an edge id — explain-edge, weaken-edge, validate-edge,
kill-edge — can follow it. `mnemon link A B --type causal` answered `{"status": "linked", "source_id", "target_id",
"edge_type", "sub_type", "weight", "metadata"}` and no id: the agent had to `show A` and pick the edge out of its
list. A symmetric link is two edges; the answer names both. Once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable

from mnemon.app.memory import Mnemon


def test_a_link_names_its_edge_and_a_symmetric_link_both(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    cause = mem.remember("The Redis node ran out of memory", created_at="2026-11-20T01:00:00Z")["id"]
    effect = mem.remember("Checkout failed for an hour", created_at="2026-11-20T02:00:00Z")["id"]
    out = mem.link(cause, effect, "causal", sub_type="causes", weight=0.6)
    edge = mem.rt.store.get_edge(out["edge_id"])
    assert edge is not None and (edge.src, edge.dst, edge.type) == (cause, effect, "causal")
    assert "reverse_edge_id" not in out  # a causal link points one way
    assert mem.kill_edge(out["edge_id"], reason="wrong")["status"] == "killed"
    again = mem.link(cause, effect, "causal")  # the same edge, replaced: the same id
    assert again["edge_id"] == out["edge_id"]
    both = mem.link(cause, effect, "semantic", weight=0.4)
    there, back = mem.rt.store.get_edge(both["edge_id"]), mem.rt.store.get_edge(both["reverse_edge_id"])
    assert there is not None and (there.src, there.dst, there.type) == (cause, effect, "semantic")
    assert back is not None and (back.src, back.dst, back.type) == (effect, cause, "semantic")
