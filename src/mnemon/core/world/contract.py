"""The graph/world contract check (`contract check`, part of `world tick`): read-only, reports every violation.

Failures: an active edge whose relation needs validation but was never validated; two current values for a
single-valued (subject, predicate) — stored as current, or in force together at `as_of`; a value that supersedes
itself, or whose chain points at an assertion that does not exist; a current assertion without evidence; an invalid
prediction row; a side-effectful action without a provider handle; a `verified` action without proof.

Deliberately *not* a failure: a current assertion whose confidence dropped below the 0.9 write gate after a missed
prediction. Mneme fails the contract there and so forces a demotion; here it is a warning, because the write gate
judges new writes, not the survival of facts already established (see `predictions.weaken_on_miss`). Likewise a
warning, not a failure: a current assertion whose source edge is no longer active (`unbacked_current_assertion`).
Reads already stop presenting it as current; the warning tells a person there is a belief to re-confirm or retract.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from mnemon.core.errors import InvalidInput
from mnemon.core.world.assertions import GATE_MIN_CONFIDENCE, Assertion, validity_at
from mnemon.core.world.ledger import Action
from mnemon.core.world.policies import PredicatePolicy, group_policy
from mnemon.core.world.predictions import Prediction

MANDATORY_RULES: tuple[str, ...] = (
    "evidence_before_belief",
    "candidates_are_tentative",
    "killed_edges_never_surface",
    "semantic_edges_need_validation",
    "open_loops_need_current_evidence",
    "dismissal_weakens_by_default",
    "temporary_agent_memory_uses_mneme_namespace",
    "generated_artifacts_are_private",
)


@dataclass(frozen=True)
class Violation:
    rule: str
    severity: str  # fail | warn
    target: str  # edge | assertion | prediction | action
    target_id: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "target": self.target,
            "id": self.target_id,
            "message": self.message,
        }


@dataclass(frozen=True)
class ContractReport:
    ok: bool
    violations: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    checked: Mapping[str, int]

    @property
    def status(self) -> str:
        return "fail" if not self.ok else ("warn" if self.warnings else "pass")

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "status": self.status,
            "rules": list(MANDATORY_RULES),
            "checked": dict(self.checked),
            "violations": [v.to_dict() for v in self.violations],
            "warnings": [w.to_dict() for w in self.warnings],
        }


def _check_edges(edges: Iterable[Any], out: list[Violation]) -> int:
    count = 0
    for index, edge in enumerate(edges):
        count += 1
        if not isinstance(edge, Mapping):
            out.append(Violation("edge_invalid", "fail", "edge", None, f"edges[{index}] is not an object"))
            continue
        edge_id = None if edge.get("id") is None else str(edge.get("id"))
        # Unknown relations default to validation-required, as in the relationship ontology.
        requires = edge.get("requires_validation", True) is not False
        if edge.get("status") == "active" and requires and edge.get("validated") is not True:
            out.append(
                Violation(
                    "semantic_edges_need_validation",
                    "fail",
                    "edge",
                    edge_id,
                    f"active {edge.get('relation', '?')} edge needs explicit validation",
                )
            )
    return count


def _load(rows: Iterable[Any], kind: str, loader: Any, out: list[Violation]) -> list[Any]:
    loaded = []
    for index, row in enumerate(rows):
        source: Any = row.to_row() if isinstance(row, (Assertion, Prediction, Action)) else row
        try:
            item = loader(source)
            if isinstance(row, Assertion):  # the read-time edge status is not part of the stored row
                item = replace(item, source_edge_status=row.source_edge_status)
            loaded.append(item)
        except InvalidInput as error:
            row_id = source.get("id") if isinstance(source, Mapping) else None
            rule = str(error.details.get("rule") or f"{kind}_invalid")
            out.append(Violation(rule, "fail", kind, None if row_id is None else str(row_id), error.message))
        except (TypeError, ValueError, AttributeError) as error:
            out.append(Violation(f"{kind}_invalid", "fail", kind, None, f"{kind}s[{index}]: {error}"))
    return loaded


def _check_assertions(
    assertions: list[Assertion],
    policies: Mapping[str, PredicatePolicy] | None,
    out: list[Violation],
    warnings: list[Violation],
    as_of: datetime | None = None,
    whole_store: bool = False,
) -> None:
    groups: dict[tuple[str, str], list[Assertion]] = defaultdict(list)
    in_force: dict[tuple[str, str], list[Assertion]] = defaultdict(list)
    known = {row.id for row in assertions}
    for row in assertions:
        if row.id in (row.superseded_by_id, row.supersedes_id):
            out.append(Violation("supersession_chain", "fail", "assertion", row.id,
                                 "assertion supersedes itself (its chain is broken; retract or re-assert it)"))
        if row.superseded_by_id is not None and row.superseded_by_id not in known:
            out.append(Violation("supersession_chain", "fail", "assertion", row.id,
                                 f"assertion is superseded by {row.superseded_by_id}, which does not exist (its "
                                 "chain is broken: re-assert the value in force, or retract this one)"))
        if whole_store and row.supersedes_id is not None and row.supersedes_id not in known:
            out.append(Violation("supersession_chain", "fail", "assertion", row.id,
                                 f"assertion supersedes {row.supersedes_id}, which does not exist (its chain is "
                                 "broken: re-assert the value in force, or retract this one)"))
        if as_of is not None and validity_at(row, as_of) == "current":
            in_force[row.pair_key].append(row)
        if row.status != "current":
            continue
        groups[row.pair_key].append(row)
        if not row.evidence.strip():
            out.append(
                Violation("evidence_before_belief", "fail", "assertion", row.id, "current assertion without evidence")
            )
        if row.confidence < GATE_MIN_CONFIDENCE:
            warnings.append(
                Violation(
                    "weakened_current_assertion",
                    "warn",
                    "assertion",
                    row.id,
                    f"current assertion at confidence {row.confidence:g} (below the write gate); "
                    "look for newer evidence",
                )
            )
        if row.unbacked:
            warnings.append(
                Violation(
                    "unbacked_current_assertion",
                    "warn",
                    "assertion",
                    row.id,
                    f"current assertion rests on edge {row.source_edge_id}, which is now {row.source_edge_status}; "
                    "it is not read as current until the edge is active again (re-confirm or retract it)",
                )
            )
    for pair in sorted(set(groups) | set(in_force)):
        predicate = pair[1]
        stored, now = groups.get(pair, []), in_force.get(pair, [])
        policy = group_policy(predicate, [r.metadata for r in (*stored, *now)], policies)
        # two heads of one chain, or two values in force at once (a head and a value superseded only later)
        rows = stored if len({r.object_key for r in stored}) > 1 else now
        objects = {r.object_key for r in rows}
        if policy.single_valued and len(objects) > 1:
            for row in sorted(rows, key=lambda r: r.id):
                out.append(
                    Violation(
                        "single_valued_predicate",
                        "fail",
                        "assertion",
                        row.id,
                        f"{row.subject} {predicate} has {len(objects)} current values",
                    )
                )


def _check_actions(actions: list[Action], out: list[Violation]) -> None:
    for action in actions:
        if action.side_effectful and not (action.external_ref or action.tool_call_id):
            out.append(
                Violation(
                    "side_effects_need_handle",
                    "fail",
                    "action",
                    action.id,
                    "side-effectful action without external_ref or tool_call_id",
                )
            )
        if action.status == "verified" and not (action.verified_by_prediction or action.user_confirmed):
            out.append(
                Violation("verified_needs_proof", "fail", "action", action.id, "verified action without proof")
            )


def check_contract(
    edges: Iterable[Any],
    assertions: Iterable[Assertion | Mapping[str, Any]],
    predictions: Iterable[Prediction | Mapping[str, Any]],
    actions: Iterable[Action | Mapping[str, Any]],
    policies: Mapping[str, PredicatePolicy] | None = None,
    *,
    edges_total: int | None = None,
    as_of: datetime | None = None,
    whole_store: bool = False,
) -> ContractReport:
    """Rows may be dataclasses or raw stored dicts; a raw row that fails to load is itself a violation.
    `edges_total`: how many active edges the store holds, when `edges` are only those that can break a rule.
    `as_of`: also fail two values of a single-valued pair in force together at that instant.

    A row superseded by an assertion none of `assertions` is fails (`supersession_chain`): a replay's view drops a
    later successor and reads its predecessor as current again, so only a deleted row leaves that pointer. A
    `supersedes_id` naming a missing row fails only with `whole_store` (the rows are every stored row): in a
    replay's view a value written later and dated earlier (research back-filling history) is missing too."""
    violations: list[Violation] = []
    warnings: list[Violation] = []
    edge_count = _check_edges(edges, violations)
    assertion_rows = _load(assertions, "assertion", Assertion.from_row, violations)
    prediction_rows = _load(predictions, "prediction", Prediction.from_row, violations)
    # Actions are checked on their attributes so a hand-built Action cannot slip past validate_action's rules.
    all_actions = list(actions)
    action_rows = [a for a in all_actions if isinstance(a, Action)]
    raw_actions = [a for a in all_actions if not isinstance(a, Action)]
    action_rows += _load(raw_actions, "action", Action.from_row, violations)
    _check_assertions(assertion_rows, policies, violations, warnings, as_of, whole_store)
    _check_actions(action_rows, violations)
    checked = {
        "edges": edge_count if edges_total is None else edges_total,
        "assertions": len(assertion_rows),
        "predictions": len(prediction_rows),
        "actions": len(action_rows),
    }
    return ContractReport(not violations, tuple(violations), tuple(warnings), checked)
