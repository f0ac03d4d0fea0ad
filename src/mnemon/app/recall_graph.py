"""The beam search and neighbour support of smart recall over the in-memory graph (`ports.graph_index`).

`core.recall.beam.beam_search` and `core.recall.rerank.neighbour_support` state the algorithms over an injected
neighbour function; these are the same algorithms over CSR arrays, a level at a time in numpy, and return the same
floats (float64 throughout, the same operations in the same order) and the same tie-breaks. The tests run both on
random graphs and compare them bit for bit.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.recall.params import BEAM_FANOUT, LAMBDA_SEMANTIC, LAMBDA_STRUCTURAL, PROXIMITY_FACTOR, BeamParams
from ..ports.graph_index import GraphSnapshot


@dataclass
class ArrayBeam:
    """`core.recall.beam.BeamResult` over node positions."""
    scores: dict[int, float]
    support: dict[int, float]
    via: dict[int, str]
    parent: dict[int, int]
    visited: int
    dropped_by_budget: int = 0


def class_weights(snap: GraphSnapshot, edge_weights: Mapping[str, float], graph_of: Mapping[str, str | None]) -> np.ndarray:
    """φ of each edge class for an intent (0 for supersedes and relations outside the four graphs)."""
    return np.array([edge_weights.get(graph_of.get(t) or "", 0.0) for t, _ in snap.classes], dtype=np.float64)


def _type_rank(snap: GraphSnapshot) -> np.ndarray:
    memo = snap.memo.get("type_rank")
    if memo is None:
        names = sorted({t for t, _ in snap.classes})
        memo = snap.memo["type_rank"] = np.array([names.index(t) for t, _ in snap.classes], dtype=np.int64)
    return memo


def _first_of_groups(keys: np.ndarray) -> np.ndarray:
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return first


def beam_arrays(snap: GraphSnapshot, anchors: Mapping[int, float], params: BeamParams, phi: np.ndarray,
                sims: np.ndarray, admit: np.ndarray) -> ArrayBeam:
    """`beam_search` with `neighbors` = each node's BEAM_FANOUT strongest out-edges by (φ·weight desc, edge id),
    `similarity` = `sims` (calibrated cosine per position, 0 without a vector) and `admit` a mask per position."""
    best: dict[int, float] = dict(anchors)
    support: dict[int, float] = {}
    via: dict[int, str] = {}
    parent: dict[int, int] = {}
    dropped = 0
    denom = LAMBDA_STRUCTURAL + LAMBDA_SEMANTIC
    rank = snap.id_rank
    type_rank = _type_rank(snap)
    seen_mask = np.zeros(len(snap), dtype=bool)
    sem = LAMBDA_SEMANTIC * np.maximum(0.0, sims)
    visited = 0
    for anchor in sorted(anchors, key=lambda a: (-anchors[a], rank[a])):
        if visited >= params.max_visited:
            break
        path = {anchor: anchors[anchor]}
        frontier = [anchor]
        touched = [anchor]
        seen_mask[anchor] = True
        for _depth in range(params.depth):
            if not frontier or visited >= params.max_visited:
                break
            nodes = np.array(frontier, dtype=np.int64)
            owner, edges = snap.edge_slices(nodes)
            if len(edges) == 0:
                break
            cls = snap.cls[edges]
            w = snap.weight[edges]
            p = phi[cls]
            counts = np.bincount(owner, minlength=len(nodes))
            if counts.max() > BEAM_FANOUT:
                # a node's strongest edges for this intent, ties by edge id (= CSR order inside a node)
                order = np.lexsort((edges, -(p * w), owner))
                starts = np.cumsum(counts) - counts
                within = np.arange(len(order)) - starts[owner[order]]
                keep = np.zeros(len(edges), dtype=bool)
                keep[order[within < BEAM_FANOUT]] = True
            else:
                keep = np.ones(len(edges), dtype=bool)
            nb = snap.dst[edges].astype(np.int64)
            keep &= p > 0.0
            keep &= ~seen_mask[nb]
            if not keep.any():
                break
            keep &= admit[nb]
            owner, cls, nb = owner[keep], cls[keep], nb[keep]
            structural = p[keep] * np.clip(w[keep], 0.0, 1.0)
            path_of = np.array([path[f] for f in frontier], dtype=np.float64)
            total = path_of[owner] * (LAMBDA_STRUCTURAL * structural + sem[nb]) / denom
            # one transition per neighbour: best total, then the smaller parent id, then the smaller edge type
            order = np.lexsort((type_rank[cls], rank[nodes[owner]], -total, nb))
            win = order[_first_of_groups(nb[order])]
            keep_n = min(params.width, params.max_visited - visited)
            dropped += max(0, len(win) - keep_n)
            ranked = win[np.lexsort((rank[nb[win]], -total[win]))[:keep_n]]
            visited += len(ranked)
            frontier = []
            for k in ranked.tolist():
                node, score = int(nb[k]), float(total[k])
                seen_mask[node] = True
                touched.append(node)
                path[node] = score
                if score > support.get(node, 0.0):
                    support[node] = score
                if score > best.get(node, 0.0) and node not in anchors:
                    best[node] = score
                    via[node] = snap.classes[int(cls[k])][0]
                    parent[node] = int(nodes[owner[k]])
                frontier.append(node)
        seen_mask[touched] = False
    return ArrayBeam(best, support, via, parent, visited, dropped)


def neighbour_support_arrays(snap: GraphSnapshot, rel: Mapping[int, float], candidates: Sequence[int],
                             phi: np.ndarray, sims: np.ndarray) -> dict[int, float]:
    """`core.recall.rerank.neighbour_support` over every active out-edge of the candidates with rel > 0;
    `sims` is the clipped similarity per position (0 without a vector)."""
    sources = [i for i in candidates if rel.get(i, 0.0) > 0.0]
    if not sources:
        return {}
    nodes = np.array(sources, dtype=np.int64)
    owner, edges = snap.edge_slices(nodes)
    if len(edges) == 0:
        return {}
    is_cand = np.zeros(len(snap), dtype=bool)
    is_cand[np.asarray(candidates, dtype=np.int64)] = True
    dst = snap.dst[edges].astype(np.int64)
    cls = snap.cls[edges]
    p = phi[cls]
    keep = (dst != nodes[owner]) & is_cand[dst] & (p > 0.0)
    if not keep.any():
        return {}
    owner, dst, cls, p = owner[keep], dst[keep], cls[keep], p[keep]
    w = np.clip(snap.weight[edges[keep]], 0.0, 1.0)
    sigma = np.array([PROXIMITY_FACTOR if s == "proximity" else 1.0 for _, s in snap.classes])[cls]
    scale = (LAMBDA_STRUCTURAL + LAMBDA_SEMANTIC) / 2
    f = (LAMBDA_STRUCTURAL * p * w * sigma + LAMBDA_SEMANTIC * np.maximum(0.0, sims[dst])) / scale
    base = np.array([rel[i] for i in sources], dtype=np.float64)
    value = base[owner] * np.minimum(1.0, f)
    out = np.zeros(len(snap), dtype=np.float64)
    np.maximum.at(out, dst, value)
    hit = np.unique(dst)
    hit = hit[out[hit] > 0.0]
    return dict(zip(hit.tolist(), out[hit].tolist()))
