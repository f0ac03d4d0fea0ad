"""The thought walk: a deterministic biased walk over active edges from a card's note and memory, and the steps of
the path it returns (`app.thoughts` turns them into cards)."""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..core.model import Edge, Memory, parse_iso
from ..core.ontology import category_of
from ..core.text import tokens
from ..core.vault.lifecycle import truth_policy
from ..core.vault.links import display_links
from ..core.vault.proactive import DEADLINE_WORDS, OPEN_WORDS
from ..render.card_text import clip
from .runtime import Runtime

_NAV_TYPES = {"note", "project", "person", "finance", "event", "place", "placeholder"}
# edge categories no belief is ever resolved from (a note's bullets, links, headings, dates): a walk over them needs
# no look at the world model
_NEVER_CLAIMS = {"observation", "structure", "reference", "extraction", "lineage"}


def node_type(node: Memory | None) -> str:
    if node is None:
        return "unknown"
    if node.kind == "memory":
        kind = (node.metadata or {}).get("memory_kind")
        if kind is None:
            return "observation" if node.source.startswith("mneme://") else "memory"
        return str(kind)
    if node.kind == "note":
        return str((node.metadata or {}).get("type") or (node.metadata or {}).get("note_type") or "note")
    return node.kind


def node_name(node: Memory | None, node_id: str) -> str:
    if node is None:
        return node_id
    if node.kind == "memory":
        if (node.metadata or {}).get("memory_kind") == "section" and node.title:
            return node.title  # its heading path ("Note > Heading"): the text is shown as evidence
        return clip(display_links(node.content), 90)  # a label reads as the title does: links as their names
    return node.title or node_id.split(":", 1)[-1]


def path_step(node_id: str, node: Memory | None, edge: Edge | None) -> dict[str, Any]:
    """A path step; one reached over an edge names the node at the edge's other end (`from`), because a walk
    branches and the previous step is not always where it came from, and says when the edge points back at it."""
    step: dict[str, Any] = {"id": node_id, "name": node_name(node, node_id), "type": node_type(node)}
    if edge is not None:
        step.update({"from": edge.src if edge.dst == node_id else edge.dst, "via": edge.type, "edge_id": edge.id,
                     "truth_policy": truth_policy(edge.type, edge.status)})
        if edge.src == node_id and edge.dst != node_id:
            step["reverse"] = True
    return step


def _step_weight(edge: Edge, node: Memory | None, hints: tuple[str, ...]) -> float:
    weight = 1.0
    kind = node_type(node)
    if node is not None and node.kind == "memory":
        weight += 4.0
    if kind in _NAV_TYPES:
        weight += 2.0
    if kind == "heading":
        weight *= 0.25
    words = frozenset(tokens(node_name(node, edge.dst)))
    if words & frozenset(hints):
        weight += 3.0
    if words & (OPEN_WORDS | DEADLINE_WORDS):
        weight += 2.0
    if edge.type in ("has_blocked", "has_risk"):
        weight += 5.0
    return weight * max(0.05, edge.confidence)


def _claim_edges_not_in_force(rt: Runtime) -> dict[str, dict[str, Any]]:
    """Edge id → the belief it was resolved into, for the edges none of whose beliefs the world model still holds
    (superseded, retracted, lapsed); empty without the world package."""
    if importlib.util.find_spec("mnemon.app.world") is None:
        return {}
    fn = getattr(importlib.import_module("mnemon.app.world"), "claim_edges_not_in_force_now", None)
    return fn(rt) if fn is not None else {}


def _written_after(node: Memory | None, before: datetime | None) -> bool:
    """Whether `node` was written after the replayed instant `before` (never, without a replay)."""
    if before is None or node is None or not node.created_at:
        return False
    try:
        return parse_iso(node.created_at) > before
    except ValueError:
        return False  # an unreadable stamp: keep the node, as a walk without a replay would


def walk(rt: Runtime, start: Sequence[tuple[str, Edge | None]], hops: int,
         hints: tuple[str, ...], *, before: datetime | None = None) -> list[dict[str, Any]]:
    """A deterministic biased walk over ACTIVE edges (both directions) from the given opening steps.

    The result is the walk's tree in the order it was found, not a chain: each step's `from` is the node its edge
    joins it to (see `path_step`). `before` (a replay, `agent preflight --as-of`) keeps the walk off nodes written
    after it: a card replayed at that instant must not name what was not there yet."""
    store = rt.store
    ids = [i for i, _ in start]
    nodes = store.get_nodes(ids)
    path = [path_step(i, nodes.get(i), e) for i, e in start]
    visited = set(ids)
    # Walk on from the newest node; at a dead end (an observation only links back to its note) step back to
    # the most recent node that still has unvisited active neighbours, so the path keeps exploring.
    trail = list(ids)
    retired: dict[str, dict[str, Any]] | None = None  # claim edges whose beliefs are no longer held: read on need
    for _ in range(hops):
        chosen: tuple[float, str, Edge, Memory | None] | None = None
        while trail and chosen is None:
            current = trail[-1]
            # the edges' heads, not whole edges (a walk reads no evidence)
            heads = store.edge_heads([current], ("active",))
            edges = [Edge(h[1], h[2], h[3], status=h[4], confidence=h[6], id=h[0]) for h in heads]
            others = store.get_nodes([e.dst if e.src == current else e.src for e in edges])
            options = []
            for e in edges:
                other = e.dst if e.src == current else e.src
                category = category_of(e.type)
                if other in visited or category == "lineage" or _written_after(others.get(other), before):
                    continue
                if category not in _NEVER_CLAIMS and e.id is not None and int(e.id) > 0:
                    if retired is None:
                        retired = _claim_edges_not_in_force(rt)
                    if str(e.id) in retired:
                        continue  # a superseded or retracted belief's edge: a walk does not offer it as a fact
                options.append((_step_weight(e, others.get(other), hints), other, e, others.get(other)))
            if options:
                # ties by the node, then by the edge's direction and type, never its id: SQLite numbers a note's
                # edges to its own items below zero and PostgreSQL does not, so by id each took another edge
                chosen = min(options, key=lambda o: (-o[0], o[1], o[2].src != current, o[2].type))
            else:
                trail.pop()
        if chosen is None:
            break
        _, nxt, edge, node = chosen
        visited.add(nxt)
        path.append(path_step(nxt, node, edge))
        trail.append(nxt)
    return path


def card_edge(rt: Runtime, note_id: str, memory_id: str, observation_kind: Any) -> Edge | None:
    """The note's edge to its memory a card's path opens with, however weak (a weakened one is a candidate and says
    so): the one of the memory's own observation kind, else an observation edge, an active one first. The first by
    id was another edge on each backend when a note had two to one item (its own items' edges are numbered below
    zero on SQLite only)."""
    own = f"has_{observation_kind or ''}"
    edges = [e for e in rt.store.edges_of([note_id], statuses=("active", "candidate"), direction="out")
             if e.dst == memory_id]
    return min(edges, key=lambda e: (e.type != own, category_of(e.type) != "observation", e.status != "active",
                                     e.type), default=None)
