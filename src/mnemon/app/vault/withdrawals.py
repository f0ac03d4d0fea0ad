"""What a re-run of the same research (`resolve`, one evidence pack) or a re-sent scoped payload (`remember --payload`,
one `mneme://` scope) no longer states: its `assertions[]` beliefs still current and its predictions still open.

A run states its world rows whole, as it states its claims: a claim it drops stops being active (`drop_unclaimed`),
and so a belief it drops is withdrawn — retracted with a reason naming the source, which `state explain` shows (the
row stays, history kept), and which the same source stating the belief again undoes — and a prediction it drops is
closed as `withdrawn`, its outcome summary saying why (the row stays; a check never reopens it). Both
used to stay open and current, and the reply said nothing. Beliefs a claim's edge backs are left to that edge (a
demoted edge leaves its belief unbacked), and a value the run's own new rows superseded is already history."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..runtime import Runtime


def withdrawn_assertions(rt: Runtime, source_path: str, stated: Iterable[Mapping[str, Any]],
                         earlier: str | None = None, stated_as: str = "resolve") -> list[str]:
    """The ids of the current beliefs `source_path` (or `earlier`, where the pack was before `note move` took it)
    wrote itself (no claim edge behind them) whose value `stated`, the new run's `assertions[]`, no longer holds.
    Written itself: the belief's audit names the producer (`stated_as`, the reason `resolve` or a scoped payload
    writes under) asserting it — a `state assert` filed under the same scope or pack path is no run's to withdraw
    (the first payload sent under a scope retracted one). Read only: a dry run lists them."""
    try:
        from ...core.world import Assertion, parse_assertion
        from ..world.common import now_of
        from ..world.tables import world_of
    except ImportError:
        return []
    now = now_of(rt)
    kept = {(a.pair_key, a.object_key) for a in (parse_assertion(doc, now, None, source_path) for doc in stated)}
    paths = dict.fromkeys(p for p in (source_path, earlier) if p)
    rows = [Assertion.from_row(row) for path in paths for row in world_of(rt).assertions_in_scope(path)]
    dropped = sorted(row.id for row in rows if row.source_path in paths and row.status == "current"
                     and not row.source_edge_id and (row.pair_key, row.object_key) not in kept)
    return [i for i in dropped if _stated_by(rt, i, stated_as)]


def _stated_by(rt: Runtime, assertion_id: str, reason: str) -> bool:
    """Whether the producer writing under `reason` asserted (or restated) the belief: its audit says so. A row that
    carries on a value its first source withdrew or forgot (`belief_heirs`, `forget --source`) is its source's own
    claim, whoever wrote it."""
    from ..world.tables import world_of
    from .belief_heirs import HEIR

    return any(e["event"] in ("asserted", "merged") and (
        e["detail"].get("reason") == reason or HEIR in e["detail"] or str(e["detail"].get("reason")).startswith(
            "forgot ")) for e in world_of(rt).events("assertion", assertion_id))


def _stated_keys(rt: Runtime, source_path: str, data: Mapping[str, Any]) -> set[tuple[str, str]]:
    """(pair, object) of each belief the run's `assertions[]` and claims state."""
    from ...core.world import parse_assertion
    from ..world.common import now_of

    now = now_of(rt)
    from .claim_beliefs import claim_proposal

    # (the run's claims were shape-checked with these very calls before anything was written: `world_proposals`)
    docs = [*(data.get("assertions") or []), *(claim_proposal(data, claim) for claim in data.get("claims") or [])]
    return {(a.pair_key, a.object_key) for a in (parse_assertion(doc, now, None, source_path) for doc in docs)}


def withdrawn_predictions(rt: Runtime, source_path: str, stated: Iterable[Mapping[str, Any]],
                          earlier: str | None = None) -> list[str]:
    """The ids of the open predictions `resolve` added under `source_path` (or `earlier`) that `stated`, the new
    run's `predictions[]`, no longer holds: one `predict add` filed under the pack's path is not the run's (its audit
    names it; a prediction added before audits named who added it counts as the run's). Read only."""
    try:
        from ...core.world import Prediction, parse_prediction
        from ..world.common import now_of, prediction_source_path
        from ..world.predict import _with_source_path
        from ..world.tables import world_of
    except ImportError:
        return []
    now = now_of(rt)
    kept = {parse_prediction(_with_source_path({"source_path": source_path, **doc}), now).id for doc in stated}
    rows = [Prediction.from_row(row) for row in world_of(rt).predictions(status="open")]
    dropped = sorted(p.id for p in rows if prediction_source_path(p) in (source_path, earlier) and p.id not in kept)
    world = world_of(rt)
    return [i for i in dropped if all(e["detail"].get("reason", "resolve") == "resolve"
                                      for e in world.events("prediction", i) if e["event"] == "predicted")]


def withdraw(rt: Runtime, source_path: str, assertion_ids: list[str], prediction_ids: list[str]) -> dict[str, Any]:
    """Retract the beliefs and close the predictions (inside the caller's transaction); the reply's keys for them."""
    if not assertion_ids and not prediction_ids:
        return {}
    from ...core.world import Prediction
    from ..world.common import now_of, put_prediction
    from ..world.state import retract_assertion
    from ..world.tables import audit, world_of

    from .belief_heirs import heir_of

    reason = f"withdrawn: {source_path} no longer states it"
    heirs = []
    for assertion_id in assertion_ids:
        retract_assertion(rt, assertion_id, reason, withdrawn_by=source_path)
        if (heir := heir_of(rt, assertion_id, source_path)) is not None:
            heirs.append(heir)  # (another source still states the value: in force as that source's row)
    now = now_of(rt)
    for prediction_id in prediction_ids:
        row = world_of(rt).get_prediction(prediction_id)
        if row is None:
            continue
        stored = Prediction.from_row(row)
        put_prediction(rt, replace(stored, status="withdrawn", outcome_summary=reason, checked_at=now,
                                   metadata={**stored.metadata, "withdrawn_by": source_path}))
        audit(rt, "withdrawn", "prediction", prediction_id, {"reason": reason})
    return {**({"withdrawn_assertions": assertion_ids} if assertion_ids else {}),
            **({"stated_elsewhere": heirs} if heirs else {}),
            **({"withdrawn_predictions": prediction_ids} if prediction_ids else {})}


def withdrawn_by_rerun(rt: Runtime, source_path: str, data: Mapping[str, Any], *, dry_run: bool,
                       scoped: bool = False, earlier: str | None = None) -> dict[str, Any]:
    """Withdraw what the run `data` (its `assertions[]` and `predictions[]`) of `source_path` no longer states, after
    its own rows are written (a dry run only lists it); the reply's `withdrawn_*` keys. A scoped payload (`scoped`)
    has no `predictions[]`: a prediction `predict add` filed under its scope is not its own.
    `earlier`: the pack's path before `note move` took it to `source_path` (its world rows still name it)."""
    beliefs = withdrawn_assertions(rt, source_path, data.get("assertions") or [], earlier,
                                   "payload" if scoped else "resolve")
    predictions = (withdrawn_predictions(rt, source_path, data.get("predictions") or [], earlier)
                   if not scoped else [])
    if dry_run and beliefs:  # (a value the run's own new rows supersede is no withdrawal: it is replaced)
        from ..world import propose_assertion

        replaced = {i for doc in data.get("assertions") or [] for key in ("superseded_ids", "retracted_ids")
                    for i in propose_assertion(rt, doc, source_path=source_path, dry_run=True).get(key) or []}
        beliefs = [i for i in beliefs if i not in replaced]
    if dry_run:
        from .belief_heirs import heir_of

        # (a source the run no longer states is taken off first: the preview names no heir of a value it dropped)
        dropping = {p for p in (source_path, earlier) if p}
        heirs = [h for i in beliefs if (h := heir_of(rt, i, source_path, dry_run=True)) is not None
                 and h["source_path"] not in dropping]
        return {**({"withdrawn_assertions": beliefs} if beliefs else {}),
                **({"stated_elsewhere": heirs} if heirs else {}),
                **({"withdrawn_predictions": predictions} if predictions else {})}
    try:
        from ..world import propose_assertion  # noqa: F401  (the world model installed)
    except ImportError:
        return {}
    from .belief_heirs import uncorroborate

    # (what the run no longer states, it no longer corroborates: it is then no heir of it)
    uncorroborate(rt, [p for p in (source_path, earlier) if p], _stated_keys(rt, source_path, data))
    return withdraw(rt, source_path, beliefs, predictions)


def add_predictions(rt: Runtime, data: Mapping[str, Any], rel: str, notes: list[str], *,
                    dry_run: bool = False) -> list[dict[str, Any]]:
    """`resolve`'s `predictions[]`, each stored once (`add_prediction`: the same one again is no other row); a dry
    run says what each would be (added, reopened or already there), and is refused where the run would be."""
    wanted = data.get("predictions") or []
    if not wanted:
        return []
    try:
        from ..world.predict import add_prediction
    except ImportError:
        notes.append("world model not installed: predictions skipped")
        return []
    out: list[dict[str, Any]] = []
    for prediction in wanted:
        doc = dict(prediction)
        doc.setdefault("source_path", rel)
        report = add_prediction(rt, doc, reason="resolve", dry_run=dry_run)
        if dry_run and any(p["prediction"]["id"] == report["prediction"]["id"] for p in out):
            report = {"created": False, "prediction": report["prediction"]}  # (the run's second is the first's row)
        out.append(report)
    return out
