"""The world-model beliefs a `resolve` payload asks for: each claim's state assertion (`claim_proposal`, its
validity window kept on the claim's edge too: `claim_validity`), everything the payload asks of the world model
shape-checked before anything is written (`world_proposals`), and the beliefs proposed once the claim edges are
(`propose_assertions`: an active claim's belief points at its edge)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date as calendar_date
from typing import Any

from ...core.errors import InvalidInput
from ...core.surface import typed
from ...core.world.assertions import normalise_predicate
from ..runtime import Runtime

# what of a claim its belief takes as it is (the names and predicate are spelt first: `claim_proposal`)
_ASSERTION_KEYS = ("subject", "subject_type", "object", "object_type", "confidence", "certainty", "evidence",
                   "source_type", "valid_until", "metadata")


def predicate_name(text: str) -> str:
    """A claim's predicate or a payload edge's relation as one relation name ("Located In" → located_in, "Situé à" →
    situé_à): the world model's own spelling of a predicate (`normalise_predicate`), so a belief `resolve` writes and
    one `state assert` writes are one predicate. Letters outside ASCII used to be dropped ("situé à" was `situ`)."""
    return normalise_predicate(text)


def claim_validity(data: Mapping[str, Any], claim: Mapping[str, Any]) -> dict[str, Any]:
    """What the edge keeps of the belief its claim asks for, beyond its names: the types and the validity window
    (`claim_proposal`'s start, the claim's end). `state backfill` re-derives the belief from the edge alone (a
    restored database, an evidence pack ingested again): without them it stated every value as starting the moment
    it ran, so which value of a single-valued predicate ended up current was the edges' order, not the research."""
    out = {k: claim[k] for k in ("subject_type", "object_type") if isinstance(claim.get(k), str) and claim[k].strip()}
    try:
        start = claim_proposal(data, claim).get("valid_from")
    except InvalidInput:  # an embedded payload replayed by an ingest is never refused here: the edge just lacks it
        start = None
    for key, value in (("valid_from", start), ("valid_until", claim.get("valid_until"))):
        if value is not None and not isinstance(value, bool):
            out[key] = str(value)
    return out


def claim_proposal(data: Mapping[str, Any], claim: Mapping[str, Any]) -> dict[str, Any]:
    """The state assertion a claim asks for. It starts when the claim says (`valid_from`, else its `date`), else on
    the payload's date — the day the research established it — unless the claim ended before that day: research
    can find a state that is already over, and its start is then unknown, not the research date."""
    from ...core.world.values import parse_instant

    proposal = {k: claim[k] for k in _ASSERTION_KEYS if k in claim}
    # the edge takes a number as a name; so does the belief
    proposal.update({k: str(claim[k]).strip() for k in ("subject", "object")})
    proposal["predicate"] = predicate_name(str(claim["predicate"]))
    start = claim.get("valid_from") if claim.get("valid_from") is not None else claim.get("date")
    if start is None and data.get("date") is not None:
        until = claim.get("valid_until")
        if until is None or parse_instant(until, "valid_until") >= parse_instant(data["date"], "date"):
            start = data["date"]
    if start is not None:
        proposal["valid_from"] = start
    return proposal


def world_proposals(rt: Runtime, data: Mapping[str, Any], rel: str) -> list[dict[str, Any]] | None:
    """Shape-check everything the payload asks of the world model, before anything is written: these checks used to
    run after the pack and the edges were stored, so a bad date or prediction failed the command half-applied.
    Returns each claim's assertion proposal (None when the world model is not installed)."""
    if data.get("date") is not None:
        try:
            calendar_date.fromisoformat(str(data["date"]))
        except ValueError:
            raise InvalidInput(f"'date' is not a calendar date: {data['date']!r}", field="date") from None
    try:
        from ...core.world import parse_assertion, parse_prediction
        from ...core.world.values import parse_instant
        from ..world.common import now_of
        from ..world.predict import _with_source_path
    except ImportError:
        return None
    now = now_of(rt)
    proposals: list[dict[str, Any]] = []
    for i, claim in enumerate(data.get("claims", [])):
        for key in ("valid_from", "date", "valid_until"):
            if claim.get(key) is not None:
                parse_instant(claim[key], f"claims[{i}].{key}")
        proposals.append(claim_proposal(data, claim))
        _checked(f"claims[{i}]", parse_assertion, proposals[-1], now, None, rel)
    for key in ("assertions", "predictions"):
        items = data.get(key) or []
        if not isinstance(items, list) or not all(isinstance(item, Mapping) for item in items):
            raise InvalidInput(f"'{key}' must be a list of objects", field=key)
    refuse_other_source(data, rel, "a research payload", ("assertions", "predictions"))
    for i, extra in enumerate(data.get("assertions") or []):
        _checked(f"assertions[{i}]", parse_assertion, extra, now, None, rel)
    for i, prediction in enumerate(data.get("predictions") or []):
        _checked(f"predictions[{i}]", lambda doc: parse_prediction(_with_source_path(doc), now),
                 {"source_path": rel, **prediction})
    return proposals


def refuse_other_source(data: Mapping[str, Any], source: str, what: str, keys: tuple[str, ...]) -> None:
    """`InvalidInput` for an item of `keys` (`assertions`, `predictions`) that names a `source_path` other than the
    payload's own (`source`, its scope or pack path): filed under another source, it escaped the re-send or re-run
    that should withdraw it and the `forget --source` that should remove it."""
    for key in keys:
        for i, item in enumerate(data.get(key) or []):
            given = item.get("source_path") if isinstance(item, Mapping) else None
            if given is None or (isinstance(given, str) and given.strip().rstrip("/") == source):
                continue
            raise InvalidInput(f"{key}[{i}].source_path is {given!r}: {what}'s {key} are filed under its own source"
                               f" {source!r} (so a re-send withdraws them and forget --source removes them); leave"
                               " source_path out", field="source_path", index=i, source_path=source)


def _checked(where: str, parse: Callable[..., Any], *args: Any) -> None:
    try:
        parse(*args)
    except InvalidInput as exc:
        # the field inside the item (`claims[1].source_type`): a bare `source_type` named no claim of several
        field = exc.details.get("field")
        inside = {"field": f"{where}.{field}"} if isinstance(field, str) and not field.startswith(where) else {}
        raise InvalidInput(f"{where}: {exc.message}", **{**exc.details, **inside}) from None


def _assertion_id(report: Mapping[str, Any]) -> str | None:
    """The assertion a claim's belief lives in: the row written, or the one that already held it (a replay, or the
    same claim from another source) — None only when the gate refused the claim."""
    if report.get("written") or report.get("idempotent"):
        return str(report.get("stored_id") or report["id"])
    if report.get("status") in ("superseded", "blocked_recreation"):
        return str(report["id"])
    return None


def propose_assertions(rt: Runtime, data: Mapping[str, Any], edges: list[dict[str, Any]],
                       proposals: list[dict[str, Any]] | None, rel: str, notes: list[str]) -> list[dict[str, Any]]:
    try:
        from ..world import propose_assertion
    except ImportError:
        notes.append("world model not installed: assertions skipped")
        return []
    out: list[dict[str, Any]] = []
    for proposal, edge in zip(proposals or [], edges):
        if edge["status"] != "active":
            edge["assertion_id"] = None
            continue
        report = propose_assertion(rt, proposal, source_path=rel, source_edge_id=str(edge["id"]), reason="resolve")
        edge["assertion_id"] = _assertion_id(report)
        out.append(report)
    return out + extra_beliefs(rt, data, rel, notes)


def extra_beliefs(rt: Runtime, data: Mapping[str, Any], rel: str, notes: list[str], *,
                  dry_run: bool = False) -> list[dict[str, Any]]:
    """The payload's `assertions[]` through the world model's gate (a dry run: each against the store as it is)."""
    try:
        from ..world import propose_assertion
    except ImportError:
        if data.get("assertions") and "world model not installed: assertions skipped" not in notes:
            notes.append("world model not installed: assertions skipped")
        return []
    return [propose_assertion(rt, extra, source_path=rel, reason="resolve", dry_run=dry_run)
            for extra in data.get("assertions", []) or []]


def missing_beliefs(rt: Runtime, edge_ids: list[int]) -> dict[str, Any] | None:
    """What an ingest says of the active claim edges it re-created from evidence packs (`edge_ids`) whose belief the
    world model does not hold (a vault ingested into a fresh database): the edges come back from the pack, the
    beliefs only from `state backfill`, and `state list` was empty with nothing saying why. None: none are missing."""
    if not edge_ids:
        return None
    from ..world.common import load_assertions

    held = {row.source_edge_id for row in load_assertions(rt) if row.source_edge_id}
    missing = sorted({i for i in edge_ids if str(i) not in held})
    if not missing:
        return None
    return {"claim_edges": len(missing), "edge_ids": missing[:50],
            "hint": typed("run `mnemon state backfill` to derive the world-model beliefs of the evidence packs' "
                          "active claims")}
