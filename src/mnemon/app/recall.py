"""Smart recall over the one graph (seed §5.2): the stages of core.recall wired to the store and the vectors.

`retrieve`, `surface` and `agent preflight` reuse `run_recall` and shape its outcome their own way.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any


from ..core.entities import extract_entities
from ..core.errors import InvalidInput
from ..core.graph import topo_order
from ..core.intent import Intent, IntentDecision, detect_intent
from ..core.model import TRAVERSAL_GRAPHS, Edge, Link, Memory, parse_iso
from ..core.recall.beam import beam_search
from ..core.recall.fusion import rrf, via_of
from ..core.recall.timeframe import time_window
from ..core.recall.params import (
    ANCHOR_TOP_K, BEAM, BEAM_FANOUT, EDGE_WEIGHTS, FORMULA_VERSION, RERANK, RERANK_NO_EMBEDDING, confidence_label,
)
from ..core.recall.rerank import (
    Scored, Signals, combine, entity_signal, idf, is_supported, keyword_signal, minmax, neighbour_support, relevance,
)
from ..core.text import excerpt, tokens
from ..ports.store.base import MemoryFilter
from .runtime import Runtime

VECTOR_ANCHOR_FLOOR = 0.1
MAX_LIMIT = 100
MAX_QUERY_CHARS = 2000


@dataclass
class RecallOutcome:
    query: str
    intent: IntentDecision
    results: list[Scored]
    nodes: dict[str, Memory]
    anchors: dict[str, list[str]]
    traversed: int
    limit: int
    trace: list[dict[str, Any]] = field(default_factory=list)
    embedded_query: bool = False

    @property
    def hint(self) -> str | None:
        return "sparse_results" if len(self.results) < max(1, self.limit / 2) else None


_GRAPH_OF_TYPE: dict[str, str | None] = {}


def _graph_of(edge: Edge | Link) -> str | None:
    # called once per edge the beam looks at (~10^4 per recall): memoised per edge type
    try:
        return _GRAPH_OF_TYPE[edge.type]
    except KeyError:
        pass
    if edge.type in TRAVERSAL_GRAPHS:
        graph: str | None = edge.type
    else:
        try:
            from ..core.ontology import graph_of
        except ImportError:  # pragma: no cover - ontology ships with the vault layer
            return "semantic"
        graph = graph_of(edge.type)
    _GRAPH_OF_TYPE[edge.type] = graph
    return graph


def run_recall(rt: Runtime, query: str, *, limit: int = 10, intent: str | None = None, category: str | None = None,
               source: str | None = None, explain: bool = False, query_vector: np.ndarray | None = None,
               kinds: Sequence[str] = ("memory",), touch: bool = True) -> RecallOutcome:
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("query must be a non-empty string")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"--limit must be from 1 to {MAX_LIMIT}")
    store = rt.store
    trace: list[dict[str, Any]] = []
    t0 = time.perf_counter()

    decision = detect_intent(query, intent)
    window = time_window(query, rt.now())
    trace.append({"stage": "intent", "intent": decision.intent.value, "source": decision.source,
                  "cues": list(decision.cues)})

    q_tokens = list(dict.fromkeys(tokens(query)))
    q_entities = extract_entities(query, known=store.known_entities)
    q_ent_norm = frozenset(e.lower() for e in q_entities)
    flt = MemoryFilter(category=category, source=source)
    qvec = query_vector if query_vector is not None else rt.embed_query(query)
    scores = rt.index.scores(qvec) if qvec is not None else None

    # ── anchors ──────────────────────────────────────────────────────────────
    rankings: dict[str, list[str]] = {}
    rankings["keyword"] = [i for i, _ in store.keyword_search(q_tokens, ANCHOR_TOP_K, flt)]
    if scores is not None:
        allowed = set(store.memory_ids(flt)) if (category or source) else None
        rankings["vector"] = [i for i, c in scores.top(ANCHOR_TOP_K, allowed=allowed)
                              if rt.calibrate(c) > VECTOR_ANCHOR_FLOOR]
    if window is None:
        rankings["recency"] = [m.id for m in store.recent_memories(ANCHOR_TOP_K, flt=flt)]
    else:
        # recency, relative to the period the query names: that period's memories closest in meaning (its newest
        # without vectors)
        lo, hi = window.bounds()
        period = replace(flt, created_from=lo, created_to=hi)
        if scores is not None:
            rankings["period"] = [i for i, _ in scores.top(ANCHOR_TOP_K, allowed=set(store.memory_ids(period)))]
        else:
            rankings["period"] = [m.id for m in store.recent_memories(ANCHOR_TOP_K, flt=period)]
    if q_entities:
        rankings["entity"] = [i for i, _ in store.memories_with_entities(q_entities, ANCHOR_TOP_K, flt)]
    anchor_scores = rrf(rankings)
    trace.append({"stage": "anchors", "rrf_k": 60, "signals": {k: v for k, v in rankings.items()},
                  "fused": len(anchor_scores)})

    # ── beam search ─────────────────────────────────────────────────────────
    # rows and links read once per recall, and kept across recalls while the store is unchanged
    cache = rt.read_cache()
    known_nodes: dict[str, Memory] = cache.nodes if cache is not None else {}
    known_links: dict[str, list[Link]] = cache.links if cache is not None else {}
    rows: dict[str, Memory] = {}

    def load(ids: Sequence[str]) -> None:
        missing = [i for i in ids if i not in rows]
        if not missing:
            return
        unknown = [i for i in missing if i not in known_nodes]
        if unknown:
            known_nodes.update(store.get_nodes(unknown))
        for i in missing:
            n = known_nodes.get(i)
            if n is not None:
                rows[i] = n

    def links_of(ids: Sequence[str]) -> dict[str, list[Link]]:
        unknown = [i for i in dict.fromkeys(ids) if i not in known_links]
        if unknown:
            got = store.adjacency(unknown)
            for i in unknown:
                known_links[i] = got.get(i, [])
        return {i: known_links[i] for i in ids}

    phi_now = EDGE_WEIGHTS[decision.intent]

    trimmed: dict[str, list[tuple[str, Link]]] = {}

    def neighbors(ids: Sequence[str]) -> dict[str, list[tuple[str, Link]]]:
        # the beam looks at each node's strongest edges for this intent only, so a hub costs the same as a leaf
        missing = [i for i in ids if i not in trimmed]
        if missing:
            for i, links in links_of(missing).items():
                if len(links) > BEAM_FANOUT:
                    links = heapq.nsmallest(BEAM_FANOUT, links, key=lambda l: (
                        -(phi_now.get(_graph_of(l) or "", 0.0) * l.weight), l.id))
                trimmed[i] = [(link.dst, link) for link in links]
        return {i: trimmed[i] for i in ids if trimmed.get(i)}

    load(list(anchor_scores))

    heads: dict[str, tuple[str, bool, str, str]] = {}

    def admit(ids: Sequence[str]) -> set[str]:
        # only kind / deleted / category / source are needed to step onto a node: no full rows, no JSON
        unknown = [i for i in ids if i not in heads and i not in rows]
        if unknown:
            heads.update(store.node_heads(unknown))
        ok = set()
        for i in ids:
            n = rows.get(i)
            head = (n.kind, n.deleted_at is not None, n.category, n.source) if n is not None else heads.get(i)
            if head is None or head[1]:
                continue
            if head[0] != "memory":
                ok.add(i)  # notes, entities … are stepping stones, never results
            elif (not category or head[2] == category) and (not source or head[3] == source):
                ok.add(i)
        return ok

    def similarity(ids: Sequence[str]) -> dict[str, float]:
        if scores is None:
            return {}
        return {i: rt.calibrate(c) for i, c in scores.get(list(ids)).items()}

    df = store.token_doc_freq(q_tokens) if q_tokens else {}
    total = max(1, store.count_active())
    q_weights = {t: idf(df.get(t, 0), total) for t in q_tokens}
    keyword_cache: dict[str, float] = {}

    def keyword(ids: Sequence[str]) -> dict[str, float]:
        for i in ids:
            if i not in keyword_cache:
                keyword_cache[i] = keyword_signal(q_weights, rt.tokens_of(rows[i]))
        return {i: keyword_cache[i] for i in ids}

    anchor_ids = [i for i in anchor_scores if i in rows]
    anchor_rel = relevance(keyword(anchor_ids), similarity(anchor_ids), anchor_ids, scores is not None)
    params = BEAM[decision.intent]
    # the beam starts from what each anchor says about the query; RRF decided which memories are anchors
    beam = beam_search(anchor_rel, neighbors, params, EDGE_WEIGHTS[decision.intent], _graph_of,
                       similarity, admit)
    trace.append({"stage": "beam", "width": params.width, "depth": params.depth,
                  "max_visited": params.max_visited, "visited": beam.visited, "dropped_by_budget": beam.dropped_by_budget})

    # ── re-rank ─────────────────────────────────────────────────────────────
    load([i for i in beam.scores if i not in rows and (i in heads and heads[i][0] in kinds)])
    cand_ids = [i for i in beam.scores if i in rows and rows[i].kind in kinds and not rows[i].deleted_at
                and (not category or rows[i].category == category) and (not source or rows[i].source == source)]
    kw_sig = keyword(cand_ids)
    sims = {i: max(0.0, v) for i, v in similarity(cand_ids).items()}
    rel = relevance(kw_sig, sims, cand_ids, scores is not None)
    support = neighbour_support(rel, {i: ls for i, ls in links_of([i for i in cand_ids if rel.get(i, 0.0) > 0]).items()
                                      if ls}, set(cand_ids),
                                EDGE_WEIGHTS[decision.intent], sims, _graph_of)
    for i, v in beam.support.items():
        if i in rel and v > support.get(i, 0.0):
            support[i] = v
    graph = minmax({i: rel.get(i, 0.0) + support.get(i, 0.0) for i in cand_ids})
    superseded = {e.dst for e in store.edges_of(cand_ids, types=["supersedes"], direction="in")}
    weights = (RERANK if scores is not None else RERANK_NO_EMBEDDING)[decision.intent]
    scored: list[Scored] = []
    dropped: list[str] = []
    for i in cand_ids:
        n = rows[i]
        sig = Signals(
            keyword=kw_sig[i],
            entity=entity_signal(q_ent_norm, frozenset(e.lower() for e in n.entities)),
            similarity=max(0.0, sims.get(i, 0.0)),
            graph=graph.get(i, 0.0),
        )
        supported = is_supported(sig)
        via = via_of(i, rankings) if i in anchor_scores else beam.via.get(i, "graph")
        if not supported:
            # reached through the graph from a supported memory still counts: the link is the evidence
            root = i
            while root in beam.parent:
                root = beam.parent[root]
            supported = root != i and root in anchor_scores and any(root in rankings.get(s, ()) for s in ("keyword", "vector", "entity"))
        if not supported:
            dropped.append(i)
            continue
        outside = window is not None and not window.contains(parse_iso(n.created_at))
        scored.append(Scored(i, combine(sig, weights, i in superseded, outside), sig, via, i in superseded, supported,
                             outside))
    scored.sort(key=lambda s: (-s.score, -rows[s.id].importance, _neg(rows[s.id].created_at), s.id))
    results = scored[:limit]
    trace.append({"stage": "rerank", "weights": weights.__dict__, "candidates": len(cand_ids),
                  "dropped_unsupported": len(dropped), "superseded": sorted(superseded & set(cand_ids)),
                  "time_window": window.as_dict() if window is not None else None,
                  "outside_time_window": sum(1 for s in scored if s.outside_window),
                  "formula": FORMULA_VERSION})

    if decision.intent is Intent.WHY and len(results) > 1:
        ids = [s.id for s in results]
        causal = [(e.src, e.dst) for e in store.edges_of(ids, types=["causal"]) if e.dst in set(ids)]
        order = topo_order(ids, causal, {s.id: s.score for s in results})
        by_id = {s.id: s for s in results}
        results = [by_id[i] for i in order]
        trace.append({"stage": "causal_order", "edges": len(causal), "order": order})

    if touch and results and not store.readonly:
        with store.transaction():
            store.touch([s.id for s in results], rt.now_iso())
            store.log("recall", None, {"query": query[:200], "hits": len(results), "intent": decision.intent.value},
                      rt.now_iso())
    trace.append({"stage": "done", "took_ms": round((time.perf_counter() - t0) * 1000, 2)})
    return RecallOutcome(query, decision, results, rows, rankings, beam.visited, limit,
                         trace if explain else [], qvec is not None)


_NEG_ASCII = {c: chr(0x10FFFF - c) for c in range(128)}


def _neg(ts: str) -> str:
    """Sort key making later timestamps come first inside an ascending sort."""
    if ts.isascii():  # every timestamp we write: one C-level pass instead of a generator per character
        return ts.translate(_NEG_ASCII)
    return "".join(chr(0x10FFFF - ord(c)) if ord(c) < 0x10FFFF else c for c in ts)


# ── payload shapes ──────────────────────────────────────────────────────────
def insight_dict(n: Memory, *, full: bool) -> dict[str, Any]:
    if not full:
        return {"id": n.id, "content": n.content, "category": n.category, "importance": n.importance,
                "source": n.source, "created_at": n.created_at}
    return {"id": n.id, "content": n.content, "category": n.category, "importance": n.importance,
            "tags": list(n.tags), "entities": list(n.entities), "source": n.source, "access_count": n.access_count,
            "created_at": n.created_at, "updated_at": n.updated_at}


def to_payload(out: RecallOutcome, *, verbose: bool = False, brief: bool = False, excerpt_chars: int = 240,
               explain: bool = False) -> dict[str, Any]:
    intent = out.intent.intent.value
    if brief:
        payload: dict[str, Any] = {"results": [
            {"id": s.id, "excerpt": excerpt(out.nodes[s.id].content, excerpt_chars),
             "category": out.nodes[s.id].category, "score": round(s.score, 3), "confidence": confidence_label(s.score),
             **({"superseded": True} if s.superseded else {}),
             **({"outside_time_window": True} if s.outside_window else {})} for s in out.results],
            "detail_command": "mnemon show <id>"}
    else:
        payload = {"results": [
            {"insight": insight_dict(out.nodes[s.id], full=verbose), "score": round(s.score, 4), "intent": intent,
             "via": s.via, "signals": s.signals.as_dict(), "confidence": confidence_label(s.score),
             **({"superseded": True} if s.superseded else {}),
             **({"outside_time_window": True} if s.outside_window else {})} for s in out.results]}
    if out.hint:
        payload["hint"] = out.hint
    if verbose or explain:
        payload["meta"] = {"intent": intent, "intent_source": out.intent.source,
                           "anchor_count": len({i for r in out.anchors.values() for i in r}),
                           "traversed": out.traversed, "embedded_query": out.embedded_query,
                           "formula": FORMULA_VERSION, **({"hint": out.hint} if out.hint else {})}
    if explain:
        payload["trace"] = out.trace
    return payload


def basic_recall(rt: Runtime, query: str, *, limit: int = 10) -> list[dict[str, Any]]:
    """The legacy LIKE mode: substring match, importance then recency."""
    if not query.strip():
        raise InvalidInput("query must be a non-empty string")
    hits = rt.store.like_search(query.strip(), limit)
    if hits and not rt.store.readonly:
        with rt.store.transaction():
            rt.store.touch([h.id for h in hits], rt.now_iso())
            rt.store.log("recall:basic", None, {"query": query[:200], "hits": len(hits)}, rt.now_iso())
    return [h.to_dict() for h in hits]


def keyword_only(rt: Runtime, query: str, *, limit: int = 10, brief: bool = False,
                 excerpt_chars: int = 240) -> dict[str, Any]:
    """`mnemon search`: FTS5/BM25 keyword search, no graph, no vectors."""
    if not query.strip():
        raise InvalidInput("query must be a non-empty string")
    hits = rt.store.keyword_search(tokens(query), limit)
    nodes = rt.store.get_nodes([i for i, _ in hits])
    if hits and not rt.store.readonly:
        with rt.store.transaction():
            rt.store.touch([i for i, _ in hits], rt.now_iso())
            rt.store.log("search", None, {"query": query[:200], "hits": len(hits)}, rt.now_iso())
    top = max((s for _, s in hits), default=1.0) or 1.0
    rows = []
    for i, s in hits:
        n = nodes[i]
        row: dict[str, Any] = {"id": i, "category": n.category, "importance": n.importance, "tags": list(n.tags),
                               "score": round(s / top, 4)}
        row["excerpt" if brief else "content"] = excerpt(n.content, excerpt_chars) if brief else n.content
        rows.append(row)
    return {"results": rows}
