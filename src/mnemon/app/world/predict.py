"""Predictions: add (replay-idempotent), due (read-only), check (mutating unless dry-run), and the shared step that
turns due predictions into outcomes and weakens linked assertions once."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from ...core.errors import Conflict, InvalidInput, NotFound
from ...core.surface import step
from ...core.validation import refuse_blank_id
from ...core.world import (
    Prediction,
    Transition,
    apply_transition,
    due_predictions,
    evaluate_prediction,
    parse_prediction,
    truth_policy_for_prediction,
    weaken_on_miss,
)
from ...core.world.predictions import due_at, prediction_differences, prediction_window
from ...core.world.values import iso, iso_or_none
from ..runtime import Runtime
from .common import (WorldView, audit, instant_from, load_check_view, load_view, now_of, prediction_source_path,
                     put_prediction, refuse_future_outcomes, replay_instant, world_of)
from .sense import read_json_document


def prediction_view(p: Prediction, as_of: datetime, due: datetime | None = None) -> dict[str, Any]:
    row = p.to_row()
    row["truth_policy"] = truth_policy_for_prediction(p, as_of)
    if due is not None:
        row["due_at"] = iso(due)
    return row


def _with_source_path(data: Mapping[str, Any]) -> dict[str, Any]:
    """`source_path` may sit at the top level; it is kept in metadata (the core's row has no such column)."""
    out = dict(data)
    path = out.pop("source_path", None)
    if path is not None:
        if not isinstance(path, str) or not path.strip():
            raise InvalidInput("prediction: source_path must be a non-empty string", field="source_path")
        meta_key = "metadata_json" if "metadata_json" in out else "metadata"
        meta = out.get(meta_key) or {}
        if not isinstance(meta, Mapping):
            raise InvalidInput(f"prediction: {meta_key} must be a JSON object", field=meta_key)
        out[meta_key] = {**meta, "source_path": path.strip()}
    return out


def add_prediction(rt: Runtime, document: Any, *, reason: str = "predict add", dry_run: bool = False) -> dict[str, Any]:
    """Store one prediction. The same payload twice is one row: an id is the payload's own or a content hash, and a
    replay never reopens a prediction that already has an outcome. `reason`, who adds it, goes into its audit (a
    re-run of research withdraws only the predictions `resolve` added). `dry_run`: the same checks and reply,
    nothing written."""
    data = read_json_document(document, "prediction file")
    if not isinstance(data, Mapping):
        raise InvalidInput(f"prediction must be a JSON object, got {type(data).__name__}")
    prediction = parse_prediction(_with_source_path(data), now_of(rt))
    world = world_of(rt)
    if prediction.subject_assertion_id and world.get_assertion(prediction.subject_assertion_id) is None:
        raise NotFound(f"subject_assertion_id {prediction.subject_assertion_id!r} names no stored assertion",
                       field="subject_assertion_id")
    if prediction.source_action_id and world.get_action(prediction.source_action_id) is None:
        raise NotFound(f"source_action_id {prediction.source_action_id!r} names no recorded action",
                       field="source_action_id")
    existing = world.get_prediction(prediction.id)
    if existing is not None:
        stored = Prediction.from_row(existing)
        if differs := prediction_differences(stored, prediction):
            # an id names one prediction: this one was silently not stored (`created: false`, the other shown)
            raise Conflict(f"prediction id {prediction.id!r} already names another prediction, with another "
                           f"{', '.join(differs)}; give this one its own id (or none: a content hash is made)",
                           id=prediction.id, differs=list(differs))
        if stored.status == "withdrawn" and stored.metadata.get("withdrawn_by") == prediction_source_path(prediction):
            return _reopened(rt, stored, reason, dry_run)
        return {"created": False, "prediction": prediction_view(stored, now_of(rt))}
    if dry_run:
        return {"created": True, "prediction": prediction_view(prediction, now_of(rt))}
    with rt.store.transaction():
        put_prediction(rt, prediction)
        audit(rt, "predicted", "prediction", prediction.id,
              {"title": prediction.title, "type": prediction.prediction_type, "reason": reason})
    return {"created": True, "prediction": prediction_view(prediction, now_of(rt))}


def _reopened(rt: Runtime, stored: Prediction, reason: str, dry_run: bool = False) -> dict[str, Any]:
    """A withdrawn prediction the research that withdrew it states again is open again, as a withdrawn belief the
    same source states again is current again (it stayed closed, and the reply counted it written)."""
    metadata = {k: v for k, v in stored.metadata.items() if k != "withdrawn_by"}
    reopened = replace(stored, status="open", outcome_summary=None, outcome_event_ids=(), checked_at=None,
                       metadata=metadata, updated_at=now_of(rt))
    if dry_run:
        return {"created": False, "reopened": True, "prediction": prediction_view(reopened, now_of(rt))}
    with rt.store.transaction():
        put_prediction(rt, reopened)
        audit(rt, "reopened", "prediction", stored.id, {"reason": reason})
    return {"created": False, "reopened": True, "prediction": prediction_view(reopened, now_of(rt))}


def predict_due(rt: Runtime, *, before: Any = None, as_of: Any = None) -> dict[str, Any]:
    """Open predictions due by `before` (default: now). Read-only."""
    view = load_view(rt, replay_instant(rt, as_of) if as_of is not None else None)
    cutoff = instant_from(view.now, before, "before")
    due = due_predictions(view.predictions.values(), view.now, cutoff, view.events)
    return {"as_of": iso(view.now), "before": iso(cutoff), "count": len(due),
            "predictions": [prediction_view(p, view.now, due_at(p, view.events, view.now)) for p in due]}


def overturned(view: WorldView, prediction: Prediction, transition: Transition) -> dict[str, Any] | None:
    """At a past `view.now` (`load_check_view`): what the sense events recorded since make of the outcome there, when
    they decide it otherwise — that outcome is then not stored, so that a check now records the right one. None when
    they agree, or when none came."""
    if view.known_at is None or not view.later_events:
        return None
    now = evaluate_prediction(prediction, view.events_now, view.now)
    if now.new_status == transition.new_status:
        return None
    later = {event.id for event in view.later_events}
    named = [event_id for event_id in (*now.matched_event_ids, now.gate_event_id) if event_id in later]
    if not named:  # no match: the later events prove the sense alive (a miss) or the gate resolved
        start = prediction_window(prediction, view.events_now, view.now).start
        named = [e.id for e in view.later_events
                 if e.sense_type == prediction.match.sense_type and start <= e.observed_at <= view.now]
    return {"reason": f"sense events recorded after {iso(view.known_at)} make it {now.new_status}: the outcome known "
                      f"then is not stored and the prediction stays {prediction.status}; a check now records it",
            "kept_status": prediction.status, "later_event_ids": list(dict.fromkeys(named)),
            "status_with_later_evidence": now.new_status, "summary_with_later_evidence": now.outcome_summary}


def check_in_view(view: WorldView, predictions: Iterable[Prediction]) -> list[dict[str, Any]]:
    """Evaluate `predictions` at `view.now`, apply outcomes and miss-weakening to the view (not the store); at a past
    instant, not an outcome that the events recorded since overturn (`not_recorded` says why)."""
    results = []
    for prediction in predictions:
        transition = evaluate_prediction(prediction, view.events, view.now, view.known_at)
        updated = apply_transition(prediction, transition, view.now)
        result = {**transition.to_dict(), "title": prediction.title, "checked_at": iso_or_none(updated.checked_at),
                  # Mneme's key: the sense event that decided the outcome (the first match), kept once terminal
                  "outcome_sense_event_id": updated.outcome_event_ids[0] if updated.outcome_event_ids else None,
                  "confidence_coupled": None}
        held = overturned(view, prediction, transition) if updated is not prediction else None
        if held is not None:
            result["not_recorded"] = held
        elif updated is not prediction:
            view.set_prediction(updated)
        if transition.weaken_assertion_id and updated.status == "missed":
            target = view.assertions.get(transition.weaken_assertion_id)
            if held is not None:
                result["confidence_coupled"] = {"assertion_id": transition.weaken_assertion_id,
                                                "skipped": "the miss is not recorded (not_recorded)"}
            elif target is None:
                result["confidence_coupled"] = {"assertion_id": transition.weaken_assertion_id,
                                                "skipped": "assertion no longer stored"}
            else:
                weakened = weaken_on_miss(target, updated, view.now)
                if weakened is not None:
                    view.set_assertion(weakened)
                result["confidence_coupled"] = {
                    "assertion_id": target.id, "applied": weakened is not None,
                    "confidence_before": target.confidence,
                    "confidence_after": (weakened or target).confidence,
                    "status": (weakened or target).status,
                }
        results.append(result)
    return results


def check_predictions(rt: Runtime, *, prediction_id: str | None = None, as_of: Any = None,
                      dry_run: bool = False) -> dict[str, Any]:
    """Check one prediction (`--id`) or every due open one at `as_of` (default now); persist unless dry-run (a
    future `as_of` only with dry-run)."""
    now = now_of(rt)
    moment = now if as_of in (None, "") else replay_instant(rt, as_of)
    refuse_future_outcomes(rt, moment, dry_run, "--as-of")
    view = load_check_view(rt, moment, now)
    if prediction_id is not None:
        refuse_blank_id(prediction_id, "a prediction id", "id")  # (was not_found; over the servers invalid_input)
        if prediction_id not in view.predictions:
            if world_of(rt).get_prediction(prediction_id) is not None:
                raise InvalidInput(f"prediction {prediction_id!r} was made after --as-of {iso(moment)}: it cannot "
                                   "be checked at that instant", field="as_of")
            raise NotFound(f"no prediction {prediction_id!r}; " + step("`mnemon predict due` lists open ones",
                                                                       "`agent_preflight` lists the due ones"),
                           field="id", id=prediction_id)
        targets = [view.predictions[prediction_id]]
    else:
        targets = due_predictions(view.predictions.values(), moment, moment, view.events)
    results = check_in_view(view, targets)
    if not dry_run and (view.changed_predictions or view.changed_assertions):
        view.persist(rt, "predict check")
    return {"ok": True, "dry_run": dry_run, "as_of": iso(moment), "checked": len(results), "results": results}
