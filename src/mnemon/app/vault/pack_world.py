"""The world-model rows an evidence pack's payload made — each active claim's belief, its `assertions[]` beliefs and
its `predictions[]` — put back by an ingest that finds the store without them (a vault ingested into a fresh
database: the vault is the source of truth, and the pack carries its payload whole, in its
`mneme-research-resolution-b64` comment). A user who rebuilds the store from the vault gets back what `resolve` gave
them: a claim's belief under the id `resolve` gave it (a content hash of the claim, the pack's path and the research's
start date), pointing at the claim's re-created edge, and a prediction dated by the research (`created_at`: the
pack's `date`), not by the ingest that restores it.

Only a row the store has no row of, under its own id, is written (a claim's belief also not when a row of the store
is that edge's belief: `state backfill` derived it): a second ingest adds nothing, and a store that holds the row
keeps it as it is — a belief a person retracted or another value superseded, a prediction checked or withdrawn, are
not restated or reopened. A belief the world model's gate refuses is not proposed again (a refusal would be audited
on every ingest), and an item the store cannot take (a prediction naming an assertion it does not hold, a pack edited
by hand) is counted as skipped, never an ingest's failure. An active claim whose belief could not be restored so is
what the reply's `beliefs_missing` lists (`claim_beliefs.missing_beliefs`)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...core.errors import InvalidInput, MnemonError
from ..runtime import Runtime
from .claim_beliefs import claim_proposal, missing_beliefs

# (pack path, its payload, what `claim_edges` made of each of its claims, in order)
Replayed = tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]


def restore_pack_world(rt: Runtime, packs: Iterable[Replayed]
                       ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Write the missing rows of each replayed pack, inside the ingest's transaction, in the order `resolve` wrote
    them (a pack's claims' beliefs, its `assertions[]`, its predictions, which may name either). Returns the reply's
    `world_restored` (what was written, and how many items were skipped) and `beliefs_missing`, each None when
    there is nothing to say."""
    packs = [(path, payload, edges) for path, payload, edges in packs
             if _active(edges) or payload.get("assertions") or payload.get("predictions")]
    if not packs:
        return None, None
    try:
        from ..world.common import load_assertions
        from ..world.tables import world_of
    except ImportError:
        return None, None
    world = world_of(rt)
    by_edge = {str(row.source_edge_id) for row in load_assertions(rt) if row.source_edge_id} if any(
        _active(edges) for _p, _d, edges in packs) else set()
    beliefs: list[str] = []
    predictions: list[str] = []
    unsettled: list[int] = []
    skipped = 0
    for path, payload, edges in packs:
        for claim, edge in _active_claims(payload, edges):
            if str(edge["id"]) in by_edge:
                continue  # (its belief is held, whatever its status now)
            try:
                proposal = claim_proposal(payload, claim)
                beliefs += _restored(rt, world, proposal, path, str(edge["id"]))
            except MnemonError:
                unsettled.append(int(edge["id"]))
        for item in _objects(payload.get("assertions")):
            try:
                beliefs += _restored(rt, world, item, path, None)
            except MnemonError:
                skipped += 1
        for item in _objects(payload.get("predictions")):
            try:
                predictions += _prediction(rt, {"source_path": path, **_dated(rt, payload), **item})
            except MnemonError:
                skipped += 1
    restored = {"assertions": beliefs, "predictions": predictions, **({"skipped": skipped} if skipped else {})}
    return (restored if beliefs or predictions or skipped else None), missing_beliefs(rt, unsettled)


def _restored(rt: Runtime, world: Any, item: Mapping[str, Any], path: str, edge_id: str | None) -> list[str]:
    """The belief `item` asks for, written when the gate lets it in and the store has no row of its id: its id, or
    nothing (the gate's refusal, asked as a dry run, is not audited again)."""
    from ..world.state import propose_assertion

    report = propose_assertion(rt, item, source_path=path, source_edge_id=edge_id, reason="resolve", dry_run=True)
    if not report.get("written") or world.get_assertion(str(report["id"])) is not None:
        return []
    written = propose_assertion(rt, item, source_path=path, source_edge_id=edge_id, reason="resolve")
    return [str(written["id"])] if written.get("written") else []


def _prediction(rt: Runtime, doc: Mapping[str, Any]) -> list[str]:
    from ..world.predict import add_prediction

    if not add_prediction(rt, doc, reason="resolve", dry_run=True).get("created"):
        return []
    return [str(add_prediction(rt, doc, reason="resolve")["prediction"]["id"])]


def _dated(rt: Runtime, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A restored prediction's `created_at`: the research's date, when the pack has one that has begun (a prediction
    made in the future is refused); else none, and the ingest's time stamps it."""
    from ...core.world.values import parse_instant
    from ..world.common import now_of

    try:
        made = parse_instant(payload.get("date"), "date") if isinstance(payload.get("date"), str) else None
    except InvalidInput:
        return {}
    return {"created_at": payload["date"]} if made is not None and made <= now_of(rt) else {}


def _active(edges: Sequence[Mapping[str, Any]]) -> bool:
    return any(edge.get("status") == "active" and edge.get("id") for edge in edges)


def _active_claims(payload: Mapping[str, Any], edges: Sequence[Mapping[str, Any]]
                   ) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """Each claim whose edge the replay left active, with that edge (`claim_edges` answers one entry per claim)."""
    from .resolve import validate_payload

    try:  # (the claims as the replay read them: a name given as a link is its note's, as `resolve` named it)
        claims = validate_payload(payload)["claims"]
    except InvalidInput:
        return []
    if len(claims) != len(edges):
        return []
    return [(claim, edge) for claim, edge in zip(claims, edges)
            if isinstance(claim, Mapping) and edge.get("status") == "active" and edge.get("id")]


def _objects(items: Any) -> list[Mapping[str, Any]]:
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, list) else []
