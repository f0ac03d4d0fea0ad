"""A claim two evidence packs state: one edge (one row per subject, relation and object), which the pack that wrote
it last names as its `source_path`. Each claim edge lists in `metadata.claimed_by` the packs that wrote it, so a
pack re-resolved without the claim hands it back to another pack that still states it — read from that pack's file,
as an ingest would — instead of demoting a claim the vault still makes (`resolve.drop_unclaimed`)."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...core.errors import MnemonError
from ...core.model import Edge
from ...core.vault import LinkIndex
from .. import notes
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
                    return rel, {**payload, "claims": [claim]}
    return None
