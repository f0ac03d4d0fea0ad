"""What a `retrieve --as-of T` replay reads: the store as it stood at T, worked out from today's rows and what
they recorded of their past. Recall reads today's graph snapshot and indexes; a `Replay` (one per recall) corrects
what it reads of them:

* rows created after T are no node (`gone`): no anchor, step, candidate, neighbour or count;
* rows forgotten after T are back (`revived`). Forgetting took a memory out of the keyword, entity and vector
  indexes but kept its row, its text (no command edits a memory's text) and its vectors: each anchor ranking takes
  it back where it ranks, and so do the walk and the re-ranking. Its keyword rank is an estimate — FTS5 keeps no
  row of it to score, so it ranks by the IDF of the query words it holds — which matters only past the ranking's
  cut (20 anchors);
* each node the beam reaches has its out-edges of T (`app/edge_history.py`): made by then, between rows of then,
  with the status and strength they had — an edge killed or retired since is walked, one validated or promoted
  since is not, one weakened since has its old strength. Every later stage reads only the out-edges of the nodes
  the beam reached (candidates, their support, replies, causal order), so they are checked lazily, and the beam is
  walked again until it reaches no node whose edges differ — usually once;
* a memory is superseded at T by a supersedes edge active then from a row of then.

Document counts of the keyword index's BM25 (FTS5's own statistics, used to order its matches) stay today's.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from ..core.model import Edge, Memory, iso, parse_iso
from ..core.recall.params import ANCHOR_POSTING_BUDGET
from ..core.recall.rerank import idf
from ..core.text import rarest_terms
from ..ports.graph_index import GraphSnapshot
from ..ports.store.base import MemoryFilter, Store
from ..ports.store.history_reads import forgotten_after, revived_after, vectors_of
from ..ports.vector_index import cosines
from .edge_history import EdgeAt, read_states
from .recall_graph import ArrayBeam, PositionSimilarities

if TYPE_CHECKING:
    from ..ports.vector_index import QueryScores

# snapshot memo entries that do not depend on the edges (the first four depend on the edge classes): a replay's
# view of the graph keeps them
_EDGE_FREE_MEMO = ("graphs", "type_rank", "carry", "sigma", "entity_code")
_CLASS_FREE_MEMO = ("entity_code",)
_VAULT = "vault:"


def later_nodes(snap: GraphSnapshot, bound: str) -> np.ndarray | None:
    """Which nodes were created after `bound` (an ISO instant, compared as the store's queries compare it); None
    when none was. Kept with the snapshot: its nodes never change."""
    key = ("later", bound)
    if key not in snap.memo:
        for old in [k for k in snap.memo if isinstance(k, tuple) and k[0] == "later"]:
            del snap.memo[old]
        later = np.array(snap.created, dtype=str) > bound if len(snap) else np.zeros(0, dtype=bool)
        snap.memo[key] = later if later.any() else None
    found: np.ndarray | None = snap.memo[key]
    return found


def _forgotten(store: Store, snap: GraphSnapshot, bound: str) -> np.ndarray:
    """Positions of the nodes there at `bound` and forgotten since, sorted. Kept with the snapshot: a forget makes a
    new one."""
    key = ("forgotten", bound)
    if key not in snap.memo:
        for old in [k for k in snap.memo if isinstance(k, tuple) and k[0] == "forgotten"]:
            del snap.memo[old]
        pos = snap.pos
        at = sorted(p for p in (pos.get(i) for i in forgotten_after(store, bound)) if p is not None and snap.deleted[p])
        snap.memo[key] = np.array(at, dtype=np.int64)
    found: np.ndarray = snap.memo[key]
    return found


def passes(m: Memory, flt: MemoryFilter) -> bool:
    """Whether a row meets a memory filter, as the store's SQL condition on it does (`text_index_sqlite._where`)."""
    return ((not flt.kind or m.kind == flt.kind) and (not flt.category or m.category == flt.category)
            and (not flt.source or m.source == flt.source)
            and (not flt.created_from or m.created_at >= flt.created_from)
            and (not flt.created_to or m.created_at <= flt.created_to)
            and not (flt.timed_only and m.source.startswith(_VAULT))
            and (not flt.sources or m.source in flt.sources))


def search_terms(q_tokens: Sequence[str], df: Mapping[str, int], active: int, max_postings: int) -> list[str]:
    """The words a keyword search of `q_tokens` matches by: the store's own choice (both backends), spelled again
    for the rows it no longer indexes — terms in more than a quarter of the memories only when nothing rarer is
    left, the rarest within a posting budget."""
    terms = [t for t in dict.fromkeys(q_tokens) if t]
    if len(terms) > 1:
        common = max(50, active // 4)
        rare = [t for t in terms if df.get(t, 0) <= common]
        terms = rare if any(df.get(t, 0) for t in rare) else terms
        terms = rarest_terms(terms, df, len(terms), max_postings)
    return [t for t in terms if df.get(t, 0) > 0]


@dataclass
class RevivedSimilarities(PositionSimilarities):
    """`PositionSimilarities` with the calibrated cosines of forgotten rows (`at`, sorted positions), which the
    vector index no longer holds."""
    at: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    values: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float64))

    def __getitem__(self, nodes: np.ndarray) -> np.ndarray:
        out = super().__getitem__(nodes)
        hit = np.isin(nodes, self.at)
        if hit.any():
            out[hit] = self.values[np.searchsorted(self.at, nodes[hit])]
        return out


@dataclass
class Replay:
    store: Store
    full: GraphSnapshot
    as_of: datetime
    bound: str
    provider: str  # the vector index's provider identity: a forgotten row's vectors are read by it
    gone: np.ndarray  # per position: created after T
    revived: np.ndarray  # sorted positions: there at T, forgotten since
    memories: dict[str, Memory]  # the revived memories' rows
    classes: list[tuple[str, str]]
    # removed at T and brought back since (`forget --undo`, an import's revival): live rows the indexes find
    absent: frozenset[str] = frozenset()
    overrides: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)
    _tokens: dict[str, frozenset[str]] = field(default_factory=dict)
    _cosines: dict[str, float] | None = None

    @classmethod
    def of(cls, store: Store, full: GraphSnapshot, as_of: datetime, provider: str) -> Replay:
        bound = iso(as_of)
        later = later_nodes(full, bound)
        gone = later.copy() if later is not None else np.zeros(len(full), dtype=bool)
        revived = _forgotten(store, full, bound)
        absent = frozenset(i for i in revived_after(store, bound) if i in full.pos)
        if absent:  # (forgotten again since, it still was not there at T)
            at = np.array(sorted(full.pos[i] for i in absent), dtype=np.int64)
            gone[at] = True
            revived = np.setdiff1d(revived, at)
        memory = full.code_of("kinds", "memory")
        ids = [full.ids[p] for p in revived.tolist() if full.kind[p] == memory]
        memories = {i: m for i, m in store.get_nodes(ids).items() if m.kind == "memory"} if ids else {}
        return cls(store, full, as_of, bound, provider, gone, revived, memories, list(full.classes), absent=absent)

    # ── counts and anchors ───────────────────────────────────────────────────────────────────────────────────
    @property
    def later_memories(self) -> int:
        """Live memories created after T."""
        full = self.full
        return int(np.count_nonzero(self.gone & ~full.deleted & (full.kind == full.code_of("kinds", "memory"))))

    def active(self, now: int) -> int:
        """The memories live at T, from `now` live today."""
        return now - self.later_memories + len(self.memories)

    def tokens(self, node_id: str) -> frozenset[str]:
        """A forgotten row's words, as the snapshot holds them (the keyword index no longer does)."""
        found = self._tokens.get(node_id)
        if found is None:
            p = self.full.pos[node_id]
            lo, hi = int(self.full.tok_indptr[p]), int(self.full.tok_indptr[p + 1])
            found = self._tokens[node_id] = frozenset(self.full.vocab[t] for t in self.full.tok[lo:hi].tolist())
        return found

    def known(self, candidates: set[str]) -> set[str]:
        """The entities among `candidates` a row of T holds: a live one created by then, or one forgotten since (a
        name only a later memory introduced is no entity of a replayed query)."""
        store = self.store
        found = {e for e in store.known_entities(candidates) if store.entity_holders(e, 1, until=self.bound)}
        return found | {e for m in self.memories.values() for e in m.entities if e in candidates}

    def doc_freq(self, terms: list[str]) -> dict[str, int]:
        """Document counts of `terms` among the memories of T: the keyword index counts every row it holds, so
        when later memories exist each word's memories of then are counted by a search (only words some memory
        holds); the forgotten rows it no longer holds are added."""
        store = self.store
        if self.later_memories:
            at = MemoryFilter(created_to=self.bound)
            df = {t: len(store.keyword_search([t], n, at)) if n else 0 for t, n in store.token_doc_freq(terms).items()}
        else:
            df = dict(store.token_doc_freq(terms))
        for node_id in self.memories:
            held = self.tokens(node_id)
            for t in terms:
                if t in held:
                    df[t] = df.get(t, 0) + 1
        return df

    def keyword(self, hits: list[tuple[str, float]], q_tokens: list[str], df: Mapping[str, int], flt: MemoryFilter,
                limit: int, active_now: int, total: int) -> list[str]:
        """The keyword anchors of T: the index's `hits` with the forgotten rows that match merged in."""
        rows = [i for i, m in self.memories.items() if passes(m, flt)]
        terms = search_terms(q_tokens, df, active_now, ANCHOR_POSTING_BUDGET) if rows else []
        scored = [(i, sum(idf(df[t], total) for t in terms if t in self.tokens(i))) for i in rows]
        hits = [h for h in hits if h[0] not in self.absent]
        merged = sorted(hits + [h for h in scored if h[1] > 0], key=lambda h: -h[1])  # stable: the index's order
        return [i for i, _ in merged[:limit]]

    def cosines(self, scores: QueryScores) -> dict[str, float]:
        """The query's cosine with each forgotten memory's vector (read from the store once)."""
        if self._cosines is None:
            self._cosines = {}
            q = np.asarray(scores.query, dtype=np.float32)
            found = vectors_of(self.store, list(self.memories), self.provider) if self.memories else {}
            kept = [(i, v) for i, v in found.items() if v.shape == q.shape]
            if kept:
                sims = cosines(np.stack([v for _, v in kept]), q)  # the floats the index gives a live row
                self._cosines = {i: float(c) for (i, _), c in zip(kept, sims.tolist())}
        return self._cosines

    def vector(self, top: list[tuple[str, float]], scores: QueryScores, flt: MemoryFilter,
               limit: int) -> list[tuple[str, float]]:
        """A vector ranking of T: `top` with the forgotten rows inside `flt` merged in (ties by id, as the index)."""
        extra = [(i, c) for i, c in self.cosines(scores).items() if passes(self.memories[i], flt)]
        top = [p for p in top if p[0] not in self.absent]
        if not extra:
            return top
        return sorted(top + extra, key=lambda p: (-p[1], p[0]))[:limit]

    def recent(self, ids: list[str], flt: MemoryFilter, limit: int) -> list[str]:
        """A newest-first ranking of T: `ids` with the forgotten rows inside `flt` merged in (created_at, then
        insertion order: snapshot positions follow it)."""
        extra = [i for i, m in self.memories.items() if passes(m, flt)]
        ids = [i for i in ids if i not in self.absent]
        if not extra:
            return ids
        pos, created = self.full.pos, self.full.created
        return sorted(ids + extra, key=lambda i: (created[pos[i]], pos[i]), reverse=True)[:limit]

    def entity(self, hits: list[tuple[str, int]], entities: Iterable[str], flt: MemoryFilter,
               limit: int) -> list[str]:
        """The entity ranking of T: most of `entities` held first, then newest, then by id (the store's order)."""
        wanted = set(entities)
        extra = [(i, len(wanted & set(m.entities))) for i, m in self.memories.items() if passes(m, flt)]
        extra = [h for h in extra if h[1]]
        hits = [h for h in hits if h[0] not in self.absent]
        if not extra:
            return [i for i, _ in hits]
        pos, created = self.full.pos, self.full.created
        merged = sorted(hits + extra, key=lambda h: h[0])
        merged.sort(key=lambda h: created[pos[h[0]]], reverse=True)
        merged.sort(key=lambda h: -h[1])
        return [i for i, _ in merged[:limit]]

    def similarities(self, sims: PositionSimilarities, scores: QueryScores | None) -> PositionSimilarities:
        """`sims` with the forgotten memories' cosines, which the vector index no longer holds."""
        if scores is None or sims.raw is None:
            return sims
        cos = self.cosines(scores)
        if not cos:
            return sims
        at = np.array([self.full.pos[i] for i in cos], dtype=np.int64)
        order = np.argsort(at)
        values = sims.calibrate(np.array(list(cos.values()), dtype=np.float64))
        return RevivedSimilarities(sims.raw, sims.rows, sims.calibrate, at[order], values[order])

    # ── the graph of T ───────────────────────────────────────────────────────────────────────────────────────
    def view(self) -> GraphSnapshot:
        """The snapshot as the graph stood at T so far as checked: later nodes left out with their edges, forgotten
        ones back, and the out-edges of the nodes checked (`overrides`) as they were at T."""
        full = self.full
        deleted = full.deleted.copy()
        deleted[self.revived] = False
        deleted |= self.gone
        if not self.overrides and not self.gone.any():
            if not len(self.revived):
                return full
            return replace(full, deleted=deleted, memo={k: full.memo[k] for k in _EDGE_FREE_MEMO if k in full.memo})
        n = len(full)
        owner = np.repeat(np.arange(n, dtype=np.int64), np.diff(full.indptr))
        keep = ~(self.gone[owner] | self.gone[full.dst])
        if self.overrides:
            keep &= ~np.isin(owner, np.fromiter(self.overrides, dtype=np.int64, count=len(self.overrides)))
        owners, dsts, classes, weights = [owner[keep]], [full.dst[keep]], [full.cls[keep]], [full.weight[keep]]
        for p, (dst, cls, weight) in self.overrides.items():
            owners.append(np.full(len(dst), p, dtype=np.int64))
            dsts.append(dst)
            classes.append(cls)
            weights.append(weight)
        o = np.concatenate(owners)
        order = np.argsort(o, kind="stable")  # a node's edges are all kept or all replaced: their order holds
        indptr = np.zeros(n + 1, dtype=full.indptr.dtype)
        np.cumsum(np.bincount(o, minlength=n), out=indptr[1:])
        kept_memo = _EDGE_FREE_MEMO if len(self.classes) == len(full.classes) else _CLASS_FREE_MEMO
        return replace(full, deleted=deleted, indptr=indptr,
                       dst=np.concatenate(dsts).astype(full.dst.dtype)[order],
                       cls=np.concatenate(classes).astype(full.cls.dtype)[order],
                       weight=np.concatenate(weights).astype(full.weight.dtype)[order], classes=list(self.classes),
                       memo={k: full.memo[k] for k in kept_memo if k in full.memo})

    def beam(self, walk: Callable[[GraphSnapshot], ArrayBeam]) -> tuple[GraphSnapshot, ArrayBeam]:
        """The beam over the graph of T, and that graph: walked, the out-edges of the nodes it reached checked
        against T, and walked again over the corrected graph until it reaches no node whose edges differ."""
        checked: set[int] = set()
        view = self.view()
        while True:
            beam = walk(view)
            fresh = [p for p in beam.scores if p not in checked]
            checked.update(fresh)
            changed = self._edges_at(fresh, view)
            if not changed:
                return view, beam
            self.overrides.update(changed)
            view = self.view()

    def _existed(self, e: Edge) -> bool:
        return not (e.created_at and parse_iso(e.created_at) > self.as_of)

    def _edges_at(self, nodes: list[int], view: GraphSnapshot) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The out-edges at T (dst, class, weight, in edge-id order) of those of `nodes` whose edges in `view`
        differ from them. The snapshot keeps no edge times nor other statuses: the store is asked, for these only."""
        if not nodes:
            return {}
        full, pos = self.full, self.full.pos
        edges = [e for e in self.store.edges_of([full.ids[p] for p in nodes], statuses=(), direction="out")
                 if self._existed(e) and e.dst in pos and not self.gone[pos[e.dst]]]
        states = read_states(self.store, edges, self.as_of, self.bound)
        by_src: dict[int, list[Edge]] = {}
        for e in edges:
            by_src.setdefault(pos[e.src], []).append(e)
        code = {c: k for k, c in enumerate(self.classes)}
        out: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for p in nodes:
            then: list[tuple[int, int, float]] = []
            for e in sorted(by_src.get(p, ()), key=lambda e: int(e.id or 0)):
                state: EdgeAt | None = states.get(int(e.id or 0))
                if (state.status if state is not None else e.status) != "active":
                    continue
                key = (e.type, e.sub_type)
                if key not in code:  # a relation only an edge since killed or retired had
                    code[key] = len(self.classes)
                    self.classes.append(key)
                then.append((pos[e.dst], code[key], state.weight if state is not None else e.weight))
            lo, hi = int(view.indptr[p]), int(view.indptr[p + 1])
            dst = np.array([d for d, _, _ in then], dtype=full.dst.dtype)
            cls = np.array([c for _, c, _ in then], dtype=full.cls.dtype)
            weight = np.array([w for _, _, w in then], dtype=full.weight.dtype)
            if not (np.array_equal(dst, view.dst[lo:hi]) and np.array_equal(cls, view.cls[lo:hi])
                    and np.array_equal(weight, view.weight[lo:hi])):
                out[p] = (dst, cls, weight)
        return out

    def superseded(self, ids: Sequence[str]) -> set[str]:
        """Of `ids`, those a supersedes edge active at T, from a row of T, pointed at (made since, killed since, or
        from a memory written since: none of that had happened)."""
        if not ids:
            return set()
        pos = self.full.pos
        edges = [e for e in self.store.edges_of(list(ids), statuses=(), types=("supersedes",), direction="in")
                 if self._existed(e) and e.src in pos and not self.gone[pos[e.src]]]
        states = read_states(self.store, edges, self.as_of, self.bound)
        return {e.dst for e in edges
                if (states[int(e.id or 0)].status if int(e.id or 0) in states else e.status) == "active"}
