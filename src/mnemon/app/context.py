"""`retrieve`: a prompt-time context pack in Mneme's JSON shape, built on the one recall engine (`run_recall`).

The pack is a view, not a second ranker: `run_recall` finds and ranks the memories (FTS5/BM25 + vector + recency
+ entity anchors, RRF, beam search over active edges, re-rank); this module multiplies each recall score by
transparent pack factors, adds the edges around the recalled memories and the world model's rows, labels
everything with a `truth_policy`, and packs greedily under a budget, listing what it took best first.

Differences from Mneme (reference §2.5, §8.2), on purpose:
* the budget is counted in **characters** of `title` + `text`, as Mneme does, but it is never exceeded — Mneme
  always admitted the first item whatever its size; here an item that does not fit is shortened when enough room
  is left (`truncated: true`: its head, or from the line holding most of its matched terms when the head lacks
  some, each cut marked "…") or skipped with the reason `budget_limit`; a pack no item fits is empty with
  `budget_too_small` and the smallest budget that takes one (`budget_needed`);
* prompt terms come from the shared stemmed tokenizer with a real stop list, so "the"/"here" match nothing;
* staleness reads only dates that name a year and measures age from `as_of` (or the runtime clock), so a pack
  is replayable and does not drift with the wall clock; years are never guessed;
* killed edges are never loaded (their count is reported); candidate edges are shown only as `candidate_only`
  and are dropped with a reason under `include_candidates=False`;
* an edge to a forgotten memory (or to a bullet its note no longer has, kept for a link to it) is skipped as
  `endpoint_forgotten`;
* an observation edge whose target observation is an item the pack takes (or a note's `has_section` edge to a
  section it takes) is reported as a duplicate instead of spending budget twice on the same sentence, and so is any
  edge whose evidence is such an item's own sentence; so is a section made only of bullets when the pack takes one
  of them as an observation of its own (`covered_by_observation`), and a section with prose of its own is taken
  without those bullets' lines (`omitted_repeats`); a repeat of an item the pack leaves out competes as any item
  (`context_budget.pack`);
* a prompt naming vault paths keeps the pack to those notes: recall is filtered to them, and an edge another note
  holds, or a world row another note is the source of, is skipped as `outside_path_scope`;
* the skipped list is capped (`MAX_SKIPPED_REPORTED`) after ordering it by use to a reader: what the budget and
  `max_items` cost first, repeats of an item last; `stats.skipped_omitted` counts by reason what the cap left out;
* under `as_of` the pack is the one the store gave at that instant: recall reads only rows created by then (see
  `run_recall`), the edges around its memories are those made by then between rows of then, and a row written
  later is never named, not even as skipped; an empty replay whose words only later memories hold says so
  (`all_matches_written_after_as_of`). Recall reads a yearless month against `as_of` and ignores a supersedes made
  after it.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidInput
from ..core.keywords import SKIP_KEY, VAULT_SOURCE_PREFIX
from ..core.model import EDGE_STATUSES, SOURCED_PREFIXES, Edge, Memory, iso, parse_iso
from ..core.ontology import DEFAULT_ONTOLOGY, category_of, is_symmetric
from ..core.text import excerpt, tokens
from ..core.stored_text import check_query_text
from ..core.vault.lifecycle import kept_active, truth_policy
from ..core.vault.observations import DEFAULT_HINTS, hint_words, matched_families
from ..core.vault.parser import BLOCK_ID, TASK_MARKS, blank_code_spans, blank_comments, blanked_links, visible_text
from ..core.vault.proactive import stemmed_hints
from ..core.vault.scope import PathScope, path_mentions, resolve_mentions
from ..ports.store.base import MemoryFilter, Store
from .edge_history import EdgeAt, EdgeHistory, states_of_heads
from .closed_loops import ClosedLater
from .context_budget import CUT_LINES, REPEATS, budget_needed, pack
from .runtime import Runtime
from .vault.decided_sources import pack_view
from .vault.pack_status import is_pack_bookkeeping
from .world_items import NOT_IN_FORCE_FACTOR, claims_in_force, not_stated_again, world_in_scope, world_items

if TYPE_CHECKING:  # the engine (numpy and all) loads with the first pack: thoughts and cards import this module
    from .recall import RecallOutcome

DEFAULT_BUDGET = 2500
DEFAULT_MAX_ITEMS = 8
MAX_BUDGET = 200_000
MAX_PROMPT_CHARS = 2000
MAX_SKIPPED_REPORTED = 50
# the order of a capped skipped list: what the pack's limits cost (items ranked in but not taken) first, then what was
# left out for a reason of its own, and last what only repeats an item; on a large store the repeats came first (edges
# are weighed before the pack is packed) and every `budget_limit` was cut from a `--budget 1` pack's list
_SKIP_TIERS = {"budget_limit": 0, "max_items": 0, "duplicate_of_item": 2, "covered_by_observation": 2,
               "deduped_by_world_state_assertion": 2}
BUDGET_UNIT = "chars"
METHOD = "mnemon_recall_rrf_beam"

# multipliers on the recall score; every one that applies is reported in `score_factors`
KIND_FACTORS = {"blocked": 1.15, "risk": 1.15, "correction": 1.1, "done": 0.9}
# an open task is "blocked" by its box alone (`core.vault.observations.OPEN_TASK`, Mneme's rule for the proactive
# pass): work to do, weighted as an open loop only for a prompt about open work — one holding a word that makes a
# bullet a blocker ("waiting", "to do", …) or naming tasks; "who is Ada Quill" put her open task first
OPEN_WORK_WORDS = frozenset({"task", "tasks", "todo", "todos", "open", "pending", "outstanding", "unfinished"})
EDGE_CATEGORY_FACTORS = {"semantic": 1.0, "semantic_pending": 0.8, "observation": 0.5, "association": 0.6,
                         "reference": 0.4, "structure": 0.35, "extraction": 0.4, "lineage": 0.3}
CANDIDATE_FACTOR = 0.3
HINT_STEP, HINT_FACTOR_MAX = 0.1, 1.3  # per `--hints` word an item holds, and the most hints can add
# a `resolve` pack's "Sources checked" and "Unresolved" sections (`vault.pack_status.is_pack_bookkeeping`): how the
# research went, ranked below what the notes and the pack's claims say
PACK_BOOKKEEPING_FACTOR = 0.4
_STRONG_SEGMENTS = {"projects", "project", "people", "person", "events", "vendors", "sources"}
_WEAK_SEGMENTS = {"archive", "archives", "daily", "journal"}
_NOISE_SEGMENTS = {"logs", "log", "cron", "out", "debug", "heartbeat", "runs"}
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
# a note's edges to its own sections and bullets: context only when recall returned that section or bullet
_SENTENCE_RELATIONS = tuple(s.name for s in DEFAULT_ONTOLOGY.specs() if s.category in ("observation", "structure"))
# a list marker or task box before a bullet's sentence: an edge's evidence keeps it, the bullet's memory does not
# (every box the parser reads as a task: a cancelled task's "[-]" kept its date edge from reading as the task)
_LIST_MARKER = re.compile(rf"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[{re.escape(TASK_MARKS)}]\]\s+)?")
_COMMENT_OPENER = re.compile(r"<!--|%%")  # (an HTML or Obsidian comment, `core.vault.parser.blank_comments`)
# `resolve`'s machine-readable copy of a resolution, at the end of its evidence pack (`app/vault/resolve.py`)
_PAYLOAD_MARK = "mneme-research-resolution"
_RESOLUTION_PAYLOAD = re.compile(r"<!--[ \t]*mneme-research-resolution(?:-b64)?:.*?-->", re.S)
_BLANK_RUN = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
# under a path scope, more edge heads are read than the cap: the edges of notes outside it are then dropped
SCOPED_EDGE_READ = 4


# ── validation ─────────────────────────────────────────────────────────────────────────────────────────────────
def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"--{name.replace('_', '-')} must be an integer from {low} to {high}", **{name: value})
    return value


def parse_as_of(as_of: Any) -> datetime | None:
    if as_of in (None, ""):
        return None
    if isinstance(as_of, datetime):
        return parse_iso(as_of.isoformat())
    try:
        return parse_iso(str(as_of))
    except ValueError:
        # named as the argument is (as `parse_instant` names it), not as one interface's flag: an MCP or HTTP
        # caller gave `as_of`, never `--as-of`
        raise InvalidInput(f"as_of {as_of!r} is not an ISO-8601 timestamp within the years 1-9999 (UTC)",
                           field="as_of", as_of=str(as_of)) from None


# ── factors ────────────────────────────────────────────────────────────────────────────────────────────────────
def source_path_of(node: Memory) -> str:
    """`vault:Projects/a.md` → `Projects/a.md`; other sources (`mneme://…`, `user`) unchanged."""
    return node.source[len("vault:"):] if node.source.startswith("vault:") else node.source


def source_authority(path: str) -> tuple[float, str]:
    segments = {s.lower() for s in re.split(r"[/:]", path) if s}
    if segments & _NOISE_SEGMENTS:
        return 0.4, "generated/log folder"
    if segments & _WEAK_SEGMENTS:
        return 0.6, "archive/daily folder"
    if segments & _STRONG_SEGMENTS:
        return 1.1, "curated project/people folder"
    return 1.0, "neutral"


def staleness(text: str, kind: str, now: datetime) -> tuple[float, int | None]:
    """Multiplier from the newest *past* dated mention (a future deadline is never stale); (1.0, None) if none."""
    ages = []
    for y, m, d in _ISO_DATE.findall(blanked_links(text)):  # (a link's or URL's day is another note's)
        try:
            when = datetime(int(y), int(m), int(d), tzinfo=now.tzinfo)
        except ValueError:
            continue
        ages.append((now - when).days)
    past = [a for a in ages if a >= 0]
    if not past or len(past) < len(ages):
        return 1.0, None  # undated, or it names a future date (an upcoming deadline is never stale)
    age = min(past)
    open_loop = kind in ("blocked", "risk")
    if age > 60:
        return (0.4 if kind == "done" else 0.8 if open_loop else 0.6), age
    if age > 30:
        return (0.6 if kind == "done" else 0.9 if open_loop else 0.8), age
    return 1.0, age


def memory_truth_policy(node: Memory) -> str:
    """Text that sits in a source (vault note, scoped payload) is a source-contained observation; an insight an
    agent stored with `remember` is active evidence — useful, but nobody checked it against a source."""
    if node.source.startswith(SOURCED_PREFIXES):
        return "source_contained_observation"
    return "active_evidence"


def _node_title(node: Memory | None, node_id: str) -> str:
    if node is None:
        return node_id
    if node.content and (node.metadata or {}).get("memory_kind") in ("observation", "task"):
        return excerpt(node.content, 60)  # its title is its note's (for search): "Ada —has_risk→ Ada" tells nothing
    if node.title:
        return node.title
    return excerpt(node.content, 60) if node.content else node_id


def asks_about_open_work(prompt: str) -> bool:
    """Whether a prompt asks about open work: it holds a word that makes a bullet a blocker, or names tasks."""
    if any(family.name == "blocked" for family in matched_families(prompt)):
        return True
    return not OPEN_WORK_WORDS.isdisjoint(re.findall(r"\w+", prompt.lower()))


def parse_hints(hints: Any) -> tuple[str, ...]:
    """`"deadline,lease"` or a list → stemmed hint tokens; None → Mneme's default hints."""
    return stemmed_hints(tuple(hint_words(hints) if hints is not None else DEFAULT_HINTS))


def hint_echo(hints: Any) -> tuple[list[str], list[str]]:
    """A pack's `hints` — the words as given, once each — and `hint_terms`, the stemmed terms it scores by: it had
    echoed only the terms, `--hints running,batteries` read back as "run" and "batteri"."""
    words = list(dict.fromkeys(hint_words(hints)))
    return words, sorted(set(parse_hints(words))) if words else []


# ── candidates ─────────────────────────────────────────────────────────────────────────────────────────────────
def _memory_items(rt: Runtime, outcome: RecallOutcome, q_tokens: frozenset[str], now: datetime,
                  as_of: datetime | None, skipped: list[dict[str, Any]], verbose: bool,
                  hints: Mapping[str, frozenset[str]] | None = None, open_work: bool = True) -> list[dict[str, Any]]:
    """`hints`: each hint word → its stemmed terms; an item scores by the terms it holds, and names the words.
    `open_work`: whether the prompt asks about open work (`asks_about_open_work`), which open tasks are weighted by."""
    items = []
    hints = hints or {}
    hint_terms = frozenset().union(*hints.values())
    killed = _killed_observations(rt.store, [outcome.nodes[s.id] for s in outcome.results], as_of)
    for s in outcome.results:
        node = outcome.nodes[s.id]
        meta = node.metadata or {}
        kind = str(meta.get("memory_kind") or "memory")
        obs_kind = str(meta.get("observation_kind") or "")
        title = node.title or excerpt(node.content, 80)
        if _after(node.created_at, as_of):
            continue  # recall reads no later row; were one to slip through, a replay must not name it
        if node.id in killed:  # a person killed the edge that made it an observation: it is not to be brought up
            skipped.append({"id": node.id, "kind": kind, "title": title, "score": round(s.score, 4),
                            "truth_policy": "excluded", "reason": "observation_edge_killed"})
            continue
        path = source_path_of(node)
        authority, authority_note = source_authority(path)
        stale, age = staleness(node.content, obs_kind, now)
        kind_factor = (KIND_FACTORS.get(obs_kind, 1.0)
                       if kind != "task" or obs_kind != "blocked" or open_work else 1.0)
        held = hint_terms & rt.tokens_of(node) if hint_terms else frozenset()
        hint_factor = min(HINT_FACTOR_MAX, 1.0 + HINT_STEP * len(held))
        hinted = [word for word, terms in hints.items() if terms & held]
        score = s.score * authority * stale * kind_factor * hint_factor
        factors: dict[str, Any] = {"recall": round(s.score, 4), "source_authority": authority,
                                   "staleness": stale, "kind": kind_factor}
        if hinted:
            factors["hints"] = round(hint_factor, 4)
        if node.source.startswith(VAULT_SOURCE_PREFIX) and is_pack_bookkeeping(path, meta.get("heading_path"),
                                                                                node.content):
            score *= PACK_BOOKKEEPING_FACTOR
            factors["pack_bookkeeping"] = PACK_BOOKKEEPING_FACTOR
        if s.superseded:
            factors["superseded"] = True
        if s.outside_window:
            factors["outside_time_window"] = True
        text = without_resolution_payload(node.content)
        if not text:  # nothing but `resolve`'s machine-readable comment: no context for anyone
            skipped.append({"id": node.id, "kind": kind, "title": title, "score": round(s.score, 4),
                            "truth_policy": memory_truth_policy(node), "reason": "resolution_payload_only"})
            continue
        item: dict[str, Any] = {
            "id": s.id, "kind": kind, "item_type": "memory", "title": title, "text": text,
            "source_path": path, "truth_policy": memory_truth_policy(node), "score": round(score, 4),
            "score_factors": factors, "matched_terms": sorted(q_tokens & rt.tokens_of(node)),
            **({"matched_hints": hinted} if hinted else {}),
            "category": node.category, "importance": node.importance,
        }
        for key in ("note", "line", "observation_kind", "heading_path"):
            if meta.get(key) not in (None, "", []):
                item[key] = meta[key]
        if isinstance(meta.get("body_line"), int) and node.content.startswith(text):  # where its text starts
            item["text_line"] = meta["body_line"]
            if isinstance(meta.get("property_lines"), list):  # (front matter: the line of each property said)
                item["property_lines"] = meta["property_lines"]
        item["source_notes"] = {"authority": authority_note, **({"newest_past_date_age_days": age}
                                                                 if age is not None else {})}
        if s.superseded:
            item["superseded"] = True
        if _rewritten_since(node, as_of):
            item["changed_since_as_of"] = True  # its text and metadata are today's: the store keeps no older ones
        if verbose:
            item["signals"] = s.signals.as_dict()
            item["via"] = s.via
        items.append(item)
    return with_repeats_marked(items, outcome.nodes)


def without_resolution_payload(text: str) -> str:
    """`text` without the base64 payload comment `resolve` ends its evidence pack with
    (`<!-- mneme-research-resolution-b64: … -->`): the section holding it (the pack's last, "Sources checked") is
    ingested whole, and the comment — kilobytes of base64 for a large resolution — would otherwise fill the pack's
    character budget and a thought card's evidence with noise."""
    if _PAYLOAD_MARK not in text:
        return text
    return _BLANK_RUN.sub("\n\n", _RESOLUTION_PAYLOAD.sub("", text)).strip()


def _killed_observations(store: Store, nodes: Sequence[Memory], as_of: datetime | None = None) -> set[str]:
    """The observations among `nodes` whose observation edge (their note's `has_risk`, `has_blocked`, …) was killed
    (by `as_of`, under a replay: a kill since is undone): `candidates` and `thought` never bring those up, and
    neither may a pack or the cards built from it."""
    from .thought_scores import is_observation

    ids = sorted(n.id for n in nodes if is_observation(n))
    if not ids:
        return set()
    wanted = set(ids)
    heads = [h for h in store.edge_heads(ids, ("killed",) if as_of is None else EDGE_STATUSES)
             if h[2] in wanted and category_of(h[3]) == "observation"]
    if as_of is None:
        return {h[2] for h in heads if h[4] == "killed"}
    _, states, rows = states_of_heads(store, [(h[0], h[1]) for h in heads], as_of, iso(as_of))
    return {h[2] for h in heads if (states[h[0]].status if h[0] in states else h[4]) == "killed"
            and not (h[0] in rows and _after(rows[h[0]].created_at, as_of))}


def _rewritten_since(node: Memory, as_of: datetime | None) -> bool:
    """Whether a replay shows a row rewritten after `as_of`: a vault or payload row is rewritten in place when its
    line changes but not its words (case, spacing, place in the note), and the store keeps no older version. A
    memory `remember` wrote is never rewritten: a later `updated_at` is its forgetting, which left it as it was."""
    return (as_of is not None and node.source.startswith(SOURCED_PREFIXES) and _after(node.updated_at, as_of)
            and node.updated_at != node.deleted_at)


def _bullets_only(node: Memory) -> bool:
    """Whether every non-blank line of a vault section is an observation memory of its own (`fts_skip`)."""
    skip = (node.metadata or {}).get(SKIP_KEY) or []
    return bool(skip) and all(i in skip for i, line in enumerate(node.content.split("\n")) if line.strip())


def with_repeats_marked(items: list[dict[str, Any]], nodes: Mapping[str, Memory]) -> list[dict[str, Any]]:
    """Each section marked with the bullets of its note recalled as items of their own that are lines of it
    (`context_budget.REPEATS`): the pack, when it takes one, takes a section with prose of its own without that
    line (`CUT_LINES`), and drops a section made only of bullets — found by its heading alone, it says nothing its
    bullet does not."""
    observed: dict[str, list[tuple[str, str]]] = {}
    for it in items:
        if it["kind"] != "section" and it.get("note"):
            observed.setdefault(str(it["note"]), []).append((str(it["id"]), str(it["text"])))
    marked = []
    for it in items:
        node = nodes[it["id"]]
        covering = ([(i, t) for i, t in observed.get(str(it.get("note") or ""), []) if t and t in node.content]
                    if it["kind"] == "section" else [])
        if covering and _bullets_only(node):
            it = {**it, REPEATS: {i: {"reason": "covered_by_observation", "covered_by": excerpt(t, 80)}
                                  for i, t in covering}}
        elif covering:
            lines = str(it["text"]).split("\n")
            at = {i: found for i, t in covering
                  if (found := [n for n, line in enumerate(lines) if t in line and _sentence(line) == _sentence(t)])}
            if at:
                it = {**it, CUT_LINES: at, REPEATS: {i: {"reason": "covered_by_observation",
                                                         "covered_by": excerpt(t, 80)} for i, t in covering if i in at}}
        marked.append(it)
    return marked


def _gone(node: Memory | None, as_of: datetime | None) -> bool:
    """Whether a node was forgotten (or removed from its note) by `as_of`, or by now without one."""
    if node is None or node.deleted_at is None:
        return False
    return as_of is None or parse_iso(node.deleted_at) <= as_of


def _after(stamp: str | None, as_of: datetime | None) -> bool:
    """Whether a row created at `stamp` did not exist yet at `as_of` (never, without one)."""
    return as_of is not None and bool(stamp) and parse_iso(str(stamp)) > as_of


def _read_edges(store: Store, order: Sequence[int], want: int,
                as_of: datetime | None) -> tuple[list[Edge], dict[str, Memory]]:
    """The first `want` edges of `order` (ids, best first) and their ends. Under `as_of` only edges that existed
    then — made by then, between rows made by then — are counted and kept, so a later edge takes no place of an
    earlier one and its evidence is never read into the pack."""
    edges: list[Edge] = []
    ends: dict[str, Memory] = {}
    at = 0
    while len(edges) < want and at < len(order):
        batch = order[at:at + want]
        at += len(batch)
        by_id = {e.id: e for e in store.get_edges(batch)}
        got = [by_id[i] for i in batch if i in by_id]
        ends.update(store.get_nodes(list(({e.src for e in got} | {e.dst for e in got}) - ends.keys())))
        if as_of is not None:
            got = [e for e in got if not _after(e.created_at, as_of)
                   and not any(_after(ends[x].created_at, as_of) for x in (e.src, e.dst) if x in ends)]
        edges += got[:want - len(edges)]
        if as_of is None:
            break  # every edge counts: the first `want` are the ones
    return edges, ends


def _later_match(store: Store, terms: Sequence[str], as_of: datetime, sources: Sequence[str]) -> bool:
    """Whether a memory written after `as_of` holds one of `terms`: an empty replay then says the store did not
    hold them yet, without naming the row."""
    after = MemoryFilter(created_from=iso(as_of + timedelta(microseconds=1)), sources=tuple(sources))
    return bool(store.keyword_search(list(terms), 1, after))


def _best_first(item: Mapping[str, Any]) -> tuple[float, str]:
    """Score, then a key the same on every backend: an edge by what it joins (SQLite numbers a note's edges to its
    own items below zero and PostgreSQL does not, so by id a tie went to other edges on each), the rest by id."""
    if item.get("item_type") == "edge":
        return -item["score"], f"edge:{item['relation']}\x00{item['src']['id']}\x00{item['dst']['id']}"
    return -item["score"], str(item["id"])


def _sentence(text: str) -> str:
    """An evidence line as its item reads: without its list marker, comments and trailing block id (the line
    `- [ ] pay the invoice ^inv` is the item "pay the invoice", so its date edge is no second item)."""
    said = " ".join(_LIST_MARKER.sub("", blank_comments(text)).split())
    return BLOCK_ID.sub("", said) if "^" in said else said


def _repeats_item(evidence: str, ends: tuple[str, ...], item_texts: Mapping[str, str]) -> str | None:
    """The item at one end of an edge whose evidence is that item's own sentence: it is paid for once, as the item.
    The edge is skipped rather than charged only for what it adds: what an extraction edge adds (a date, an
    address) is a span of that very sentence, so the item says all of it. Only the whole sentence counts: a link
    whose evidence is a `[[wikilink]]` inside the item still says where it points."""
    said = _readings(evidence)
    return next((end for end in ends if item_texts.get(end) in said), None)


def _readings(evidence: str) -> frozenset[str]:
    """What an evidence line can read as its item: its sentence, and that sentence cut at each comment opener left
    in it. The line is cut from its note: an opener whose comment closes on a later line is text in the line alone
    but hides the rest of the line in the note, so `- Ship it on 2026-03-02 <!-- moved` is the item "Ship it on
    2026-03-02". Comments are found as the parser finds them, outside inline code (which the item keeps); each
    opener, not only the first, since one with no closer in the whole note stays text there too."""
    said = {_sentence(evidence)}
    coded = blank_code_spans(evidence)
    shown = blank_comments(coded)
    if "<!--" in shown or "%%" in shown:
        written = visible_text(evidence, coded, shown)  # (same length: an opener's offset is the line's)
        said.update(_sentence(written[:opener.start()]) for opener in _COMMENT_OPENER.finditer(shown))
    said.discard("")
    return frozenset(said)


def _in_path_scope(edge_path: str, ends: Sequence[Memory | None], ids: Sequence[str], paths: frozenset[str]) -> bool:
    """Whether an edge belongs to the notes a prompt names: one a named note holds (`source_path`); one without a
    note of its own (a link made by hand) when both its ends lie in named notes."""
    if edge_path:
        return edge_path in paths
    return all((i[len("note:"):] if i.startswith("note:") else source_path_of(n) if n is not None else "") in paths
               for i, n in zip(ids, ends))


def _edge_items(rt: Runtime, memory_items: list[dict[str, Any]], q_tokens: frozenset[str], include_candidates: bool,
                as_of: datetime | None, skipped: list[dict[str, Any]],
                edge_cap: int, scope_paths: frozenset[str] | None = None) -> tuple[list[dict[str, Any]], int]:
    """Edges touching the recalled memories and their notes, each scored from both its ends and what it adds to the
    item it hangs on (`_edge_relevance`); under a path scope (`scope_paths`) only the edges of those notes (the pack
    keeps to the notes a prompt names)."""
    anchor: dict[str, float] = {}
    said: dict[str, set[str]] = {}  # the prompt terms each end already brings to the pack
    for it in memory_items:
        anchor[it["id"]] = max(anchor.get(it["id"], 0.0), it["score"])
        said.setdefault(it["id"], set()).update(it["matched_terms"])
        if it.get("note"):
            note_id = f"note:{it['note']}"
            anchor[note_id] = max(anchor.get(note_id, 0.0), 0.8 * it["score"])
            said.setdefault(note_id, set()).update(it["matched_terms"])
    if not anchor:
        return [], 0
    store = rt.store
    item_ids = {it["id"] for it in memory_items}
    item_texts = {it["id"]: _sentence(str(it["text"])) for it in memory_items}
    # one read of the edge heads, killed ones included only to be counted; ranked by the cheap part of the score
    # first, so only the best few are read in full and matched lexically
    ranked: list[tuple[float, str, str, str, int]] = []
    killed_ids: list[int] = []
    categories: dict[str, str] = {}
    # a replay also reads the edges retired since (a forget after `as_of` retired its memory's edges)
    heads = store.vault.edge_heads_around(list(anchor), list(item_ids), _SENTENCE_RELATIONS,  # type: ignore[attr-defined]
                                          ("active", "candidate", "killed", *(("retired",) if as_of else ())))
    history, states = _head_states(store, heads, as_of)
    for edge_id, src, dst, relation, status in heads:
        if edge_id in states:
            status = states[edge_id].status  # what it was at `as_of`: the decisions since are undone
        if status == "killed":
            killed_ids.append(edge_id)
            continue
        if status not in ("active", "candidate"):
            continue  # retired by then
        category = categories.get(relation)
        if category is None:
            category = categories[relation] = category_of(relation) or "unknown"
        # a note's observation/section edges to memories recall did not return are the note's other sentences,
        # not context for this prompt; skipping them up front keeps a 40-bullet note from costing 40 edge rows
        if category in ("observation", "structure") and src not in item_ids and dst not in item_ids:
            if src.startswith("vault:") or dst.startswith("vault:") or relation == "has_section":
                continue
        pre_score = (_ends_score(anchor.get(src, 0.0), anchor.get(dst, 0.0)) * EDGE_CATEGORY_FACTORS.get(category, 0.8)
                     * (CANDIDATE_FACTOR if status == "candidate" else 1.0))
        ranked.append((-pre_score, relation, src, dst, edge_id))  # ties by what it joins: ids differ by backend
    ranked.sort()
    edges, ends = _read_edges(store, [row[-1] for row in ranked],
                              edge_cap * (SCOPED_EDGE_READ if scope_paths else 1), as_of)
    # a replay counts the edges killed since that existed then (their kill is today's decision, kept)
    killed = len(killed_ids) if as_of is None else len(_read_edges(store, killed_ids, len(killed_ids), as_of)[0])
    out: list[dict[str, Any]] = []
    in_scope = 0
    # a link written both ways (temporal, entity, semantic) is two rows saying one thing: the second is no item
    twins: dict[tuple[str, frozenset[str], str, str], str] = {}
    for e in edges:
        if scope_paths is not None and in_scope >= edge_cap:
            break  # read beyond the cap only to find the scope's edges: the rest were never candidates
        then = states.get(int(e.id or 0))
        if then is not None:
            e = replace(e, status=then.status, weight=then.weight, confidence=then.confidence)
        # a change since `as_of` that did not record what it replaced: the values shown are today's, and say so
        unknown = (not then.known if then is not None
                   else as_of is not None and history is not None and history.silent(e, iso(as_of)))
        relation = e.type
        category = category_of(relation) or "unknown"
        policy = truth_policy(relation, e.status)
        src_title, dst_title = _node_title(ends.get(e.src), e.src), _node_title(ends.get(e.dst), e.dst)
        title = f"{src_title} —{relation}→ {dst_title}"
        matched = sorted(q_tokens & frozenset(tokens(f"{e.evidence} {src_title} {dst_title} {relation}")))
        relevance, added = _edge_relevance(e, anchor, said, matched)
        quality = max(0.0, min(1.0, (e.confidence + min(1.0, e.weight)) / 2))
        cat_factor = EDGE_CATEGORY_FACTORS.get(category, 0.8)
        status_factor = CANDIDATE_FACTOR if e.status == "candidate" else 1.0
        score = relevance["ends"] * quality * cat_factor * status_factor * relevance["lexical"]
        item: dict[str, Any] = {
            "id": f"edge:{e.id}", "edge_id": e.id, "kind": "edge", "item_type": "edge", "relation": relation,
            "category": category, "status": e.status, "title": title, "text": e.evidence,
            "source_path": e.source_path, "truth_policy": policy, "candidate_only": e.status != "active",
            "confidence": round(e.confidence, 4), "strength": round(e.weight, 4), "origin": e.origin,
            "src": {"id": e.src, "title": src_title, "kind": ends[e.src].kind if e.src in ends else None},
            "dst": {"id": e.dst, "title": dst_title, "kind": ends[e.dst].kind if e.dst in ends else None},
            "score": round(score, 4), "matched_terms": matched, "added_terms": added,
            "score_factors": {**relevance, "quality": round(quality, 4), "category": cat_factor,
                              "status": status_factor},
        }
        if e.rule:
            item["rule"] = e.rule
        if isinstance(line := e.metadata.get("line"), int) and not isinstance(line, bool):
            item["line"] = line  # (where its evidence is, in its note)
        if unknown:
            item["changed_since_as_of"] = True
        if as_of is None and e.origin == "ingest" and kept_active(e.status, e.metadata):
            item.update(pack_view(store, e))  # a decided edge's row keeps its evidence: cite the note as it is now
        reason = None
        if category == "observation" or relation == "has_section":  # (a section's edge read as its first line)
            repeated = e.dst if e.dst in item_ids else e.src if e.src in item_ids else None
        else:
            repeated = _repeats_item(e.evidence, (e.src, e.dst), item_texts)
        twin = ((relation, frozenset((e.src, e.dst)), e.evidence or "", e.source_path or "")
                if is_symmetric(relation) else None)
        # an observation edge to an item, any edge whose evidence is an item's own sentence (the bullet's
        # mentions_date edge), the second row of a link written both ways: the budget pays for it once, when the
        # pack takes the item it repeats (`context_budget.pack`)
        originals = [o for o in (repeated, twins.get(twin) if twin is not None else None) if o is not None]
        if scope_paths is not None and not _in_path_scope(e.source_path, (ends.get(e.src), ends.get(e.dst)),
                                                          (e.src, e.dst), scope_paths):
            reason = "outside_path_scope"
        elif any(_gone(ends.get(x), as_of) for x in (e.src, e.dst)):
            reason = "endpoint_forgotten"  # a note's removed bullet kept for a link to it, a forgotten memory
        elif e.status == "candidate" and not include_candidates:
            reason = "candidate_edge_excluded"
        if scope_paths is not None and reason != "outside_path_scope":
            in_scope += 1
        if reason:
            skipped.append({"id": item["id"], "kind": "edge", "title": title, "score": item["score"],
                            "truth_policy": policy, "reason": reason})
            continue
        if originals:
            item[REPEATS] = {o: {"reason": "duplicate_of_item", "duplicate_of": o} for o in originals}
        if twin is not None:
            twins.setdefault(twin, item["id"])
        out.append(item)
    return out, killed


def _ends_score(a: float, b: float) -> float:
    """An edge's share of its ends' relevance: their mean. By its better end alone, every link of the best memory
    (to anything at all: "The launch is March 3 —temporal→ We switched to Postgres") scored as that memory did and
    filled the pack before a second memory the prompt is about."""
    return (a + b) / 2


def _edge_relevance(e: Edge, anchor: Mapping[str, float], said: Mapping[str, set[str]],
                    matched: Sequence[str]) -> tuple[dict[str, float], list[str]]:
    """The edge's relevance factors — the score of the end it hangs on (`anchor`) and of its other end (0 when the
    pack did not recall it), their mean (`ends`), ×1.25 per prompt term the edge adds to its anchor (`lexical`) —
    and those terms: in its evidence or its other end, not one its anchor's own title or text brings anyway (the
    anchor's words credited every link hanging on it, however unrelated its other end)."""
    a, b = anchor.get(e.src, 0.0), anchor.get(e.dst, 0.0)
    added = sorted(set(matched) - said.get(e.src if a >= b else e.dst, set()))
    return ({"anchor": round(max(a, b), 4), "other_end": round(min(a, b), 4), "ends": round(_ends_score(a, b), 4),
             "lexical": 1.0 + 0.25 * len(added)}, added)


def _head_states(store: Store, heads: Sequence[tuple[int, str, str, str, str]],
                 as_of: datetime | None) -> tuple[EdgeHistory | None, dict[int, EdgeAt]]:
    """Under a replay, the history of the edges `heads` names and the values at `as_of` of those changed since."""
    if as_of is None or not heads:
        return None, {}
    history, states, _ = states_of_heads(store, [(h[0], h[1]) for h in heads], as_of, iso(as_of))
    return history, states


# ── packing ────────────────────────────────────────────────────────────────────────────────────────────────────
def _pack_open_loops_checked(rt: Runtime, ranked: list[dict[str, Any]], budget: int, max_items: int,
                             skipped: list[dict[str, Any]],
                             as_of: datetime | None) -> tuple[list[dict[str, Any]], int]:
    """`context_budget.pack`, with each open loop a later note closed (`app.closed_loops`) marked `closed_later_in` and ranked
    ×0.25: what its note says, but not a loop for an agent to take up again. Asking costs a lookup an item, so only
    the items a pack would take are asked about, again until it takes none that was not: an item ranked down makes
    room for the ones below it."""
    closed_later = ClosedLater(rt, as_of=as_of)
    asked: set[str] = set()
    while True:
        passed_over: list[dict[str, Any]] = []
        items, used = pack(ranked, budget, max_items, passed_over)
        fresh = [i for i in items if i.get("item_type") == "memory" and i["id"] not in asked]
        if not fresh:
            skipped.extend(passed_over)
            return items, used
        asked.update(i["id"] for i in fresh)
        closers = closed_later.closers([(i["id"], i.get("note"), i.get("observation_kind")) for i in fresh],
                                       {i["id"]: str(i["text"]) for i in fresh if not i.get("truncated")})
        if closers:
            ranked = sorted((_closed_later(i, closers[i["id"]]) if i["id"] in closers else i for i in ranked),
                            key=_best_first)


def _closed_later(item: dict[str, Any], closer: str) -> dict[str, Any]:
    return {**item, "score": round(item["score"] * NOT_IN_FORCE_FACTOR, 4), "closed_later_in": closer,
            "score_factors": {**item["score_factors"], "closed_later": NOT_IN_FORCE_FACTOR}}


def reported_skips(skipped: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The skipped entries a pack lists (at most `MAX_SKIPPED_REPORTED`), most useful first (`_SKIP_TIERS`), best
    score first within a tier, and how many of each reason were left out. Ties keep the order the pack met them in,
    which is the same on every backend (edge ids are not)."""
    ordered = sorted(skipped, key=lambda s: (_SKIP_TIERS.get(str(s.get("reason")), 1), -float(s.get("score") or 0)))
    omitted = Counter(str(s.get("reason")) for s in ordered[MAX_SKIPPED_REPORTED:])
    return ordered[:MAX_SKIPPED_REPORTED], dict(sorted(omitted.items()))


def _explain_rows(items: Sequence[dict[str, Any]]) -> list[str]:
    rows = []
    for rank, it in enumerate(items, start=1):
        factors = ", ".join(f"{k}={v}" for k, v in it.get("score_factors", {}).items())
        rows.append(f"{rank:>2}. {it['score']:.4f} {it.get('kind')}/{it['truth_policy']} "
                    f"{excerpt(str(it.get('title')), 70)} [{factors}]")
    return rows


def path_scope(rt: Runtime, prompt: str) -> PathScope:
    """The notes the prompt names by path (`core.vault.scope`); the vault's paths are read only when it names any."""
    mentions = path_mentions(prompt)
    if not mentions:
        return PathScope()
    return resolve_mentions(mentions, rt.store.vault.note_paths())  # type: ignore[attr-defined]


def build_context_pack(rt: Runtime, prompt: str, *, budget: int = DEFAULT_BUDGET, max_items: int = DEFAULT_MAX_ITEMS,
                       as_of: Any = None, include_candidates: bool = True, verbose: bool = False,
                       explain: bool = False, hints: Any = None) -> dict[str, Any]:
    """`hints` (as Mneme's `--hints`): items holding a hint word score up to ×1.3, and a prompt with no usable
    terms searches for the hints instead."""
    if not isinstance(prompt, str) or not prompt.strip():
        raise InvalidInput("--prompt must be a non-empty string")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise InvalidInput(f"--prompt is {len(prompt)} characters; the limit is {MAX_PROMPT_CHARS}")
    check_query_text(prompt, "--prompt")
    budget = _check_int("budget", budget, 1, MAX_BUDGET)
    max_items = _check_int("max_items", max_items, 1, 100)
    when = parse_as_of(as_of)
    if when is not None and when > rt.now():  # a replay of an instant to come: said, or read as a real one
        rt.warnings.append(f"as_of {iso(when)} is after now: nothing is known of what will be written by then, so "
                           "the pack is today's, its ages and dates read from that instant")
    now = when or rt.now()
    hinted, hint_terms = hint_echo(hints)
    hint_tokens = frozenset(hint_terms)
    by_word = {word: frozenset(parse_hints([word])) for word in hinted}
    scope = path_scope(rt, prompt)
    query = scope.without_mentions(prompt)
    q_list = list(dict.fromkeys(tokens(query)))
    if not q_list:  # the prompt is a path and nothing else: its words are all there is to search by
        query, q_list = prompt, list(dict.fromkeys(tokens(prompt)))
    if not q_list and hint_tokens:  # "what should I do?": nothing to search for but the hints
        query, q_list = " ".join(hinted), sorted(hint_tokens)
    q_tokens = frozenset(q_list)
    open_work = asks_about_open_work(prompt)
    skipped: list[dict[str, Any]] = []

    outcome: RecallOutcome | None = None
    memory_items: list[dict[str, Any]] = []
    edge_items: list[dict[str, Any]] = []
    killed = 0
    sources = [VAULT_SOURCE_PREFIX + p for p in scope.paths]
    if q_list:
        from .recall import run_recall

        # sections unfolded: the pack gives way to a section's bullets itself, and says so (`with_repeats_marked`)
        outcome = run_recall(rt, query, limit=min(100, max(25, 4 * max_items)), explain=explain, touch=False,
                             sources=sources, as_of=when, fold_sections=False)
        memory_items = _memory_items(rt, outcome, q_tokens, now, when, skipped, verbose, by_word, open_work)
        if not memory_items and scope.active and query != prompt:
            # "summarize Projects/p.md": the words around a path need not occur in the note it names — the note is
            # what was asked for, found by the path's words as a prompt of the path alone is
            query, q_list = prompt, list(dict.fromkeys(tokens(prompt)))
            q_tokens = frozenset(q_list)
            outcome = run_recall(rt, query, limit=min(100, max(25, 4 * max_items)), explain=explain, touch=False,
                                 sources=sources, as_of=when, fold_sections=False)
            memory_items = _memory_items(rt, outcome, q_tokens, now, when, skipped, verbose, by_word, open_work)
        edge_items, killed = _edge_items(rt, memory_items, q_tokens, include_candidates, when, skipped,
                                         edge_cap=3 * max_items,
                                         scope_paths=frozenset(scope.paths) if scope.active else None)
    world_rows, claim_edges = world_items(rt, query, when)
    world_rows = world_in_scope(world_rows, frozenset(scope.paths) if scope.active else None, skipped)
    edge_items = claims_in_force(not_stated_again(edge_items, world_rows), claim_edges, skipped)
    ranked = sorted(world_rows + memory_items + edge_items, key=_best_first)
    items, used = _pack_open_loops_checked(rt, ranked, budget, max_items, skipped, when)

    if not q_list:
        empty_reason = "no_prompt_terms" if not items else None
    elif not ranked and when is not None and _later_match(rt.store, q_list, when, sources):
        empty_reason = "all_matches_written_after_as_of"  # they match, but did not exist yet at --as-of
    elif not ranked:
        empty_reason = "no_matching_memories"
    elif not items and any(s["reason"] == "budget_limit" for s in skipped):
        empty_reason = "budget_too_small"  # items matched, and none fits: raising the budget is all it takes
    elif not items:
        empty_reason = "all_candidates_skipped"
    else:
        empty_reason = None
    anchors = outcome.anchors if outcome else {}
    reported, omitted = reported_skips(skipped)
    payload: dict[str, Any] = {
        "prompt": prompt, "budget": budget, "budget_unit": BUDGET_UNIT, "used_budget": used, "max_items": max_items,
        "as_of": now.isoformat() if when else None, "include_candidates": include_candidates,
        "tokens": q_list, "hints": hinted, "hint_terms": hint_terms, "clusters": [], "brain_labels": [],
        "retrieval": {
            "method": METHOD, "engine": "run_recall",
            "signals": sorted(anchors) + ["graph", "edges", *(["world"] if world_rows else [])],
            "intent": outcome.intent.intent.value if outcome else None,
            "query_seed_nodes": list(dict.fromkeys(i for r in anchors.values() for i in r[:5]))[:20],
            "embedded_query": bool(outcome and outcome.embedded_query),
            "matched_paths": {mention: len(paths) for mention, paths in scope.matched.items()},
            "unmatched_paths": list(scope.unmatched),
            "path_filter_active": scope.active,
            "path_node_count": len(scope.paths),
        },
        "items": items,
        "skipped": reported,
        "stats": {"candidate_items_considered": len(ranked), "items_returned": len(items),
                  "skipped_reported": len(reported), "skipped_total": len(skipped),
                  "skipped_omitted": omitted,
                  "memories_recalled": len(outcome.results) if outcome else 0, "edges_considered": len(edge_items),
                  "killed_edges_excluded": killed, "world_items": len(world_rows)},
        "empty_reason": empty_reason,
        **({"budget_needed": budget_needed(ranked)} if empty_reason == "budget_too_small" else {}),
    }
    if explain:
        payload["explain"] = {"ranking": _explain_rows(items), "recall_trace": outcome.trace if outcome else []}
    if rt.warnings:
        payload["warnings"] = list(dict.fromkeys(rt.warnings))
        rt.warnings.clear()
    return payload
