"""The world model's rows in a context pack (`app.context.build_context_pack`): its state assertions and predictions
as items, and what its beliefs say about the claim edges the pack holds.

A world item is scored on its own scale (`WORLD_BASE` by truth policy plus how well it matches the prompt), keeps to
a prompt's path scope as memories and edges do, and an edge a belief in the pack was made from, or whose belief is no
longer in force, is skipped or relabelled here rather than spending the budget on a claim the world model states
better (or no longer holds).
"""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .context_budget import REPEATS
from .runtime import Runtime

NOT_IN_FORCE_FACTOR = 0.25  # an edge whose belief was superseded or has lapsed: history, ranked as recall ranks one
WORLD_BASE = {"current_state_assertion": 2.0, "missed_prediction": 1.5, "unverifiable_prediction": 1.2,
              "open_prediction": 1.2, "lapsed_state_assertion": 0.4}


def _skipped_edge(item: Mapping[str, Any], policy: str, reason: str, **extra: Any) -> dict[str, Any]:
    return {"id": item["id"], "kind": "edge", "title": item["title"], "score": item["score"], "truth_policy": policy,
            "reason": reason, **extra}


def not_stated_again(edge_items: list[dict[str, Any]], world_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The edges, each a world assertion in the pack was made from marked as its repeat: the assertion states the
    same claim (with its validity), so the budget pays for it once (Mneme's `deduped_by_world_state_assertion`),
    when the pack takes the assertion (`context_budget.pack`)."""
    stated = {str(w["source_edge_id"]): str(w["id"]) for w in world_rows if w.get("source_edge_id")}
    if not stated:
        return edge_items
    marked = []
    for item in edge_items:
        assertion = stated.get(str(item["edge_id"]))
        if assertion is not None:
            item = {**item, REPEATS: {**item.get(REPEATS, {}), assertion: {
                "reason": "deduped_by_world_state_assertion", "duplicate_of": assertion}}}
        marked.append(item)
    return marked


def world_items(rt: Runtime, prompt: str,
                as_of: datetime | None) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The world model's rows (state assertions, predictions) when that package is installed, and the claim edges
    whose beliefs are no longer in force at `as_of` (edge id → the belief's validity and truth policy)."""
    if importlib.util.find_spec("mnemon.app.world") is None:
        return [], {}
    world = importlib.import_module("mnemon.app.world")
    both = getattr(world, "world_context", None)
    if both is not None:
        found = both(rt, prompt, as_of.isoformat() if as_of else None)
        rows, claim_edges = found["items"], found["claim_edges"]
    else:
        fn = getattr(world, "world_context_items", None)
        if fn is None:
            return [], {}
        rows, claim_edges = fn(rt, prompt, as_of.isoformat() if as_of else None), {}
    out = []
    for row in rows:
        item = dict(row)
        policy = str(item.get("truth_policy") or "active_evidence")
        item["truth_policy"] = policy
        world_score = float(item.get("score") or 0.0)
        base = WORLD_BASE.get(policy, 0.8)
        item["score"] = round(base + world_score, 4)
        item["score_factors"] = {"world_base": base, "world_match": round(world_score, 4)}
        item.setdefault("text", "")
        item.setdefault("title", str(item.get("id")))
        out.append(item)
    return out, claim_edges


def claims_in_force(edge_items: list[dict[str, Any]], claim_edges: Mapping[str, Mapping[str, Any]],
                    skipped: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The edges with each one resolved into a belief no longer in force labelled as that belief is: an edge whose
    belief was superseded by a later value, has lapsed or is not valid yet keeps its place as history, under the
    belief's truth policy (`superseded_state_assertion`, …) and demoted ×0.25; one whose belief was retracted as never
    true is left out (`retracted_state_assertion`). Read alone, such an edge said "active_validated_claim": a fact
    the world model no longer holds, presented as current."""
    if not claim_edges:
        return edge_items
    kept = []
    for item in edge_items:
        claim = claim_edges.get(str(item["edge_id"]))
        if claim is None:
            kept.append(item)
            continue
        policy = str(claim["truth_policy"])
        if claim["validity"] == "retracted":
            skipped.append(_skipped_edge(item, policy, "retracted_state_assertion",
                                         assertion_id=claim["assertion_id"]))
            continue
        item = {**item, "truth_policy": policy, "assertion_id": claim["assertion_id"],
                "assertion_validity": claim["validity"],
                **({"superseded_by_id": claim["superseded_by_id"]} if claim.get("superseded_by_id") else {}),
                "score": round(item["score"] * NOT_IN_FORCE_FACTOR, 4),
                "score_factors": {**item["score_factors"], "not_in_force": NOT_IN_FORCE_FACTOR}}
        kept.append(item)
    return kept


def world_in_scope(items: list[dict[str, Any]], paths: frozenset[str] | None,
                   skipped: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The world items a prompt's path scope keeps: those whose source note (`source_path`) is one it names. A
    prompt naming `Projects/lighthouse.md` asks about that note; an assertion `resolve` wrote from an evidence pack
    under `Sources/` (or one with no note at all) is another source, skipped as `outside_path_scope` as an edge
    another note holds is."""
    if paths is None:
        return items
    kept = []
    for item in items:
        source = str(item.get("source_path") or "")
        if source in paths:
            kept.append(item)
            continue
        skipped.append({"id": item["id"], "kind": item.get("kind"), "title": item["title"], "score": item["score"],
                        "truth_policy": item["truth_policy"], "reason": "outside_path_scope", "source_path": source})
    return kept
