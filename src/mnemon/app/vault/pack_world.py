"""The world-model rows an evidence pack's payload asks for — its `assertions[]` beliefs and its `predictions[]` — put
back by an ingest that finds the store without them (a vault ingested into a fresh database: the vault is the source
of truth, and the pack carries its payload whole, in its `mneme-research-resolution-b64` comment).

Only a row the store has no row of, under its own id (a content hash of the row and the pack's path, as `resolve`
made it), is written: a second ingest adds nothing, and a store that holds the row keeps it as it is — a belief a
person retracted or another value superseded, a prediction checked or withdrawn, are not restated or reopened. A
belief the world model's gate refuses is not proposed again (a refusal would be audited on every ingest), and an
item the store cannot take (a prediction naming an assertion it does not hold, a pack edited by hand) is counted as
skipped, never an ingest's failure. The claims' own beliefs are `state backfill`'s (`claim_beliefs.missing_beliefs`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core.errors import MnemonError
from ..runtime import Runtime


def restore_pack_world(rt: Runtime, packs: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, Any] | None:
    """Write the missing rows of each (pack path, payload), inside the ingest's transaction; the reply's
    `world_restored` (what was written, and how many items were skipped), or None when nothing was either."""
    packs = [(path, payload) for path, payload in packs if payload.get("assertions") or payload.get("predictions")]
    if not packs:
        return None
    try:
        from ..world.predict import add_prediction
        from ..world.state import propose_assertion
        from ..world.tables import world_of
    except ImportError:
        return None
    world = world_of(rt)
    beliefs: list[str] = []
    predictions: list[str] = []
    skipped = 0
    for path, payload in packs:
        for item in _objects(payload.get("assertions")):
            try:
                report = propose_assertion(rt, item, source_path=path, reason="resolve", dry_run=True)
                if report.get("written") and world.get_assertion(str(report["id"])) is None:
                    written = propose_assertion(rt, item, source_path=path, reason="resolve")
                    beliefs += [str(written["id"])] if written.get("written") else []
            except MnemonError:
                skipped += 1
        for item in _objects(payload.get("predictions")):
            doc = {"source_path": path, **item}
            try:
                planned = add_prediction(rt, doc, reason="resolve", dry_run=True)
                if planned.get("created"):
                    predictions.append(str(add_prediction(rt, doc, reason="resolve")["prediction"]["id"]))
            except MnemonError:
                skipped += 1
    if not (beliefs or predictions or skipped):
        return None
    return {"assertions": beliefs, "predictions": predictions, **({"skipped": skipped} if skipped else {})}


def _objects(items: Any) -> list[Mapping[str, Any]]:
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, list) else []
