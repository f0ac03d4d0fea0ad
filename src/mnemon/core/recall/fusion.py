"""Reciprocal Rank Fusion of the anchor signals."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .params import RRF_K


def rrf(rankings: Mapping[str, Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Σ over signals of 1 / (k + rank + 1), rank 0-based; normalised by the maximum into [0, 1].

    >>> s = rrf({"keyword": ["a", "b"], "vector": ["b"]})
    >>> round(s["b"], 4), round(s["a"], 4)
    (1.0, 0.5041)
    """
    raw: dict[str, float] = {}
    for ranked in rankings.values():
        for rank, node in enumerate(ranked):
            raw[node] = raw.get(node, 0.0) + 1.0 / (k + rank + 1)
    top = max(raw.values(), default=0.0)
    return {n: v / top for n, v in raw.items()} if top > 0 else raw


def via_of(node: str, rankings: Mapping[str, Sequence[str]]) -> str:
    """Which signal found an anchor: its name, or 'hybrid' when several did."""
    names = [name for name, ranked in rankings.items() if node in ranked]
    if len(names) > 1:
        return "hybrid"
    return {"keyword": "keyword", "vector": "vector", "recency": "time", "entity": "entity"}.get(names[0], names[0]) if names else "graph"
