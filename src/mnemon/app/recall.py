"""Smart recall over the one graph (seed §5.2): the stages of core.recall wired to the store and the vectors.

`retrieve`, `surface` and `agent preflight` reuse `run_recall` and shape its outcome their own way.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..ports.vector_index import QueryScores


from ..core.entities import extract_entities, lower_case_names
from ..core.errors import InvalidInput
from ..core.graph import topo_order
from ..core.intent import Intent, IntentDecision, detect_intent
from ..core.keywords import tag_query_words
from ..core.model import CATEGORIES, SOURCED_PREFIXES, TRAVERSAL_GRAPHS, Memory, parse_iso
from ..core.recall.fusion import rrf, via_of
from ..core.recall.period_source import period_source
from ..core.recall.precedence import correctors_first
from ..core.recall.timeframe import TimeWindow, time_window
from ..core.recall.params import (
    ANCHOR_POSTING_BUDGET, ANCHOR_TOP_K, BEAM, EDGE_WEIGHTS, FORMULA_VERSION, REPLY_INHERIT, RERANK,
    RERANK_NO_EMBEDDING, SUPERSEDED_FACTOR, WINDOW_ANCHOR_TOP_K, scored_as_shown,
)
from ..core.recall.rerank import (
    SIMILARITY_SUPPORT, Scored, Signals, asks_for_history, corrected_in_reach, idf, relevance,
)
from ..core.surface import embed_all, step
from ..core.text import excerpt, marked_window, tokens
from ..core.stored_text import check_query_text
from ..ports.store.base import MemoryFilter, Store
from ..ports.graph_index import GraphSnapshot
from .access import record_access
from .recall_folds import fold_repeated_sections
from .recall_names import entity_groups, grouped_entity_signal, names_asked, titles_aliased, with_capitals
from .recall_properties import demote_name_only_properties
from .recall_graph import (
    ArrayBeam, PositionSimilarities, VectorRows, beam_arrays, class_weights, combine_array, entity_signal_of,
    evidence_root, keyword_signal_of, matched_neighbour, minmax_array, neighbour_support_of, relevance_array,
    reply_sources,
)
from .replay import Replay
from .runtime import Runtime

VECTOR_ANCHOR_FLOOR = 0.1
MAX_LIMIT = 100
CORRECTION_POOL = MAX_LIMIT  # the best results read for corrections among them, for any --limit
ORDER_REACH = MAX_LIMIT  # the best results flagged and ordered (causes first, correctors first) before the cut
# the best results read for being corrected whatever the limit (more for a longer list): each is read against every
# newer candidate worded as a change, and reading the best 100 made a recall at 10k memories 115 ms instead of 15
CORRECTED_REACH = 30
MAX_QUERY_CHARS = 2000
# the longest result text a recall or search list shows whole: what `remember` keeps (`show` reads any whole)
RESULT_TEXT_CHARS = 8_000  # remember's MAX_CONTENT_CHARS (core.validation, which recall does not load)


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


def _graph_names(snap: GraphSnapshot) -> dict[str, str | None]:
    """The traversal graph of each edge type in the snapshot (ontology relations map onto the four graphs)."""
    names = snap.memo.get("graphs")
    if names is None:
        names = {}
        for t, _ in snap.classes:
            if t in TRAVERSAL_GRAPHS:
                names[t] = t
            else:  # a vault relation: the ontology (imported only when the graph holds one) maps it
                from ..core.ontology import graph_of

                names[t] = graph_of(t)
        snap.memo["graphs"] = names
    return names


def _position_similarities(rt: Runtime, snap: GraphSnapshot, scores: QueryScores | None) -> PositionSimilarities:
    """Calibrated cosine of the query per graph position, worked out for the positions recall looks at."""
    if scores is None or len(scores) == 0:
        return PositionSimilarities(None, None, rt.calibrate_many)
    index = scores.index
    key = ("vector_rows", id(index), index.version())
    rows = snap.memo.get(key)
    if rows is None:
        for old in [k for k in snap.memo if isinstance(k, tuple) and k[0] == "vector_rows"]:
            del snap.memo[old]
        rows = snap.memo[key] = VectorRows.of(index.rows_at(snap.pos, len(snap)))
    return PositionSimilarities(scores, rows, rt.calibrate_many)


def _in_scope(snap: GraphSnapshot, at: np.ndarray | slice, flt: MemoryFilter) -> np.ndarray:
    """Whether the nodes at `at` pass the filter's category, source and sources (any of them) conditions."""
    inside = np.ones(len(snap.kind[at]), dtype=bool)
    if flt.category:
        inside &= snap.category[at] == snap.code_of("categories", flt.category)
    if flt.source:
        inside &= snap.source[at] == snap.code_of("sources", flt.source)
    if flt.sources:  # a folder's notes can be many: one pass over the vocabulary, not one lookup each
        wanted = set(flt.sources)
        inside &= np.isin(snap.source[at], [code for code, name in enumerate(snap.sources) if name in wanted])
    return inside


def warn_on_vector_gaps(rt: Runtime, embedded_query: bool) -> None:
    """After a recall, say when the similarity signal was silent for memories that have (or could have) a vector:
    no provider over another provider's vectors (`--embed none`), most memories without this provider's (an ingest
    with --no-embed, another provider's vectors), or a few of them without it while the query had one. A store
    without any vector is simply all-keyword: no word."""
    if not rt.vectors_enabled:
        providers = rt.store.vector_providers()
        if providers:
            named = ", ".join(f"{count} memories from {name}" for name, count in sorted(providers.items()))
            rt.warnings.append(f"recalled by keywords and the graph only: the embedding provider is "
                               f"'{rt.provider.name}' while the store holds vectors ({named}); recall by meaning "
                               + step("needs their provider (--embed or MNEMON_EMBED_PROVIDER)",
                                      "needs their provider (MNEMON_EMBED_PROVIDER where this server runs)"))
        return
    total = rt.store.count_active()
    embedded = len(rt.index)
    if total and embedded * 2 < total:
        rt.warnings.append(f"only {embedded} of {total} memories have a vector from {rt.provider.identity()}: "
                           f"recall by meaning misses the rest; {embed_all()} adds them")
    elif embedded_query and total > embedded:  # (the query had no vector: a warning already says why)
        rt.warnings.append(f"{total - embedded} of {total} memories have no vector from {rt.provider.identity()}: "
                           f"their similarity is 0, so recall by meaning misses them; {embed_all()} adds them")


def _untimed_sources(snap: GraphSnapshot) -> set[int]:
    """Codes of the sources whose rows carry their ingest time, not a time of their own (`ports/store/sources.py`)."""
    return {code for code, name in enumerate(snap.sources) if name.startswith(SOURCED_PREFIXES)}


def _window_anchors(store: Store, own: TimeWindow, at: MemoryFilter, scores: QueryScores | None,
                    replay: Replay | None) -> list[str]:
    """The memories written in the named period itself (not its slack), closest in meaning first, then the newest
    ones without a vector: asked "what happened on 20 November", that day's memories are candidates whatever their
    words. Under a replay `at` ends at its instant."""
    lo, hi = own.own_bounds()
    if at.created_to is not None:
        hi = min(hi, at.created_to)
    period = replace(at, created_from=lo, created_to=hi, timed_only=True)
    newest = store.recent_memory_ids(WINDOW_ANCHOR_TOP_K, period)
    if replay is not None:
        newest = replay.recent(newest, period, WINDOW_ANCHOR_TOP_K)
    if scores is None:
        return newest
    top = scores.top(WINDOW_ANCHOR_TOP_K, allowed=set(store.memory_ids(period)))
    if replay is not None:
        top = replay.vector(top, scores, period, WINDOW_ANCHOR_TOP_K)
    ranked = [i for i, _ in top]
    taken = set(ranked)
    return (ranked + [i for i in newest if i not in taken])[:WINDOW_ANCHOR_TOP_K]


def _period_holds(store: Store, window: TimeWindow, at: MemoryFilter, replay: Replay | None) -> bool:
    """Whether a memory with a time of its own was written in `window` itself, within the filter (and, under a
    replay, by its instant)."""
    lo, hi = window.own_bounds()
    if at.created_to is not None:
        hi = min(hi, at.created_to)
    period = replace(at, created_from=lo, created_to=hi, timed_only=True)
    found = store.recent_memory_ids(1, period)
    return bool(found if replay is None else replay.recent(found, period, 1))


def _asked_of(snap: GraphSnapshot, cand: np.ndarray, window: TimeWindow, q_weights: dict[str, float],
              sim: np.ndarray) -> bool:
    """Whether a relative period is the one the query asks about: a candidate written in it is found by the query's
    other words or meaning. Else the words tell of another time than the clock's — "what did John do last weekend",
    asked of a conversation long after he said "last weekend" — and demoting what lies outside would hide it."""
    held = _in_period(snap, cand, window)
    if not held.any():
        return False
    said = set(tokens(window.text))
    words = {t: w for t, w in q_weights.items() if t not in said}
    found = (keyword_signal_of(snap, words, cand) > 0) if words else np.zeros(len(cand), dtype=bool)
    return bool((held & (found | (sim >= SIMILARITY_SUPPORT))).any())


def _in_period(snap: GraphSnapshot, nodes: np.ndarray, own: TimeWindow | None) -> np.ndarray:
    """Which of `nodes` were written in the named period itself, by a time of their own (not a vault row's)."""
    if own is None or not len(nodes):
        return np.zeros(len(nodes), dtype=bool)
    untimed = _untimed_sources(snap)
    return np.array([snap.source[p] not in untimed and own.holds(parse_iso(snap.created[p])) for p in nodes.tolist()],
                    dtype=bool)


def _with_period_words(kw: np.ndarray, snap: GraphSnapshot, nodes: np.ndarray, in_period: np.ndarray,
                       period_words: Sequence[str], q_weights: dict[str, float]) -> np.ndarray:
    """The keyword signal of `nodes` with the query's date words ("20", "november", "2026") matched by every memory
    written on that day: its date says them as its text would. Words its text also holds count once."""
    total = sum(q_weights.values())
    if not period_words or total <= 0 or not in_period.any():
        return kw
    dated = {t: q_weights[t] for t in period_words}
    share = sum(dated.values()) / total
    said = keyword_signal_of(snap, dated, nodes) * share
    return np.where(in_period, np.minimum(1.0, kw - said + share), kw)


def _scoped(flt: MemoryFilter) -> bool:
    return bool(flt.category or flt.source or flt.sources)


def _admit_mask(snap: GraphSnapshot, flt: MemoryFilter) -> np.ndarray:
    """Which nodes the beam may step onto: live ones; memories only inside the category/source filter (other
    kinds — notes, entities — are stepping stones and never results)."""
    ok = ~snap.deleted
    if _scoped(flt):
        memory = snap.kind == snap.code_of("kinds", "memory")
        ok = ok & (~memory | _in_scope(snap, slice(None), flt))
    return ok


def _edges_of_type(snap: GraphSnapshot, type_: str) -> np.ndarray:
    classes = [c for c, (t, _) in enumerate(snap.classes) if t == type_]
    return np.isin(snap.cls, classes) if classes else np.zeros(snap.edge_count, dtype=bool)


def _superseded_mask(snap: GraphSnapshot) -> np.ndarray:
    """Nodes with an active incoming supersedes edge."""
    mask = snap.memo.get("superseded")
    if mask is None:
        mask = np.zeros(len(snap), dtype=bool)
        mask[snap.dst[_edges_of_type(snap, "supersedes")]] = True
        snap.memo["superseded"] = mask
    return mask


def _corrected(store: Store, snap: GraphSnapshot, cand_l: list[int], pool: np.ndarray, score: np.ndarray,
               superseded: np.ndarray, limit: int, outside: Sequence[Memory] = (),
               known: Mapping[str, Memory] | None = None) -> tuple[dict[int, str], dict[str, Memory]]:
    """Which of the `pool` candidates (indexes into `cand_l`, best first) that the best `limit` can reach a newer
    one among them — or among `outside`, the memories a filter kept out of the candidates — corrects, and not
    already superseded by a link: {index: id of the correction}; and the pool's rows, read for it (those in `known`,
    read already, not again)."""
    pool_ids = [snap.ids[cand_l[k]] for k in pool.tolist()]
    have = known or {}
    rows = {**{i: have[i] for i in pool_ids if i in have},
            **store.get_nodes([i for i in pool_ids if i not in have])}
    at = dict(zip(pool_ids, pool.tolist()))
    read = [(i, k) for i, k in zip(pool_ids, pool.tolist()) if i in rows]
    found = corrected_in_reach([(i, rows[i].content, rows[i].created_at) for i, _ in read],
                               [float(score[k]) for _, k in read], [not superseded[k] for _, k in read], limit,
                               [(m.id, m.content, m.created_at) for m in outside if m.id not in at])
    return {at[old]: new for old, new in found.items() if old in at and not superseded[at[old]]}, rows


def _filtered_out(store: Store, snap: GraphSnapshot, q_tokens: list[str], df: dict[str, int],
                  flt: MemoryFilter) -> list[Memory]:
    """The live memories outside the filter that the query's words find best: a correction of a fact the filter
    keeps is often of another source or category ("Mira moved to Porto", said by another agent)."""
    hits = [i for i, _ in store.keyword_search(q_tokens, ANCHOR_TOP_K, doc_freq=df,
                                               max_postings=ANCHOR_POSTING_BUDGET) if i in snap.pos]
    inside = _in_scope(snap, np.array([snap.pos[i] for i in hits], dtype=np.int64), flt)
    rows = store.get_nodes([i for i, kept in zip(hits, inside.tolist()) if not kept])
    return [m for m in rows.values() if m.kind == "memory" and m.deleted_at is None]


def _correction_pairs(snap: GraphSnapshot, results: list[Scored]) -> list[tuple[str, str]]:
    """(corrector, corrected) among `results`: the newer result whose wording retired another (`corrected_by`), or
    the source of an active `supersedes` link into a result it demoted."""
    at = {s.id: k for k, s in enumerate(results)}
    pairs = [(s.corrected_by, s.id) for s in results if s.corrected_by is not None and s.corrected_by in at]
    linked = {snap.pos[s.id] for s in results if s.superseded and s.corrected_by is None}
    if linked:
        owner, edges = snap.edge_slices(np.array([snap.pos[s.id] for s in results], dtype=np.int64))
        supersedes = _edges_of_type(snap, "supersedes")
        pairs += [(results[o].id, snap.ids[d]) for o, e, d in zip(owner.tolist(), edges.tolist(),
                                                                  snap.dst[edges].tolist())
                  if supersedes[e] and d in linked]
    return pairs


def _inherit_from_questions(reply_of: np.ndarray, signals: tuple[np.ndarray, ...]) -> None:
    """Each reply (reply_of ≥ 0: its question's index among the candidates) takes REPLY_INHERIT of each of its
    question's signals where that is more than its own."""
    replies = np.flatnonzero(reply_of >= 0)
    for signal in signals:
        signal[replies] = np.maximum(signal[replies], REPLY_INHERIT * signal[reply_of[replies]])


def _causal_pairs(snap: GraphSnapshot, nodes: list[int]) -> list[tuple[str, str]]:
    """(src, dst) ids of the active causal edges among `nodes`."""
    owner, edges = snap.edge_slices(np.array(nodes, dtype=np.int64))
    members = set(nodes)
    causal = _edges_of_type(snap, "causal")
    weight = {(snap.ids[nodes[o]], snap.ids[d]): float(snap.weight[e])
              for o, e, d in zip(owner.tolist(), edges.tolist(), snap.dst[edges].tolist()) if causal[e] and d in members}
    # two edges that say opposite things (a cue word's guess against a person's link, weighted higher): the
    # stronger one orders the pair, else the cycle would leave both in score order, effect before cause
    return [(a, b) for (a, b), w in weight.items() if w >= weight.get((b, a), 0.0)]


def check_limit(limit: Any) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"--limit must be from 1 to {MAX_LIMIT}")


def check_excerpt_chars(excerpt_chars: Any, brief: bool) -> int:
    """The excerpt length `--brief` cuts to (240 when not given); given without --brief, where it would change
    nothing (the whole text is printed), it is refused."""
    if excerpt_chars is None:
        return EXCERPT_CHARS
    if isinstance(excerpt_chars, bool) or not isinstance(excerpt_chars, int) or excerpt_chars < 1:
        raise InvalidInput("--excerpt-chars must be a positive number of characters")
    if not brief:
        raise InvalidInput("--excerpt-chars sets the length of --brief's excerpts: add --brief, or drop it")
    return excerpt_chars


EXCERPT_CHARS = 240


def run_recall(rt: Runtime, query: str, *, limit: int = 10, intent: str | None = None, category: str | None = None,
               source: str | None = None, explain: bool = False, query_vector: np.ndarray | None = None,
               kinds: Sequence[str] = ("memory",), touch: bool = True, sources: Sequence[str] = (),
               as_of: datetime | None = None, fold_sections: bool = True) -> RecallOutcome:
    """`source` keeps memories of that source; `sources` those of any of them (both given: both must hold).
    `fold_sections`: a vault section that only repeats observations shown leaves the list (app/recall_folds.py).
    `as_of` (a `retrieve --as-of` replay) reads the store as it stood then (app/replay.py): rows created later —
    memories, nodes, edges — are no anchor, step, candidate, neighbour or count, rows forgotten later are back, and
    edges have the status and strength they had; "in June" is read against it."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("query must be a non-empty string")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    check_query_text(query)
    check_limit(limit)
    if category is not None and category not in CATEGORIES:  # a typo would silently match nothing
        raise InvalidInput(f"unknown category {category!r}; one of {', '.join(CATEGORIES)}", category=category)
    store = rt.store
    trace: list[dict[str, Any]] = []
    t0 = time.perf_counter()

    decision = detect_intent(query, intent)
    asked_at = as_of or rt.now()
    window = time_window(query, asked_at)
    trace.append({"stage": "intent", "intent": decision.intent.value, "source": decision.source,
                  "cues": list(decision.cues)})

    q_tokens = list(dict.fromkeys(tokens(query)))
    # over the in-memory graph: arrays of node heads and active out-edges, rebuilt only when the graph changes
    full = rt.graph.snapshot()
    aliased = titles_aliased(store, full, q_tokens)
    if aliased:  # a note named by an alias is searched for by its title, as its rows carry it (core.recall.aliases)
        q_tokens = list(dict.fromkeys([*q_tokens, *(t for title in aliased.values() for t in tokens(title))]))
    # a replay corrects what the snapshot and the indexes say of the store at `as_of` (app/replay.py)
    replay = Replay.of(store, full, as_of, rt.index.provider) if as_of is not None else None
    bound = replay.bound if replay is not None else None
    known: Callable[[set[str]], set[str]] = store.known_entities if replay is None else replay.known
    reasons = lower_case_names(query)
    q_entities = extract_entities(query, known=lambda words: known(with_capitals(words, reasons)))
    q_ent_norm = frozenset(e.lower() for e in q_entities)
    names = names_asked(str(store.path), full, query)
    ent_groups = entity_groups(q_ent_norm, names)
    if ent_groups is not None:  # the names as the store spells them: it knows entities as first written
        named = {n for group in ent_groups for n in group} - q_ent_norm
        q_entities = list(dict.fromkeys([*q_entities, *sorted(known({s for n in named for s in (n, n.title())}))]))
    flt = MemoryFilter(category=category, source=source, sources=tuple(dict.fromkeys(sources)))
    # what the anchors may be: under a replay, only memories created by then
    at = flt if bound is None else replace(flt, created_to=bound)
    # a period read against the clock ("yesterday", "on December 3") is applied only when memories were written in
    # it: asked long after the store was written, it is an empty day that would demote every memory (timeframe.py)
    unapplied = None  # (the anchors stage says which, so the trace keeps its stages)
    if window is not None and window.relative and not _period_holds(store, window, at, replay):
        unapplied, window = {"expression": window.text, "reason": "no memory was written in it"}, None
    qvec = query_vector if query_vector is not None else rt.embed_query(query)
    scores = rt.index.scores(qvec) if qvec is not None else None
    later = None if replay is None or not replay.gone.any() else replay.gone
    active_now = store.count_active()
    total = max(1, active_now if replay is None else replay.active(active_now))

    # ── anchors ──────────────────────────────────────────────────────────────
    rankings: dict[str, list[str]] = {}
    # document counts serve the keyword anchor (which words to search by) and the keyword signal (their IDF)
    if not q_tokens:
        df: dict[str, int] = {}
    elif replay is not None:
        df = replay.doc_freq(q_tokens)
    else:
        df = store.token_doc_freq(q_tokens)
    # (under a replay BM25 still weighs with every row the index holds: it may order these anchors otherwise)
    hits = store.keyword_search(q_tokens, ANCHOR_TOP_K, at, doc_freq=df, max_postings=ANCHOR_POSTING_BUDGET)
    rankings["keyword"] = ([i for i, _ in hits] if replay is None
                           else replay.keyword(hits, q_tokens, df, at, ANCHOR_TOP_K, active_now, total))
    if scores is not None:
        allowed = set(store.memory_ids(at)) if _scoped(flt) else None
        unborn = ({full.ids[p] for p in np.flatnonzero(later).tolist()}
                  if later is not None and allowed is None else None)
        top = scores.top(ANCHOR_TOP_K, allowed=allowed, exclude=unborn)
        if replay is not None:
            top = replay.vector(top, scores, at, ANCHOR_TOP_K)
        rankings["vector"] = [i for i, c in top if rt.calibrate(c) > VECTOR_ANCHOR_FLOOR]
    # time anchors read only memories with a time of their own: a vault row's created_at is when it was ingested
    if window is None:
        timed = replace(at, timed_only=True)
        rankings["recency"] = store.recent_memory_ids(ANCHOR_TOP_K, timed)
        if replay is not None:
            rankings["recency"] = replay.recent(rankings["recency"], timed, ANCHOR_TOP_K)
    else:
        # recency, relative to the period the query names: that period's memories closest in meaning (its newest
        # without vectors)
        lo, hi = window.bounds()
        if bound is not None:
            hi = bound if hi is None else min(hi, bound)
        period = replace(at, created_from=lo, created_to=hi, timed_only=True)
        if scores is not None:
            top = scores.top(ANCHOR_TOP_K, allowed=set(store.memory_ids(period)))
            rankings["period"] = [i for i, _ in (top if replay is None
                                                 else replay.vector(top, scores, period, ANCHOR_TOP_K))]
        else:
            rankings["period"] = store.recent_memory_ids(ANCHOR_TOP_K, period)
            if replay is not None:
                rankings["period"] = replay.recent(rankings["period"], period, ANCHOR_TOP_K)
    # the period is a source of its own when it is a day, or when the query asks about nothing else (period_source)
    own, own_rule = period_source(query, window)
    if own is not None:
        rankings["window"] = _window_anchors(store, own, at, scores, replay)
    if q_entities:
        holders = store.memories_with_entities(q_entities, ANCHOR_TOP_K, at)
        rankings["entity"] = ([i for i, _ in holders] if replay is None
                              else replay.entity(holders, q_entities, at, ANCHOR_TOP_K))
    anchor_scores = rrf(rankings)
    trace.append({"stage": "anchors", "rrf_k": 60, "signals": {k: v for k, v in rankings.items()},
                  "fused": len(anchor_scores), "period_source": own_rule, "entities": list(q_entities),
                  **({"time_window_unapplied": unapplied} if unapplied else {}),
                  **({"aliases": aliased} if aliased else {}),
                  **({"entity_names": {"whole": list(names.whole), "partial": {w: list(n) for w, n in names.partial}}}
                     if ent_groups is not None else {})})

    # ── beam search ─────────────────────────────────────────────────────────
    pos = full.pos
    ids = full.ids
    edge_weights = EDGE_WEIGHTS[decision.intent]
    phi = class_weights(full, edge_weights, _graph_names(full))
    sims = _position_similarities(rt, full, scores)
    if replay is not None:
        sims = replay.similarities(sims, scores)

    q_weights = {t: idf(df.get(t, 0), total) for t in q_tokens}
    period_words = list(dict.fromkeys(t for t in tokens(own.text) if t in q_weights)) if own is not None else []

    anchor_nodes = [pos[i] for i in anchor_scores if i in pos]
    anchor_at = np.array(anchor_nodes, dtype=np.int64)
    anchor_kw = dict(zip(anchor_nodes, _with_period_words(
        keyword_signal_of(full, q_weights, anchor_at), full, anchor_at, _in_period(full, anchor_at, own), period_words,
        q_weights).tolist()))
    anchor_sim = (dict(zip(anchor_nodes, sims[np.array(anchor_nodes, dtype=np.int64)].tolist()))
                  if scores is not None else {})
    anchor_rel = relevance(anchor_kw, anchor_sim, anchor_nodes, scores is not None)
    params = BEAM[decision.intent]
    # the beam starts from what each anchor says about the query; RRF decided which memories are anchors
    if replay is None:
        snap = full
        beam = beam_arrays(snap, anchor_rel, params, phi, sims, _admit_mask(snap, flt))
    else:  # the graph of then: the stages below read its edges and its nodes' liveness
        admit = _admit_mask(replay.view(), flt)

        def phi_of(view: GraphSnapshot) -> np.ndarray:  # an edge of then may be of a class no edge has now
            return phi if view.classes == full.classes else class_weights(view, edge_weights, _graph_names(view))

        snap, beam = replay.beam(lambda view: beam_arrays(view, anchor_rel, params, phi_of(view), sims, admit))
        phi = phi_of(snap)
    trace.append({"stage": "beam", "width": params.width, "depth": params.depth,
                  "max_visited": params.max_visited, "visited": beam.visited, "dropped_by_budget": beam.dropped_by_budget})

    # ── re-rank ─────────────────────────────────────────────────────────────
    reached = np.fromiter(beam.scores, dtype=np.int64, count=len(beam.scores))
    ok = np.isin(snap.kind[reached], [snap.code_of("kinds", k) for k in kinds]) & ~snap.deleted[reached]
    if _scoped(flt):
        ok &= _in_scope(snap, reached, flt)
    cand = reached[ok]
    cand_l = cand.tolist()
    in_period = _in_period(snap, cand, own)
    kw = _with_period_words(keyword_signal_of(snap, q_weights, cand), snap, cand, in_period, period_words, q_weights)
    ent = (entity_signal_of(snap, q_ent_norm, cand) if ent_groups is None
           else grouped_entity_signal(snap, ent_groups, cand))
    sim = np.maximum(0.0, sims[cand]) if scores is not None else np.zeros(len(cand_l))
    rel = relevance_array(kw, sim, scores is not None)
    # what the neighbourhood says of each candidate: its best neighbour's vouching or the beam's best path to it
    support = np.maximum(neighbour_support_of(snap, cand, rel, phi, sims),
                         np.fromiter((beam.support.get(p, 0.0) for p in cand_l), dtype=np.float64,
                                     count=len(cand_l)))
    graph = minmax_array(rel + support)
    # a memory whose question says more about the query than it does itself is there as that question's reply:
    # it is read together with the question, whose evidence it takes at half weight (`reply_to` says so)
    carried, question = reply_sources(snap, cand, rel)
    reply_of = np.where((question >= 0) & (carried >= rel) & (carried > 0.0), question, -1)
    _inherit_from_questions(reply_of, (kw, ent, sim))
    if replay is None:
        superseded = _superseded_mask(snap)[cand]
    else:  # the snapshot holds today's supersedes edges, made, killed or retired whenever
        held = replay.superseded([ids[p] for p in cand_l])
        superseded = np.array([ids[p] in held for p in cand_l], dtype=bool)
    weights = (RERANK if scores is not None else RERANK_NO_EMBEDDING)[decision.intent]
    # a memory written far from the period the query names is weaker evidence: demoted and flagged, never dropped.
    # Only a memory with a time of its own: a vault or payload row's time is when it was ingested (as for the time
    # anchors), so the meeting note of April was flagged "outside April" for being read in December
    # Not for a relative period reaching now ("today we need to fix the login bug", "this week"): a prompt about
    # the work at hand says so, and what was learnt before it is no weaker for that
    demotes = window is not None and not (window.relative and window.end > asked_at)
    if window is not None and window.relative and demotes:
        demotes = _asked_of(snap, cand, window, q_weights, sim)
    outside = np.zeros(len(cand_l), dtype=bool)
    if window is not None and demotes:
        untimed = _untimed_sources(snap)
        outside = np.array([snap.source[p] not in untimed and not window.contains(parse_iso(snap.created[p]))
                            for p in cand_l], dtype=bool)
    score = combine_array(kw, ent, sim, graph, superseded, weights, outside)
    matched = (kw > 0) | (ent > 0) | (sim >= SIMILARITY_SUPPORT) | in_period
    supported = matched.copy()
    # reached through the graph from a supported memory still counts: the link is the evidence; so does the reply
    # to a supported question. The matched memory it came through is named (`through`). A WHY answer takes only
    # the memories a matched one links to, and ranks them below every matched one: its graph weighs 0.5 (0.7
    # without vectors), so "Q3 goal" and "the mobile team ships", written after the answer the same day, ranked
    # above a memory that says the query's words, and their neighbours came in through them
    unsupported = np.flatnonzero(~supported)
    through = np.full(len(cand_l), -1, dtype=np.int64)
    linked_by: dict[int, str] = {}  # a WHY answer's unmatched result: the type of the link from its matched one
    if len(unsupported):
        asked = question[unsupported]
        if decision.intent is Intent.WHY:
            neighbour, linked_by = matched_neighbour(snap, cand, matched, rel, phi)
            came = neighbour[unsupported]
        else:
            evidence = [pos[i] for s in ("keyword", "vector", "entity") for i in rankings.get(s, ())
                        if i in anchor_scores and i in pos]
            came = evidence_root(beam.parent, cand[unsupported], evidence)
        replies = (asked >= 0) & supported[np.maximum(asked, 0)]
        supported[unsupported] = replies | (came >= 0)
        through[unsupported] = np.where(replies, -1, came)  # (a reply says which question it answers)
    keep = np.flatnonzero(supported)
    # a newer result that corrects an older one ("moved from Lisbon to Porto") demotes it as a `supersedes` link
    # would, when no agent linked them; the correctors are read among the best CORRECTION_POOL (a row read each)
    # whatever the limit: among the best 2×limit, `--limit 1` missed a correction ranked third and answered the
    # stale fact that `--limit 2` flagged superseded. Not when the query asks when or what was before: the retired
    # value is then the answer
    # a note's properties section matched by the note's name alone follows its prose (app/recall_properties.py)
    # the flags and the order below are worked out for the best `ORDER_REACH` whatever the limit, and the list is
    # cut last: a cause (WHY) or a correction ranked 11th moved above the 8th result only under --limit 20, so
    # --limit 10 was not the top of --limit 20
    reach = max(limit, ORDER_REACH)
    named_only, pool_rows = demote_name_only_properties(store, snap, cand_l, keep, score, q_tokens, reach)
    corrected: dict[int, str] = {}
    history = decision.intent is Intent.WHEN or asks_for_history(query)
    # under a filter the correction may be outside it: the memories the query finds beyond the filter are read too
    beyond = _filtered_out(store, snap, q_tokens, df, flt) if _scoped(flt) and replay is None and len(keep) else []
    if not history and len(keep) + len(beyond) > 1:
        pool = keep[np.argsort(-score[keep], kind="stable")[:CORRECTION_POOL]]
        corrected, read = _corrected(store, snap, cand_l, pool, score, superseded, max(limit, CORRECTED_REACH),
                                     beyond, pool_rows)
        pool_rows.update(read)
        for k in corrected:
            score[k] *= SUPERSEDED_FACTOR
            superseded[k] = True
    # (a WHY answer's memories in only through a link rank below every matched one: scores are at most 1)
    rank_by = score - 2.0 * (through >= 0) if decision.intent is Intent.WHY else score
    if len(keep) > reach:  # only what can reach the top `reach` is ordered in full (ties at the cut included)
        cut = np.partition(rank_by[keep], len(keep) - reach)[len(keep) - reach]
        keep = keep[rank_by[keep] >= cut]
    importance, created = snap.importance, snap.created
    keep_l = sorted(keep.tolist(), key=lambda k: (-rank_by[k], -int(importance[cand_l[k]]),
                                                  _neg(created[cand_l[k]]), ids[cand_l[k]]))
    results: list[Scored] = []
    ranked_by = {ids[cand_l[k]]: float(rank_by[k]) for k in keep_l[:reach]}
    for k in keep_l[:reach]:
        p, i = cand_l[k], ids[cand_l[k]]
        sig = Signals(keyword=float(kw[k]), entity=float(ent[k]), similarity=float(sim[k]), graph=float(graph[k]))
        via = linked_by.get(k) or (via_of(i, rankings) if i in anchor_scores else beam.via.get(p, "graph"))
        results.append(Scored(i, float(score[k]), sig, via, bool(superseded[k]), True, bool(outside[k]),
                              ids[cand_l[reply_of[k]]] if reply_of[k] >= 0 else None, corrected.get(k),
                              through=ids[through[k]] if through[k] >= 0 else None))
    # a demoted result's corrector, when it is a result too, is read first and says what it corrects: the
    # demotion alone left "lives in Lisbon" (the query's words) above "moved from Lisbon to Porto". Not for a
    # question about what held before or when: the retired value may be its answer
    lifts = _correction_pairs(snap, results) if not history and any(s.superseded for s in results) else []
    if lifts:
        corrects: dict[str, list[str]] = {}
        for new, old in lifts:
            corrects.setdefault(new, []).append(old)
        results = [replace(s, corrects=tuple(corrects[s.id])) if s.id in corrects else s for s in results]
        if decision.intent is not Intent.WHY:  # WHY's causal order (below) takes the pairs as cause → effect
            by_id = {s.id: s for s in results}
            results = [by_id[i] for i in correctors_first([s.id for s in results], lifts)]
    dropped = int((~supported).sum())
    rerank_trace: dict[str, Any] = {
        "stage": "rerank", "weights": weights.__dict__, "candidates": len(cand_l),
        "dropped_unsupported": dropped, "in_through_a_link": int((through >= 0).sum()),
        "superseded": sorted(ids[p] for p in cand[superseded].tolist()),
        "corrected": {ids[cand_l[k]]: new for k, new in corrected.items()},
        "correctors_first": [],
        "time_window": window.as_dict() if window is not None else None,
        "outside_time_window": int(outside.sum()), "in_time_window": int(in_period.sum()),
        "demotes_outside": demotes, "properties_by_name_only": named_only,
        "period_source": own_rule, "period_words": period_words, "replies": int((reply_of >= 0).sum()),
        "formula": FORMULA_VERSION,
    }
    trace.append(rerank_trace)

    if decision.intent is Intent.WHY and len(results) > 1:
        ranked_ids = [s.id for s in results]
        causal = _causal_pairs(snap, [pos[i] for i in ranked_ids])
        # a corrector before what it corrects, as a cause before its effect
        # (by the rank each had: the memories in only through a link stay below the matched ones they follow)
        order = topo_order(ranked_ids, [*causal, *lifts], ranked_by)
        by_id = {s.id: s for s in results}
        results = [by_id[i] for i in order]
        trace.append({"stage": "causal_order", "edges": len(causal), "order": order[:limit]})
    # a section that only repeats observations shown leaves the list: the same line once
    results, rerank_trace["folded_into_observations"] = (
        fold_repeated_sections(store, results, pool_rows, limit) if fold_sections else (results[:limit], {}))
    shown = {s.id for s in results}
    if lifts:  # what a result says it corrects, and the trace's pairs, are among the results shown
        results = [replace(s, corrects=tuple(i for i in s.corrects if i in shown)) if s.corrects else s
                   for s in results]
        rerank_trace["correctors_first"] = [[new, old] for new, old in lifts if new in shown and old in shown]
    rows = {**{s.id: pool_rows[s.id] for s in results if s.id in pool_rows},
            **store.get_nodes([s.id for s in results if s.id not in pool_rows])}

    if touch and results:
        record_access(rt, [s.id for s in results], "recall",
                      {"query": query[:200], "hits": len(results), "intent": decision.intent.value})
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
# the payload comment `resolve` ends an evidence pack with, ingested with the pack's last section (as in
# `context.without_resolution_payload`, which recall does not load)
_PACK_PAYLOAD = re.compile(r"\n*<!--[ \t]*mneme-research-resolution(?:-b64)?:.*?-->", re.S)


def result_text(content: str, terms: frozenset[str]) -> dict[str, Any]:
    """A result's `content` in a recall or search list: whole up to what `remember` keeps (so any memory written
    so reads as before); a longer one (a vault section can be megabytes) the part holding the query's `terms`,
    marked `truncated`, with its whole length in `chars` (`show` reads it whole). An evidence pack's payload
    comment is left out: kilobytes of base64 in the text an agent reads."""
    if "mneme-research-resolution" in content:
        content = _PACK_PAYLOAD.sub("", content)
    if len(content) <= RESULT_TEXT_CHARS:
        return {"content": content}
    return {"content": marked_window(content, RESULT_TEXT_CHARS, terms), "truncated": True, "chars": len(content)}


def _detail_command() -> str:
    """How to read a result whole: the command, or for a caller of the servers the `show` tool."""
    return step("mnemon show <id>", 'show {"id": <id>}')


def _with_detail_command(payload: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    if any(row.get("truncated") for row in rows):
        payload["detail_command"] = _detail_command()
    return payload


def insight_dict(n: Memory, *, full: bool, terms: frozenset[str] = frozenset()) -> dict[str, Any]:
    if not full:
        return {"id": n.id, **result_text(n.content, terms), "category": n.category, "importance": n.importance,
                "source": n.source, "created_at": n.created_at}
    return {"id": n.id, **result_text(n.content, terms), "category": n.category, "importance": n.importance,
            "tags": list(n.tags), "entities": list(n.entities), "source": n.source, "access_count": n.access_count,
            "created_at": n.created_at, "updated_at": n.updated_at}


def _flags(s: Scored) -> dict[str, Any]:
    """What a result says only when it holds: superseded (and by which newer result's correction, when no link
    says so), the results it corrects (ranked below it), outside the query's period, the reply to a question."""
    return {**({"superseded": True} if s.superseded else {}),
            **({"corrected_by": s.corrected_by} if s.corrected_by else {}),
            **({"corrects": list(s.corrects)} if s.corrects else {}),
            **({"outside_time_window": True} if s.outside_window else {}),
            **({"reply_to": s.reply_to} if s.reply_to else {}),
            **({"through": s.through} if s.through else {})}


def to_payload(out: RecallOutcome, *, verbose: bool = False, brief: bool = False, excerpt_chars: int = 240,
               explain: bool = False) -> dict[str, Any]:
    intent = out.intent.intent.value
    if brief:
        payload: dict[str, Any] = {"results": [
            {"id": s.id, "excerpt": excerpt(out.nodes[s.id].content, excerpt_chars),
             "category": out.nodes[s.id].category, **scored_as_shown(s.score, 3),
             # an explanation asked for says why each score is what it is, excerpts or not
             **({"via": s.via, "signals": s.signals.as_dict()} if explain else {}), **_flags(s)}
            for s in out.results],
            "detail_command": _detail_command()}
    else:
        terms = frozenset(tokens(out.query))
        rows = [{"insight": insight_dict(out.nodes[s.id], full=verbose, terms=terms), **scored_as_shown(s.score, 4),
                 "intent": intent, "via": s.via, "signals": s.signals.as_dict(), **_flags(s)} for s in out.results]
        payload = _with_detail_command({"results": rows}, [row["insight"] for row in rows])
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
    """The legacy LIKE mode: substring match, importance then recency, as a bare array (upstream's shape). An empty
    query lists every memory in that order: upstream's browse call (`--readonly recall "" --basic`)."""
    if not isinstance(query, str):
        raise InvalidInput("query must be a string")
    if len(query) > MAX_QUERY_CHARS:  # a long LIKE pattern is "too complex" for SQLite
        raise InvalidInput(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    check_query_text(query)
    check_limit(limit)
    hits = rt.store.like_search(query.strip(), limit)
    if hits:
        record_access(rt, [h.id for h in hits], "recall:basic", {"query": query[:200], "hits": len(hits)})
    return [h.to_dict() for h in hits]


def keyword_only(rt: Runtime, query: str, *, limit: int = 10, brief: bool = False,
                 excerpt_chars: int = 240) -> dict[str, Any]:
    """`mnemon search`: FTS5/BM25 keyword search, no graph, no vectors."""
    if not query.strip():
        raise InvalidInput("query must be a non-empty string")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    check_query_text(query)
    check_limit(limit)
    hits = rt.store.keyword_search(tokens(query), limit, tag_words=tag_query_words(query))
    nodes = rt.store.get_nodes([i for i, _ in hits])
    if hits:
        record_access(rt, [i for i, _ in hits], "search", {"query": query[:200], "hits": len(hits)})
    top = max((s for _, s in hits), default=1.0) or 1.0
    terms = frozenset(tokens(query))
    rows = []
    for i, s in hits:
        n = nodes[i]
        row: dict[str, Any] = {"id": i, "category": n.category, "importance": n.importance, "tags": list(n.tags),
                               "score": round(s / top, 4)}
        row.update({"excerpt": excerpt(n.content, excerpt_chars)} if brief else result_text(n.content, terms))
        rows.append(row)
    return _with_detail_command({"results": rows}, rows)
