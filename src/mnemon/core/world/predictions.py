"""Predictions: machine-checkable expectations about future sense evidence, and their deterministic transitions.

Kinds: `confirmation_expected` (some matching evidence should arrive inside the window) and `no_news_expected`
(none should). Status moves once, from `open` to `confirmed`, `missed` or `unverifiable` — or `withdrawn`, when the
research that made it no longer states it (`app/vault/withdrawals.py`: no check decided it); `evaluate_prediction` is a
pure function of the row, the stored events and `now`. Events observed after `now` are invisible, so replaying with
the same `now` gives the same answer even if the store has since learned more.

"Did the sense work?" decides missed vs unverifiable: a window with no match counts as *missed* only if the sense
produced at least one event (of any content) between the window start and `now` — proof the sense was alive. Mneme
accepts any event ever stored for that sense type, so a sense that died a year ago turns silence into misses.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from mnemon.core.errors import InvalidInput
from mnemon.core.validation import FUTURE_SLACK
from mnemon.core.world.assertions import Assertion
from mnemon.core.world.match import MatchSpec, effective_min_score, parse_match, resolve_gate, score_event
from mnemon.core.world.senses import SenseEvent
from mnemon.core.world.values import (
    KEY_MAX_BYTES,
    check_key,
    content_hash,
    end_or_none,
    instant_or_none,
    iso,
    iso_or_none,
    optional_mapping,
    optional_str,
    parse_instant,
    refuse_nul,
    refuse_unknown_keys,
    require_aware,
    require_mapping,
    required_str,
    unit_float,
)

PREDICTION_TYPES: tuple[str, ...] = ("confirmation_expected", "no_news_expected")
PREDICTION_STATUSES: tuple[str, ...] = ("open", "confirmed", "missed", "unverifiable", "withdrawn")
MISS_FACTOR = 0.8
CONFIDENCE_FLOOR = 0.1
# every key a `predict add` payload may carry; `match` and `metadata_json` are Mneme's spellings of `match_json` and
# `metadata` (a top-level `source_path` is moved into metadata by the app before this is reached)
PREDICTION_FIELDS = frozenset(("id", "title", "prediction_type", "match_json", "match", "check_after", "expires_at",
                               "confidence", "subject_assertion_id", "source_action_id", "metadata", "metadata_json",
                               "created_at"))

_WHOLE_DAY = timedelta(days=1, microseconds=-1)  # a day's first instant to its last (`end_or_none`)

Status = Literal["open", "confirmed", "missed", "unverifiable", "withdrawn"]


@dataclass(frozen=True)
class Prediction:
    id: str
    title: str
    prediction_type: str
    match: MatchSpec
    check_after: datetime
    expires_at: datetime
    confidence: float = 0.5
    status: str = "open"
    subject_assertion_id: str | None = None
    source_action_id: str | None = None
    outcome_summary: str | None = None
    outcome_event_ids: tuple[str, ...] = ()
    checked_at: datetime | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    updated_at: datetime | None = None

    def to_row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "prediction_type": self.prediction_type,
            "match_json": self.match.to_json(),
            "check_after": iso(self.check_after),
            "expires_at": iso(self.expires_at),
            "confidence": self.confidence,
            "status": self.status,
            "subject_assertion_id": self.subject_assertion_id,
            "source_action_id": self.source_action_id,
            "outcome_summary": self.outcome_summary,
            "outcome_event_ids": list(self.outcome_event_ids),
            "checked_at": iso_or_none(self.checked_at),
            "metadata": dict(self.metadata),
            "created_at": iso_or_none(self.created_at),
            "updated_at": iso_or_none(self.updated_at),
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Prediction:
        data = require_mapping(row, "prediction row")
        prediction = parse_prediction(data, now=None)
        status = optional_str(data, "status", "prediction row", "open") or "open"
        if status not in PREDICTION_STATUSES:
            raise InvalidInput(f"prediction row: status must be one of {', '.join(PREDICTION_STATUSES)}")
        if status == "unverifiable" and prediction.metadata.get("withdrawn_by"):
            status = "withdrawn"  # as an earlier version closed a withdrawn prediction (an old export, a store read
            # before its upgrade: m064)
        events = data.get("outcome_event_ids") or []
        if not isinstance(events, list) or not all(isinstance(item, str) for item in events):
            raise InvalidInput("prediction row: outcome_event_ids must be a list of strings")
        return replace(
            prediction,
            status=status,
            outcome_summary=optional_str(data, "outcome_summary", "prediction row"),
            outcome_event_ids=tuple(events),
            checked_at=instant_or_none(data.get("checked_at"), "checked_at"),
            updated_at=instant_or_none(data.get("updated_at"), "updated_at"),
        )


def _match_payload(data: Mapping[str, Any]) -> Any:
    raw = data.get("match_json", data.get("match"))
    if raw is None:
        raise InvalidInput("prediction: missing required field 'match_json'", field="match_json")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise InvalidInput("prediction: match_json is not valid JSON", field="match_json") from None
    return raw


def _identity(data: Mapping[str, Any]) -> tuple[dict[str, Any], MatchSpec, datetime, datetime]:
    what = "prediction"
    title = required_str(data, "title", what)
    prediction_type = optional_str(data, "prediction_type", what, "confirmation_expected") or "confirmation_expected"
    if prediction_type not in PREDICTION_TYPES:
        raise InvalidInput(
            f"{what}: prediction_type must be one of {', '.join(PREDICTION_TYPES)}, got {prediction_type!r}",
            field="prediction_type",
        )
    spec = parse_match(_match_payload(data))
    for key in ("check_after", "expires_at"):
        if data.get(key) is None:
            raise InvalidInput(f"{what}: missing required field {key!r}", field=key)
    check_after = parse_instant(data["check_after"], "check_after")
    # a date alone names the whole day (`end_or_none`), as a belief's `valid_until` does; the id keeps hashing the
    # day's first instant, which a date alone was read as, so a payload sent again — or a row an earlier version
    # stored — is the prediction it was (`same_expiry`)
    named = parse_instant(data["expires_at"], "expires_at")
    expires_at = end_or_none(data["expires_at"], "expires_at") or named
    if expires_at < check_after:
        raise InvalidInput(f"{what}: expires_at ({iso(expires_at)}) is before check_after ({iso(check_after)})",
                           field="expires_at")
    identity = {
        "title": title,
        "prediction_type": prediction_type,
        "subject_assertion_id": optional_str(data, "subject_assertion_id", what),
        "source_action_id": optional_str(data, "source_action_id", what),
        "match_json": spec.to_json(),
        "check_after": iso(check_after),
        "expires_at": iso(named),
    }
    return identity, spec, check_after, expires_at


# what makes a prediction the one it is (the fields its content-hash id is made of): under a stored id, another
# value of one of them is another prediction; a new confidence or metadata is the same one sent again
IDENTITY_FIELDS = ("title", "prediction_type", "match_json", "check_after", "expires_at", "subject_assertion_id",
                   "source_action_id")


def prediction_differences(stored: Prediction, new: Prediction) -> tuple[str, ...]:
    """The identity fields in which `new` differs from `stored`, the prediction already held under its id."""
    old_row, new_row = stored.to_row(), new.to_row()
    return tuple(name for name in IDENTITY_FIELDS if old_row[name] != new_row[name]
                 and not (name == "expires_at" and same_expiry(stored.expires_at, new.expires_at)))


def same_expiry(stored: datetime, sent: datetime) -> bool:
    """Whether a stored expiry is the one sent: the same instant, or — a row an earlier version stored for a date
    alone — the first instant of the day the sent one ends (under one id, the same payload: the id hashes that
    instant). The stored row is kept as it is: its expiry may have been given as that instant."""
    return stored == sent or stored + _WHOLE_DAY == sent


def prediction_id(payload: Any) -> str:
    """The payload's own `id`, else a content hash of its normalised identity (replay-idempotent).

    Dates and match_json are normalised first, so `...Z` vs `+00:00` or reordered keys give the same id.
    """
    data = require_mapping(payload, "prediction")
    if data.get("id") is not None:
        return required_str(data, "id", "prediction")
    identity, *_ = _identity(data)
    return content_hash("wp:", identity, 24)


def parse_prediction(payload: Any, now: datetime | None) -> Prediction:
    """Validate a `predict add` payload (or a stored row). `now` stamps created_at for new payloads, whose columns
    the store indexes are also checked (`check_key`) before anything is written, and a key outside
    `PREDICTION_FIELDS` is refused; a stored row (`now` None) is read as it is."""
    data = require_mapping(payload, "prediction")
    if now is not None:
        refuse_unknown_keys(data, PREDICTION_FIELDS, "prediction")
        refuse_nul(data, "prediction")
    identity, spec, check_after, expires_at = _identity(data)
    created_at = instant_or_none(data.get("created_at"), "created_at")
    if created_at is None and now is not None:
        created_at = require_aware(now)
    elif created_at is not None and now is not None and created_at > require_aware(now) + FUTURE_SLACK:
        # made in the future: every --as-of replay before that date (preflight's included) left it out
        raise InvalidInput(f"prediction: created_at {iso(created_at)} is in the future (now is {iso(now)})",
                           field="created_at")
    metadata = optional_mapping(data, "metadata_json" if "metadata_json" in data else "metadata", "prediction")
    row_id = prediction_id(data)
    if now is not None:
        source_path = metadata.get("source_path")
        for name, value, limit in (
                ("id", row_id, KEY_MAX_BYTES), ("subject_assertion_id", identity["subject_assertion_id"], KEY_MAX_BYTES),
                ("source_action_id", identity["source_action_id"], None),  # (a column no index holds)
                ("source_path", source_path if isinstance(source_path, str) else None, KEY_MAX_BYTES)):
            check_key(value, name, "prediction", limit)
    return Prediction(
        id=row_id,
        title=identity["title"],
        prediction_type=identity["prediction_type"],
        match=spec,
        check_after=check_after,
        expires_at=expires_at,
        confidence=unit_float(data, "confidence", "prediction", 0.5),
        subject_assertion_id=identity["subject_assertion_id"],
        source_action_id=identity["source_action_id"],
        metadata=metadata,
        created_at=created_at,
        updated_at=created_at,
    )


# ---- evaluation -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Transition:
    prediction_id: str
    previous_status: str
    new_status: str
    outcome_summary: str
    matched_event_ids: tuple[str, ...] = ()
    score: float = 0.0
    effective_expires_at: datetime | None = None
    gate_time: datetime | None = None
    gate_event_id: str | None = None
    weaken_assertion_id: str | None = None

    @property
    def changed(self) -> bool:
        return self.new_status != self.previous_status

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.prediction_id,
            "previous_status": self.previous_status,
            "status": self.new_status,
            "outcome_summary": self.outcome_summary,
            "matches": list(self.matched_event_ids),
            "score": self.score,
            "effective_expires_at": iso_or_none(self.effective_expires_at),
            "gate": None
            if self.gate_time is None
            else {"time": iso(self.gate_time), "event_id": self.gate_event_id},
            "weaken_assertion_id": self.weaken_assertion_id,
        }


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime  # inclusive; already cut at the gate
    expires_at: datetime  # effective expiry
    gate: tuple[datetime, str] | None
    gate_unresolved: bool


def prediction_window(prediction: Prediction, events: Iterable[SenseEvent], now: datetime) -> Window:
    spec = prediction.match
    start = spec.observed_after or prediction.check_after
    end = spec.observed_before or prediction.expires_at
    expires_at = prediction.expires_at
    gate = None if spec.gate is None else resolve_gate(spec.gate, events, now)
    if gate is not None:
        end = min(end, gate[0])
        expires_at = min(expires_at, gate[0])
    return Window(start, end, expires_at, gate, spec.gate is not None and gate is None)


def matching_events(
    prediction: Prediction, events: Sequence[SenseEvent], now: datetime, window: Window | None = None
) -> list[tuple[SenseEvent, float]]:
    """Events stored by `now`, inside the window, passing every criterion and `min_score`; oldest first."""
    return [pair for pair in _scored_events(prediction, events, now, window) if pair[1] >= _needed(prediction)]


def _needed(prediction: Prediction) -> float:
    return effective_min_score(prediction.match)


def _scored_events(prediction: Prediction, events: Sequence[SenseEvent], now: datetime,
                   window: Window | None = None) -> list[tuple[SenseEvent, float]]:
    """Events stored by `now`, inside the window, passing every hard criterion (any score); oldest first."""
    window = window or prediction_window(prediction, events, now)
    if window.gate_unresolved:
        return []  # evidence cannot be judged "before the gate" while the gate is unknown
    found = []
    for event in events:
        if event.observed_at > now or not window.start <= event.observed_at <= window.end:
            continue
        score = score_event(prediction.match, event)
        if score > 0:
            found.append((event, score))
    return sorted(found, key=lambda pair: (pair[0].observed_at, pair[0].id))


def _near_misses(prediction: Prediction, events: Sequence[SenseEvent], now: datetime, window: Window) -> str:
    """A note on the events that met every hard criterion but scored below `min_score`, so a miss does not read
    as silence; empty when there were none."""
    below = [score for _, score in _scored_events(prediction, events, now, window)]
    if not below:
        return ""
    return (f" ({len(below)} event(s) met the terms but scored at most {max(below):.2f}, below "
            f"min_score {prediction.match.min_score:g})")


def _sense_alive(prediction: Prediction, events: Iterable[SenseEvent], start: datetime, now: datetime) -> bool:
    return any(
        event.sense_type == prediction.match.sense_type and start <= event.observed_at <= now for event in events
    )


def evaluate_prediction(prediction: Prediction, events: Sequence[SenseEvent], now: datetime,
                        recorded_by: datetime | None = None) -> Transition:
    """The prediction's transition at `now`. `recorded_by`: `events` are those the store had recorded by then (a
    check at a past instant), which a summary about missing evidence says instead of "stored"."""
    now = require_aware(now)
    spec = prediction.match
    window = prediction_window(prediction, events, now)

    def outcome(
        status: str, summary: str, matched: tuple[str, ...] = (), score: float = 0.0, weaken: bool = False
    ) -> Transition:
        return Transition(
            prediction_id=prediction.id,
            previous_status=prediction.status,
            new_status=status,
            outcome_summary=summary,
            matched_event_ids=matched,
            score=score,
            effective_expires_at=window.expires_at,
            gate_time=window.gate[0] if window.gate else None,
            gate_event_id=window.gate[1] if window.gate else None,
            weaken_assertion_id=prediction.subject_assertion_id if weaken else None,
        )

    if prediction.status != "open":
        return outcome(prediction.status, prediction.outcome_summary or "")
    expired = now > window.expires_at
    if window.gate_unresolved:
        if expired:
            evidence = ("stored sense evidence" if recorded_by is None
                        else f"sense evidence recorded by {iso(recorded_by)}")
            return outcome("unverifiable", f"configured event gate could not be resolved from {evidence}")
        return outcome("open", "waiting for the event gate to resolve")

    matches = matching_events(prediction, events, now, window)
    if matches:
        first, _ = matches[0]
        best = max(score for _, score in matches)
        where = f"{spec.sense_type}:{first.source_id or first.id}"
        status: Status = "confirmed" if prediction.prediction_type == "confirmation_expected" else "missed"
        return outcome(
            status,
            f"{status} by {where} score={best:.2f}",
            matched=tuple(event.id for event, _ in matches),
            score=best,
            weaken=status == "missed",
        )
    if not expired:
        return outcome("open", "no matching sense event yet" + _near_misses(prediction, events, now, window))
    if not _sense_alive(prediction, events, window.start, now):
        if recorded_by is None:
            return outcome("unverifiable",
                           f"no stored events for sense_type={spec.sense_type} since {iso(window.start)}")
        return outcome("unverifiable", f"no events for sense_type={spec.sense_type} since {iso(window.start)} "
                                       f"recorded by {iso(recorded_by)}")
    if prediction.prediction_type == "no_news_expected":
        return outcome("confirmed", "window passed without matching sense event")
    return outcome("missed", "expired without matching sense event" + _near_misses(prediction, events, now, window),
                   weaken=True)


def apply_transition(prediction: Prediction, transition: Transition, now: datetime) -> Prediction:
    """The updated row to persist; terminal statuses never move again."""
    now = require_aware(now)
    if transition.prediction_id != prediction.id:
        raise InvalidInput("transition belongs to another prediction")
    if prediction.status != "open" or not transition.changed:
        return prediction
    return replace(
        prediction,
        status=transition.new_status,
        outcome_summary=transition.outcome_summary,
        outcome_event_ids=transition.matched_event_ids,
        checked_at=now,
        updated_at=now,
    )


def weaken_on_miss(assertion: Assertion, prediction: Prediction, now: datetime) -> Assertion | None:
    """×0.8 confidence, once per prediction; None if this prediction already weakened it.

    The status is left alone on purpose: a current fact stays current even when it drops below the 0.9 *write*
    gate (Mneme demotes it to `contradicted` — one late email would erase a confirmed fact). Truth is changed only by
    new evidence passing the gate (supersede) or an explicit correction (retract); weakening is a doubt signal.
    """
    now = require_aware(now)
    if prediction.status != "missed":
        raise InvalidInput(f"only a missed prediction weakens an assertion; {prediction.id} is {prediction.status}")
    if prediction.subject_assertion_id != assertion.id:
        raise InvalidInput(f"prediction {prediction.id} is not linked to assertion {assertion.id}")
    if any(miss.get("prediction_id") == prediction.id for miss in assertion.prediction_misses):
        return None
    after = round(max(CONFIDENCE_FLOOR, assertion.confidence * MISS_FACTOR), 6)
    miss = {
        "prediction_id": prediction.id,
        "at": iso(now),
        "confidence_before": assertion.confidence,
        "confidence_after": after,
        "summary": prediction.outcome_summary or "",
    }
    return replace(assertion, confidence=after, prediction_misses=(*assertion.prediction_misses, miss), updated_at=now)


# ---- the world loop's read-only views ---------------------------------------------------------------------------

def due_at(prediction: Prediction, events: Iterable[SenseEvent] = (), now: datetime | None = None) -> datetime:
    """When a check becomes meaningful: check_after, pulled earlier by a resolved gate."""
    due = prediction.check_after
    if prediction.match.gate is not None and now is not None:
        gate = resolve_gate(prediction.match.gate, events, now)
        if gate is not None:
            due = min(due, gate[0])
    return due


def due_predictions(
    predictions: Iterable[Prediction],
    now: datetime,
    before: datetime | None = None,
    events: Sequence[SenseEvent] = (),
) -> list[Prediction]:
    """Open predictions whose due time is ≤ `before` (default `now`), earliest first. Read-only."""
    now = require_aware(now)
    cutoff = require_aware(before, "before") if before is not None else now
    due = [(due_at(p, events, now), p.id, p) for p in predictions if p.status == "open"]
    return [p for moment, _, p in sorted(due, key=lambda item: (item[0], item[1])) if moment <= cutoff]


@dataclass(frozen=True)
class WatchItem:
    prediction: Prediction
    effective_expires_at: datetime
    summary: str

    def to_dict(self) -> dict[str, Any]:
        p = self.prediction
        return {
            "id": p.id,
            "title": p.title,
            "prediction_type": p.prediction_type,
            "sense_type": p.match.sense_type,
            "source_id": p.match.source_id,
            "check_after": iso(p.check_after),
            "expires_at": iso(p.expires_at),
            "effective_expires_at": iso(self.effective_expires_at),
            "gate": None if p.match.gate is None else p.match.gate.to_json(),
            "source_action_id": p.source_action_id,
            "summary": self.summary,
        }


def watch_radar(
    predictions: Iterable[Prediction], events: Sequence[SenseEvent], now: datetime, lead: timedelta
) -> list[WatchItem]:
    """Open confirmation predictions that will be judged within `lead` and still have no evidence. Read-only.

    `no_news_expected` predictions are left out: for them, no evidence yet is the expected, healthy state.
    """
    now = require_aware(now)
    if lead < timedelta(0):
        raise InvalidInput("lead must not be negative")
    try:
        horizon = now + lead
    except OverflowError:  # "--lead 9999999w" means "everything", not a crash
        horizon = datetime.max.replace(tzinfo=now.tzinfo)
    items = []
    for prediction in predictions:
        if prediction.status != "open" or prediction.prediction_type != "confirmation_expected":
            continue
        window = prediction_window(prediction, events, now)
        if window.expires_at <= now:
            continue  # past its deadline: that's tick's job (missed/unverifiable), not a pre-failure warning
        if min(prediction.check_after, window.expires_at) > horizon:
            continue
        if matching_events(prediction, events, now, window):
            continue
        summary = (
            f"Expected confirmation by {iso(window.expires_at)}; no {prediction.match.sense_type} evidence yet."
        )
        items.append(WatchItem(prediction, window.expires_at, summary))
    return sorted(items, key=lambda item: (item.effective_expires_at, item.prediction.id))
