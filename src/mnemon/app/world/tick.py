"""The world loop: `world watch` (read-only radar of predictions about to fail) and `world tick` (due checks, watch,
lapsed open loops, contradictions, contract, attention).

A tick decides everything on an in-memory `WorldView` and persists only at the end, so `--dry-run` reports the very
transitions a real tick would make without touching the store (Mneme copied the whole database through the backup
API to get the same effect).
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from ...core.world import due_predictions, lapsed_assertions, parse_duration, watch_radar
from ...core.world.values import iso, iso_or_none
from ..runtime import Runtime
from .common import (WorldView, as_reported, instant_from, load_check_view, load_view, now_of,
                     refuse_future_outcomes, replay_instant)
from .contract import contract_report
from .predict import check_in_view
from .state import radar

DEFAULT_LEAD = "1d"


def _lead(value: Any) -> timedelta:
    return parse_duration(DEFAULT_LEAD if value in (None, "") else value, "lead")


def watch_items(view: WorldView, lead: timedelta) -> list[dict[str, Any]]:
    return [item.to_dict() for item in watch_radar(view.predictions.values(), view.events, view.now, lead)]


def world_watch(rt: Runtime, *, lead: Any = None, as_of: Any = None) -> dict[str, Any]:
    view = load_view(rt, replay_instant(rt, as_of) if as_of is not None else None)
    delta = _lead(lead)
    items = watch_items(view, delta)
    return {"as_of": iso(view.now), "lead_seconds": int(delta.total_seconds()), "count": len(items), "watch": items}


def lapsed_open_loops(view: WorldView) -> list[dict[str, Any]]:
    return [{"id": row.id, "subject": row.subject, "predicate": row.predicate, "object": row.object,
             "valid_until": iso_or_none(row.valid_until), "source_path": row.source_path}
            for row in lapsed_assertions(view.assertions.values(), view.now, state_type="open_loop")]


def attention(checked: list[dict[str, Any]], watch: list[dict[str, Any]], loops: list[dict[str, Any]],
              conflicts: list[dict[str, Any]], contract: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for result in checked:
        # only an outcome the tick records: one that events synced after a past instant overturn stays open
        # (`not_recorded`), and listed here it sent the agent after a miss the store knows did not happen
        if (result["status"] in ("missed", "unverifiable") and result["previous_status"] == "open"
                and "not_recorded" not in result):
            items.append({"kind": "prediction", "id": result["id"], "status": result["status"],
                          "summary": result["outcome_summary"]})
    for item in watch:
        items.append({"kind": "prediction_watch", "id": item["id"], "status": "open", "summary": item["summary"]})
    for loop in loops:
        items.append({"kind": "lapsed_open_loop", "id": loop["id"], "subject": loop["subject"],
                      "valid_until": loop["valid_until"]})
    for conflict in conflicts:
        items.append({"kind": conflict["kind"], "severity": conflict["severity"], "subject": conflict["subject"],
                      "predicate": conflict["predicate"], "summary": conflict["summary"]})
    for violation in contract["violations"]:
        items.append({"kind": "contract_violation", "rule": violation["rule"], "id": violation["id"],
                      "summary": violation["message"]})
    return items


def world_tick(rt: Runtime, *, before: Any = None, dry_run: bool = False, lead: Any = None) -> dict[str, Any]:
    """One pass of the loop at `before` (default now). Mutates prediction outcomes and miss-weakening unless
    `dry_run` (a future `before` is only a preview: `--dry-run`); everything else it reports is read-only. A past
    `before` judges what the store knew then (`load_check_view`, `as_reported`)."""
    now = now_of(rt)
    moment = instant_from(now, before, "before")
    refuse_future_outcomes(rt, moment, dry_run, "--before")
    view = load_check_view(rt, moment, now)
    due = due_predictions(view.predictions.values(), moment, moment, view.events)
    checked = check_in_view(view, due)
    transitions = {"predictions": len(view.changed_predictions), "assertions": len(view.changed_assertions)}
    if not dry_run and (view.changed_predictions or view.changed_assertions):
        view.persist(rt, "world tick")
    watch = watch_items(view, _lead(lead))
    then = as_reported(view)
    loops = lapsed_open_loops(then)
    conflicts = radar(rt, list(then.assertions.values()), moment if then.replay else None)
    contract = contract_report(rt, then)
    pending = [{"id": p.id, "title": p.title, "check_after": iso(p.check_after), "expires_at": iso(p.expires_at)}
               for p in sorted(view.predictions.values(), key=lambda p: (p.check_after, p.id)) if p.status == "open"]
    return {
        "ok": bool(contract["ok"]),
        "dry_run": dry_run,
        "as_of": iso(moment),
        # Mneme's tick refreshed a stored table of thought candidates; here they are scored when read
        "graph": {"available": False, "candidates_updated": 0,
                  "reason": "thought candidates are scored when read (`candidates`, `surface`): none are stored to "
                            "refresh"},
        "predictions": {"ok": True, "dry_run": dry_run, "due": len(due), "checked": len(checked),
                        "transitions": transitions, "results": checked},
        "pending_predictions": pending,
        "watch": watch,
        "lapsed_open_loops": loops,
        "contradictions": conflicts,
        "contract": contract,
        "attention": attention(checked, watch, loops, conflicts, contract),
    }
