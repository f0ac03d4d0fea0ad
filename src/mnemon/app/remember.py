"""The write pipeline of `remember` (seed §5.1): validate → exact-duplicate check → embed → advisory diff →
one transaction (insert, vector, four graphs, effective importance, auto-prune) → candidates for the agent."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any


from ..core import graph_rules
from ..core.causal import causal_cue, suggest_sub_type
from ..core.cue_words import CHANGE_SAID
from ..core.diff import DiffMatch, correction_reason, correction_terms, corrections, diff_suggestion
from ..core.diff_handover import handover, hands_over
from ..core.diff_updates import superseding_update
from ..core.errors import ReadOnly
from ..core.entities import extract_entities, merge_entities, spelt_as_known
from ..core.graph import bfs
from ..core.importance import HALF_LIFE_DAYS, effective_importance
from ..core.keywords import keyword_text_of
from ..core.model import SOURCED_PREFIXES, Edge, Memory, content_hash, iso, parse_iso
from ..core.surface import step, store_read_only
from ..core.text import overlap_max, token_set, tokens
from ..core.validation import MemoryInput
from ..ports.store.base import TIMED, Store
from .runtime import Runtime

DIFF_LIMIT = 5
DIFF_MIN_COSINE = 0.7
CANDIDATE_BAND = (0.40, 0.80)
CANDIDATE_TOP = 5
NEAREST = CANDIDATE_TOP + 8  # vector neighbours fetched once per write: candidates are the band below auto-links
OVERLAP_CANDIDATE_MIN = 0.10
CAUSAL_CANDIDATE_LIMIT = 10
PRUNE_BATCH = 10
PRUNE_COUNT_CHUNK = 32  # memories whose edges auto-prune counts at a time (`lowest_importance`)
CORRECTED_LOOKUP = 20  # memories a correction's words are looked up in, to find the one it retires
KEYWORD_TERMS = 8  # the rarest words of a new memory are enough to find its near-duplicates and neighbours


@dataclass
class WriteOutcome:
    memory: Memory
    edges_created: dict[str, int]
    pruned_ids: list[str]
    touched: list[str]
    edges: list[Edge]


def _empty_counts() -> dict[str, int]:
    return {"temporal": 0, "entity": 0, "causal": 0, "semantic": 0}


def _advisory(rt: Runtime, content: str, vector: np.ndarray | None, keyword_ids: list[str],
              nearest: Sequence[tuple[str, float]]) -> tuple[str, list[DiffMatch]]:
    """ADD/UPDATE/CONFLICT/DUPLICATE against the closest active memories (keyword top 5 + vector top 5), and, for a
    correction ("moved from Lisbon to Porto"), the top 5 by its subject and retired value."""
    ids = list(keyword_ids[:DIFF_LIMIT])
    probe = correction_terms(content)
    if probe:
        # the old fact shares only the subject and the value; a long correction's rarest words may miss both
        ids += [i for i, _ in rt.store.keyword_search(probe, DIFF_LIMIT) if i not in ids]
    cosines: dict[str, float] = {}
    if vector is not None:
        for i, cos in nearest[:DIFF_LIMIT]:
            c = rt.calibrate(cos)
            if c >= DIFF_MIN_COSINE:
                cosines[i] = c
                if i not in ids:
                    ids.append(i)
        cosines.update({i: rt.calibrate(c) for i, c in rt.index.similarities(vector, ids).items()})
    nodes = rt.store.get_nodes(ids)
    cands = [(i, nodes[i].content, cosines.get(i)) for i in ids if i in nodes]
    return diff_suggestion(content, cands, {i: nodes[i].created_at for i in ids if i in nodes})


def write_memory(rt: Runtime, inp: MemoryInput, vector: np.ndarray | None, *, node_id: str | None = None,
                 temporal: bool = True, prune: bool = True, origin: str = "remember",
                 protect: tuple[str, ...] = (), nearest: Sequence[tuple[str, float]] | None = None) -> WriteOutcome:
    """Insert one memory and grow the graph around it. Call inside `rt.store.transaction()`.

    `nearest` is the vector index's answer for `vector` (raw cosines, best first) when the caller already asked it.

    Every edge rule reads what it needs first; then the node, its vector and all its edges are written in a few
    batched statements, so a write costs the same handful of queries at 1k or 100k memories.
    """
    store = rt.store
    now = rt.now_iso()
    created = inp.created_at or now
    extracted = (extract_entities(inp.content, known=store.known_entities, name_heads=store.name_heads())
                 if inp.entity_mode != "provided" else [])
    # a name given in another case than the store's is the stored one ("alice chen" for "Alice Chen")
    provided = spelt_as_known(inp.entities, store.known_entities) if inp.entities and inp.entity_mode != "auto" else ()
    entities = merge_entities(provided, extracted, inp.entity_mode)[:50]
    mem = Memory(id=node_id or str(uuid.uuid4()), content=inp.content, category=inp.category,
                 importance=inp.importance, tags=inp.tags, entities=tuple(entities), source=inp.source,
                 created_at=created, updated_at=now, inserted_at=now)

    edges: list[Edge] = []
    if temporal:
        edges += _temporal(rt, mem, now)
    # the holders as of this memory's own time: a backdated write or an import of old history links to its
    # contemporaries, instead of every write piling onto the newest holders and turning them into hubs; short of
    # those, the first holders after it (their writes could not link to a memory that was not there yet)
    holders: dict[str, list[str]] = {}
    for entity in entities:
        got = holders[entity] = store.entity_holders(entity, graph_rules.ENTITY_LINKS_PER_ENTITY, exclude=[mem.id],
                                                     until=mem.created_at)
        if len(got) < graph_rules.ENTITY_LINKS_PER_ENTITY:
            got += store.entity_holders(entity, graph_rules.ENTITY_LINKS_PER_ENTITY - len(got), exclude=[mem.id],
                                        after=mem.created_at)
    edges += graph_rules.entity_edges(mem.id, holders, now)
    recent = store.recent_memories(graph_rules.CAUSAL_LOOKBACK, source=mem.source, exclude=[mem.id],
                                   until=mem.created_at)
    # and the ones after it: their writes looked back for causes before this memory existed, so the pairs a write
    # in time order would have linked are linked here (the graph is a function of the memories' times, not of
    # the order they arrived in); empty, and a cheap indexed probe, for the usual write dated now
    later = store.recent_memories(graph_rules.CAUSAL_LOOKBACK, source=mem.source, exclude=[mem.id],
                                  after=mem.created_at)
    edges += graph_rules.causal_edges(mem, recent, now, tokens_of=rt.tokens_of, later_same_source=later)
    if vector is not None:
        found = nearest if nearest is not None else rt.index.search(vector, graph_rules.SEMANTIC_TOP)
        similar = [(i, rt.calibrate(c)) for i, c in found[:graph_rules.SEMANTIC_TOP]]
        edges += graph_rules.semantic_edges(mem.id, similar, now)

    # the new row's effective importance, with the edges it is about to get (both directions count)
    ei = effective_importance(mem.importance, 0, mem.created_at, len(edges), rt.now())
    mem = replace(mem, effective_importance=ei)
    store.insert_node(mem, keyword_text_of(mem))
    if entities:
        store.index_entities(mem.id, entities, created)
    if vector is not None:
        gen_before = store.vector_generation()
        store.put_vector(mem.id, rt.provider.identity(), vector, mem.content_hash, now)
        rt.index.note_write(mem.id, vector, gen_before)
    store.insert_edges(edges, origin=None if origin == "remember" else origin)

    counts = _empty_counts()
    for e in edges:
        # one per relationship: the reverse direction of a symmetric edge is not counted twice
        if e.src == mem.id or (e.type == "causal" and e.dst == mem.id):
            counts[e.type] = counts.get(e.type, 0) + 1
    store.log("remember" if origin == "remember" else origin, mem.id,
              {**rt.audit(mem.content), "category": mem.category, "source": mem.source}, now)
    pruned = auto_prune(rt, protect=(mem.id, *protect)) if prune else []
    touched = sorted({e.dst if e.src == mem.id else e.src for e in edges})
    return WriteOutcome(mem, counts, pruned, touched, edges)


def _temporal(rt: Runtime, mem: Memory, now: str) -> list[Edge]:
    prev = rt.store.latest_by_source(mem.source, exclude=mem.id, before=mem.created_at)
    nxt = rt.store.next_by_source(mem.source, after=mem.created_at, exclude=mem.id)
    t = parse_iso(mem.created_at)
    window = timedelta(hours=graph_rules.PROXIMITY_HOURS)
    nearby = rt.store.recent_memories(graph_rules.PROXIMITY_MAX + 2, since=iso(t - window), until=iso(t + window),
                                      exclude=[mem.id] + ([nxt.id] if nxt is not None else []), flt=TIMED)
    edges = graph_rules.temporal_edges(mem, prev, nearby, now)
    if nxt is not None:
        # a backdated write is spliced into its source's chain: prev ↔ new ↔ next replaces prev ↔ next
        edges += graph_rules.backbone_pair(mem, nxt, now)
        if prev is not None:
            for a, b in ((prev.id, nxt.id), (nxt.id, prev.id)):
                old = rt.store.find_edge(a, b, "temporal")
                if old is not None and old.sub_type in graph_rules.BACKBONE_STEPS and old.status == "active":
                    rt.store.set_edge_status(old.id or 0, "retired", actor="remember",
                                             reason=f"backbone re-spliced around {mem.id}")
    return edges


def _chain_neighbours(rt: Runtime, mem: Memory) -> tuple[Memory, Memory] | None:
    """The live memories of `mem`'s source just before and just after it, as its backbone steps name them; None
    unless it has both."""
    steps = [e for e in rt.store.edges_of([mem.id], types=("temporal",), direction="out")
             if e.sub_type in graph_rules.BACKBONE_STEPS]
    if len(steps) < 2:
        return None
    nodes = rt.store.get_nodes([e.dst for e in steps])
    before: list[Memory] = []
    after: list[Memory] = []
    for e in steps:
        n = nodes.get(e.dst)
        if n is None or n.deleted_at is not None or n.source != mem.source:
            continue
        # the step's own direction says which side it is on (two memories of one instant are ordered by it)
        side = e.metadata.get("direction") or ("succeeds" if n.created_at <= mem.created_at else "precedes")
        (before if side == "succeeds" else after).append(n)
    if not before or not after:
        return None
    return max(before, key=lambda n: n.created_at), min(after, key=lambda n: n.created_at)


def rejoin_backbone(rt: Runtime, leaving: Memory, actor: str, *, dry_run: bool = False) -> int:
    """The memories on either side of `leaving` in its source's chain, which a forget or auto-prune is about to take
    out of it, get the backbone steps a write in time order gives two consecutive memories: `_temporal`'s splice
    undone (the prev ↔ next steps it retired come back, with an event), a proximity edge between them turned into
    the step, or new steps. Without it they stayed cut apart for good. Call before `leaving`'s edges are retired;
    a step a person killed stays killed. Returns the edges made active (a dry run: would make, writing nothing)."""
    pair = _chain_neighbours(rt, leaving)
    if pair is None:
        return 0
    earlier, later = pair
    now = rt.now_iso()
    reason = REJOINED_REASON + leaving.id
    fresh: list[Edge] = []
    made = 0
    for step in graph_rules.backbone_pair(earlier, later, now):
        held = rt.store.find_edge(step.src, step.dst, "temporal")
        if held is None:
            fresh.append(step)
        elif held.status == "killed" or (held.status == "active" and held.sub_type in graph_rules.BACKBONE_STEPS):
            continue
        elif dry_run:
            made += 1
        elif held.sub_type in graph_rules.BACKBONE_STEPS:
            rt.store.set_edge_status(held.id or 0, "active", actor=actor, reason=reason, when=now,
                                     previous=held.status)
            made += 1
        else:  # (one temporal edge a pair: consecutive memories hold the step, never proximity, as a write makes it)
            rt.store.upsert_edge(replace(step, created_at=held.created_at, updated_at=now), actor=actor,
                                 event="rejoined", reason=reason)
            made += 1
    if not dry_run:
        rt.store.insert_edges(fresh)
    return made + len(fresh)


REJOINED_REASON = "backbone re-joined around "  # how each step `rejoin_backbone` makes active says why


def split_rejoined(rt: Runtime, back: Memory, actor: str, why: str) -> int:
    """`rejoin_backbone` undone around `back`, a memory in its source's chain again (revived, its own steps active
    once more). A write only ever steps between consecutive memories, so an active step of `back`, or of its live
    neighbours, that skips a live memory of the source is a re-join's: each forget of neighbours re-joined over the
    last (A ↔ C, then A ↔ D), and undoing them left or brought back such steps, so A stepped forward to B, C and D.
    Each is retired — or, where the re-join turned a proximity edge into the step, turned back into that edge — with
    an event naming `back` and `why`; a step a person decided on stays. Returns the edges changed."""
    around = [back, *(n for n in (rt.store.latest_by_source(back.source, exclude=back.id, before=back.created_at),
                                  rt.store.next_by_source(back.source, after=back.created_at, exclude=back.id))
                      if n is not None)]
    now = rt.now_iso()
    reason = f"backbone re-split around {back.id}: {why}"
    changed = 0
    seen: set[int] = set()
    for node in around:
        for step in rt.store.edges_of([node.id], types=("temporal",), direction="out"):
            if step.sub_type not in graph_rules.BACKBONE_STEPS or step.id in seen:
                continue
            other = rt.store.get_node(step.dst)
            if other is None or other.source != node.source or not _skips_a_memory(rt, node, other):
                continue
            for held in (step, rt.store.find_edge(step.dst, step.src, "temporal")):
                if held is None or held.id in seen or held.status != "active":
                    continue
                seen.add(int(held.id or 0))
                changed += _split_step(rt, held, node if held is step else other, other if held is step else node,
                                       actor, reason, now)
    return changed


def _skips_a_memory(rt: Runtime, a: Memory, b: Memory) -> bool:
    """Whether a live memory of their source lies strictly between `a` and `b` in time."""
    first, last = (a, b) if a.created_at <= b.created_at else (b, a)
    between = rt.store.next_by_source(first.source, after=first.created_at, exclude=first.id)
    return between is not None and between.id != last.id and between.created_at < last.created_at


def _split_step(rt: Runtime, held: Edge, src: Memory, dst: Memory, actor: str, reason: str, now: str) -> int:
    """One skipping step retired, or turned back into the proximity edge a re-join made it from; 0 for a step a
    person decided on."""
    events = rt.store.edge_events(int(held.id or 0))
    if any(e["event"] in ("validated", "weakened") or e["actor"] in ("user", "agent") for e in events):
        return 0
    # the proximity edge a write gives the pair (none past PROXIMITY_HOURS), as the re-join found it
    later, earlier = (dst, src) if src.created_at <= dst.created_at else (src, dst)
    proximity = {(e.src, e.dst): e for e in graph_rules.temporal_edges(later, None, [earlier], now)}
    was = proximity.get((held.src, held.dst))
    if was is not None and any(e["event"] == "rejoined" for e in events):
        rt.store.upsert_edge(replace(was, created_at=held.created_at, updated_at=now), actor=actor,
                             event="resplit", reason=reason)
    else:
        rt.store.set_edge_status(int(held.id or 0), "retired", actor=actor, reason=reason, when=now,
                                 previous=held.status)
    return 1


def refresh_importance(rt: Runtime, ids: list[str]) -> dict[str, float]:
    """The effective importance of the memories among `ids`, stored."""
    nodes = rt.store.get_nodes(ids)
    counts = rt.store.edge_counts(list(nodes))
    now = rt.now()
    values = {
        i: effective_importance(n.importance, n.access_count, n.last_accessed_at or n.created_at, counts.get(i, 0), now)
        for i, n in nodes.items() if n.kind == "memory"
    }
    rt.store.set_effective_importance(values)
    return values


def lowest_importance(rt: Runtime, pool: Sequence[tuple[str, int, int, str, str]], limit: int
                      ) -> list[tuple[str, float]]:
    """(id, effective importance now) of the `limit` memories of `pool` (`Store.prune_pool` rows) whose effective
    importance is lowest now — oldest first, then by id, among equals — computed, not read: the stored value is the
    one of the memory's last write or `gc`, blind to the decay, reads and links since, so the pick by it took a
    memory read twice an hour ago before one nobody had opened for a year.

    Exact without counting every memory's edges: the connection factor is at least 1, so importance, reads and decay
    alone give each memory a lower bound; memories are taken in that order, their edges counted a few dozen at a
    time, until the next bound is above the `limit`-th value found. The order is taken on the bound's logarithm,
    which needs a timestamp parse and an addition a memory (the whole formula on 100k memories took 0.5 s)."""
    now = rt.now()
    horizon = now.timestamp()
    # ln(bound) = ln(base × access factor) + ln 2 × (touched − now) / half-life, the age clamped at 0 as in the formula
    per_second = math.log(2) / (HALF_LIFE_DAYS * 86400.0)
    logs: dict[tuple[int, int], float] = {}
    order: list[tuple[float, str, str]] = []
    for mid, imp, access, touched, created in pool:
        log_base = logs.get((imp, access))
        if log_base is None:
            log_base = logs[imp, access] = math.log(effective_importance(imp, access, iso(now), 0, now))
        order.append((log_base + per_second * (min(_epoch(touched), horizon) - horizon), created, mid))
    order.sort()
    detail = {mid: (imp, access, touched) for mid, imp, access, touched, _created in pool}
    best: list[tuple[float, str, str]] = []
    for at in range(0, len(order), PRUNE_COUNT_CHUNK):
        if len(best) >= limit and math.exp(order[at][0]) > best[limit - 1][0] * (1 + 1e-9):
            break
        chunk = order[at:at + PRUNE_COUNT_CHUNK]
        counts = rt.store.edge_counts([mid for _bound, _created, mid in chunk])
        for _bound, created, mid in chunk:
            imp, access, touched = detail[mid]
            best.append((effective_importance(imp, access, touched, counts.get(mid, 0), now), created, mid))
        best = sorted(best)[:limit]
    return [(mid, ei) for ei, _created, mid in best]


def _epoch(stamp: str) -> float:
    """Seconds since the epoch of an ISO-8601 timestamp, naive ones taken as UTC (`parse_iso`'s reading, at a
    third of its cost: Python 3.11 reads a trailing Z itself)."""
    ts = datetime.fromisoformat(stamp)
    return (ts if ts.tzinfo is not None else ts.replace(tzinfo=timezone.utc)).timestamp()


def _lowest_but_corrections(rt: Runtime, pool: list[tuple[str, int, int, str, str]], limit: int
                            ) -> list[tuple[str, float]]:
    """`lowest_importance`, passing over corrections: a memory that supersedes a live one, by a link or by the
    wording recall reads as one. Pruning it retired the `supersedes` edge with it (or the wording), and recall then
    gave the fact it corrected as current, undemoted — the store forgot that the fact is stale, not only the
    correction."""
    want = limit
    checked: set[str] = set()
    keep: set[str] = set()
    while True:
        ranked = lowest_importance(rt, pool, want)
        fresh = [mid for mid, _ei in ranked if mid not in checked]  # (each looked up once: a wording costs a search)
        keep |= corrections_among(rt, fresh)
        checked.update(fresh)
        chosen = [pair for pair in ranked if pair[0] not in keep][:limit]
        if len(chosen) >= limit or len(ranked) < want:
            return chosen
        want *= 2


def corrections_among(rt: Runtime, ids: list[str]) -> set[str]:
    """Those of `ids` that keep a live memory demoted: by a `supersedes` link, or by wording recall reads as one
    ("Mira moved from Lisbon to Porto" retires an older "Mira lives in Lisbon", `rerank.corrected_by`)."""
    edges = rt.store.edges_of(ids, types=("supersedes",), direction="out") if ids else []
    live = rt.store.get_nodes(sorted({e.dst for e in edges}))
    linked = {e.src for e in edges if e.dst in live and live[e.dst].deleted_at is None}
    return linked | _worded_corrections(rt, [i for i in ids if i not in linked])


def _worded_corrections(rt: Runtime, ids: list[str]) -> set[str]:
    """Those of `ids` whose wording retires a live memory written before them: a correction, a hand-over or a change
    said ("The API rate limit is now 250"), as recall reads them (`rerank.corrected_by`)."""
    out: set[str] = set()
    for mem in rt.store.get_nodes(ids).values():
        found = corrections(mem.content)
        if not found and not hands_over(mem.content) and not CHANGE_SAID.said_in(mem.content):
            continue  # (no wording that retires anything: no lookup)
        # the old fact shares the subject and the retired value: looked up by them, as the diff does; a hand-over or
        # a new value names no retired one, and shares the rest of the old fact's words
        terms = correction_terms(mem.content) if found else tokens(mem.content)
        olds = rt.store.get_nodes([i for i, _ in rt.store.keyword_search(terms, CORRECTED_LOOKUP) if i != mem.id])
        if any(old.deleted_at is None and old.created_at < mem.created_at and (
                correction_reason(found, old.content) or handover(mem.content, old.content)
                or superseding_update(mem.content, old.content)) for old in olds.values()):
            out.add(mem.id)
    return out


def grace_cutoff(now: datetime, grace_s: float) -> str | None:
    """The latest insertion time a memory may have for auto-prune to take it; None when the grace period reaches
    back past any date — a config's "never by age" (`prune_min_age: 999999999d`, or 1e300 seconds) overflowed the
    date range, and every write over the cap failed with nothing stored."""
    try:
        return iso(now - timedelta(seconds=grace_s))
    except OverflowError:
        return None


def prune_plan(rt: Runtime, protect: tuple[str, ...], adding: int = 0) -> list[tuple[str, float]]:
    """The memories (with their effective importance) auto-prune takes once `adding` more memories are stored — the
    new ones themselves are never taken (inside their grace period, or in `protect`). Reads only: a dry run asks it."""
    if rt.max_insights <= 0 or rt.store.count_active() + adding <= rt.max_insights:  # (the O(1) count first)
        return []
    # a vault's rows are not the writer's to prune; only up to a batch over the cap matters
    excess = rt.store.count_prunable(rt.max_insights + PRUNE_BATCH) + adding - rt.max_insights
    if excess <= 0:
        return []
    cutoff = grace_cutoff(rt.now(), rt.prune_min_age_s)
    if cutoff is None:
        return []
    return _lowest_but_corrections(rt, rt.store.prune_pool(cutoff, protect), min(excess, PRUNE_BATCH))


def auto_prune(rt: Runtime, protect: tuple[str, ...]) -> list[str]:
    """Soft-delete the lowest-EI memories over the cap: never immune, never inside the grace period, never `protect`,
    never a vault row (the cap counts the writer's memories; a vault row goes when its line leaves the note), never
    a correction of a live memory."""
    lowest = prune_plan(rt, protect)
    if not lowest:
        return []
    values = dict(lowest)
    rt.store.set_effective_importance(values)  # what the log says and a later `show` of the row agree
    nodes = rt.store.get_nodes(list(values))
    victims = [nodes[i] for i, _ei in lowest if i in nodes]
    now = rt.now_iso()
    ids = [v.id for v in victims]
    for v in victims:
        # one at a time, each still live: of two neighbours pruned at once, the second re-joins over the first's step
        joined = rejoin_backbone(rt, v, actor="auto-prune")
        # actor prune, as the oplog row: explain-edge said `forget` of an edge nobody forgot
        rt.store.retire_edges_of(v.id, reason="auto-prune", when=now, actor="prune")
        rt.store.log("prune", v.id, {"effective_importance": round(values[v.id], 4), "cap": rt.max_insights,
                                     **({"backbone_rejoined": joined} if joined else {}), **rt.audit(v.content),
                                     **rt.actor()}, now)
    gen_before = rt.store.vector_generation()
    rt.store.soft_delete(ids, now)
    rt.index.note_delete(ids, gen_before)
    return ids


def backfill_semantic_edges(rt: Runtime, embedded: Sequence[tuple[Memory, np.ndarray]]) -> int:
    """The semantic edges `remember` would have given these memories had their vectors existed when they were
    written (a provider down, `--embed none`): the same rule against every vector stored now. Only the writer's own
    memories — vault and payload rows never get them — and never over an edge already there. Returns how many edges
    (each direction counted) were added."""
    fresh: list[Edge] = []
    seen: set[tuple[str, str]] = set()
    now = rt.now_iso()
    for mem, vector in embedded:
        if mem.kind != "memory" or mem.source.startswith(SOURCED_PREFIXES):
            continue
        similar = [(i, rt.calibrate(c)) for i, c in rt.index.search(vector, graph_rules.SEMANTIC_TOP + 1)]
        for e in graph_rules.semantic_edges(mem.id, similar, now):
            if (e.src, e.dst) not in seen and rt.store.find_edge(e.src, e.dst, "semantic") is None:
                seen.add((e.src, e.dst))
                fresh.append(e)
    if fresh:
        rt.store.insert_edges(fresh)
    return len(fresh)


def semantic_candidates(rt: Runtime, mem: Memory, vector: np.ndarray | None, linked: set[str],
                        keyword_ids: list[str] | None = None,
                        nearest: Sequence[tuple[str, float]] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if vector is not None:
        found = nearest if nearest is not None else rt.index.search(vector, NEAREST, exclude={mem.id})
        for i, cos in (p for p in found if p[0] != mem.id):
            c = rt.calibrate(cos)
            if CANDIDATE_BAND[0] <= c < CANDIDATE_BAND[1]:
                out.append({"id": i, "cosine": round(c, 4), "auto_linked": i in linked})
        out = out[:CANDIDATE_TOP]
    else:
        mine = token_set(mem.content)
        ids = keyword_ids if keyword_ids is not None else [
            i for i, _ in rt.store.keyword_search(tokens(mem.content), CANDIDATE_TOP * 4)]
        nodes = rt.store.get_nodes(ids)
        scored = []
        for i in ids:
            if i == mem.id or i not in nodes:
                continue
            theirs = token_set(nodes[i].content)
            sim = max(overlap_max(mine, theirs), len(mine & theirs) / max(1, len(theirs)))
            if OVERLAP_CANDIDATE_MIN <= sim < CANDIDATE_BAND[1]:
                scored.append((i, sim))
        scored.sort(key=lambda p: (-p[1], p[0]))
        out = [{"id": i, "cosine": round(s, 4), "auto_linked": False} for i, s in scored[:CANDIDATE_TOP]]
    nodes = rt.store.get_nodes([c["id"] for c in out])
    return [{"id": c["id"], "content": nodes[c["id"]].content, "cosine": c["cosine"], "auto_linked": c["auto_linked"]}
            for c in out if c["id"] in nodes]


def causal_candidates(rt: Runtime, mem: Memory) -> list[dict[str, Any]]:
    """Memories within 2 hops that a causal reading could connect (a cue on either side), not yet causally linked."""
    reached = bfs(mem.id, rt.neighbors(per_node=CAUSAL_CANDIDATE_LIMIT * 3), max_depth=2, limit=50,
                  frontier_cap=CAUSAL_CANDIDATE_LIMIT)
    already = {e.dst if e.src == mem.id else e.src
               for e in rt.store.edges_of([mem.id], types=["causal"], direction="both")}
    nodes = rt.store.get_nodes([r.id for r in reached])
    mine = causal_cue(mem.content)
    out: list[dict[str, Any]] = []
    for r in reached:
        n = nodes.get(r.id)
        if n is None or n.kind != "memory" or r.id in already:
            continue
        cue = mine or causal_cue(n.content)
        if not cue:
            continue
        out.append({"id": n.id, "content": n.content, "hop": r.depth,
                    "suggested_sub_type": suggest_sub_type(mem.content, n.content)})
        if len(out) >= CAUSAL_CANDIDATE_LIMIT:
            break
    return out


def _repeat_of(store: Store, digest: str, source: str) -> str | None:
    """The live memory this text would repeat: one the writer owns (any source), or one `remember` wrote into the
    same `mneme://` scope — it goes with that scope's `forget --source` as the repeat would. Not a payload's own row
    there (a re-sent payload may replace it) nor a row of another scope."""
    existing = store.find_active_by_hash(digest)
    if existing is None and source.startswith("mneme://"):
        existing = store.find_scope_repeat(digest, source)
    return existing


def remember(rt: Runtime, inp: MemoryInput, *, no_diff: bool = False,
             given: frozenset[str] = frozenset({"category", "importance", "source"})) -> dict[str, Any]:
    """`given`: which of category, importance and source the caller chose (the others hold their defaults)."""
    store = rt.store
    if store.readonly:
        # refuse up front: even an exact repeat must not look like a successful write on a read-only snapshot
        raise ReadOnly(store_read_only())
    digest = content_hash(inp.content)
    if not no_diff:
        existing = _repeat_of(store, digest, inp.source)
        if existing is not None:
            return _skipped(rt, existing, inp, given)
    vector_rows = rt.embed_documents([inp.content])
    vector = vector_rows[0] if vector_rows is not None else None
    suggestion = "ADD"
    matches: list[DiffMatch] = []
    # one keyword search serves both the advisory diff (top 5) and the review candidates (top 20)
    keyword_ids = [i for i, _ in store.keyword_search(tokens(inp.content), CANDIDATE_TOP * 4, max_terms=KEYWORD_TERMS)]
    # one pass over the vectors serves the diff (top 5), the semantic edges (top 3) and the candidates (top 13)
    nearest = rt.index.search(vector, NEAREST) if vector is not None else []
    if not no_diff:
        suggestion, matches = _advisory(rt, inp.content, vector, keyword_ids, nearest)
    with store.transaction():
        if not no_diff:
            existing = _repeat_of(store, digest, inp.source)  # another writer may have stored it meanwhile
            if existing is not None:
                return _skipped(rt, existing, inp, given, in_tx=True)
        outcome = write_memory(rt, inp, vector, nearest=nearest)
        from .world.sense import record_memory_sense

        # in the same transaction: a prediction can be confirmed by what `remember` stored, never by a lost write
        record_memory_sense(rt, outcome.memory)
    mem = outcome.memory
    linked = {e.dst for e in outcome.edges if e.type == "semantic" and e.src == mem.id}
    return {
        "id": mem.id,
        "action": "added",
        "diff_suggestion": suggestion,
        # the memories the verdict is about: without their ids an agent cannot `link NEW OLD --type supersedes`
        "diff_matches": [_match(m) for m in matches if m.suggestion != "ADD"],
        "edges_created": outcome.edges_created,
        "semantic_candidates": semantic_candidates(rt, mem, vector, linked, keyword_ids, nearest),
        "causal_candidates": causal_candidates(rt, mem),
        "embedded": vector is not None,
        "effective_importance": round(mem.effective_importance, 4),
        "auto_pruned": len(outcome.pruned_ids),
        "auto_pruned_ids": outcome.pruned_ids,
    }


def _match(m: DiffMatch) -> dict[str, Any]:
    out: dict[str, Any] = {"id": m.id, "similarity": m.similarity, "suggestion": m.suggestion}
    if m.reason:
        out["reason"] = m.reason
    return out


def _skipped(rt: Runtime, existing_id: str, inp: MemoryInput, given: frozenset[str],
             in_tx: bool = False) -> dict[str, Any]:
    node = rt.store.get_node(existing_id)
    if not rt.store.readonly:
        def log() -> None:
            rt.store.log("diff-skip", existing_id, {"reason": "byte-identical active content"}, rt.now_iso())
        if in_tx:
            log()
        else:
            with rt.store.transaction():
                log()
    ignored = _ignored(inp, node, given) if node is not None else {}
    out: dict[str, Any] = {
        "id": existing_id,
        "action": "skipped",
        "diff_suggestion": "DUPLICATE",
        "existing_id": existing_id,
        # nothing was replaced: kept only for callers written before `existing_id`
        "replaced_id": existing_id,
        "diff_matches": [_match(DiffMatch(existing_id, 1.0, "DUPLICATE"))],
        "ignored": ignored,
        "edges_created": _empty_counts(),
        "semantic_candidates": [],
        "causal_candidates": [],
        "embedded": False,
        "effective_importance": round(node.effective_importance, 4) if node else 0.0,
        "auto_pruned": 0,
        "auto_pruned_ids": [],
    }
    if ignored and node is not None:
        out["hint"] = step(
            f"an exact repeat changes nothing, so these values were not applied to {existing_id}. No mnemon command "
            f"edits a stored memory: to apply them, `mnemon forget {existing_id}`, then remember the same content "
            f"again with them (its edges are retired; `--created-at {node.created_at}` keeps its date)",
            f"an exact repeat changes nothing, so these values were not applied to {existing_id}. No tool edits a "
            f"stored memory: to apply them, `forget` it (id {existing_id}), then `remember` the same content again "
            f"with them (its edges are retired; created_at {node.created_at} keeps its date)")
    # a fact said again after a correction retired it stays retired (recall demotes it): the agent re-asserting it
    # must hear that, not only "skipped" — a `supersedes` link's or a newer memory's wording alike
    newer = sorted(e.src for e in rt.store.edges_of([existing_id], types=("supersedes",), direction="in"))
    newer += [i for i in _worded_correctors(rt, node) if i not in newer] if node is not None else []
    if newer:
        out["superseded_by"] = newer
        # every correction named: forgetting one of several would leave the others still ranking it below them
        forgets = ", ".join(step(f"`mnemon forget {i}`", f"`forget` {i}") for i in newer)
        them, which = ("that correction", "the correction") if len(newer) == 1 else ("them", "the corrections")
        out["hint"] = ((out["hint"] + ". ") if "hint" in out else "") + (
            f"{existing_id} is superseded by {', '.join(newer)}, and recall ranks it below {them}: if it is true"
            f" again, {forgets} ({which}) or remember what changed since as a new memory")
    return out


def _worded_correctors(rt: Runtime, node: Memory) -> list[str]:
    """The newer live memory whose correction wording retires `node` (recall's `corrected_by` for it), if any."""
    from ..core.recall.rerank import corrected_by  # (here: the recall package loads intent, which remember never needs)

    hits = rt.store.keyword_search(tokens(node.content), CORRECTED_LOOKUP)
    rows = rt.store.get_nodes([i for i, _ in hits if i != node.id])
    newer = [(m.id, m.content, m.created_at) for m in rows.values()
             if m.kind == "memory" and m.deleted_at is None and m.created_at > node.created_at]
    found = corrected_by([(node.id, node.content, node.created_at), *newer]) if newer else {}
    return [found[node.id]] if node.id in found else []


def _ignored(inp: MemoryInput, node: Memory, given: frozenset[str]) -> dict[str, Any]:
    """The values of a skipped repeat that differ from the stored memory: the skip applied none of them, and a
    caller that raised the importance (against auto-prune) or re-filed the category must not believe it did."""
    out: dict[str, Any] = {}
    for key in ("category", "importance", "source"):
        if key in given and getattr(inp, key) != getattr(node, key):
            out[key] = getattr(inp, key)
    tags = [t for t in inp.tags if t not in node.tags]
    if tags:
        out["tags"] = tags
    # entities are stored normalised; mode `auto` never stores the given ones, so it cannot have dropped them
    named = merge_entities(inp.entities, (), "provided") if inp.entity_mode != "auto" else []
    held = {e.casefold() for e in node.entities}
    entities = [e for e in named if e.casefold() not in held]
    if entities:
        out["entities"] = entities
    if inp.created_at and (not node.created_at or parse_iso(inp.created_at) != parse_iso(node.created_at)):
        out["created_at"] = inp.created_at
    return out
