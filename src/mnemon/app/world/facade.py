"""`WorldMixin`: the world-model methods of the `Mnemon` facade, one per command, each returning a JSON-ready dict.

Mixed into `mnemon.app.memory.Mnemon`, which provides `self.rt`. Payload-taking methods accept a JSON string or an
already-parsed object, so the CLI, MCP and HTTP interfaces pass what they received.
"""
from __future__ import annotations

from typing import Any

from ..runtime import Runtime
from . import action, alias, contract, evalretrieval, predict, preflight, sense, state, tick


class WorldMixin:
    rt: Runtime

    # state
    def state_list(self, *, status: str | None = None, subject: str | None = None, predicate: str | None = None,
                   state_type: str | None = None, as_of: Any = None, limit: int = 200,
                   order_by: str = "subject") -> dict[str, Any]:
        return state.list_state(self.rt, status=status, subject=subject, predicate=predicate, state_type=state_type,
                                as_of=as_of, limit=limit, order_by=order_by)

    def state_explain(self, assertion_id: str, *, as_of: Any = None) -> dict[str, Any]:
        return state.explain_state(self.rt, assertion_id, as_of=as_of)

    def state_backfill(self, *, dry_run: bool = False) -> dict[str, Any]:
        return state.backfill_state(self.rt, dry_run=dry_run)

    def state_conflicts(self, *, as_of: Any = None) -> dict[str, Any]:
        return state.state_conflicts(self.rt, as_of=as_of)

    def state_assert(self, document: Any, *, dry_run: bool = False) -> dict[str, Any]:
        payload = sense.read_json_document(document, "assertion file")
        return state.assert_state(self.rt, payload, dry_run=dry_run)

    def state_retract(self, assertion_id: str, *, reason: str) -> dict[str, Any]:
        return state.retract_assertion(self.rt, assertion_id, reason)

    # predictions
    def predict_add(self, document: Any) -> dict[str, Any]:
        return predict.add_prediction(self.rt, document)

    def predict_due(self, *, before: Any = None, as_of: Any = None) -> dict[str, Any]:
        return predict.predict_due(self.rt, before=before, as_of=as_of)

    def predict_check(self, *, prediction_id: str | None = None, as_of: Any = None,
                      dry_run: bool = False) -> dict[str, Any]:
        return predict.check_predictions(self.rt, prediction_id=prediction_id, as_of=as_of, dry_run=dry_run)

    # senses, loop, ledger, aliases
    def sense_add(self, document: Any) -> dict[str, Any]:
        return sense.add_sense_events(self.rt, document)

    def world_watch(self, *, lead: Any = None, as_of: Any = None) -> dict[str, Any]:
        return tick.world_watch(self.rt, lead=lead, as_of=as_of)

    def world_tick(self, *, before: Any = None, dry_run: bool = False) -> dict[str, Any]:
        return tick.world_tick(self.rt, before=before, dry_run=dry_run)

    def action_record(self, document: Any) -> dict[str, Any]:
        return action.record_action(self.rt, document)

    def alias_add(self, alias_name: str, canonical: str, *, source: str = "manual",
                  confidence: float = 1.0) -> dict[str, Any]:
        return alias.alias_add(self.rt, alias_name, canonical, source=source, confidence=confidence)

    def alias_merge(self, from_subject: str, into_subject: str, *, dry_run: bool = False) -> dict[str, Any]:
        return alias.alias_merge(self.rt, from_subject, into_subject, dry_run=dry_run)

    def alias_ls(self, *, canonical: str | None = None) -> dict[str, Any]:
        return alias.alias_ls(self.rt, canonical=canonical)

    # contract, preflight, eval
    def contract_check(self, *, as_of: Any = None) -> dict[str, Any]:
        return contract.contract_check(self.rt, as_of=as_of)

    def agent_preflight(self, prompt: str, *, as_of: Any = None, budget: int = preflight.DEFAULT_BUDGET,
                        max_items: int = preflight.DEFAULT_MAX_ITEMS, include_candidates: bool = True,
                        hints: Any = None, surface_limit: int = 0) -> dict[str, Any]:
        return preflight.agent_preflight(self.rt, prompt, as_of=as_of, budget=budget, max_items=max_items,
                                         include_candidates=include_candidates, hints=hints,
                                         surface_limit=surface_limit)

    def eval_retrieval(self, *, demo: bool = False, cases: Any = None, k: int = 3,
                       min_score: float | None = None) -> dict[str, Any]:
        return evalretrieval.eval_retrieval(self.rt, demo=demo, cases_document=cases, k=k, min_score=min_score)
