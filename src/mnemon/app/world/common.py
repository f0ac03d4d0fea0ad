"""Shared plumbing of the world-model services: the store's world tables, instants, loading rows, the as-of view.

The services follow one pattern — load rows into a `WorldView`, let the pure core decide, persist what it returned
(unless `dry_run`). Because the decision is computed in memory, a dry run needs no transaction to roll back and
works on a read-only snapshot too.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import partial
from typing import Any

from ...core.errors import InvalidInput
from ...core.model import parse_iso
from ...core.surface import step
from ...core.world import Alias, Assertion, Prediction, SenseEvent, parse_duration, parse_instant
from ...core.world.assertions import rechain
from ...core.world.policies import group_policy
from ...core.world.values import iso, norm_name, require_aware
from ..runtime import Runtime
from .tables import audit, world_of


def now_of(rt: Runtime) -> datetime:
    return require_aware(rt.now(), "clock")


def instant(rt: Runtime, value: Any, field_name: str) -> datetime:
    """None → now; a duration (`4h`, `7d`) → now + duration; anything else an ISO instant."""
    return instant_from(now_of(rt), value, field_name)


def replay_instant(rt: Runtime, value: Any) -> datetime:
    """An `--as-of`: None → now, else an ISO instant. Not a duration, as `retrieve --as-of` and the MCP/HTTP schemas
    have it (`agent preflight --as-of 1d` replayed tomorrow where they refused): a replay names when, and "1d" reads
    as a day ago as readily as a day ahead."""
    if value is None or value == "" or isinstance(value, datetime):
        return instant(rt, value, "as_of")
    return parse_instant(value, "as_of")


def instant_from(base: datetime, value: Any, field_name: str) -> datetime:
    """None → `base`; a duration → `base` + duration (so `--before 1d` under `--as-of T` means T + 1 day)."""
    if value is None or value == "":
        return base
    if isinstance(value, datetime):
        return require_aware(value, field_name)
    if isinstance(value, str):
        try:
            delta = parse_duration(value, field_name)
        except InvalidInput:
            try:
                return parse_instant(value, field_name)
            except InvalidInput as error:
                if "out of range" in error.message:
                    raise  # (an instant, but one the calendar cannot hold: that is the answer)
                raise InvalidInput(f"{field_name} must be an ISO-8601 instant or a duration like 30m, 4h, 1d, 2w; "
                                   f"got {value!r}", field=field_name) from None
        try:
            return base + delta
        except OverflowError:
            raise InvalidInput(f"{field_name} reaches beyond the calendar: {value!r}", field=field_name) from None
    raise InvalidInput(f"{field_name} must be an ISO-8601 instant or a duration like 4h, 1d, 2w", field=field_name)


def load_aliases(rt: Runtime) -> list[Alias]:
    return [Alias.from_row(row) for row in world_of(rt).aliases()]


def load_assertions(rt: Runtime, **filters: Any) -> list[Assertion]:
    return [Assertion.from_row(row) for row in world_of(rt).assertions(**filters)]


def with_source_edges(rt: Runtime, rows: list[Assertion], as_of: datetime | None = None) -> list[Assertion]:
    """`rows` with the status of the graph edge each was resolved from (`Assertion.source_edge_status`): "missing"
    when the edge is gone. At a replayed `as_of`, an edge changed after it cannot tell its status then, so the row is
    read as stored (None) rather than judged by a later demotion."""
    wanted = sorted({int(r.source_edge_id) for r in rows if r.source_edge_id and r.source_edge_id.isdigit()})
    if not wanted:
        return rows
    edges = {str(e.id): e for e in rt.store.get_edges(wanted)}
    out = []
    for row in rows:
        if row.source_edge_id is None:
            out.append(row)
            continue
        edge = edges.get(row.source_edge_id)
        status: str | None = "missing" if edge is None else edge.status
        if edge is not None and as_of is not None and (not edge.updated_at or parse_iso(edge.updated_at) > as_of):
            status = None
        out.append(replace(row, source_edge_status=status))
    return out


def load_predictions(rt: Runtime, status: str | None = None) -> tuple[list[Prediction], list[dict[str, Any]]]:
    """(loaded predictions, raw rows that no longer parse) — the contract reports the second list."""
    good: list[Prediction] = []
    bad: list[dict[str, Any]] = []
    for row in world_of(rt).predictions(status=status):
        try:
            good.append(Prediction.from_row(row))
        except InvalidInput:
            bad.append(row)
    return good, bad


def load_events(rt: Runtime, known_at: datetime | None = None,
                sense_types: Iterable[str] | None = None) -> list[SenseEvent]:
    """Stored sense events; with `known_at`, only those the store had recorded by then (for exact replay)."""
    return events_by_record(rt, known_at, sense_types, keep_later=False)[0]


def events_by_record(rt: Runtime, known_at: datetime | None, sense_types: Iterable[str] | None = None, *,
                     keep_later: bool = True) -> tuple[list[SenseEvent], list[SenseEvent]]:
    """(the stored sense events recorded by `known_at`, those recorded after it unless not `keep_later`), each oldest
    observation first."""
    known: list[SenseEvent] = []
    later: list[SenseEvent] = []
    for row, recorded_at in world_of(rt).sense_events(sense_types=sense_types):
        if known_at is None or parse_instant(recorded_at, "recorded_at") <= known_at:
            known.append(SenseEvent.from_row(row))
        elif keep_later:
            later.append(SenseEvent.from_row(row))
    return known, later


def load_actions(rt: Runtime) -> list[dict[str, Any]]:
    return world_of(rt).actions()


def put_assertion(rt: Runtime, row: Assertion) -> None:
    world_of(rt).put_assertion(row.to_row(), norm_name(row.subject))


def put_prediction(rt: Runtime, row: Prediction) -> None:
    world_of(rt).put_prediction(row.to_row(), source_path=prediction_source_path(row))


def prediction_source_path(prediction: Prediction) -> str:
    value = prediction.metadata.get("source_path")
    return value if isinstance(value, str) else ""


# ── the as-of view ─────────────────────────────────────────────────────────────────────────────────────────────
def assertions_as_of(rows: Iterable[Assertion], as_of: datetime) -> list[Assertion]:
    """The assertion rows as the store held them at `as_of`.

    Rows written later are dropped; a supersession or retraction made later (a later row's, or a `state retract`
    dated after `as_of`) is undone; a confidence weakened by a miss recorded later is restored. A (subject, predicate)
    a later write or retraction touched is re-chained over the rows known then, as the writes up to `as_of` had
    chained it: clearing only the dangling pointers would leave two values in force — a correction re-points the
    value before the one it retracts, and a back-dated value splices into the middle of a chain. (Alias merges and
    confidence merges of identical re-assertions are not versioned, so a replay across them shows today's subject
    names / confidence.)
    """
    rows = list(rows)
    known = {row.id: row for row in rows if row.created_at <= as_of}
    touched = {row.pair_key for row in rows if row.id not in known}
    out: dict[str, Assertion] = {}
    for row in known.values():
        if row.status == "retracted" and _retracted_after(row, known, as_of):
            metadata = {k: v for k, v in row.metadata.items() if k != "retraction"}  # the note came later too
            row = replace(row, status="superseded", metadata=metadata)  # back in its chain, re-chained below
            touched.add(row.pair_key)
        if row.superseded_by_id is not None and row.superseded_by_id not in known:
            row = replace(row, status="current" if row.status != "retracted" else row.status,
                          superseded_by_id=None, superseded_at=None)
        later = [miss for miss in row.prediction_misses if _miss_time(miss) > as_of]
        if later:
            first = min(later, key=_miss_time)
            kept = tuple(miss for miss in row.prediction_misses if _miss_time(miss) <= as_of)
            row = replace(row, confidence=float(first.get("confidence_before", row.confidence)),
                          prediction_misses=kept)
        if row.updated_at > as_of:  # the last change we can date at or before the replayed instant
            row = replace(row, updated_at=max([row.created_at, *(_miss_time(m) for m in row.prediction_misses)]))
        out[row.id] = row
    groups: dict[tuple[str, str], list[Assertion]] = {}
    for row in out.values():
        if row.pair_key in touched:
            groups.setdefault(row.pair_key, []).append(row)
    for (_, predicate), group in groups.items():
        policy = group_policy(predicate, [r.metadata for r in group if r.status != "retracted"])
        for row in rechain(group, policy):
            if row.supersedes_id is not None and row.supersedes_id not in known:
                row = replace(row, supersedes_id=None)
            out[row.id] = row
    return sorted(out.values(), key=lambda r: (r.subject_key, r.predicate, r.created_at, r.id))


def _retracted_after(row: Assertion, known: Mapping[str, Assertion], as_of: datetime) -> bool:
    """Whether a retracted row was still in its chain at `as_of`: `state retract` notes when it was made; a correction
    points the value it retracted at itself (`apply_assertion`), so one written after `as_of` had not retracted it."""
    note = row.metadata.get("retraction")
    if isinstance(note, Mapping):
        try:
            return parse_instant(note.get("at"), "retraction.at") > as_of
        except InvalidInput:
            return False  # an unreadable stamp: treat the retraction as long known
    return row.superseded_by_id is not None and row.superseded_by_id not in known


def _miss_time(miss: Mapping[str, Any]) -> datetime:
    try:
        return parse_instant(miss.get("at"), "prediction_misses.at")
    except InvalidInput:
        return datetime(1, 1, 1, tzinfo=timezone.utc)  # unreadable stamp: treat as long known


def predictions_as_of(rows: Iterable[Prediction], as_of: datetime) -> list[Prediction]:
    """Predictions known at `as_of`, with outcomes recorded later turned back into `open`."""
    out = []
    for row in rows:
        if row.created_at is not None and row.created_at > as_of:
            continue
        if row.status != "open" and row.checked_at is not None and row.checked_at > as_of:
            row = replace(row, status="open", outcome_summary=None, outcome_event_ids=(), checked_at=None)
        if row.updated_at is not None and row.updated_at > as_of:
            row = replace(row, updated_at=row.checked_at or row.created_at)
        out.append(row)
    return out


@dataclass
class WorldView:
    """Every world row needed for a decision at `now`, held in memory so decisions can be previewed."""

    now: datetime
    assertions: dict[str, Assertion]
    predictions: dict[str, Prediction]
    invalid_predictions: list[dict[str, Any]]
    stored_events: list[SenseEvent]
    actions: list[dict[str, Any]]
    replay: bool = False
    # a check at a past instant (`load_check_view`): the rows recorded after it are left out
    known_at: datetime | None = None
    changed_assertions: dict[str, Assertion] = field(default_factory=dict)
    changed_predictions: dict[str, Prediction] = field(default_factory=dict)
    # the stored events → the events a check reads (a vault note's text put back: `note_text.py`)
    read_texts: Callable[[list[SenseEvent]], list[SenseEvent]] | None = None
    # a past check's view: the sense events recorded after `known_at`, which it does not judge by
    later_events: list[SenseEvent] = field(default_factory=list)
    _events: list[SenseEvent] | None = field(default=None, repr=False)
    _events_now: list[SenseEvent] | None = field(default=None, repr=False)

    @property
    def events(self) -> list[SenseEvent]:
        """The sense events as a prediction check reads them; the notes' texts are read on first use, so a view that
        never matches an event (a contract check) reads none."""
        if self._events is None:
            self._events = self.read_texts(self.stored_events) if self.read_texts else self.stored_events
        return self._events

    @property
    def events_now(self) -> list[SenseEvent]:
        """`events` with the later ones (`later_events`) read the same way: every event the store holds now."""
        if not self.later_events:
            return self.events
        if self._events_now is None:
            later = self.read_texts(self.later_events) if self.read_texts else self.later_events
            self._events_now = sorted([*self.events, *later], key=lambda e: (e.observed_at, e.id))
        return self._events_now

    def set_assertion(self, row: Assertion) -> None:
        self.assertions[row.id] = row
        self.changed_assertions[row.id] = row

    def set_prediction(self, row: Prediction) -> None:
        self.predictions[row.id] = row
        self.changed_predictions[row.id] = row

    def persist(self, rt: Runtime, reason: str) -> None:
        if self.replay:
            raise InvalidInput("an --as-of replay is read-only; drop --as-of to change state")
        with rt.store.transaction():
            for row in self.changed_assertions.values():
                put_assertion(rt, row)
                audit(rt, "updated", "assertion", row.id, {"reason": reason, "status": row.status,
                                                              "confidence": row.confidence})
            for prediction in self.changed_predictions.values():
                put_prediction(rt, prediction)
                audit(rt, "transition", "prediction", prediction.id,
                      {"reason": reason, "status": prediction.status, "outcome_summary": prediction.outcome_summary})
        self.changed_assertions.clear()
        self.changed_predictions.clear()


def load_view(rt: Runtime, as_of: datetime | None = None, *, with_events: bool = True,
              known_at: datetime | None = None) -> WorldView:
    """The whole world model at `as_of` (default: now, as stored). Sense events are only read when a prediction
    could use them (and the caller wants them): they are the largest world table. `known_at` (not a replay) leaves
    out the predictions, sense events and actions recorded after it and keeps every other row as stored."""
    replay = as_of is not None
    now = as_of if as_of is not None else now_of(rt)
    assertions = load_assertions(rt)
    predictions, invalid = load_predictions(rt)
    if known_at is not None:
        predictions = [p for p in predictions if p.created_at is None or p.created_at <= known_at]
    events_known = now if replay else known_at
    # (a replay reads the world as it was: what was recorded later is no part of it)
    events, later = (events_by_record(rt, events_known, keep_later=not replay) if with_events and predictions
                     else ([], []))
    actions = load_actions(rt)
    if known_at is not None:
        actions = [a for a in actions if parse_instant(a.get("created_at"), "created_at") <= known_at]
    assertions = with_source_edges(rt, assertions, now if replay else None)
    if replay:
        assertions = assertions_as_of(assertions, now)
        predictions = predictions_as_of(predictions, now)
        actions = [a for a in actions if parse_instant(a.get("created_at"), "created_at") <= now]
    read_texts = None
    if events or later:  # a vault note's event keeps no text: read back the ones an open prediction's terms look at
        from .note_text import text_needed, with_note_texts

        wanted = text_needed(predictions)
        read_texts = partial(with_note_texts, rt, wanted=wanted)
    return WorldView(now, {a.id: a for a in assertions}, {p.id: p for p in predictions}, invalid, events, actions,
                     replay, read_texts=read_texts, later_events=later)


def load_check_view(rt: Runtime, moment: datetime, now: datetime) -> WorldView:
    """The rows a prediction check at `moment` judges and may update (`world tick --before`, `predict check
    --as-of`); `now` is the clock read once by the caller (a default `before` is `now` itself, not a past instant a
    clock read microseconds later makes of it). At a past instant it sees only the predictions made and the sense
    events recorded by then: a prediction written later was otherwise checked — and missed — before it existed, and
    evidence synced later confirmed an outcome dated before it arrived. The events recorded since are kept aside
    (`later_events`): an outcome they overturn is not stored (`predict.check_in_view`). The rows keep their stored
    values (outcomes recorded since are not reopened), since the check persists onto them; `as_reported` gives the
    assertions as they stood then."""
    known_at = moment if moment < now else None
    view = load_view(rt, known_at=known_at)
    view.now, view.known_at = moment, known_at
    return view


def as_reported(view: WorldView) -> WorldView:
    """A check view's report at a past `view.now`: its assertions replayed to then (a row asserted later is not a
    lapsed open loop or a conflict at that instant). A read-only copy; the check's own changes are in it."""
    if view.known_at is None:
        return view
    replayed = {row.id: row for row in assertions_as_of(view.assertions.values(), view.known_at)}
    return replace(view, assertions=replayed, replay=True, changed_assertions={}, changed_predictions={})


def refuse_future_outcomes(rt: Runtime, moment: datetime, dry_run: bool, flag: str) -> None:
    """A check at an instant still to come may only be previewed: stored, its outcomes would close predictions whose
    window has not opened (terminal statuses never reopen) and date misses in the future, which a replay of today
    then disagrees with."""
    if not dry_run and moment > now_of(rt):
        argument = flag.lstrip("-").replace("-", "_")
        ahead = " is in the future: outcomes can only be recorded up to now; "
        raise InvalidInput(step(f"{flag} {iso(moment)}{ahead}add --dry-run to preview them",
                                f"{argument} {iso(moment)}{ahead}set dry_run to preview them"), field=argument)


def stamp(moment: datetime) -> str:
    return iso(moment)
