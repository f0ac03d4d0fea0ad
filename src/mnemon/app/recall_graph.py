"""Smart recall's beam search, neighbour support and re-rank signals over the in-memory graph (`ports.graph_index`).

`core.recall.beam` and `core.recall.rerank` state the algorithms over an injected neighbour function and dicts;
these are the same algorithms over CSR arrays, a level (and a chunk of anchors) at a time in numpy, and return the
same floats (float64 throughout, the same operations in the same order) and the same tie-breaks. The tests run
both on random graphs and compare them bit for bit.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

import numpy as np

if TYPE_CHECKING:
    from ..ports.vector_index import QueryScores

from ..core.recall.params import (
    BEAM_FANOUT, LAMBDA_SEMANTIC, LAMBDA_STRUCTURAL, PROXIMITY_FACTOR, REPLY_CARRY, SUPERSEDED_FACTOR, BeamParams,
    RerankWeights,
)
from ..core.recall.timeframe import OUTSIDE_FACTOR
from ..ports.graph_index import GraphSnapshot
from .array_sets import contains, union_sorted


@dataclass
class VectorRows:
    """Where each graph position's vector lies in the index matrix (-1 for none), worked out once per snapshot
    and index version."""
    row: np.ndarray
    top: int  # one past the highest row
    identity: bool  # position k is row k for every k

    @classmethod
    def of(cls, row: np.ndarray) -> VectorRows:
        return cls(row, int(row.max()) + 1 if len(row) else 0,
                   bool(np.array_equal(row, np.arange(len(row)))))


@dataclass
class PositionSimilarities:
    """The calibrated cosine of the query per graph position, 0 where a node has no vector (as a missing one
    counts), computed only for the positions asked for: recall looks at a few thousand of them, and a pass over
    every position costs milliseconds at 10^6. `sims[positions]` gives the floats the full array would hold."""
    raw: np.ndarray | QueryScores | None  # the index's float32 cosines by matrix row (`raw[rows]`), maybe lazy
    rows: VectorRows | None
    calibrate: Callable[[np.ndarray], np.ndarray]

    def __getitem__(self, nodes: np.ndarray) -> np.ndarray:
        out = np.zeros(len(nodes), dtype=np.float64)
        if self.raw is None or self.rows is None:
            return out
        n = len(self.raw)
        if self.rows.identity and self.rows.top <= n:  # position k is row k: no lookup
            return self.calibrate(self.raw[nodes].astype(np.float64))
        row = self.rows.row[nodes]
        has = (row >= 0) & (row < n)
        out[has] = self.calibrate(self.raw[row[has]].astype(np.float64))
        return out


Similarities = Union[np.ndarray, PositionSimilarities]  # per position, indexed by an array of positions


@dataclass
class ArrayBeam:
    """`core.recall.beam.BeamResult` over node positions."""
    scores: dict[int, float]
    support: dict[int, float]
    via: dict[int, str]
    parent: dict[int, int]
    visited: int
    dropped_by_budget: int = 0


def class_weights(snap: GraphSnapshot, edge_weights: Mapping[str, float],
                  graph_of: Mapping[str, str | None]) -> np.ndarray:
    """φ of each edge class for an intent (0 for supersedes and relations outside the four graphs)."""
    return np.array([edge_weights.get(graph_of.get(t) or "", 0.0) for t, _ in snap.classes], dtype=np.float64)


def _type_rank(snap: GraphSnapshot) -> np.ndarray:
    memo = snap.memo.get("type_rank")
    if memo is None:
        names = sorted({t for t, _ in snap.classes})
        memo = snap.memo["type_rank"] = np.array([names.index(t) for t, _ in snap.classes], dtype=np.int64)
    return memo


def _trimmed(snap: GraphSnapshot, nodes: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(owner, edge) of each node's BEAM_FANOUT strongest out-edges by (φ·weight desc, edge id) that have φ > 0:
    what the beam may step along. Owner indexes `nodes`; edges are grouped by owner."""
    owner, edges = snap.edge_slices(nodes)
    if len(edges) == 0:
        return owner, edges
    p = phi[snap.cls[edges]]
    counts = np.bincount(owner, minlength=len(nodes))
    if counts.max() > BEAM_FANOUT:
        # sort by (owner, φ·weight desc, edge id); inside a node, CSR order is edge-id order
        order = _argsort_keys([owner, _dense_rank(-(p * snap.weight[edges])), np.arange(len(edges))])
        within = np.arange(len(order)) - (np.cumsum(counts) - counts)[owner[order]]
        keep = np.zeros(len(edges), dtype=bool)
        keep[order[within < BEAM_FANOUT]] = True
        keep &= p > 0.0
    else:
        keep = p > 0.0
    return owner[keep], edges[keep]


def _dense_rank(values: np.ndarray) -> np.ndarray:
    """0 for the smallest value, equal values equal ranks (exact float comparison, as the reference sorts)."""
    order = np.argsort(values)  # np.unique's inverse costs a third more on these sizes
    ordered = values[order]
    rank = np.empty(len(values), dtype=np.int64)
    rank[order] = np.concatenate(([0], np.cumsum(ordered[1:] != ordered[:-1])))
    return rank


def _argsort_keys(keys: list[np.ndarray]) -> np.ndarray:
    """The order of a lexicographic sort by non-negative integer keys, first key most significant, as one argsort
    of a combined key (numpy's lexsort is an order of magnitude slower on these sizes). Ties left are exact
    duplicates of every key, which callers never have."""
    spans = [int(k.max()) + 1 if len(k) else 1 for k in keys]
    if math.prod(spans) >= 2 ** 62:  # the combined key would overflow: the slow, general way
        return np.lexsort(keys[::-1])
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    for k, span in zip(keys, spans):
        combined = combined * span + k
    return np.argsort(combined)


TRIM_MEMO_NODES = 200_000  # a bound on the per-snapshot memo of trimmed edge lists, not a tuning knob


def _trimmed_memo(snap: GraphSnapshot, nodes: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_trimmed`, remembered per node for the snapshot's lifetime: the choice depends on the intent, not the query."""
    memo: dict[int, np.ndarray] = snap.memo.setdefault(("trimmed", phi.tobytes()), {})
    wanted = nodes.tolist()
    cold = [u for u in wanted if u not in memo]
    if cold:
        if len(memo) > TRIM_MEMO_NODES:
            memo.clear()
        owner, edges = _trimmed(snap, np.array(cold, dtype=np.int64), phi)
        bounds = np.searchsorted(owner, np.arange(len(cold) + 1))
        for k, u in enumerate(cold):
            memo[u] = edges[bounds[k]:bounds[k + 1]]
    parts = [memo[u] for u in wanted]
    counts = np.fromiter((len(x) for x in parts), dtype=np.int64, count=len(parts))
    edges = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return np.repeat(np.arange(len(parts)), counts), edges


@dataclass
class _Level:
    """One level of one anchor's walk: its ranked transitions (best first) and how many there were."""
    nodes: list[int]
    totals: list[float]
    parents: list[int]
    types: list[str]
    transitions: int


def _walk(snap: GraphSnapshot, chunk: list[int], anchors: Mapping[int, float], params: BeamParams, phi: np.ndarray,
          sims: Similarities, admit: np.ndarray, type_rank: np.ndarray) -> list[list[_Level]]:
    """The walks of several anchors at once, each exactly as if it ran alone with an unlimited visit budget (the
    walks share nothing but the budget, which the caller replays in anchor order)."""
    n = len(snap)
    rank = snap.id_rank
    denom = LAMBDA_STRUCTURAL + LAMBDA_SEMANTIC
    type_names = [t for t, _ in snap.classes]
    levels: list[list[_Level]] = [[] for _ in chunk]
    f_anchor = np.arange(len(chunk), dtype=np.int64)  # one row per (anchor, frontier node)
    f_node = np.array(chunk, dtype=np.int64)
    f_path = np.array([anchors[a] for a in chunk], dtype=np.float64)
    seen = np.sort(f_anchor * n + f_node)
    for _depth in range(params.depth):
        if len(f_node) == 0:
            break
        unique, inv = np.unique(f_node, return_inverse=True)
        owner, edges = _trimmed_memo(snap, unique, phi)
        counts = np.bincount(owner, minlength=len(unique))
        per_row = counts[inv]
        total_rows = int(per_row.sum())
        if total_rows == 0:
            break
        row = np.repeat(np.arange(len(f_node)), per_row)
        starts = (np.cumsum(counts) - counts)[inv]
        edge = edges[np.arange(total_rows) - np.repeat(np.cumsum(per_row) - per_row - starts, per_row)]
        nb = snap.dst[edge].astype(np.int64)
        anchor = f_anchor[row]
        key = anchor * n + nb
        at = np.minimum(np.searchsorted(seen, key), len(seen) - 1)
        ok = admit[nb] & (seen[at] != key)
        row, edge, nb, anchor, key = row[ok], edge[ok], nb[ok], anchor[ok], key[ok]
        if len(row) == 0:
            break
        cls = snap.cls[edge]
        structural = phi[cls] * np.clip(snap.weight[edge], 0.0, 1.0)
        total = f_path[row] * (LAMBDA_STRUCTURAL * structural + LAMBDA_SEMANTIC * np.maximum(0.0, sims[nb])) / denom
        parent = f_node[row]
        # one transition per (anchor, neighbour): best total, then the smaller parent id, then the smaller edge type
        # (anchor, rank of the neighbour) names the same pair as `key`, with no sort to number the pairs
        order = _argsort_keys([anchor * n + rank[nb], _dense_rank(-total), rank[parent], type_rank[cls]])
        sk = key[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = sk[1:] != sk[:-1]
        win = order[first]
        w_anchor = anchor[win]
        transitions = np.bincount(w_anchor, minlength=len(chunk))
        # each anchor keeps its `width` best by (total desc, id)
        order = win[_argsort_keys([w_anchor, _dense_rank(-total[win]), rank[nb[win]]])]
        o_anchor = anchor[order]
        t_counts = np.bincount(o_anchor, minlength=len(chunk))
        within = np.arange(len(order)) - (np.cumsum(t_counts) - t_counts)[o_anchor]
        ranked = order[within < params.width]
        r_anchor = anchor[ranked]
        r_nodes, r_totals, r_parents = nb[ranked].tolist(), total[ranked].tolist(), parent[ranked].tolist()
        r_types = [type_names[c] for c in cls[ranked].tolist()]
        bounds = np.searchsorted(r_anchor, np.arange(len(chunk) + 1))
        for a in np.flatnonzero(transitions).tolist():
            lo, hi = int(bounds[a]), int(bounds[a + 1])
            levels[a].append(_Level(r_nodes[lo:hi], r_totals[lo:hi], r_parents[lo:hi], r_types[lo:hi],
                                    int(transitions[a])))
        f_anchor, f_node, f_path = r_anchor, nb[ranked], total[ranked]
        seen = union_sorted(seen, key[ranked])
    return levels


def beam_arrays(snap: GraphSnapshot, anchors: Mapping[int, float], params: BeamParams, phi: np.ndarray,
                sims: Similarities, admit: np.ndarray) -> ArrayBeam:
    """`beam_search` with `neighbors` = each node's BEAM_FANOUT strongest out-edges by (φ·weight desc, edge id),
    `similarity` = `sims` (calibrated cosine per position, 0 without a vector) and `admit` a mask per position.

    The anchors' walks are independent but for the shared visit budget, so they run a chunk of anchors at a time
    as arrays and the budget is then replayed in anchor order, exactly as the sequential search spends it."""
    best: dict[int, float] = dict(anchors)
    support: dict[int, float] = {}
    via: dict[int, str] = {}
    parent: dict[int, int] = {}
    dropped = 0
    visited = 0
    type_rank = _type_rank(snap)
    order = sorted(anchors, key=lambda a: (-anchors[a], snap.id_rank[a]))
    # enough anchors to spend the budget if each walk were full, then as many as the walks so far say are needed
    chunk_size = -(-params.max_visited // max(1, params.width * params.depth)) + 1
    done = 0
    while done < len(order) and visited < params.max_visited:
        chunk = order[done: done + chunk_size]
        done += len(chunk)
        for walk in _walk(snap, chunk, anchors, params, phi, sims, admit, type_rank):
            if visited >= params.max_visited:
                break
            for level in walk:
                if visited >= params.max_visited:
                    break
                keep = min(params.width, params.max_visited - visited)
                dropped += max(0, level.transitions - keep)
                visited += min(keep, len(level.nodes))
                for node, total, node_parent, edge_type in zip(level.nodes[:keep], level.totals[:keep],
                                                               level.parents[:keep], level.types[:keep]):
                    if total > support.get(node, 0.0):
                        support[node] = total
                    if total > best.get(node, 0.0) and node not in anchors:
                        best[node] = total
                        via[node] = edge_type
                        parent[node] = node_parent
        per_anchor = max(1.0, visited / done)
        chunk_size = int(-(-(params.max_visited - visited) // per_anchor)) + 1
    return ArrayBeam(best, support, via, parent, visited, dropped)


def _reply_carry(snap: GraphSnapshot) -> np.ndarray:
    """Per edge class, the share of its source's relevance a reply step hands on whole (0 for other classes)."""
    carry = snap.memo.get("carry")
    if carry is None:
        carry = snap.memo["carry"] = np.array([REPLY_CARRY if c == ("temporal", "reply") else 0.0
                                               for c in snap.classes], dtype=np.float64)
    return carry


def reply_sources(snap: GraphSnapshot, cand: np.ndarray, rel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along distinct candidate positions `cand` with their `rel`: the relevance a reply step from another candidate
    hands each one, and the index in `cand` of that question (0 and -1 where no candidate's reply step leads to it;
    a memory has one predecessor in its source, so one question at most)."""
    value = np.zeros(len(cand), dtype=np.float64)
    question = np.full(len(cand), -1, dtype=np.int64)
    owner, edges = snap.edge_slices(cand)
    carry = _reply_carry(snap)[snap.cls[edges]]
    hit = carry > 0.0
    if not hit.any():
        return value, question
    src, dst = owner[hit], snap.dst[edges[hit]].astype(np.int64)
    by_pos = np.argsort(cand)
    at = np.minimum(np.searchsorted(cand[by_pos], dst), len(cand) - 1)
    inside = cand[by_pos[at]] == dst
    handed = (rel[src] * carry[hit])[inside]
    for k, q, c in zip(by_pos[at[inside]].tolist(), src[inside].tolist(), handed.tolist()):
        if question[k] < 0 or c > value[k]:
            value[k], question[k] = c, q
    return value, question


def neighbour_support_of(snap: GraphSnapshot, cand: np.ndarray, rel: np.ndarray, phi: np.ndarray,
                         sims: Similarities) -> np.ndarray:
    """`core.recall.rerank.neighbour_support` over every active out-edge of the distinct candidate positions `cand`
    with `rel` > 0, as an array along `cand` (0 where nothing vouches for one); `sims` the calibrated similarity per
    position (0 without a vector)."""
    with_rel = rel > 0.0
    nodes = cand[with_rel]
    owner, edges = snap.edge_slices(nodes)
    if len(edges) == 0:
        return np.zeros(len(cand), dtype=np.float64)
    is_cand = np.zeros(len(snap), dtype=bool)
    is_cand[cand] = True
    dst = snap.dst[edges].astype(np.int64)
    cls = snap.cls[edges]
    p = phi[cls]
    keep = (dst != nodes[owner]) & is_cand[dst] & (p > 0.0)
    owner, dst, cls, p = owner[keep], dst[keep], cls[keep], p[keep]
    w = np.clip(snap.weight[edges[keep]], 0.0, 1.0)
    sigma = snap.memo.get("sigma")
    if sigma is None:
        sigma = snap.memo["sigma"] = np.array([PROXIMITY_FACTOR if s == "proximity" else 1.0 for _, s in snap.classes])
    carry = _reply_carry(snap)
    scale = (LAMBDA_STRUCTURAL + LAMBDA_SEMANTIC) / 2
    f = (LAMBDA_STRUCTURAL * p * w * sigma[cls] + LAMBDA_SEMANTIC * np.maximum(0.0, sims[dst])) / scale
    value = rel[with_rel][owner] * np.maximum(np.minimum(1.0, f), carry[cls])
    out = np.zeros(len(snap), dtype=np.float64)
    np.maximum.at(out, dst, value)
    return out[cand]


def keyword_signal_of(snap: GraphSnapshot, q_weights: Mapping[str, float], nodes: np.ndarray) -> np.ndarray:
    """`core.recall.rerank.keyword_signal` of each node along `nodes`: the weights of the query tokens it contains,
    summed in query order (the same float additions), over the sum of all query weights."""
    out = np.zeros(len(nodes), dtype=np.float64)
    total = sum(q_weights.values())
    if total <= 0 or not len(nodes):
        return out
    query = list(q_weights.items())
    code = snap.token_codes([t for t, _ in query])
    known = [(k, code[t]) for k, (t, _) in enumerate(query) if t in code]
    if not known:
        return out
    owner, tok = snap.token_slices(nodes)
    q_ids = np.array([tid for _, tid in known], dtype=np.int64)
    hit = np.isin(tok, q_ids)
    owner, tok = owner[hit], tok[hit]
    if known[-1][0] > 62:  # too many query words for a 64-bit mask: per node, in Python
        matched: dict[int, set[int]] = {}
        for o, t in zip(owner.tolist(), tok.tolist()):
            matched.setdefault(o, set()).add(t)
        for o, ts in matched.items():
            out[o] = sum(w for (t, w) in query if code.get(t) in ts) / total
        return out
    by_id = np.argsort(q_ids)
    bit = np.array([1 << k for k, _ in known], dtype=np.int64)[by_id]
    masks = np.zeros(len(nodes), dtype=np.int64)
    np.bitwise_or.at(masks, owner, bit[np.searchsorted(q_ids[by_id], tok)])
    seen, inv = np.unique(masks, return_inverse=True)
    # one Python sum per distinct set of matched words, in query order: the floats keyword_signal adds
    value = [sum(w for k, (_, w) in enumerate(query) if m >> k & 1) / total if m else 0.0 for m in seen.tolist()]
    return np.array(value, dtype=np.float64)[inv.reshape(-1)]


def entity_signal_of(snap: GraphSnapshot, q_entities: frozenset[str], nodes: np.ndarray) -> np.ndarray:
    """`core.recall.rerank.entity_signal` of each node along `nodes`: the share of the (lower-cased) query entities
    it holds (a count over a count: the same division in float64)."""
    if not q_entities or not len(nodes):
        return np.zeros(len(nodes), dtype=np.float64)
    code = snap.memo.get("entity_code")
    if code is None:
        code = snap.memo["entity_code"] = {e: k for k, e in enumerate(snap.entity_vocab)}
    q_ids = np.array([code[e] for e in q_entities if e in code], dtype=np.int64)
    if not len(q_ids):
        return np.zeros(len(nodes), dtype=np.float64)
    owner, ent = snap.entity_slices(nodes)
    counts = np.bincount(owner[np.isin(ent, q_ids)], minlength=len(nodes))
    return counts / float(max(1, len(q_entities)))


def relevance_array(keyword: np.ndarray, similarity: np.ndarray, with_vectors: bool) -> np.ndarray:
    """`core.recall.rerank.relevance` over arrays (similarity already clipped at 0)."""
    if not len(keyword):
        return np.zeros(0, dtype=np.float64)
    kw_top = float(keyword.max()) or 1.0
    if not with_vectors:
        return keyword / kw_top
    sim_top = float(similarity.max()) or 1.0
    return (keyword / kw_top + similarity / sim_top) / 2


def minmax_array(values: np.ndarray) -> np.ndarray:
    """`core.recall.rerank.minmax` over an array."""
    if not len(values):
        return values
    lo, hi = float(values.min()), float(values.max())
    if hi - lo <= 1e-12:
        return np.full(len(values), 1.0 if hi > 0 else 0.0)
    return (values - lo) / (hi - lo)


def combine_array(keyword: np.ndarray, entity: np.ndarray, similarity: np.ndarray, graph: np.ndarray,
                  superseded: np.ndarray, weights: RerankWeights, outside_window: np.ndarray | None = None
                  ) -> np.ndarray:
    """`core.recall.rerank.combine` over arrays: the same sum in the same order, memories outside the query's
    period and superseded targets demoted."""
    score = (weights.keyword * keyword + weights.entity * entity + weights.similarity * similarity
             + weights.graph * graph)
    if outside_window is not None:
        score = np.where(outside_window, score * OUTSIDE_FACTOR, score)
    return np.where(superseded, score * SUPERSEDED_FACTOR, score)


def evidence_root(parent: dict[int, int], nodes: np.ndarray, evidence: list[int]) -> np.ndarray:
    """The anchor that a keyword, vector or entity ranking found each node was reached from (-1 for none): the
    root of its chain of best parents (itself when it has none), when it is such an anchor and not the node
    itself."""
    child = np.fromiter(parent.keys(), dtype=np.int64, count=len(parent))
    by_child = np.argsort(child)
    child, up = child[by_child], np.fromiter(parent.values(), dtype=np.int64, count=len(parent))[by_child]
    root = nodes.copy()
    for _ in range(len(parent)):  # a chain is never longer: a path's score only decays along it, so no cycles
        at = np.minimum(np.searchsorted(child, root), len(child) - 1)
        moved = child[at] == root
        if not moved.any():
            break
        root[moved] = up[at[moved]]
    return np.where((root != nodes) & contains(root, np.asarray(evidence, dtype=np.int64)), root, -1)


def matched_neighbour(snap: GraphSnapshot, cand: np.ndarray, matched: np.ndarray, rel: np.ndarray,
                       phi: np.ndarray) -> tuple[np.ndarray, dict[int, str]]:
    """Along `cand`: the position of the `matched` candidate whose link (an active out-edge the intent weighs)
    vouches most for each unmatched one — the best rel · φ · weight, then φ · weight, then the earlier candidate —
    or -1 where no matched candidate links to it; and the type of that link by index into `cand`."""
    out = np.full(len(cand), -1, dtype=np.int64)
    sources = np.flatnonzero(matched)
    owner, edges = snap.edge_slices(cand[sources])
    if not len(edges):
        return out, {}
    at = {p: k for k, p in enumerate(cand.tolist())}
    link = phi[snap.cls[edges]] * np.clip(snap.weight[edges], 0.0, 1.0)
    best: dict[int, tuple[float, float, int]] = {}
    kind: dict[int, str] = {}
    for o, e, d, strength in zip(owner.tolist(), edges.tolist(), snap.dst[edges].tolist(), link.tolist()):
        k = at.get(d)
        if k is None or matched[k] or strength <= 0.0:
            continue
        src = int(sources[o])
        key = (float(rel[src]) * strength, strength, -src)
        if k not in best or key > best[k]:
            best[k], kind[k] = key, snap.classes[int(snap.cls[e])][0]
    for k, (_, _, neg_src) in best.items():
        out[k] = cand[-neg_src]
    return out, kind
