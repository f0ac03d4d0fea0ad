"""`graph` around a focus with more links among its nodes than `max_links`: the links kept were the strongest of the
whole drawing, then the oldest, wherever they were, so the focus could be drawn alone, with none of its own links, in
a cloud of unconnected nodes (5,000 memories, depth 3: 1,639 of 2,000 nodes without a link; the example vault at
depth 2 with 20 links: the focus with 3 of them and 57 of 81 nodes alone). The links by which the walk reached each
node now come first, nearest the focus first, so the drawing holds together from the focus outwards.
"""
from __future__ import annotations

from typing import Any

import pytest

FOCUS = "note:Projects/lighthouse.md"


def _reached_through_a_link(out: dict[str, Any], count: int) -> list[str]:
    """Those of the first `count` nodes after the focus that no drawn link joins to a node listed before them."""
    at = {n["id"]: k for k, n in enumerate(out["nodes"])}
    earlier: dict[str, int] = {}
    for link in out["links"]:
        a, b = at[link["src"]], at[link["dst"]]
        later, other = (link["dst"], a) if b > a else (link["src"], b)
        earlier[later] = min(earlier.get(later, other), other)
    return [n["id"] for n in out["nodes"][1:count + 1] if n["id"] not in earlier]


@pytest.mark.parametrize("max_links", [1, 5, 20, 60])
def test_a_cut_focus_view_keeps_the_links_that_join_its_nodes_to_the_focus(example_vault_mem: Any,
                                                                          max_links: int) -> None:
    out = example_vault_mem.graph(focus=FOCUS, depth=2, max_nodes=150, max_links=max_links)
    assert out["truncated"] is True and len(out["links"]) == max_links
    assert out["nodes"][0]["id"] == FOCUS
    assert _reached_through_a_link(out, min(max_links, len(out["nodes"]) - 1)) == []
    assert any(FOCUS in (link["src"], link["dst"]) for link in out["links"])


def test_an_uncut_focus_view_still_draws_every_link_among_its_nodes(example_vault_mem: Any) -> None:
    out = example_vault_mem.graph(focus=FOCUS, depth=2, max_nodes=150, max_links=10_000)
    assert len(out["links"]) == out["stats"]["links_among_nodes"] and out["truncated"] is False
