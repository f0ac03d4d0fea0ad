"""An edge as it stood at an earlier instant (`retrieve --as-of T`): its status, strength and confidence then, from
the changes recorded since.

The store keeps an edge's current row and two records of what changed it: `edge_events` (every status write, each
weakening, a forget-dated ageing, an upsert over the row, a retirement) and the oplog's decision rows (`kill-edge`,
`validate-edge`, `weaken-edge`, written by `app/vault/lifecycle.py`), which name the status and strength before and
after. A promotion is read from its event alone, which records the status it replaced (`previous_status`) and is
stamped with the runtime's clock. A value at T is read from the first change after T that touched it — what it
replaced — or, when that change did not record it, from the last change by T that did, or for the status from how
the edge was made. A decision's event and its oplog row are one change: the oplog's is used, stamped with the
store's clock (the clock `--created-at` and every row use; a status write given no time stamps its event with the
wall clock).

What cannot be told is said (`EdgeAt.known` False, shown as `changed_since_as_of`), never guessed: an upsert over an
existing edge (`link` again, a re-parse) records the values it wrote, not the ones it replaced, and a re-parse that
changes only a strength records nothing at all (the row's `updated_at` is then later than every record of it).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..core.model import EDGE_STATUSES, REMOVAL_ACTORS, Edge, parse_iso
from ..ports.store.base import Store
from ..ports.store.history_reads import StoredEvent, deleted_at_of, edge_decisions_of, edge_events_of

KEYS = ("status", "weight", "confidence")
# oplog decision op → the (event, actor) of the edge event the same decision writes (app/vault/lifecycle.py)
DECISIONS = {"kill-edge": ("killed", "kill-edge"), "validate-edge": ("validated", "user"),
             "weaken-edge": ("weakened", "weaken-edge")}
_NO_CHANGE = frozenset({"created", "blocked_recreation", "decision_kept", "source_changed", "source_gone",
                        "repointed"})
# mnemon's own edge writers (remember's rules: "auto", `link`: "agent") write every edge active
_ACTIVE_AT_BIRTH = frozenset({"auto", "agent"})


@dataclass(frozen=True)
class Change:
    at: datetime  # when it happened, by the store's clock where that can be told
    touches: frozenset[str]  # the KEYS it may have changed
    before: Mapping[str, Any]  # what it replaced, where recorded
    after: Mapping[str, Any]  # what it wrote, where recorded


@dataclass(frozen=True)
class EdgeAt:
    status: str
    weight: float
    confidence: float
    known: bool  # False: a change since did not record what it replaced; the values are today's there


@dataclass
class EdgeHistory:
    """The recorded changes of some edges, read once for all of them."""
    events: dict[int, list[StoredEvent]]
    decisions: dict[int, list[StoredEvent]]

    @classmethod
    def read(cls, store: Store, edges: Sequence[tuple[int, str]]) -> EdgeHistory:
        """The history of `edges` ((id, source node) pairs: the oplog keys a decision by its edge's source)."""
        if not edges:
            return cls({}, {})
        wanted = {i for i, _ in edges}
        decisions = edge_decisions_of(store, [s for _, s in edges], list(DECISIONS))
        return cls(edge_events_of(store, list(wanted)), {k: v for k, v in decisions.items() if k in wanted})

    def touched_after(self, bound: str) -> set[int]:
        """Edges with a record stamped after `bound`, or retired (a retirement is dated by its forget, below): the
        only ones a replay at `bound` may see otherwise than now. A record the wall clock stamped may name a later
        time than its change by the store's clock: the set is then larger, never smaller."""
        out = {i for i, rows in self.events.items() if any(r.created_at > bound or r.event == "retired" for r in rows)}
        return out | {i for i, rows in self.decisions.items() if any(r.created_at > bound for r in rows)}

    def changes(self, edge: Edge, deleted_at: Mapping[str, str]) -> list[Change]:
        """The changes of `edge` in time order. `deleted_at` holds the forgotten ends' times: a forget retires the
        edges of its memory then (the retirement's event carries the wall clock)."""
        edge_id = int(edge.id or 0)
        events = list(self.events.get(edge_id, ()))
        out: list[Change] = []
        for decision in self.decisions.get(edge_id, ()):
            out.append(_decided(decision))
        for paired in _paired(events, self.decisions.get(edge_id, ())):
            events.remove(paired)
        for event in events:
            change = _of_event(event, edge, deleted_at)
            if change is not None:
                out.append(change)
        out.sort(key=lambda c: c.at)
        return out

    def state_at(self, edge: Edge, as_of: datetime, bound: str, deleted_at: Mapping[str, str]) -> EdgeAt:
        return state_at(edge, self.changes(edge, deleted_at), as_of, self.silent(edge, bound))

    def silent(self, edge: Edge, bound: str) -> bool:
        """Whether the row changed after `bound` with nothing recording it: its `updated_at` is later than the bound
        and than every record of it (a re-parse rewriting only a strength logs no event)."""
        if not edge.updated_at or edge.updated_at <= bound:
            return False
        edge_id = int(edge.id or 0)
        stamps = [r.created_at for r in (*self.events.get(edge_id, ()), *self.decisions.get(edge_id, ()))]
        return not stamps or max(stamps) < edge.updated_at


def read_states(store: Store, edges: Sequence[Edge], as_of: datetime, bound: str) -> dict[int, EdgeAt]:
    """Each of `edges` (full rows) that may have changed after `as_of` (`bound`, its ISO text) → its values then;
    an edge left out is as it was. One read of their history, one of the forgotten ends of retired ones."""
    history = EdgeHistory.read(store, [(int(e.id or 0), e.src) for e in edges])
    return history_states(store, history, edges, as_of, bound)


def history_states(store: Store, history: EdgeHistory, edges: Sequence[Edge], as_of: datetime,
                   bound: str) -> dict[int, EdgeAt]:
    touched = history.touched_after(bound)
    changed = [e for e in edges if int(e.id or 0) in touched or history.silent(e, bound)]
    if not changed:
        return {}
    retired = [x for e in changed if any(r.event == "retired" for r in history.events.get(int(e.id or 0), ()))
               for x in (e.src, e.dst)]
    deleted = deleted_at_of(store, retired) if retired else {}
    return {int(e.id or 0): history.state_at(e, as_of, bound, deleted) for e in changed}


def state_at(edge: Edge, changes: Sequence[Change], as_of: datetime, silent: bool = False) -> EdgeAt:
    """The values of `edge` at `as_of`, from its `changes` (time order) and its current row; `silent`: the row
    changed after `as_of` unrecorded, so what is read from it may be later than `as_of`."""
    current: dict[str, Any] = {"status": edge.status, "weight": edge.weight, "confidence": edge.confidence}
    later = [c for c in changes if c.at > as_of]
    earlier = [c for c in changes if c.at <= as_of]
    if not later:
        return EdgeAt(edge.status, edge.weight, edge.confidence, not silent)
    values: dict[str, Any] = {}
    known = not silent
    for key in KEYS:
        first = next((c for c in later if key in c.touches), None)
        if first is None:
            values[key] = current[key]
        elif key in first.before:
            values[key] = first.before[key]
        else:
            prior = next((c for c in reversed(earlier) if key in c.touches), None)
            if prior is not None and key in prior.after:
                values[key] = prior.after[key]
            elif prior is None and key == "status" and edge.origin in _ACTIVE_AT_BIRTH:
                values[key] = "active"
            elif prior is None and key == "status" and edge.origin == "ingest":
                from .vault.plan import ingest_gate  # (the ingest's gate depends on the relation only)

                values[key] = ingest_gate(edge.type)[0]
            else:
                values[key], known = current[key], False
    status = str(values["status"])
    if status not in EDGE_STATUSES:
        status, known = edge.status, False
    return EdgeAt(status, _number(values["weight"], edge.weight), _number(values["confidence"], edge.confidence),
                  known)


def _number(value: Any, fallback: float) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else fallback


def _when(stamp: str) -> datetime:
    return parse_iso(stamp)


def _decided(row: StoredEvent) -> Change:
    d = row.detail
    before = {k: d[src] for k, src in (("status", "previous_status"), ("weight", "previous_strength")) if src in d}
    after = {k: d[src] for k, src in (("status", "status"), ("weight", "strength")) if src in d}
    return Change(_when(row.created_at), frozenset({"status", "weight"}), before, after)


def _paired(events: Sequence[StoredEvent], decisions: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The events that record the same decisions as the oplog rows `decisions`. Paired newest with newest: the
    oplog's decision rows are younger than the events, so an old store's first decisions have events only."""
    out: list[StoredEvent] = []
    for op, (event, actor) in DECISIONS.items():
        rows = [d for d in decisions if d.event == op]
        matching = [e for e in events if e.event == event and e.actor == actor]
        out += matching[len(matching) - min(len(rows), len(matching)):]
    return out


def _of_event(row: StoredEvent, edge: Edge, deleted_at: Mapping[str, str]) -> Change | None:
    d, kind = row.detail, row.event
    if kind in _NO_CHANGE:
        return None
    at = _when(row.created_at)
    if kind == "weakened":  # weaken-edge (its oplog row, when there is one, is used instead)
        return Change(at, frozenset({"status", "weight"}),
                      {"weight": d["previous_strength"]} if "previous_strength" in d else {},
                      {k: d[src] for k, src in (("weight", "strength"), ("status", "status")) if src in d})
    if kind == "forgotten":  # forget --days-threshold ageing an observation edge
        return Change(at, frozenset({"status", "weight"}),
                      {k: d[src] for k, src in (("status", "previous_status"), ("weight", "previous_strength"))
                       if src in d},
                      {k: d[src] for k, src in (("status", "status"), ("weight", "strength")) if src in d})
    if kind == "reparsed":  # a re-parse resetting the status; what it did to the strength is not recorded
        return Change(at, frozenset(KEYS), {"status": d["from"]} if "from" in d else {},
                      {"status": d["to"]} if "to" in d else {})
    if kind in EDGE_STATUSES and "weight" not in d and "origin" not in d:  # a status write (`set_edge_status`)
        touches = {"status"} | ({"confidence"} if "confidence" in d else set())
        if kind == "killed" and row.actor == "kill-edge":
            touches.add("weight")  # kill-edge zeroes the strength beside it
        if kind == "retired" and row.actor in REMOVAL_ACTORS:
            ends = [deleted_at[x] for x in (edge.src, edge.dst) if x in deleted_at]
            if ends:
                at = _when(min(ends))  # the forget that retired it, by the store's clock
        return Change(at, frozenset(touches), {"status": d["previous_status"]} if "previous_status" in d else {},
                      {"status": kind, **({"confidence": d["confidence"]} if "confidence" in d else {})})
    # an upsert over the row (`link` again, an import, a validation without its oplog row, a writeback): what it
    # wrote is recorded, what it replaced is not
    return Change(at, frozenset(KEYS), {}, {k: d[k] for k in KEYS if k in d})


def states_of_heads(store: Store, heads: Sequence[tuple[int, str]], as_of: datetime,
                    bound: str) -> tuple[EdgeHistory, dict[int, EdgeAt], dict[int, Edge]]:
    """For edges known by their heads ((id, source node) pairs): their history, the values at `as_of` of those
    whose records reach past it, and those edges' rows (read whole only for them)."""
    history = EdgeHistory.read(store, heads)
    touched = history.touched_after(bound)
    rows = {int(e.id or 0): e for e in store.get_edges(sorted(touched))} if touched else {}
    return history, history_states(store, history, list(rows.values()), as_of, bound), rows
