"""`agent preflight`: the one call an agent makes before answering — context pack, surfaced thoughts, current and
lapsed state, due and missed predictions, contradictions, contract status and the rules for using all of it.

`world_context_items` is also what the context-pack builder (`mnemon.app.context.build_context_pack`) includes:
world rows relevant to the prompt, each with a `truth_policy`. Unlike Mneme, missed predictions are not injected
into every pack regardless of the prompt; they must share terms with it (preflight's `world` block still lists
them all).
"""
from __future__ import annotations

import importlib
import importlib.util
from datetime import datetime
from typing import Any

from ...core.errors import ContractViolation, InvalidInput, StoreError
from ...core.model import parse_iso
from ...core.surface import step
from ...core.text import token_set
from ...core.stored_text import check_query_text
from ...core.world import Assertion, Prediction, due_predictions, truth_policy_for_prediction, validity_at
from ...core.world.predictions import due_at
from ...core.world.truth import AUTHORITATIVE_TRUTH_POLICIES, claim_edges_not_in_force, prediction_status_at
from ...core.world.values import iso
from ..runtime import Runtime
from .common import WorldView, load_assertions, load_view, now_of, replay_instant
from .contract import contract_report
from .correction import preflight_route
from .predict import prediction_view
from .state import assertion_view, radar
from .tick import attention, lapsed_open_loops, watch_items, _lead

DEFAULT_BUDGET = 2500
DEFAULT_MAX_ITEMS = 8
MAX_PROMPT_CHARS = 2000
AGENT_RULES: tuple[str, ...] = (
    "State only current_state_assertion items as present fact; cite their source_path.",
    "Treat lapsed_state_assertion items as history: their validity window has passed.",
    "open_prediction items are expectations, not facts; missed_prediction means the expected evidence never came.",
    "When contradictions are listed, say the state is disputed instead of picking a side.",
    "Candidate edges and unvalidated claims are leads to verify, never truth.",
    "Record side effects with `mnemon action record` (external_ref or tool_call_id required).",
)
RECORD_RULE_TOOLS = "Record side effects with `action_record` (external_ref or tool_call_id required)."


def _as_of(rt: Runtime, as_of: Any) -> datetime | None:
    return None if as_of in (None, "") else replay_instant(rt, as_of)


def _assertion_item(row: Assertion, now: datetime, prompt_tokens: frozenset[str]) -> dict[str, Any] | None:
    validity = validity_at(row, now)
    if validity not in ("current", "lapsed"):
        return None
    head = token_set(row.subject, row.predicate.replace("_", " "), row.object)
    matched = prompt_tokens & head
    if not matched:
        return None
    view = assertion_view(row, now)
    return {
        **({"source_edge_id": row.source_edge_id} if row.source_edge_id else {}),
        "id": row.id, "kind": "state_assertion", "item_type": "world_state",
        "title": f"{row.subject} {row.predicate} {row.object}", "text": row.evidence,
        "source_path": row.source_path, "truth_policy": view["truth_policy"],
        "score": round(len(matched) / max(1, len(prompt_tokens)) + (0.5 if validity == "current" else 0.0), 4),
        "matched_terms": sorted(matched), "confidence": row.confidence, "validity": validity,
        "valid_from": view["valid_from"], "valid_until": view["valid_until"],
    }


def _prediction_item(p: Prediction, now: datetime, prompt_tokens: frozenset[str]) -> dict[str, Any] | None:
    terms = " ".join(" ".join(v) for v in p.match.terms.to_json().values())
    matched = prompt_tokens & token_set(p.title, terms)
    if not matched:
        return None
    status = prediction_status_at(p, now)
    if status == "withdrawn":
        return None  # its research withdrew it: nothing expects it any more (`vault.withdrawals`)
    return {
        "id": p.id, "kind": "prediction", "item_type": "world_prediction", "title": p.title,
        "text": p.outcome_summary if status != "open" and p.outcome_summary else f"expected by {iso(p.expires_at)}",
        "source_path": str(p.metadata.get("source_path") or ""), "truth_policy": truth_policy_for_prediction(p, now),
        "score": round(len(matched) / max(1, len(prompt_tokens)), 4), "matched_terms": sorted(matched),
        "status": status, "prediction_type": p.prediction_type, "check_after": iso(p.check_after),
        "expires_at": iso(p.expires_at), "confidence": p.confidence,
    }


def context_items_in_view(view: WorldView, prompt: str) -> list[dict[str, Any]]:
    prompt_tokens = token_set(prompt)
    if not prompt_tokens:
        return []
    items = [item for row in view.assertions.values() if (item := _assertion_item(row, view.now, prompt_tokens))]
    items += [item for p in view.predictions.values() if (item := _prediction_item(p, view.now, prompt_tokens))]
    items.sort(key=lambda i: (i["truth_policy"] not in AUTHORITATIVE_TRUTH_POLICIES, -i["score"], i["id"]))
    return items


def world_context_items(rt: Runtime, prompt: str, as_of: Any = None) -> list[dict[str, Any]]:
    """World rows relevant to `prompt` at `as_of` (default now), each with its `truth_policy`."""
    return world_context(rt, prompt, as_of)["items"]


def world_context(rt: Runtime, prompt: str, as_of: Any = None) -> dict[str, Any]:
    """What a context pack takes from the world model, from one read of it: `items` (`world_context_items`) and
    `claim_edges` — the graph edges resolved into beliefs of which none is in force at `as_of` (superseded, retracted,
    lapsed, not yet valid), keyed by edge id (`claim_edges_not_in_force`), so the pack never serves such an edge as
    an active validated claim."""
    if not isinstance(prompt, str) or not prompt.strip():
        raise InvalidInput("prompt must be a non-empty string")
    check_query_text(prompt, "prompt")
    view = load_view(rt, _as_of(rt, as_of), with_events=False)
    return {"items": context_items_in_view(view, prompt),
            "claim_edges": claim_edges_not_in_force(view.assertions.values(), view.now)}


def claim_edges_not_in_force_now(rt: Runtime) -> dict[str, dict[str, Any]]:
    """`claim_edges_not_in_force` at now, from the assertion rows alone (a thought walk's read: no predictions,
    actions or events). Empty on a store without world tables."""
    try:
        rows = load_assertions(rt)
    except StoreError:
        return {}
    return claim_edges_not_in_force(rows, now_of(rt)) if rows else {}


# ── the context pack ───────────────────────────────────────────────────────────────────────────────────────────
def _external_pack_builder() -> Any:
    """`mnemon.app.context.build_context_pack` when the context-pack module is installed, else None."""
    if importlib.util.find_spec("mnemon.app.context") is None:
        return None
    return getattr(importlib.import_module("mnemon.app.context"), "build_context_pack", None)


def _local_pack(rt: Runtime, prompt: str, view: WorldView, budget: int, max_items: int) -> dict[str, Any]:
    """A minimal pack straight from the recall engine (used when no context-pack builder is installed)."""
    from ..recall import run_recall

    outcome = run_recall(rt, prompt, limit=max(1, min(100, max_items)), touch=False)
    candidates: list[dict[str, Any]] = context_items_in_view(view, prompt)
    for s in outcome.results:
        node = outcome.nodes[s.id]
        if view.replay and node.created_at and parse_iso(node.created_at) > view.now:
            continue  # a memory written after the replayed instant was not there to be recalled
        candidates.append({"id": s.id, "kind": "memory", "item_type": "memory", "title": node.content[:80],
                           "text": node.content, "source_path": node.source, "truth_policy": "stored_memory",
                           "score": round(s.score, 4), "via": s.via, "superseded": s.superseded})
    items: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    used = 0
    for item in candidates:
        size = len(item["title"]) + len(item.get("text") or "")
        if len(items) >= max_items:
            skipped.append({"id": item["id"], "reason": "max_items"})
        elif used + size > budget:
            skipped.append({"id": item["id"], "reason": "budget"})
        else:
            items.append(item)
            used += size
    return {"prompt": prompt, "builder": "preflight-local", "budget": budget, "used": used,
            "max_items": max_items, "items": items, "skipped": skipped}


def _pack(rt: Runtime, prompt: str, view: WorldView, budget: int, max_items: int, include_candidates: bool = True,
          hints: Any = None) -> dict[str, Any]:
    builder = _external_pack_builder()
    if builder is None:
        return _local_pack(rt, prompt, view, budget, max_items)
    pack = builder(rt, prompt, budget=budget, max_items=max_items, as_of=iso(view.now) if view.replay else None,
                   include_candidates=include_candidates, hints=hints)
    return dict(pack) if isinstance(pack, dict) else {"items": pack}


# ── preflight ──────────────────────────────────────────────────────────────────────────────────────────────────
def world_block(rt: Runtime, view: WorldView) -> dict[str, Any]:
    assertions = sorted(view.assertions.values(), key=lambda r: (r.subject_key, r.predicate, r.id))
    current = [assertion_view(r, view.now) for r in assertions if validity_at(r, view.now) == "current"]
    lapsed = [assertion_view(r, view.now) for r in assertions if validity_at(r, view.now) == "lapsed"]
    unbacked = [assertion_view(r, view.now) for r in assertions if validity_at(r, view.now) == "unbacked"]
    predictions = sorted(view.predictions.values(), key=lambda p: (p.check_after, p.id))
    due = [prediction_view(p, view.now, due_at(p, view.events, view.now))
           for p in due_predictions(predictions, view.now, view.now, view.events)]
    missed = [prediction_view(p, view.now) for p in predictions if prediction_status_at(p, view.now) == "missed"]
    # (a prediction its research withdrew is `withdrawn`: nothing to chase — `vault.withdrawals`)
    unverifiable = [prediction_view(p, view.now) for p in predictions
                    if prediction_status_at(p, view.now) == "unverifiable"]
    return {
        "current_assertions": current, "lapsed_assertions": lapsed, "unbacked_assertions": unbacked,
        "due_predictions": due,
        "missed_predictions": missed, "unverifiable_predictions": unverifiable,
        "watch": watch_items(view, _lead(None)), "lapsed_open_loops": lapsed_open_loops(view),
        "contradictions": radar(rt, assertions, view.now if view.replay else None),
    }


def _warnings(world: dict[str, Any], contract: dict[str, Any]) -> list[str]:
    out = []
    for conflict in world["contradictions"]:
        out.append(f"disputed: {conflict['summary']}")
    weakened = [a for a in world["current_assertions"] if a["prediction_misses"]]
    if weakened:
        out.append(f"{len(weakened)} current assertion(s) weakened by missed predictions; look for newer evidence")
    if world["lapsed_assertions"]:
        out.append(f"{len(world['lapsed_assertions'])} assertion(s) lapsed at this instant; do not state them as current")
    if world["unbacked_assertions"]:
        out.append(f"{len(world['unbacked_assertions'])} assertion(s) rest on graph edges that are no longer active;"
                   " do not state them as current")
    if not contract["ok"]:
        out.append("the database contract check FAILED; do not act on world state until it is repaired")
    return out


def _surface(rt: Runtime, prompt: str, limit: int, include_candidates: bool, hints: Any,
             view: WorldView) -> dict[str, Any] | None:
    """`surface --prompt` for the preflight's `--surface-limit` (None without the thoughts module); a replay's cards
    are replayed too, or they named memories written after `--as-of` and called its future deadlines past due."""
    if importlib.util.find_spec("mnemon.app.thoughts") is None:
        return None
    surface = importlib.import_module("mnemon.app.thoughts").surface
    return dict(surface(rt, prompt=prompt, limit=limit, hints=hints, include_candidates=include_candidates,
                        as_of=view.now if view.replay else None))


def agent_preflight(rt: Runtime, prompt: str, *, as_of: Any = None, budget: int = DEFAULT_BUDGET,
                    max_items: int = DEFAULT_MAX_ITEMS, include_candidates: bool = True, hints: Any = None,
                    surface_limit: int = 0) -> dict[str, Any]:
    """The context pack, world state, contract and rules an agent reads before answering; `surface_limit` > 0
    adds that many thought cards for the prompt (`surface`), as Mneme's preflight did by default (5)."""
    if not isinstance(prompt, str) or not prompt.strip():
        raise InvalidInput("--prompt must be a non-empty string")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise InvalidInput(f"--prompt is {len(prompt)} characters; the limit is {MAX_PROMPT_CHARS}")
    check_query_text(prompt, "--prompt")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidInput("--budget must be a positive integer")
    if isinstance(max_items, bool) or not isinstance(max_items, int) or not 1 <= max_items <= 100:
        raise InvalidInput("--max-items must be from 1 to 100")
    if isinstance(surface_limit, bool) or not isinstance(surface_limit, int) or not 0 <= surface_limit <= 50:
        raise InvalidInput("--surface-limit must be from 0 to 50")
    view = load_view(rt, _as_of(rt, as_of))
    world = world_block(rt, view)
    contract = contract_report(rt, view)
    thoughts = attention([], world["watch"], world["lapsed_open_loops"], world["contradictions"], contract)
    thoughts = [{"kind": "missed_prediction", "id": p["id"], "summary": p["outcome_summary"]}
                for p in world["missed_predictions"]] + thoughts
    payload = {
        "ok": bool(contract["ok"]),
        "as_of": iso(view.now),
        "replay": view.replay,
        "prompt": prompt,
        "route": preflight_route(prompt, view),
        "context": _pack(rt, prompt, view, budget, max_items, include_candidates, hints),
        "thoughts": thoughts,
        "world": {"as_of": iso(view.now), **world},
        "contract": {"name": contract["name"], "version": contract["version"], "ok": contract["ok"],
                     "status": contract["status"], "checked": contract["checked"],
                     "violations": contract["violations"], "warnings": contract["warnings"], "db": rt.store.path},
        "warnings": _warnings(world, contract),
        "failures": contract["failures"],
        "agent_rules": [*AGENT_RULES[:-1], step(AGENT_RULES[-1], RECORD_RULE_TOOLS)],
    }
    if surface_limit:
        payload["surface"] = _surface(rt, prompt, surface_limit, include_candidates, hints, view)
    if not payload["ok"]:
        raise ContractViolation("preflight: the database contract check failed; see details.contract", **payload)
    return payload
