"""Beam search from the anchors over the four graphs.

A transition scores parent × (λ1·φ[graph]·w + λ2·cos(query, neighbour)) / (λ1 + λ2). The seed adds the terms to the
parent's score instead, which makes every neighbour outscore the anchor it was reached from, so hubs crowd out the
direct hits (measured on LoCoMo in reference/mnemon-locomo.md). Multiplying keeps λ1, λ2 and φ with their meaning
and lets support decay along a path: a neighbour never outranks its own anchor on the graph signal alone.
"""
from __future__ import annotations

import heapq

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..model import Edge, Link
from .params import LAMBDA_SEMANTIC, LAMBDA_STRUCTURAL, BeamParams

Adjacency = Callable[[Sequence[str]], Mapping[str, list[tuple[str, Edge | Link]]]]


@dataclass
class BeamResult:
    scores: dict[str, float]
    support: dict[str, float]  # best score reaching a node from another node: what its neighbourhood says
    via: dict[str, str]  # node → edge type that gave it its best score
    parent: dict[str, str]
    visited: int
    dropped_by_budget: int = 0
    trace: list[dict[str, object]] = field(default_factory=list)


def beam_search(
    anchors: Mapping[str, float],
    neighbors: Adjacency,
    params: BeamParams,
    edge_weights: Mapping[str, float],
    graph_of: Callable[[Edge | Link], str | None],
    similarity: Callable[[Sequence[str]], Mapping[str, float]],
    admit: Callable[[Sequence[str]], set[str]] | None = None,
) -> BeamResult:
    """Deterministic: anchors in (score desc, id) order; transitions sorted by (score desc, id) before the budget.

    >>> from mnemon.core.model import Edge
    >>> g = {"a": [("b", Edge("a", "b", "causal", weight=1.0, id=1))]}
    >>> r = beam_search({"a": 1.0}, lambda ids: {i: g.get(i, []) for i in ids}, BeamParams(2, 2, 10),
    ...                 {"causal": 0.7}, lambda e: e.type, lambda ids: {"b": 0.5})
    >>> round(r.scores["b"], 4), r.via["b"]
    (0.6429, 'causal')
    """
    best: dict[str, float] = dict(anchors)
    support: dict[str, float] = {}
    via: dict[str, str] = {}
    parent: dict[str, str] = {}
    cache: dict[str, list[tuple[str, Edge | Link]]] = {}
    sims: dict[str, float] = {}
    admitted: dict[str, bool] = {}
    dropped = 0
    denom = LAMBDA_STRUCTURAL + LAMBDA_SEMANTIC

    def adjacency(ids: Sequence[str]) -> None:
        missing = [i for i in ids if i not in cache]
        if missing:
            got = neighbors(missing)
            for i in missing:
                cache[i] = sorted(got.get(i, []), key=lambda p: (p[0], p[1].type))

    visited = 0  # one budget for the whole search, so cost is bounded however many anchors there are
    for anchor in sorted(anchors, key=lambda a: (-anchors[a], a)):
        if visited >= params.max_visited:
            break
        path = {anchor: anchors[anchor]}
        frontier = [anchor]
        seen = {anchor}
        for _depth in range(params.depth):
            if not frontier or visited >= params.max_visited:
                break
            adjacency(frontier)
            candidates: list[tuple[str, str, Edge | Link, float]] = []
            for node in frontier:
                for nb, edge in cache[node]:
                    if nb in seen:
                        continue
                    phi = edge_weights.get(graph_of(edge) or "", 0.0)
                    if phi <= 0.0:
                        continue
                    candidates.append((node, nb, edge, phi * max(0.0, min(1.0, edge.weight))))
            if not candidates:
                break
            new_ids = list({c[1] for c in candidates if c[1] not in sims})
            if new_ids:
                sims.update({i: 0.0 for i in new_ids})
                sims.update(similarity(new_ids))
                if admit is not None:
                    ok = admit(new_ids)
                    admitted.update({i: i in ok for i in new_ids})
            transitions: dict[str, tuple[float, str, Edge | Link]] = {}
            for node, nb, edge, structural in candidates:
                if admit is not None and not admitted.get(nb, False):
                    continue
                total = path[node] * (LAMBDA_STRUCTURAL * structural + LAMBDA_SEMANTIC * max(0.0, sims[nb])) / denom
                cur = transitions.get(nb)
                if cur is None or total > cur[0] or (total == cur[0] and node < cur[1]):
                    transitions[nb] = (total, node, edge)
            keep = min(params.width, params.max_visited - visited)
            dropped += max(0, len(transitions) - keep)
            # the same order as a full sort by (score desc, id), without sorting every transition
            ranked = heapq.nsmallest(keep, transitions.items(), key=lambda t: (-t[1][0], t[0]))
            visited += len(ranked)
            for nb, (total, node, edge) in ranked:
                seen.add(nb)
                path[nb] = total
                if total > support.get(nb, 0.0):
                    support[nb] = total
                if total > best.get(nb, 0.0) and nb not in anchors:
                    best[nb] = total
                    via[nb] = edge.type
                    parent[nb] = node
            frontier = [nb for nb, _ in ranked]
    return BeamResult(best, support, via, parent, visited, dropped)
