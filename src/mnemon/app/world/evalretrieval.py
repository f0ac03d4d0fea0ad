"""`eval retrieval`: a scored regression guard for the recall engine (hit@k, MRR, forbidden-top-1 rate, and Mneme's
min-items and node-name rates).

`--demo` seeds a temporary store with fresh facts and stale distractors that the fresh ones supersede, under a fixed
clock, so the score depends on the engine and the embedding provider — never on today's date (Mneme's demo scored
differently from one day to the next because staleness read the wall clock). `--cases FILE` scores cases against
the current store, or against a temporary one when the file carries its own `memories`.

A case is Mneme's `{query, expected_source_paths, expected_node_names, forbidden_patterns, min_expected_items,
hints}`, plus `expected_sources` (an alias of `expected_source_paths`), `expected_ids` and `expected_contains`:

- expected items: a ranked memory is expected when its source is one of the paths (a vault row's `vault:` prefix
  aside, so Mneme's vault-relative paths match), its id is one of the ids, or its content holds one of the
  `expected_contains` strings (case-insensitively). hit@k and MRR read the first expected item's rank. A case that
  gives only `expected_node_names` expects the memories carrying one of those names instead (in Mneme such a case
  could never hit).
- `expected_node_names`: a memory carries a name when the name occurs, case-insensitively, in its content, its
  source, its title (a vault row's title is its note's title and heading path) or its `note` / `heading_path`
  metadata. As in Mneme a case passes when at least one of its names is carried by a memory in the top-k (Mneme
  reads a fixed top 3, which is the default k, and compares case-sensitively), and `node_name_rate` is the fraction
  of all cases that pass, a case without names passing by default: with no names anywhere the rate is 1.0, as
  Mneme reports it.
- `min_expected_items` (a whole number from 0 to 100; 1 when absent, as in Mneme): `min_items_rate` is the fraction
  of all cases for which recall returned at least that many items — every item it returned, not only the top-k, as
  Mneme counts (recall returns only the memories it finds relevant, at most max(k, 10, min_expected_items)).
- `hints` (a list of words or Mneme's comma-separated string): recall has no hint input (`retrieve --hints` reranks
  a context pack, which `eval` does not build), so the hint words a query does not already hold are appended to
  its text. A case without hints searches its query alone: Mneme's default hints (current, urgent, deadline) are not
  applied, since appending them to every query would change what each case searches for.

score = (hit@k + MRR + (1 − forbidden_rate)) / 3, as in Mneme: the min-items and node-name rates are reported, not
scored. A case is listed in `failures` when it misses the top-k, a forbidden pattern matches its top item, recall
returned fewer than its `min_expected_items`, or none of its node names is in the top-k (Mneme leaves this last one
out of its failures); each failure names its `reasons`.
"""
from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ...core.errors import ContractViolation, InvalidInput
from ...core.model import Edge, Memory, iso as model_iso, parse_iso
from ...core.validation import validate_memory
from ...core.vault.observations import hint_words
from ..runtime import Runtime
from .sense import read_json_document

MAX_CASES = 1000
MAX_MIN_ITEMS = 100  # recall's own --limit ceiling: more could never be returned
RECALL_DEPTH = 10  # recall is asked for at least this many items, so `items` can exceed k as in Mneme
DEMO_NOW = "2026-04-13T09:00:00Z"

DEMO_MEMORIES: tuple[dict[str, Any], ...] = (
    {"key": "sequency", "source": "Projects/sequency-app.md", "created_at": "2026-04-10T09:00:00Z",
     "content": "Sequency App: the beta release moved to May 12 after the payment bug fix."},
    {"key": "cassini", "source": "vendors/cassini-property.md", "created_at": "2026-04-11T09:00:00Z",
     "content": "Cassini Property still has not repaired the broken window at the flat; the complaint is escalated."},
    {"key": "chepstow", "source": "Projects/chepstow-house-fees.md", "created_at": "2026-04-09T09:00:00Z",
     "content": "Chepstow House school fees for the summer term are due on April 30."},
    {"key": "task", "source": "gws://tasks/fresh-due-tomorrow", "created_at": "2026-04-12T18:00:00Z",
     "content": "Task due tomorrow: send the signed lease renewal to the letting agent."},
    {"key": "urgent", "source": "email://inbox/urgent-deadline", "created_at": "2026-04-12T08:00:00Z",
     "content": "Urgent deadline: the visa appointment documents must be uploaded by Friday."},
    {"key": "calendar", "source": "gws://calendar/source-authority", "created_at": "2026-04-12T07:00:00Z",
     "content": "Calendar and email agree: the dentist appointment is on April 18 at 10:00."},
    # stale distractors, each superseded by the fresh memory named in `superseded_by`
    {"key": "old-sequency", "source": "archive/daily/2026-03-28.md", "created_at": "2026-03-28T09:00:00Z",
     "superseded_by": "sequency", "content": "Old daily note: Sequency App beta release planned for April 1."},
    {"key": "old-cassini", "source": "daily/2026-04-01.md", "created_at": "2026-04-01T09:00:00Z",
     "superseded_by": "cassini", "content": "Cassini broken window resolved, complaint sent."},
    {"key": "old-chepstow", "source": "daily/2026-03-31.md", "created_at": "2026-03-31T09:00:00Z",
     "superseded_by": "chepstow", "content": "Chepstow House school fees: urgent deadline due tomorrow Mar 31."},
    {"key": "old-task", "source": "daily/2026-03-30.md", "created_at": "2026-03-30T09:00:00Z",
     "superseded_by": "task", "content": "Due tomorrow Mar 31: send the lease renewal draft to the agent."},
    {"key": "old-calendar", "source": "memory/2026-04-01.md", "created_at": "2026-04-01T10:00:00Z",
     "superseded_by": "calendar", "content": "Old memory: gws email calendar sync broken; dentist appointment unknown."},
)

DEMO_CASES: tuple[dict[str, Any], ...] = (
    {"query": "Sequency App release", "expected_sources": ["Projects/sequency-app.md"],
     "expected_node_names": ["Sequency App"], "forbidden_patterns": ["old daily"]},
    {"query": "Cassini broken window", "expected_sources": ["vendors/cassini-property.md"],
     "expected_node_names": ["Cassini Property"], "forbidden_patterns": ["resolved, complaint"]},
    {"query": "Chepstow House school fees", "expected_sources": ["Projects/chepstow-house-fees.md"],
     "expected_node_names": ["Chepstow House"], "forbidden_patterns": ["Mar 31"]},
    {"query": "what is due tomorrow", "expected_sources": ["gws://tasks/fresh-due-tomorrow"],
     "expected_node_names": ["lease renewal"], "forbidden_patterns": ["Mar 31"]},
    {"query": "urgent deadline", "expected_sources": ["email://inbox/urgent-deadline"],
     "expected_node_names": ["visa appointment"], "forbidden_patterns": ["Mar 31"]},
    {"query": "gws email calendar dentist", "expected_sources": ["gws://calendar/source-authority"],
     "expected_node_names": ["dentist appointment"], "forbidden_patterns": ["old memory"]},
)


@dataclass(frozen=True)
class Case:
    query: str
    expected_sources: tuple[str, ...]
    expected_ids: tuple[str, ...]
    expected_contains: tuple[str, ...]
    forbidden: tuple[re.Pattern[str], ...]
    node_names: tuple[str, ...] = ()
    min_items: int = 1
    hints: tuple[str, ...] = ()

    @property
    def search_text(self) -> str:
        """The query, and the hint words it does not hold yet (recall has no hint input of its own)."""
        held = {w.casefold() for w in re.findall(r"\w+", self.query)}
        extra = [h for h in dict.fromkeys(self.hints) if h.casefold() not in held]
        return " ".join([self.query, *extra])


def _strings(obj: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = obj.get(key)
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence) or not all(isinstance(v, str) and v for v in value):
        raise InvalidInput(f"{where}: {key} must be a list of non-empty strings", field=key)
    return tuple(value)


def _min_items(obj: Mapping[str, Any], where: str) -> int:
    value = obj.get("min_expected_items", 1)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MIN_ITEMS:
        raise InvalidInput(f"{where}: min_expected_items must be a whole number from 0 to {MAX_MIN_ITEMS}, "
                           f"not {value!r}", field="min_expected_items")
    return value


def _hints(obj: Mapping[str, Any], where: str) -> tuple[str, ...]:
    try:
        return tuple(hint_words(obj.get("hints")))
    except InvalidInput:
        raise InvalidInput(f"{where}: hints must be a list of words or a comma-separated string",
                           field="hints") from None


def parse_cases(raw: Any) -> list[Case]:
    if not isinstance(raw, Sequence) or isinstance(raw, (str, bytes)):
        raise InvalidInput("cases must be a JSON list of case objects")
    if not raw:
        raise InvalidInput("cases is empty")
    if len(raw) > MAX_CASES:
        raise InvalidInput(f"{len(raw)} cases; the limit is {MAX_CASES}")
    cases = []
    for index, item in enumerate(raw):
        where = f"cases[{index}]"
        if not isinstance(item, Mapping):
            raise InvalidInput(f"{where} must be an object")
        query = item.get("query")
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput(f"{where}: missing required field 'query'", field="query")
        sources = _strings(item, "expected_sources", where) + _strings(item, "expected_source_paths", where)
        ids = _strings(item, "expected_ids", where)
        contains = _strings(item, "expected_contains", where)
        names = _strings(item, "expected_node_names", where)
        if not (sources or ids or contains or names):
            raise InvalidInput(f"{where}: give expected_source_paths (or expected_sources), expected_ids, "
                               "expected_contains or expected_node_names")
        forbidden = []
        for pattern in _strings(item, "forbidden_patterns", where):
            try:
                forbidden.append(re.compile(pattern, re.IGNORECASE))
            except re.error as exc:
                raise InvalidInput(f"{where}: forbidden pattern {pattern!r} is not a valid regex: {exc}") from None
        cases.append(Case(query.strip(), sources, ids, tuple(c.casefold() for c in contains), tuple(forbidden),
                          names, _min_items(item, where), _hints(item, where)))
    return cases


def _name_fields(node: Memory) -> tuple[str, ...]:
    """Where a memory carries a node name: content, source, title, and a vault row's note path and heading path."""
    meta = node.metadata or {}
    fields = [node.content, node.source, node.title or "", str(meta.get("note") or "")]
    heading_path = meta.get("heading_path")
    if isinstance(heading_path, list):
        fields.extend(str(h) for h in heading_path)
    return tuple(f.casefold() for f in fields if f)


def _carries(node: Memory, names: Sequence[str]) -> list[str]:
    fields = _name_fields(node)
    return [name for name in names if any(name.casefold() in f for f in fields)]


def _expected(case: Case, node: Memory) -> bool:
    if not (case.expected_sources or case.expected_ids or case.expected_contains):
        return bool(_carries(node, case.node_names))  # a names-only case expects the memories carrying them
    path = node.source[len("vault:"):] if node.source.startswith("vault:") else node.source
    return (node.source in case.expected_sources or path in case.expected_sources or node.id in case.expected_ids
            or any(c in node.content.casefold() for c in case.expected_contains))


def score_cases(rt: Runtime, cases: Sequence[Case], k: int) -> dict[str, Any]:
    from ..recall import run_recall  # lazily: remember → world.sense must not pull the recall stack in

    hits = 0
    reciprocal = 0.0
    forbidden_top = 0
    min_items_ok = 0
    node_names_ok = 0
    per_case: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    for case in cases:
        outcome = run_recall(rt, case.search_text, limit=max(k, RECALL_DEPTH, case.min_items), touch=False)
        ranked = [outcome.nodes[s.id] for s in outcome.results]
        # ranks beyond the usual depth stay unread: a large min_expected_items must not move MRR
        rank = next((i + 1 for i, node in enumerate(ranked[:max(k, RECALL_DEPTH)]) if _expected(case, node)), None)
        top = ranked[0] if ranked else None
        bad_top = top is not None and any(p.search(top.content) or p.search(top.source) for p in case.forbidden)
        hit = rank is not None and rank <= k
        enough = len(ranked) >= case.min_items
        found = list(dict.fromkeys(name for node in ranked[:k] for name in _carries(node, case.node_names)))
        names_ok = bool(found) or not case.node_names
        hits += hit
        reciprocal += 1.0 / rank if rank else 0.0
        forbidden_top += bad_top
        min_items_ok += enough
        node_names_ok += names_ok
        row: dict[str, Any] = {"query": case.query, "hit": hit, "rank": rank, "forbidden_top1": bad_top,
                               "items": len(ranked), "min_expected_items": case.min_items}
        if case.node_names:
            row.update(node_names_expected=list(case.node_names), node_names_found=[
                name for name in case.node_names if name in found])
        if case.hints:
            row["hints"] = list(case.hints)
        row["top"] = [{"source": n.source, "content": n.content[:120]} for n in ranked[:k]]
        per_case.append(row)
        reasons = [reason for reason, failed in (("not_in_top_k", not hit), ("forbidden_top1", bad_top),
                                                 ("too_few_items", not enough), ("node_names_missing", not names_ok))
                   if failed]
        if reasons:
            failure = {"query": case.query, "reasons": reasons, "rank": rank, "forbidden_top1": bad_top,
                       "top1": None if top is None else top.source}
            if not enough:
                failure.update(items=len(ranked), min_expected_items=case.min_items)
            if not names_ok:
                failure["node_names_expected"] = list(case.node_names)
            failures.append(failure)
    n = len(cases)
    hit_rate, mrr, forbidden_rate = hits / n, reciprocal / n, forbidden_top / n
    score = (hit_rate + mrr + (1.0 - forbidden_rate)) / 3.0
    return {"k": k, "cases": n, "hit@k": round(hit_rate, 4), "mrr": round(mrr, 4),
            "forbidden_rate": round(forbidden_rate, 4), "min_items_rate": round(min_items_ok / n, 4),
            "node_name_rate": round(node_names_ok / n, 4), "score": round(score, 4), "failures": failures,
            "per_case": per_case}


def _seeded_runtime(rt: Runtime, memories: Sequence[Mapping[str, Any]], home: Path, now: datetime) -> Runtime:
    from ...ports.store.sqlite import SQLiteStore
    from ..remember import write_memory  # lazily: remember imports this package (its sense-event hook)

    store = SQLiteStore(str(home / "eval.db"))
    seeded = Runtime(store=store, provider=rt.provider, max_insights=0, clock=lambda: now)
    inputs = []
    for index, item in enumerate(memories):
        if not isinstance(item, Mapping):
            raise InvalidInput(f"memories[{index}] must be an object")
        inputs.append(validate_memory(item.get("content"), category=item.get("category", "general"),
                                      importance=item.get("importance", 3), tags=item.get("tags"),
                                      entities=item.get("entities"), source=item.get("source", "eval"),
                                      created_at=item.get("created_at")))
    vectors = seeded.embed_documents([inp.content for inp in inputs])
    ids: dict[str, str] = {}
    with store.transaction():
        for index, (item, inp) in enumerate(zip(memories, inputs)):
            outcome = write_memory(seeded, inp, None if vectors is None else vectors[index], prune=False,
                                   origin="eval")
            ids[str(item.get("key", index))] = outcome.memory.id
        for item in memories:
            newer = item.get("superseded_by")
            if newer is None:
                continue
            if str(newer) not in ids:
                raise InvalidInput(f"superseded_by {newer!r} names no memory key in this file")
            store.upsert_edge(Edge(src=ids[str(newer)], dst=ids[str(item.get("key"))], type="supersedes",
                                   origin="eval", created_at=model_iso(now)), actor="eval")
    return seeded


def eval_retrieval(rt: Runtime, *, demo: bool = False, cases_document: Any = None, k: int = 3,
                   min_score: float | None = None) -> dict[str, Any]:
    if demo == (cases_document is not None):
        raise InvalidInput("give exactly one of --demo or --cases FILE")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
        raise InvalidInput("-k must be from 1 to 100")
    if min_score is not None and not 0.0 <= float(min_score) <= 1.0:
        raise InvalidInput("--min-score must be in [0, 1]")
    memories: Sequence[Mapping[str, Any]] | None = None
    now_text: Any = DEMO_NOW
    if demo:
        raw_cases: Any = list(DEMO_CASES)
        memories, now_text = DEMO_MEMORIES, DEMO_NOW
    else:
        document = read_json_document(cases_document, "cases file")
        raw_cases = document.get("cases") if isinstance(document, Mapping) else document
        if isinstance(document, Mapping) and document.get("memories") is not None:
            memories = document["memories"]
            if not isinstance(memories, Sequence) or isinstance(memories, (str, bytes)) or not memories:
                raise InvalidInput("memories must be a non-empty list of memory objects")
            now_text = document.get("now")
            if now_text is None:  # deterministic default: a day after the newest memory
                stamps = [parse_iso(m["created_at"]) for m in memories
                          if isinstance(m, Mapping) and isinstance(m.get("created_at"), str)]
                now_text = model_iso(max(stamps) + timedelta(days=1)) if stamps else DEMO_NOW
    cases = parse_cases(raw_cases)
    if memories is None:
        result = score_cases(rt, cases, k)
        store_used = "current"
    else:
        try:
            now = parse_iso(str(now_text))
        except ValueError:
            raise InvalidInput(f"now is not an ISO-8601 instant: {now_text!r}") from None
        with tempfile.TemporaryDirectory(prefix="mnemon-eval-") as tmp:
            seeded = _seeded_runtime(rt, memories, Path(tmp), now)
            try:
                result = score_cases(seeded, cases, k)
            finally:
                seeded.store.close()
        store_used = "demo" if demo else "seeded"
    result = {"ok": True, "store": store_used, "provider": rt.provider.identity(), **result,
              "min_score": min_score}
    if min_score is not None and result["score"] < float(min_score):
        result["ok"] = False
        raise ContractViolation(f"retrieval score {result['score']} is below --min-score {min_score}", **result)
    return result
