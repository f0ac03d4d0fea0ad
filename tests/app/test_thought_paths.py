"""A thought card's path tells the truth: every connector the card draws is an edge that joins exactly the two
nodes it is drawn between, in the direction its arrow points — also where the walk hits a dead end and goes on
from an earlier node (the path is the walk's tree, not a chain)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge
from mnemon.render.cards import MAX_PATH_NODES, path_links, render_svg

from .vault_graph import Note, Obs, build


def assert_drawn_links_are_edges(mem: Mnemon, card: dict[str, Any]) -> int:
    """Every connector the renderer draws joins two path nodes that the step's edge really joins; returns how many
    connectors skip over nodes (branches)."""
    path = card["path"]
    links = path_links(card)
    assert len(links) == sum(1 for s in path if s.get("edge_id") is not None)  # every walked step is drawn, once
    branches = 0
    for link in links:
        parent, child = path[link.parent], path[link.child]
        edge = mem.rt.store.get_edge(int(child["edge_id"]))
        assert edge is not None and edge.status in ("active", "candidate")  # a surfaced item may hang on a lead
        assert child["from"] == parent["id"]
        # the arrow runs parent → child, or child → parent for a reversed step: that is the stored direction
        drawn = (child["id"], parent["id"]) if link.reverse else (parent["id"], child["id"])
        assert (edge.src, edge.dst) == drawn, f"card draws {drawn} over edge {edge.id} ({edge.src} → {edge.dst})"
        assert link.via == edge.type == child["via"]
        branches += link.child - link.parent > 1
    return branches


@pytest.fixture
def example(mem_none: Mnemon, example_vault: Path) -> Mnemon:
    """`mem_none` after ingesting its own copy of the example vault (not `example_vault_mem`: provider none)."""
    mem_none.ingest(str(example_vault))
    return mem_none


def test_every_card_on_the_example_vault_draws_only_real_edges(example: Mnemon) -> None:
    cards = [c for c in example.candidates(limit=30, hops=8)["candidates"]]
    cards += example.surface(limit=10)["thoughts"]
    cards += example.surface(prompt="what should I remember about supplier launch readiness?", limit=10)["thoughts"]
    cards.append(example.thought())
    branches = sum(assert_drawn_links_are_edges(example, c) for c in cards)
    assert branches  # the observations are dead ends: the walks branch from their note, and the cards show it
    ada = next(c for c in cards if c["path"][0]["id"] == "note:People/ada-quill.md" and len(c["path"]) >= 4)
    # the audit's case: two bullets of one note are siblings, never "bullet —has blocked→ bullet"
    assert all(step["from"] == "note:People/ada-quill.md" for step in ada["path"][1:])


def _edge(src: str, dst: str, type_: str = "links_to") -> Edge:
    when = "2026-02-20T09:00:00.000000Z"
    return Edge(src=src, dst=dst, type=type_, weight=0.9, confidence=0.9, status="active", evidence="[[x]]",
                origin="ingest", rule="wikilink", source_path=src.split(":", 1)[1], created_at=when, updated_at=when)


@pytest.fixture
def dead_ends(mem: Mnemon) -> tuple[Mnemon, dict[str, str]]:
    """hub → spoke-a → leaf (a dead end), hub ← spoke-b (only a link *into* the hub), each note with a bullet (a
    dead end of its own): a walk from the hub's bullet has to back up twice and take one edge backwards."""
    ids = build(mem, [
        Note("hub.md", "Hub", "project", [Obs("Hub launch blocked until the permit arrives", "blocked", 5.0)]),
        Note("spoke-a.md", "Spoke A", "project", [Obs("Spoke A waiting on the vendor", "blocked", 4.0)]),
        Note("leaf.md", "Leaf", "note", [Obs("Leaf fact about the pier", "fact", 2.0)]),
        Note("spoke-b.md", "Spoke B", "person", [Obs("Spoke B owns the permit deadline", "risk", 4.0)]),
    ])
    with mem.rt.store.transaction():
        mem.rt.store.upsert_edge(_edge("note:hub.md", "note:spoke-a.md"))
        mem.rt.store.upsert_edge(_edge("note:spoke-a.md", "note:leaf.md"))
        mem.rt.store.upsert_edge(_edge("note:spoke-b.md", "note:hub.md"))
    return mem, ids


def test_a_walk_through_dead_ends_draws_branches_not_a_chain(dead_ends: tuple[Mnemon, dict[str, str]],
                                                             tmp_path: Path) -> None:
    mem, ids = dead_ends
    card = next(c for c in mem.candidates(limit=10, hops=12)["candidates"]
                if c["observation"]["id"] == ids["Hub launch blocked until the permit arrives"])
    path = card["path"]
    assert len(path) == 8  # the whole graph: the walk backed up at each dead end instead of stopping
    assert assert_drawn_links_are_edges(mem, card) >= 2
    by_id = {s["id"]: s for s in path}
    assert by_id["note:spoke-b.md"]["from"] == "note:hub.md" and by_id["note:spoke-b.md"]["reverse"] is True
    assert by_id["note:leaf.md"]["from"] == "note:spoke-a.md"
    # no step claims to come from the node listed just before it unless an edge joins the two
    for before, step in zip(path, path[1:]):
        if step["from"] != before["id"]:
            assert mem.rt.store.find_edge(before["id"], step["id"], step["via"]) is None
            assert mem.rt.store.find_edge(step["id"], before["id"], step["via"]) is None
    # the insight says which node each hop hangs on
    thought = mem.surface(limit=1)["thoughts"][0]
    assert_drawn_links_are_edges(mem, thought)
    assert "; it connects to" in thought["insight"]
    # and the card draws one arrow per link among the nodes it has room for (an elbow line for each branch)
    svg = render_svg(card)
    assert svg.count('marker-end="url(#arrow)"') == sum(lk.child < MAX_PATH_NODES for lk in path_links(card))
    assert "+1 more" in svg


def test_a_legacy_chain_path_and_a_step_without_an_edge() -> None:
    chain = {"path": [{"name": "A"}, {"name": "B", "via": "links_to"}, {"name": "C", "via": "has_fact"}]}
    assert [(lk.parent, lk.child) for lk in path_links(chain)] == [(0, 1), (1, 2)]  # stored before `from`
    loose = {"path": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"},
                      {"id": "c", "name": "C", "from": "a", "via": "has_fact", "edge_id": 1}]}
    assert [(lk.parent, lk.child) for lk in path_links(loose)] == [(0, 2)]  # B was not reached over an edge
