"""Proactive thoughts: `candidates`, `debug-candidates`, `thought`, `surface`, `run-once`, and the facade mixin.

The proactive scorer follows Mneme (reference §2.5) with its bugs fixed: status words match whole (stemmed)
tokens, not substrings ("residue" is not "due"); dates count only when they name a year and age is measured from
the runtime clock, never a hard-coded year; the walk (`app.thought_walk`) is deterministic (greedy on the biased
step weight, ties by node id, then the edge's direction and type) instead of unseeded `random`, so the same graph
gives the same thought on either backend; `surface` returns one JSON shape with or without a prompt and never
mutates anything (Mneme's prompt-less surface bumped counters on a read).

Thought history lives in the oplog (`op = "thought"`); a rebuilding `ingest` drops it, `update` keeps it
(`clear_thought_history`). The last `RECENT_WINDOW` thoughts give the recently-surfaced penalty (`cooldown`).
"""
from __future__ import annotations

import contextlib
import heapq
import importlib
import importlib.util
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from ..core.errors import InvalidInput, ProviderUnavailable
from ..core.model import Edge, Memory
from ..core.ontology import category_of, inverse_of
from ..core.surface import step, write_step
from ..core.text import excerpt, tokens
from ..core.stored_text import check_query_text
from ..core.vault.links import display_links
from ..core.vault.observations import hint_words
from ..core.vault.parser import TASK_MARKS
from ..core.keywords import VAULT_SOURCE_PREFIX
from ..core.vault.proactive import DEADLINE_WORDS, FRESHNESS_MAX, PROACTIVE_STATE, hints_of_key, reads_open, task_of
from ..core.world.truth import truth_policy_words
from ..render.cards import clip, make_out_dir, out_dir_for_run, write_card
from . import notes as notes_mod
from .closed_loops import ClosedLater
from .context import (DEFAULT_BUDGET, DEFAULT_MAX_ITEMS, build_context_pack, hint_echo, parse_as_of, parse_hints,
                      source_path_of)
from .runtime import Runtime
from .suggested_actions import suggested_actions, vault_root
from .thought_hints import said_hints
from .thought_scores import (RECENT_PENALTY, RECENT_WINDOW, cooldown, is_observation, recent_ranks, score_draft,
                             score_observation, text_dates, worded)
from .thought_walk import card_edge, node_name, node_type, path_step, walk

DEFAULT_HOPS = 5
MAX_HOPS = 12
SURFACE_BUDGET = 5000
# a list item's marker (and task box) at the start of a line: a section's bullets read as a list of clauses
_LIST_MARKER = re.compile(rf"^(?:[-*+]|\d{{1,9}}[.)])[ \t]+(?:\[[{re.escape(TASK_MARKS)}]\][ \t]+)?")
# a quote's (or callout's) `>` markers, then a callout's `[!type]` (its title stays): how the line reads
_QUOTE_MARKER = re.compile(r"^(?:>[ \t]?)+(?:\[![\w-]+\][+-]?[ \t]*)?")
# a `key: value` line (a note's properties section is made of them): a clause of its own, as a list item is
_PROPERTY_LINE = re.compile(r"^[^\W\d][\w .-]{0,40}:[ \t]+\S")


@dataclass
class Candidate:
    memory: Memory
    score: float
    breakdown: dict[str, float]
    draft_reasons: list[str]  # the reasons, the hint reason still a slot: it is worded only for the shown few
    skip_reasons: list[str] = field(default_factory=list)
    seed_id: str = ""
    path: list[dict[str, Any]] = field(default_factory=list)
    # the seed note's step, kept apart from the path: with --hops 0 the path is the memory alone, not its note
    seed_step: dict[str, Any] | None = None
    hints_hit: tuple[str, ...] = ()

    @property
    def reasons(self) -> list[str]:
        return worded(self.draft_reasons, self.memory.content, self.hints_hit)


def _check_hops(hops: Any) -> int:
    """A path of at most `hops` edges; 0 is the thought's memory alone (a card with one node and no connector)."""
    if isinstance(hops, bool) or not isinstance(hops, int) or not 0 <= hops <= MAX_HOPS:
        raise InvalidInput(f"--hops must be an integer from 0 to {MAX_HOPS} (0: the memory alone, no path)",
                           hops=hops)
    return hops


def _check_limit(limit: Any, high: int = 100) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= high:
        raise InvalidInput(f"--limit must be an integer from 1 to {high}", limit=limit)
    return limit


def _readable(text: str) -> str:
    """A section's text (or an edge's evidence line) on one line for a card's title and insight: quote, callout
    and list markers dropped, items joined by "; "."""
    out = ""
    for raw in text.split("\n"):
        line = raw.strip()
        titled = False  # a callout's title: a clause of its own, saying what follows
        if line.startswith(">"):
            quote = _QUOTE_MARKER.match(line)
            assert quote is not None  # (it matches any leading ">")
            titled, line = "[!" in quote.group(0), line[quote.end():].strip()
            if titled and line and not line.endswith((".", "!", "?", ":", ";")):
                line += ":"
        if not line:
            continue
        bare = _LIST_MARKER.sub("", line)
        if out:
            # a list item is a clause of its own; prose runs on, and so does an item after a finished sentence
            # ("Owner: Bram. Every order…", not "Owner: Bram.; Every order…")
            clause = bare != line or titled or _PROPERTY_LINE.match(line) is not None
            out += "; " if clause and not out.endswith((".", "!", "?", ":", ";")) else " "
        out += bare
    return out


# ── candidates ─────────────────────────────────────────────────────────────────────────────────────────────────
def scored_candidates(rt: Runtime, *, hints: tuple[str, ...]) -> tuple[list[Candidate], list[Candidate]]:
    """(kept, suppressed) over every vault/payload observation, best first (paths are the caller's to add)."""
    observations = rt.store.vault.derived_memories(observations_only=True)  # type: ignore[attr-defined]
    kept: list[Candidate] = []
    suppressed: list[Candidate] = []
    scored = _Scorer(rt, hints).score(observations)
    ClosedLater(rt, observations).mark(scored)
    for cand in scored:
        (suppressed if cand.skip_reasons else kept).append(cand)
    kept.sort(key=_best_first)
    suppressed.sort(key=_best_first)
    return kept, suppressed


def _best_first(c: Candidate) -> tuple[float, str]:
    return -c.score, c.memory.id


class _Scorer:
    """Candidates of observation rows, each scored exactly as `score_observation` does, with what the scoring needs
    besides the row (note types, killed and weakened observation edges, the recently surfaced) read once per batch
    of rows."""

    def __init__(self, rt: Runtime, hints: tuple[str, ...]) -> None:
        self.rt, self.hints = rt, hints
        self.recent = recent_ranks(rt)
        self.now = rt.now()
        self.note_types: dict[str, str] = {}

    def score(self, rows: Sequence[Memory]) -> list[Candidate]:
        store = self.rt.store
        observations = [n for n in rows if is_observation(n)]
        wanted = sorted({f"note:{n.metadata['note']}" for n in observations if (n.metadata or {}).get("note")}
                        - self.note_types.keys())
        self.note_types.update({i: node_type(node) for i, node in store.get_nodes(wanted).items()})
        killed, strength, dropped = self._observation_edges({n.id for n in observations})
        out: list[Candidate] = []
        for n in observations:
            meta = n.metadata or {}
            seed = f"note:{meta['note']}" if meta.get("note") else n.id
            score, parts, reasons, hit = score_draft(n, hints=self.hints, now=self.now, recent_seeds=self.recent,
                                                     note_type=self.note_types.get(seed, ""),
                                                     strength=strength.get(n.id, 1.0))
            cand = Candidate(n, score, parts, reasons, seed_id=seed, hints_hit=tuple(hit))
            if n.id in killed:
                cand.skip_reasons.append("observation edge killed")
            elif n.id in dropped:
                cand.skip_reasons.append(dropped[n.id])
            if score <= 0:
                cand.skip_reasons.append("score below surfacing threshold")
            out.append(cand)
        return out

    def _observation_edges(self, ids: set[str]) -> tuple[set[str], dict[str, float], dict[str, str]]:
        """(the observations whose observation edge was killed, each weakened one's strength as a share of its
        edge's confidence — the weakest when it has several —, why each one at strength 0 is no longer brought up).

        Read from the edges' heads: an observation's own edge (its note's `has_*`, a payload's entity's) is one
        head per row read, with no evidence decoded."""
        store = self.rt.store
        heads = [h for h in store.edge_heads(sorted(ids), ("active", "candidate", "killed"))
                 if h[2] in ids and category_of(h[3]) == "observation"]
        killed = {h[2] for h in heads if h[4] == "killed"}
        strength: dict[str, float] = {}
        for _id, _src, dst, _type, status, weighted, confidence in heads:
            if status != "killed" and confidence > 0:
                # (weight × confidence) / confidence²: the weight as a share of the confidence ingest gave both
                share = round(min(1.0, max(0.0, weighted / (confidence * confidence))), 6)
                strength[dst] = min(share, strength.get(dst, 1.0))
        dropped: dict[str, str] = {}
        # by what each edge joins, not its id (numbered differently by each backend), should an item have two
        for edge_id, _src, dst, _type, status, weighted, confidence in sorted(heads, key=lambda h: (h[2], h[3], h[1])):
            if status != "killed" and confidence > 0 and weighted == 0.0 and dst not in killed and dst not in dropped:
                # both leave strength 0 (rare: read their history): `forget --days-threshold` on a past-dated bullet,
                # or a person dismissing it outright
                events = [e["event"] for e in store.edge_events(int(edge_id))
                          if e["event"] in ("forgotten", "weakened")]
                dropped[dst] = ("observation edge forgotten (its dates are past)" if events[-1:] == ["forgotten"]
                                else "observation edge weakened to strength 0")
        return killed, strength, dropped


PAGE_ROWS = 256  # bullets read per step of the best-first pass
_BOUND_SLACK = 1e-3  # float sums in another order, and the score's rounding to 4 places
_ALL_HOLDERS = 10_000_000  # a keyword search's limit that keeps every memory holding the word


def kept_candidates(rt: Runtime, hints: tuple[str, ...]) -> tuple[Iterator[Candidate], int]:
    """(the kept candidates best first, how many observations there are) — the first few without scoring them all.

    An ingested vault stores each bullet's static score under the ingest's hints (`core.vault.proactive`); its
    bullets are read in that order, a page at a time, and a scored candidate is given out once no unread bullet can
    beat it: their static scores are at most the last one read, and reading adds at most `FRESHNESS_MAX`. Scored up
    front instead: payload observations (no stored score) and the bullets holding a hint the ingest did not score
    with (found by keyword search; a hint the ingest scored with and this call drops only lowers a score). A store
    whose bullets were not all scored under one set of hints is scored whole. An item a later note closed is
    never given out (`app.closed_loops`)."""
    vault = rt.store.vault  # type: ignore[attr-defined]
    scored_with = hints_of_key(vault.get_state(PROACTIVE_STATE))
    if scored_with is None:
        kept, suppressed = scored_candidates(rt, hints=hints)
        return iter(kept), len(kept) + len(suppressed)
    scorer = _Scorer(rt, hints)
    payload = [n for n in vault.derived_memories(observations_only=True, payload_only=True) if is_observation(n)]
    holders = {node_id for h in hints if h not in scored_with
               for node_id, _score in rt.store.keyword_search([h], _ALL_HOLDERS)}
    up_front = payload + [n for n in rt.store.get_nodes(sorted(holders)).values()
                          if n.source.startswith(VAULT_SOURCE_PREFIX)]
    done = {n.id for n in up_front}
    heap = [(_best_first(c), c) for c in scorer.score(up_front) if not c.skip_reasons]
    heapq.heapify(heap)

    def best_first() -> Iterator[Candidate]:
        after: tuple[float, int] | None = None
        while True:
            page = vault.proactive_page(after, PAGE_ROWS)
            rows = rt.store.get_nodes([node_id for _seq, node_id, _score in page if node_id not in done])
            for cand in scorer.score([rows[node_id] for _seq, node_id, _score in page if node_id in rows]):
                if not cand.skip_reasons:
                    heapq.heappush(heap, (_best_first(cand), cand))
            if len(page) < PAGE_ROWS:
                while heap:
                    yield heapq.heappop(heap)[1]
                return
            after = (page[-1][2], page[-1][0])
            bound = after[0] + FRESHNESS_MAX + _BOUND_SLACK
            while heap and heap[0][1].score > bound:
                yield heapq.heappop(heap)[1]

    return ClosedLater(rt).open_only(best_first()), len(payload) + vault.proactive_count()


def _with_path(rt: Runtime, cand: Candidate, hops: int, hints: tuple[str, ...]) -> Candidate:
    """The candidate's path of at most `hops` edges: from its note over the card's own edge, then the walk on; with
    0 hops the memory alone (its note opened the path regardless, so `--hops 0` gave one hop)."""
    seed = rt.store.get_node(cand.seed_id) if cand.seed_id != cand.memory.id else None
    start: list[tuple[str, Edge | None]] = [(cand.memory.id, None)]
    if seed is not None:
        cand.seed_step = path_step(cand.seed_id, seed, None)
        if hops > 0:  # the card's own edge, however weak; the walk on is active
            link = card_edge(rt, cand.seed_id, cand.memory.id, (cand.memory.metadata or {}).get("observation_kind"))
            start = [(cand.seed_id, None), (cand.memory.id, link)]
    cand.path = walk(rt, start, hops - (len(start) - 1), hints)
    return cand


def candidate_dict(c: Candidate) -> dict[str, Any]:
    meta = c.memory.metadata or {}
    seed = c.seed_step or (c.path[0] if c.path else {"id": c.seed_id, "name": c.seed_id, "type": "note"})
    return {
        "score": c.score,
        "seed": {"id": seed["id"], "name": seed["name"], "type": seed["type"], "source_path": meta.get("note")
                 or source_path_of(c.memory)},
        "observation": {"id": c.memory.id, "kind": meta.get("observation_kind") or meta.get("memory_kind"),
                        "text": c.memory.content, "source_path": source_path_of(c.memory), "line": meta.get("line"),
                        "score": meta.get("score")},
        "evidence": [c.memory.content],
        "reasons": c.reasons,
        "score_breakdown": c.breakdown,
        "skip_reasons": c.skip_reasons,
        "path": c.path,
    }


def candidates(rt: Runtime, *, hints: Any = None, hops: int = DEFAULT_HOPS, limit: int = 5) -> dict[str, Any]:
    hint_tokens, hops, limit = parse_hints(hints), _check_hops(hops), _check_limit(limit)
    kept, _considered = kept_candidates(rt, hint_tokens)
    best = [_with_path(rt, c, hops, hint_tokens) for c in islice(kept, limit)]
    said = said_hints(rt, hints, hint_tokens, {h for c in best for h in c.hints_hit})
    return {"count": len(best), "candidates": [candidate_dict(c) for c in best], **said}


def debug_candidates(rt: Runtime, *, hints: Any = None, hops: int = DEFAULT_HOPS, limit: int = 20,
                     include_skipped: bool = False) -> dict[str, Any]:
    """The best kept candidates with how many observations were considered; the suppressed ones only on request,
    since listing them means scoring every observation, while the kept ones come from the best-first pass."""
    hint_tokens, hops, limit = parse_hints(hints), _check_hops(hops), _check_limit(limit)
    suppressed: list[Candidate] = []
    if include_skipped:
        kept, suppressed = scored_candidates(rt, hints=hint_tokens)
        best, considered = kept[:limit], len(kept) + len(suppressed)
    else:
        stream, considered = kept_candidates(rt, hint_tokens)
        best = list(islice(stream, limit))
    rows = [candidate_dict(_with_path(rt, c, hops, hint_tokens)) for c in best]
    words, terms = hint_echo(hints)  # the words as given; the stemmed terms it scored by beside them
    out: dict[str, Any] = {"db": rt.store.path, "include_skipped": include_skipped, "hints": words,
                           "hint_terms": terms, "count": len(rows), "considered": considered, "candidates": rows,
                           "empty_reason": None if rows else ("no_observations" if not considered
                                                              else "all_candidates_suppressed"),
                           **said_hints(rt, hints, hint_tokens, {h for c in best for h in c.hints_hit})}
    if include_skipped:
        shown = suppressed[:limit]
        seeds = rt.store.get_nodes(sorted({c.seed_id for c in shown if c.seed_id != c.memory.id}))
        out["skipped"] = [_skipped_dict(c, seeds.get(c.seed_id)) for c in shown]
    return out


def _skipped_dict(c: Candidate, seed: Memory | None) -> dict[str, Any]:
    """A suppressed candidate's row, named by the candidate itself (`id`, `name`, `type`, the first of its skip
    reasons as `reason`) with its seed note named as a kept row's is. It is not walked, so it had no path and no
    seed step: the row showed its seed's id as the name, typed `note`, and nothing said which item was skipped."""
    if seed is not None:
        c.seed_step = path_step(c.seed_id, seed, None)
    step = path_step(c.memory.id, c.memory, None)
    c.path = [step]  # the candidate alone, as `--hops 0` shows it (a payload observation is its own seed)
    return {"id": step["id"], "name": step["name"], "type": step["type"], "reason": c.skip_reasons[0],
            **candidate_dict(c)}


# ── thoughts ───────────────────────────────────────────────────────────────────────────────────────────────────
def _days_from(day: date, today: date) -> str:
    delta = (day - today).days
    if delta == 0:
        return "today"
    if abs(delta) == 1:
        return "tomorrow" if delta > 0 else "yesterday"
    return f"in {delta} days" if delta > 0 else f"{-delta} days ago"


def compose(path: list[dict[str, Any]], text: str, kind: str, note_title: str,
            today: date | None = None, task: bool | None = None) -> dict[str, str]:
    """Title, insight and action for a thought, from its evidence text, observation kind and path; wikilinks read
    as the names they show (the evidence keeps them). With `today`, dates read relative to it, and a deadline whose
    every date has passed asks whether it was met instead of what is due before it. `task`: whether the memory is a
    task (`core.vault.proactive.reads_open`): an open loop is an open task or a line stating open work."""
    days = sorted({d.date() for d in text_dates(text)})  # (before the links read as names: theirs are not its days)
    text = display_links(text)
    words = frozenset(tokens(text))
    short = clip(text, 60)
    dates = [d.isoformat() + (f" ({_days_from(d, today)})" if today else "") for d in days]
    if kind == "done":  # finished: never a loop to follow up or a date to chase, whatever words it uses
        title = f"Done: {short}"
        action = f"Nothing to chase: it is recorded as done. Keep it as a record, or archive it: {clip(text, 100)}"
    elif (kind == "risk" or words & DEADLINE_WORDS) and today and days and days[-1] < today:
        # before the open loop: an open task past its deadline is past due ("- [ ] Deadline 2026-02-01 send the
        # report" read as an "Open loop" 309 days later); a loop with no deadline's words, or not yet due, is a loop
        title = f"Past due: {short}"
        action = (f"Check whether this was done by {days[-1].isoformat()} ({_days_from(days[-1], today)}); close it "
                  f"or set a new date: {clip(text, 100)}")
    elif reads_open(text, kind, task):
        title, action = f"Open loop: {short}", f"Follow up on “{clip(text, 120)}” and record the outcome."
    elif kind == "risk" or words & DEADLINE_WORDS:
        upcoming = [d for d in days if today is None or d >= today]
        when = f" before {dates[days.index(upcoming[0])]}" if upcoming else ""
        title, action = f"Deadline: {short}", f"Check what is due{when} and plan the next step: {clip(text, 110)}"
    elif kind == "correction":
        title, action = f"Correction to check: {short}", "Make sure nothing still relies on the superseded statement."
    else:
        title = f"Reasoned walk: {note_title or short}"
        action = f"Review “{clip(text, 120)}” and decide if it still matters."
    insight = f"{note_title or 'A memory'} holds “{clip(text, 160)}”"
    if dates:
        insight += f", dated {', '.join(dates[:2])}"
    ending = _connections(path)
    if ending == "." and insight.endswith((".”", "!”", "?”")):  # the quote's own stop ends it ("unknown.”.")
        ending = ""
    return {"title": title, "insight": insight + ending, "action": action}


def _connections(path: list[dict[str, Any]]) -> str:
    """The first few hops past the thought's memory, each said of the node it really hangs on (a walk branches: the
    memory is often a dead end and the walk goes on from its note), with a reversed edge read backwards."""
    names = {str(s.get("id")): str(s.get("name") or "") for s in path}
    said: dict[str, list[str]] = {}
    for s in [s for s in path[2:] if s.get("via")][:3]:
        relation = str(s["via"])
        if s.get("reverse"):
            relation = inverse_of(relation) or relation
        said.setdefault(str(s.get("from") or path[0].get("id")), []).append(
            f"{display_links(s['name'])} ({relation.replace('_', ' ')})")
    clauses = [("it" if origin == path[0].get("id") else clip(display_links(names.get(origin, origin)), 40))
               + " connects to " + ", ".join(hops) for origin, hops in said.items()]
    return "." if not clauses else "; " + "; ".join(clauses) + "."


def _thought_from_candidate(c: Candidate, today: date) -> dict[str, Any]:
    meta = c.memory.metadata or {}
    first = c.seed_step or (c.path[0] if c.path else None)
    note_title = first["name"] if first and first["id"] != c.memory.id else ""
    parts = compose(c.path, c.memory.content, str(meta.get("observation_kind") or ""), note_title, today,
                    task_of(str(meta.get("memory_kind") or ""), c.memory.source))
    return {**parts, "score": c.score, "path": c.path, "observations": [c.memory.content],
            "evidence": [c.memory.content], "why_now": "; ".join(c.reasons[:3]) or "highest-scoring observation",
            "source_path": source_path_of(c.memory), "seed": c.seed_id, "memory": c.memory.id}


def _render(rt: Runtime, thought: dict[str, Any], out: str | Path | None, theme: str | None, stamp: str) -> None:
    if out is None:
        return
    files = write_card(thought, Path(out).expanduser().resolve(), stamp=stamp, theme=theme,
                       generated_at=rt.now_iso())
    thought["image"] = str(files.image)
    thought["card"] = files.to_dict()


def thought(rt: Runtime, *, hints: Any = None, hops: int = DEFAULT_HOPS, out: str | Path | None = None,
            theme: str | None = None, record: bool = True) -> dict[str, Any]:
    hint_tokens, hops = parse_hints(hints), _check_hops(hops)
    if out is not None:
        make_out_dir(out)  # a file named as the card folder, or one not to be made: refused before the walk
    first = next(kept_candidates(rt, hint_tokens)[0], None)
    said = said_hints(rt, hints, hint_tokens, first.hints_hit if first else ())  # (what the hints did, asked)
    if first is None:
        return {"thought": None, "empty_reason": "no_candidates", **said, "db": rt.store.path}
    best = _with_path(rt, first, hops, hint_tokens)
    result = _thought_from_candidate(best, rt.now().date())
    stamp = rt.now().strftime("%Y%m%d_%H%M%S")
    _render(rt, result, out, theme, stamp)
    result.update(said)
    result["id"] = f"thought:{stamp}:{best.memory.id[-8:]}"
    if record and not rt.store.readonly:
        with rt.store.transaction():
            rt.store.log("thought", best.seed_id, {"seed": best.seed_id, "memory": best.memory.id,
                                                   "title": result["title"], "score": result["score"],
                                                   "path": [s["id"] for s in result["path"]],
                                                   "image": result.get("image")}, rt.now_iso())
    result["db"] = rt.store.path
    return result


# ── surface ────────────────────────────────────────────────────────────────────────────────────────────────────
def _day(stamp: Any) -> str:
    return str(stamp)[:10] if stamp else ""


def _world_parts(item: dict[str, Any]) -> dict[str, str]:
    """Title, insight and action for a world-model row: said as what it is — a belief with its validity, an
    expectation with its status — never as "a memory holds …" (a prediction's card read "Reasoned walk: expected by
    <timestamp>", its own title nowhere)."""
    title, text = clip(str(item.get("title") or item.get("id")), 90), clip(str(item.get("text") or ""), 160)
    source = f" ({item['source_path']})" if item.get("source_path") else ""
    if item.get("item_type") == "world_state":
        stated = title.replace("_", " ")
        since = f" since {_day(item.get('valid_from'))}" if item.get("valid_from") else ""
        until = _day(item.get("valid_until"))
        if item.get("validity") == "lapsed":
            return {"title": f"Lapsed state: {stated}",
                    "insight": f"The world model held “{stated}”{since} until {until}; that window has passed, so it"
                               f" is history, not current fact. Evidence{source}: “{text}”.",
                    "action": "Check whether it still holds; assert it again with fresh evidence or let it lapse."}
        return {"title": f"Current state: {stated}",
                "insight": f"The world model holds “{stated}” as current{since}"
                           f"{f', valid until {until}' if until else ''}. Evidence{source}: “{text}”.",
                "action": "Treat it as current fact and cite its source; "
                          + step("`state explain`", "`state_explain`") + " shows what it replaced."}
    status = str(item.get("status") or "open")
    window = f"between {_day(item.get('check_after'))} and {_day(item.get('expires_at'))}"
    if status == "missed":
        return {"title": f"Missed expectation: {title}",
                "insight": f"The evidence expected {window} never came: {text}.",
                "action": "Find out what happened instead; a belief this expectation was about may need review."}
    if status == "unverifiable":
        return {"title": f"Unverifiable expectation: {title}",
                "insight": f"Whether it happened {window} cannot be told from the stored evidence: {text}.",
                "action": f"Record the evidence it needs ({write_step('`sense add`', '`sense_add`')}) or decide it by "
                          "hand."}
    if status == "confirmed":
        return {"title": f"Confirmed expectation: {title}", "insight": f"It happened as expected: {text}.",
                "action": "Nothing to chase; rely on the evidence that confirmed it."}
    return {"title": f"Expected: {title}",
            "insight": f"An open prediction expects this {window} (confidence {item.get('confidence')}); it is an"
                       " expectation, not a fact.",
            "action": "See whether the evidence has come: "
                      + write_step("`predict check --id … --dry-run`", "`predict_check` with its id and dry_run")
                      + " records nothing."}


def _as_typed(stems: Sequence[str], prompt: str) -> list[str]:
    """Matched stems as the prompt spelled them ("batteri" → "battery"), for a reader."""
    typed: dict[str, str] = {}
    for word in prompt.split():
        found = tokens(word)
        if len(found) == 1:  # a run of CJK (many terms, no spaces) keeps its terms
            typed.setdefault(found[0], word.strip(".,;:!?\"'()[]").lower() or found[0])
    return [typed.get(s, s) for s in stems]


def _thought_from_item(rt: Runtime, item: dict[str, Any], prompt: str, hops: int, hints: tuple[str, ...],
                       vault: str | None = None, as_of: datetime | None = None) -> dict[str, Any]:
    note_title, seed = "", None
    if item.get("item_type") == "edge":
        # the edge is one hop: with --hops 0 its card keeps the node it starts from
        edge = rt.store.get_edge(int(item["edge_id"]))
        path = [path_step(item["src"]["id"], rt.store.get_node(item["src"]["id"]), None),
                path_step(item["dst"]["id"], rt.store.get_node(item["dst"]["id"]), edge)][:hops + 1]
    elif item.get("item_type") == "memory":
        note_id = f"note:{item['note']}" if item.get("note") else None
        note = rt.store.get_node(note_id) if note_id else None
        if note_id and note is not None and hops > 0:
            link = card_edge(rt, note_id, item["id"], item.get("observation_kind"))
            path = walk(rt, [(note_id, None), (item["id"], link)], hops - 1, hints, before=as_of)
        else:  # no note, or --hops 0: the memory alone (its note is still named in the insight)
            path = walk(rt, [(item["id"], None)], hops, hints, before=as_of)
            if note_id and note is not None:
                note_title, seed = node_name(note, note_id), note_id
    else:
        path = [{"id": item["id"], "name": clip(str(item.get("title")), 90), "type": str(item.get("kind"))}]
    itself = bool(path) and path[0]["id"] == item["id"]  # a memory with no note: the walk starts at it
    note_title = note_title or (path[0]["name"] if len(path) > 1 and not itself else "")
    text = str(item.get("text") or item.get("title") or "")
    shown = _readable(text) if item.get("kind") in ("section", "edge") else text  # (an edge's: its evidence line)
    # compose says the hops past [holder, memory]: an edge's one hop, or a holderless memory's first, are said too
    said = [path[0], *path] if item.get("item_type") == "edge" or itself else path
    parts = (_world_parts(item) if item.get("item_type") in ("world_state", "world_prediction")
             else compose(said, shown, str(item.get("observation_kind") or ""), note_title, (as_of or rt.now()).date(),
                          task_of(str(item.get("kind") or ""), str(item.get("id") or ""))))
    if item.get("item_type") == "edge" and len(path) > 1 and parts["title"].startswith("Reasoned walk: "):
        joined = f"{path[0]['name']} {str(path[1].get('via') or '').replace('_', ' ')} {path[1]['name']}"
        parts["title"] = f"Reasoned walk: {clip(display_links(joined), 80)}"  # (three links of a note: three titles)
    if item.get("truth_policy") == "candidate_only":
        parts["title"] = "Unconfirmed: " + parts["title"].split(": ", 1)[-1]
        parts["insight"] += " This link is a candidate, not an established fact."
    if item.get("closed_later_in"):  # (`app.closed_loops`): not an open loop to take up again
        parts["title"] = "Closed later: " + parts["title"].split(": ", 1)[-1]
        parts["insight"] += f" A later note, {item['closed_later_in']}, marks it done."
    reasons = []
    if item.get("matched_terms"):
        reasons.append("matched " + ", ".join(_as_typed(item["matched_terms"][:5], prompt)))
    if item.get("truth_policy"):  # in words: the label itself is the JSON's `surface.truth_policy`
        reasons.append(truth_policy_words(str(item["truth_policy"])))
    if item.get("closed_later_in"):
        reasons.append(f"closed later in {item['closed_later_in']}")
    return {
        **parts, "score": item.get("score"), "path": path,
        "observations": [shown] if item.get("item_type") == "memory" else [],
        "evidence": [text] if text else [], "why_now": "; ".join(reasons), "source_path": item.get("source_path"),
        # as a proactive card names them (one shape with or without a prompt): where the walk starts (the note, also
        # when --hops 0 leaves it off the path), and the memory the card is about (none for an edge or a world row)
        "seed": seed or (path[0]["id"] if path else None),
        "memory": item.get("id") if item.get("item_type") == "memory" else None,
        "surface": {"prompt": prompt or None, "kind": item.get("kind"), "source_id": item.get("id"),
                    "source_path": item.get("source_path"), "score": item.get("score"),
                    "matched_terms": item.get("matched_terms", []), "truth_policy": item.get("truth_policy"),
                    "cluster": None, "brain_label": None},
        "suggested_actions": suggested_actions(item, db=rt.store.path, vault=vault, text=shown),
    }


def _surface_candidate(rt: Runtime, c: Candidate, hops: int, hints: tuple[str, ...],
                       vault: str | None = None, hits: set[str] | None = None) -> dict[str, Any]:
    """A proactive candidate as a card in the shape of `_thought_from_item`'s (the hints it holds added to `hits`)."""
    if hits is not None:
        hits.update(c.hints_hit)
    card = _thought_from_candidate(_with_path(rt, c, hops, hints), rt.now().date())
    meta = c.memory.metadata or {}
    item = {"id": c.memory.id, "item_type": "memory", "note": meta.get("note"), "text": c.memory.content,
            "source_path": source_path_of(c.memory), "truth_policy": "source_contained_observation",
            "observation_kind": meta.get("observation_kind")}
    card["surface"] = {"prompt": None, "kind": meta.get("memory_kind") or "observation", "source_id": c.memory.id,
                       "source_path": item["source_path"], "score": c.score, "matched_terms": [],
                       "truth_policy": item["truth_policy"], "cluster": None, "brain_label": None}
    card["suggested_actions"] = suggested_actions(item, db=rt.store.path, vault=vault)
    return card


class _CardEntry(NamedTuple):
    """A card that may be shown, with what it takes to tell it repeats an earlier one before it is made."""
    source_id: str
    note: str  # the vault note it comes from ("" for none)
    kind: str  # "section", "observation", "task", …
    text: str
    make: Callable[[], dict[str, Any]]
    ends: tuple[str, ...] = ()  # an edge item's two ends


def _repeats(entry: _CardEntry, shown: Sequence[_CardEntry]) -> bool:
    """Whether a section card and a card of one of its own bullets would both be shown (same note, the bullet's text
    inside the section's): the second says again what the first said, in a slot the limit counts."""
    flat = " ".join(entry.text.split())
    for other in shown:
        if not entry.note or other.note != entry.note or "section" not in (entry.kind, other.kind):
            continue
        theirs = " ".join(other.text.split())
        if flat and theirs and (flat in theirs or theirs in flat):
            return True
    return False


def _item_ends(item: Mapping[str, Any]) -> tuple[str, ...]:
    """An active edge item's two ends (none for any other item: a candidate edge's card asks for a review no walk
    made, since walks keep to active edges)."""
    if item.get("item_type") != "edge" or item.get("status") != "active":
        return ()
    return tuple(str(end["id"]) for end in (item.get("src"), item.get("dst")) if isinstance(end, Mapping))


def _edge_item_id(edge_id: Any) -> str:
    """An edge's id as a context pack names its item: a card whose path drew the edge has shown that item."""
    return f"edge:{edge_id}"


def _distinct_cards(entries: Iterable[_CardEntry], limit: int) -> list[dict[str, Any]]:
    """Up to `limit` cards in the entries' order, passing over an entry an earlier card's path walked through, node or
    edge (that card already names it: five cards are five different things), an active edge between two nodes earlier
    cards walked through (a memory's card walked to a second one, and each link of the two — both ways — was a card of
    its own, four of five cards the same pair) and a section card that repeats an earlier card of one of its bullets, or
    the other way round (`_repeats`)."""
    walked: set[str] = set()
    shown: list[_CardEntry] = []
    cards: list[dict[str, Any]] = []
    for entry in entries:
        if len(cards) >= limit:
            break
        if entry.source_id in walked or (entry.ends and walked.issuperset(entry.ends)) or _repeats(entry, shown):
            continue
        card = entry.make()
        walked.update([entry.source_id, *(step["id"] for step in card["path"][1:]),
                       *(_edge_item_id(step["edge_id"]) for step in card["path"] if step.get("edge_id") is not None)])
        shown.append(entry)
        cards.append(card)
    return cards


# `retrieval.stats` of `surface`, with or without a prompt: the same keys, each a count; what a proactive surface
# does not do (recall memories, weigh edges or world rows as items) it did 0 times, and the candidates it made no
# card of are skipped, none listed. `items_returned` is the number of cards in both
_SURFACE_STATS = ("candidate_items_considered", "items_returned", "skipped_reported", "skipped_total",
                  "memories_recalled", "edges_considered", "killed_edges_excluded", "world_items")


def _surface_stats(cards: int, counts: dict[str, Any]) -> dict[str, Any]:
    return {**{key: int(counts.get(key) or 0) for key in _SURFACE_STATS}, "items_returned": cards}


def surface(rt: Runtime, *, prompt: str | None = None, limit: int = 5, hops: int = DEFAULT_HOPS, hints: Any = None,
            include_candidates: bool = True, out: str | Path | None = None, theme: str | None = None,
            as_of: Any = None) -> dict[str, Any]:
    """Thought cards from retrieval (with a prompt) or from the proactive scorer (without) — one JSON shape.

    `as_of` (with a prompt: `agent preflight --as-of`) replays the cards at that instant, as the pack beside them is:
    only items that existed then, walks that keep off later nodes, and dates read relative to it ("Past due" only
    for a date already gone then). The proactive scorer has no replay, so it is refused there."""
    limit, hops, hint_tokens = _check_limit(limit, 50), _check_hops(hops), parse_hints(hints)
    when = parse_as_of(as_of)
    if when is not None and prompt is None:
        raise InvalidInput("as_of needs a prompt: proactive cards are scored at now only")
    if not include_candidates and prompt is None:  # the proactive scorer reads no pack: the flag changed nothing
        raise InvalidInput("--no-candidates (include_candidates false) needs a prompt: proactive cards come from "
                           "the scorer, not from a pack of edges to leave candidates out of")
    if prompt is not None and not str(prompt).strip():  # as `retrieve`: a blank prompt is a mistake, not "no prompt"
        raise InvalidInput("--prompt must be a non-empty string (leave it out for proactive cards)")
    if prompt is not None:
        check_query_text(str(prompt), "--prompt")
    if out is not None:  # (after every refusal of the arguments: a refused call makes no folder)
        make_out_dir(out)
    said: dict[str, Any] = {}
    if prompt is not None:
        pack = build_context_pack(rt, str(prompt), budget=SURFACE_BUDGET, max_items=min(100, 2 * limit),
                                  include_candidates=include_candidates, hints=hints, as_of=when)
        vault = vault_root(rt)
        thoughts = _distinct_cards([_CardEntry(str(item["id"]), str(item.get("note") or ""), str(item.get("kind") or ""),
                                               str(item.get("text") or ""),
                                               partial(_thought_from_item, rt, item, str(prompt), hops, hint_tokens,
                                                       vault, when), _item_ends(item))
                                    for item in pack["items"]], limit)
        retrieval = {"clusters": pack["clusters"], "brain_labels": pack["brain_labels"],
                     "stats": _surface_stats(len(thoughts), pack["stats"]),
                     "empty_reason": pack["empty_reason"], "source": "retrieve"}
    else:
        kept, considered = kept_candidates(rt, hint_tokens)
        vault = vault_root(rt)
        hits: set[str] = set()
        thoughts = _distinct_cards((_CardEntry(c.memory.id, str((c.memory.metadata or {}).get("note") or ""),
                                               str((c.memory.metadata or {}).get("memory_kind") or "observation"),
                                               c.memory.content, partial(_surface_candidate, rt, c, hops, hint_tokens,
                                                                         vault, hits))
                                    for c in kept), limit)
        retrieval = {"clusters": [], "brain_labels": [], "source": "proactive_candidates",
                     "stats": _surface_stats(len(thoughts), {"candidate_items_considered": considered,
                                                              "skipped_total": max(0, considered - len(thoughts))}),
                     "empty_reason": None if thoughts else "no_candidates"}
        said = said_hints(rt, hints, hint_tokens, hits)  # (a pack's hints bias its recall: no card holds them as such)
    for n, t in enumerate(thoughts, start=1):
        _render(rt, t, out, theme, f"surface_{n:02d}_{excerpt(t['title'], 40)}")
    return {"prompt": prompt, "count": len(thoughts), "thoughts": thoughts,
            "retrieval": retrieval, "empty_reason": None if thoughts else retrieval["empty_reason"], **said}


# ── facade ─────────────────────────────────────────────────────────────────────────────────────────────────────
class ContextMixin:
    """Facade methods for context packs, thoughts and the note editor (mixed into `Mnemon`)."""

    rt: Runtime

    def retrieve(self, prompt: str, *, budget: int = DEFAULT_BUDGET, max_items: int = DEFAULT_MAX_ITEMS,
                 as_of: Any = None, include_candidates: bool = True, verbose: bool = False,
                 explain: bool = False, hints: Any = None) -> dict[str, Any]:
        return build_context_pack(self.rt, prompt, budget=budget, max_items=max_items, as_of=as_of,
                                  include_candidates=include_candidates, verbose=verbose, explain=explain,
                                  hints=hints)

    def candidates(self, *, hints: Any = None, hops: int = DEFAULT_HOPS, limit: int = 5) -> dict[str, Any]:
        return candidates(self.rt, hints=hints, hops=hops, limit=limit)

    def debug_candidates(self, *, hints: Any = None, hops: int = DEFAULT_HOPS, limit: int = 20,
                         include_skipped: bool = False) -> dict[str, Any]:
        return debug_candidates(self.rt, hints=hints, hops=hops, limit=limit, include_skipped=include_skipped)

    def thought(self, *, hints: Any = None, hops: int = DEFAULT_HOPS, out: str | None = None,
                theme: str | None = None) -> dict[str, Any]:
        return thought(self.rt, hints=hints, hops=hops, out=out, theme=theme)

    def surface(self, *, prompt: str | None = None, limit: int = 5, hops: int = DEFAULT_HOPS, hints: Any = None,
                include_candidates: bool = True, out: str | None = None, theme: str | None = None) -> dict[str, Any]:
        return surface(self.rt, prompt=prompt, limit=limit, hops=hops, hints=hints,
                       include_candidates=include_candidates, out=out, theme=theme)

    def run_once(self, *, vault: str, out: str | None = None, hints: Any = None, hops: int = DEFAULT_HOPS,
                 theme: str | None = None, max_notes: int | None = None, append: bool | None = None,
                 follow_symlinks: bool | None = None, allow_empty: bool = False,
                 replace: bool = False) -> dict[str, Any]:
        """Ingest the vault (part A's `ingest_vault`), then generate and render the top thought.

        The ingest is an `update`, never a rebuild: a rebuild drops the thought history whenever a note changed, so
        a vault edited between two daily runs showed the same card each day (the cooldown rotates only with it)."""
        if importlib.util.find_spec("mnemon.app.vault.ingest") is None:
            raise ProviderUnavailable("run-once needs vault ingestion, which is not installed in this build")
        ingest_vault = importlib.import_module("mnemon.app.vault.ingest").ingest_vault
        # the card folder is made before the ingest (a bad --out must not leave a half-done run behind), and made
        # no more if the run is refused after all
        with out_dir_for_run(out) if out is not None else contextlib.nullcontext():
            stats = ingest_vault(self.rt, vault, mode="append" if append else "update", max_notes=max_notes,
                                 follow_symlinks=bool(follow_symlinks), allow_empty=allow_empty, replace=replace,
                                 hints=None if hints is None else hint_words(hints))
            result = thought(self.rt, hints=hints, hops=hops, out=out, theme=theme)
        return {**result, "stats": stats}

    # the note editor needs no store; these exist so MCP/HTTP reach it through the same facade
    def note_read(self, vault: str, path: str, *, heading: str | None = None) -> dict[str, Any]:
        return notes_mod.read_note(vault, path, heading=heading)

    def note_write(self, vault: str, path: str, content: str, *, mode: str = "append",
                   dry_run: bool = False) -> dict[str, Any]:
        return notes_mod.write_note(vault, path, content, mode=mode, dry_run=dry_run, clock=self.rt.clock)

    def note_replace(self, vault: str, path: str, find: str, replace: str, *, all_matches: bool = False,
                     dry_run: bool = False) -> dict[str, Any]:
        return notes_mod.replace_in_note(vault, path, find, replace, all_matches=all_matches, dry_run=dry_run,
                                         clock=self.rt.clock)

    def note_upsert_section(self, vault: str, path: str, heading: str, content: str, *, level: int = 2,
                            dry_run: bool = False) -> dict[str, Any]:
        return notes_mod.upsert_section(vault, path, heading, content, level=level, dry_run=dry_run,
                                        clock=self.rt.clock)

    def note_add_bullet(self, vault: str | None, path: str, heading: str, bullet: str, *,
                        dry_run: bool = False) -> dict[str, Any]:
        """`vault` None: the vault this store was ingested from (the servers' tool, a card's suggestion)."""
        if vault is None and (vault := vault_root(self.rt)) is None:
            raise InvalidInput("this store was never ingested from a vault: it has no note to add a bullet to")
        return notes_mod.add_bullet(vault, path, heading, bullet, dry_run=dry_run, clock=self.rt.clock)


__all__ = ["RECENT_PENALTY", "RECENT_WINDOW", "ContextMixin", "candidates", "cooldown", "debug_candidates", "surface",
           "thought", "walk", "score_observation", "suggested_actions", "parse_hints"]
