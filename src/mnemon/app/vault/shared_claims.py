"""A claim two evidence packs state: one edge (one row per subject, relation and object), which the pack that wrote
it last names as its `source_path`. Each claim edge lists in `metadata.claimed_by` the packs that wrote it, so a
pack re-resolved without the claim hands it back to another pack that still states it — read from that pack's file,
as an ingest would — instead of demoting a claim the vault still makes (`resolve.drop_unclaimed`)."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ...core.errors import MnemonError
from ...core.model import Edge
from ...core.vault import LinkIndex
from .. import notes
from ..runtime import Runtime
from .resolve import _node_for, pack_payloads, predicate_name


def claimants(existing: Edge | None, source_path: str) -> list[str]:
    """`claimed_by` for a claim edge `source_path`'s pack writes over `existing`: the packs that wrote it before
    (an edge written before the list was kept: the pack it names), then this one."""
    prior: list[str] = []
    if existing is not None and existing.origin == "resolve":
        listed = existing.metadata.get("claimed_by")
        prior = [p for p in listed if isinstance(p, str)] if isinstance(listed, list) else [existing.source_path]
    return list(dict.fromkeys([*(p for p in prior if p), source_path]))


def claimed_elsewhere(vault: str | Path, edge: Edge, source_path: str,
                      index: LinkIndex) -> tuple[str, Mapping[str, Any]] | None:
    """Another pack in `edge.metadata.claimed_by` whose file still states the edge's claim: its path and its payload
    narrowed to that claim (None: no other pack does, or its file is gone or changed)."""
    return next(_stated_elsewhere(vault, edge, source_path, index), None)


def active_elsewhere(rt: Runtime, vault: str | Path, edge: Edge, source_path: str,
                     index: LinkIndex) -> dict[str, Any] | None:
    """`edge`, which `source_path`'s pack just wrote as a candidate, written again as the claim of another pack that
    states it active, and what the reply says of it then (None: no other pack does). One edge holds the claim of
    every pack stating it, so it is active while one of them states it so: a pack re-run with the claim at 0.6 made
    it a candidate though another still stated it at 0.95, and an ingest replaying the packs in path order left it
    as the last one said."""
    from .resolve import apply_embedded_payload

    for rel, payload in _stated_elsewhere(vault, edge, source_path, index):
        if not _states_active(payload):
            continue
        [written] = apply_embedded_payload(rt, payload, rel)
        if written["status"] == "active":
            return {"status": "active", "strength": written["strength"], "confidence": written["confidence"],
                    "reasons": [*written["reasons"], f"stated_active_by:{rel}"], "claimed_elsewhere": rel}
    return None


def previewed_elsewhere(vault: str | Path | None, edge: Edge | None, source_path: str, index: LinkIndex,
                        status: str, reasons: list[str]) -> tuple[str, list[str]]:
    """A dry run's (status, reasons) of a claim it previews as a candidate on `edge`: active when another pack
    states it active (`active_elsewhere` writes it so), as a real run would answer."""
    if vault is None or edge is None or status != "candidate" or edge.origin != "resolve":
        return status, reasons
    for rel, payload in _stated_elsewhere(vault, edge, source_path, index):
        if _states_active(payload):
            return "active", [*reasons, f"stated_active_by:{rel}"]
    return status, reasons


def _states_active(payload: Mapping[str, Any]) -> bool:
    """Whether a pack's payload narrowed to one claim asks for it active (under its own threshold)."""
    from .resolve import ACTIVE_THRESHOLD, claim_status

    threshold = payload.get("active_threshold")
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool):
        threshold = ACTIVE_THRESHOLD
    return claim_status(payload["claims"][0], float(threshold))[0] == "active"


def _stated_elsewhere(vault: str | Path, edge: Edge, source_path: str,
                      index: LinkIndex) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each other pack of `edge.metadata.claimed_by` whose file still states its claim, with its payload narrowed to
    that claim, in the list's order."""
    for rel in edge.metadata.get("claimed_by") or []:
        if not isinstance(rel, str) or rel == source_path:
            continue
        try:
            text = notes.safe_resolve(vault, rel).path.read_text(encoding="utf-8", errors="replace")
        except (OSError, MnemonError):
            continue
        for payload in pack_payloads(text):
            for claim in payload.get("claims", []):
                key = (_node_for(str(claim["subject"]), index), _node_for(str(claim["object"]), index),
                       predicate_name(str(claim["predicate"])))
                if key == (edge.src, edge.dst, edge.type):
                    yield rel, {**payload, "claims": [claim]}
                    break
