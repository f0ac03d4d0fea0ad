"""`graph`: the bounded part of the graph the workbench draws (both backends)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.core.errors import InvalidInput, NotFound


def _all_edges(mem, statuses=("active", "candidate")):
    return [e for e in mem.rt.store.iter_edges(statuses=statuses)]


def test_the_overview_draws_the_best_connected_notes_and_only_links_among_them(example_vault_mem) -> None:
    notes = [n for n in example_vault_mem.rt.store.iter_nodes(kind="note")]
    whole = example_vault_mem.graph(max_nodes=len(notes))
    assert {n["id"] for n in whole["nodes"]} == {n.id for n in notes} and not whole["truncated"]
    degrees = [n["degree"] for n in whole["nodes"]]
    assert degrees == sorted(degrees, reverse=True) and degrees[0] > 0
    ids = {n["id"] for n in whole["nodes"]}
    assert whole["links"] and all(link["src"] in ids and link["dst"] in ids for link in whole["links"])
    links_to = {(e.src, e.dst) for e in _all_edges(example_vault_mem) if e.src in ids and e.dst in ids}
    assert {(link["src"], link["dst"]) for link in whole["links"]} == links_to
    assert whole["stats"] == {"nodes": len(ids), "links": len(links_to), "links_among_nodes": len(links_to)}
    person = next(n for n in whole["nodes"] if n["id"] == "note:People/ada-quill.md")
    assert (person["title"], person["type"], person["source_path"]) == ("Ada Quill", "person", "People/ada-quill.md")

    top = example_vault_mem.graph(max_nodes=2)
    assert [n["id"] for n in top["nodes"]] == [n["id"] for n in whole["nodes"][:2]]
    assert top["truncated"] is True  # a drawing of two notes never passes for the whole vault


def test_a_focus_draws_its_neighbourhood_both_ways_and_says_when_cut(example_vault_mem) -> None:
    focus = "note:Projects/lighthouse.md"
    touching = [e for e in _all_edges(example_vault_mem) if focus in (e.src, e.dst)]
    neighbours = {e.dst if e.src == focus else e.src for e in touching}
    near = example_vault_mem.graph(focus=focus, max_nodes=500)
    assert near["focus"] == focus and near["nodes"][0]["id"] == focus
    assert {n["id"] for n in near["nodes"]} == {focus} | neighbours and not near["truncated"]
    assert any(link["dst"] == focus for link in near["links"])  # incoming edges count too
    further = example_vault_mem.graph(focus=focus, depth=2, max_nodes=500)
    assert {n["id"] for n in near["nodes"]} < {n["id"] for n in further["nodes"]}
    cut = example_vault_mem.graph(focus=focus, max_nodes=3)
    assert len(cut["nodes"]) == 3 and cut["truncated"] is True
    # the strongest edges are followed first
    strongest = max(touching, key=lambda e: (e.weight * e.confidence, -e.id))
    assert (strongest.dst if strongest.src == focus else strongest.src) == cut["nodes"][1]["id"]


def test_killed_edges_only_on_request_and_candidates_can_be_left_out(example_vault_mem) -> None:
    focus = "note:Projects/lighthouse.md"
    edge = next(e for e in _all_edges(example_vault_mem, ("active",)) if e.src == focus)
    example_vault_mem.kill_edge(edge.id, reason="wrong")
    shown = {link["id"] for link in example_vault_mem.graph(focus=focus, max_nodes=500)["links"]}
    assert edge.id not in shown
    with_killed = example_vault_mem.graph(focus=focus, max_nodes=500, include_killed=True)
    assert any(link["id"] == edge.id and link["status"] == "killed" for link in with_killed["links"])
    statuses = {link["status"] for link in example_vault_mem.graph(focus=focus, max_nodes=500,
                                                                   include_candidates=False)["links"]}
    assert statuses == {"active"}


def test_a_store_without_a_vault_shows_its_memories(mem) -> None:
    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    b = mem.remember("Qdrant runs on the staging cluster", category="fact")["id"]
    mem.link(a, b, "causal", sub_type="enables")
    view = mem.graph()
    assert {n["id"] for n in view["nodes"]} == {a, b}
    assert any(link["src"] == a and link["dst"] == b and link["type"] == "causal" for link in view["links"])
    assert view["nodes"][0]["title"].startswith(("Chose", "Qdrant"))


def test_bad_limits_and_unknown_focus_are_clear_errors(mem) -> None:
    with pytest.raises(NotFound):
        mem.graph(focus="no-such-node")
    for bad in ({"max_nodes": 0}, {"max_nodes": 2001}, {"depth": 5}, {"max_links": -1}, {"max_nodes": True}):
        with pytest.raises(InvalidInput):
            mem.graph(**bad)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(max_nodes=st.integers(1, 40), max_links=st.integers(0, 60), depth=st.integers(1, 4), focused=st.booleans())
def test_limits_always_hold(example_vault_mem, max_nodes: int, max_links: int, depth: int, focused: bool) -> None:
    view = example_vault_mem.graph(focus="note:People/ada-quill.md" if focused else None, depth=depth,
                                   max_nodes=max_nodes, max_links=max_links)
    ids = [n["id"] for n in view["nodes"]]
    assert len(ids) == len(set(ids)) <= max_nodes and len(view["links"]) <= max_links
    assert all(link["src"] in ids and link["dst"] in ids for link in view["links"])
    if view["stats"]["links_among_nodes"] > max_links:
        assert view["truncated"]


def test_a_folder_keeps_the_overview_to_its_notes(example_vault_mem) -> None:
    people = example_vault_mem.graph(folder="People")
    paths = [n["source_path"] for n in people["nodes"]]
    assert people["folder"] == "People/" and paths and all(p.startswith("People/") for p in paths)
    assert {n["id"] for n in example_vault_mem.graph(folder="/People/")["nodes"]} == {n["id"] for n in people["nodes"]}
    assert example_vault_mem.graph(folder="Nowhere")["nodes"] == []  # not the store's memories instead
    for bad in ("..", "People/../..", "/"):
        with pytest.raises(InvalidInput):
            example_vault_mem.graph(folder=bad)
    with pytest.raises(InvalidInput):
        example_vault_mem.graph(folder="People", focus="note:People/ada-quill.md")


def test_the_overview_follows_a_change_to_the_graph(mem) -> None:
    from mnemon.app import graph_view

    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    b = mem.remember("Qdrant runs on the staging cluster", category="fact")["id"]
    c = mem.remember("The staging cluster moves to Frankfurt in May", category="fact")["id"]
    first = mem.graph()
    assert mem.graph() == first  # the kept ranking, on an unchanged graph
    degree = {n["id"]: n["degree"] for n in first["nodes"]}
    d = mem.remember("Frankfurt has the lowest latency to the customers", category="fact")["id"]
    for target in (a, b, c):
        mem.link(d, target, "causal", sub_type="enables")
    after = mem.graph()
    top = after["nodes"][0]["degree"]  # the new memory is among the best connected: not the ranking kept before
    assert next(n["degree"] for n in after["nodes"] if n["id"] == d) == top
    assert all(n["degree"] > degree[n["id"]] for n in after["nodes"] if n["id"] in degree)
    graph_view._RANKED.clear()
    assert mem.graph() == after  # the same as a ranking made afresh


def test_find_nodes_finds_a_note_by_its_title_anywhere_in_the_store(example_vault_mem) -> None:
    found = example_vault_mem.find_nodes("  LIGHTHOUSE ")
    assert found["query"] == "LIGHTHOUSE" and found["more"] is False
    assert found["nodes"] == [{"id": "note:Projects/lighthouse.md", "title": "Lighthouse", "kind": "note",
                               "type": "project", "degree": found["nodes"][0]["degree"],
                               "source_path": "Projects/lighthouse.md"}]
    # listed as the graph view lists the same node, so the page can show it before drawing its neighbourhood
    drawn = next(n for n in example_vault_mem.graph(max_nodes=2000)["nodes"] if n["id"] == found["nodes"][0]["id"])
    assert drawn == found["nodes"][0]
    # notes first, then the other named nodes: a heading is found with the note it belongs to
    budget = example_vault_mem.find_nodes("budget")["nodes"]
    assert budget[0] == {**budget[0], "id": "heading:Projects/lighthouse.md#budget", "title": "Budget",
                         "kind": "heading", "source_path": "Projects/lighthouse.md"}
    dated = example_vault_mem.find_nodes("2026", limit=2)
    assert [n["kind"] for n in dated["nodes"]] == ["note", "note"] and dated["more"] is True
    assert example_vault_mem.find_nodes("no such title anywhere") == {"query": "no such title anywhere", "nodes": [],
                                                                      "more": False}
    # a found node is one the graph can centre on
    focus = example_vault_mem.graph(focus=budget[0]["id"])
    assert focus["nodes"][0]["id"] == budget[0]["id"] and len(focus["nodes"]) > 1


def test_find_nodes_refuses_a_blank_query_and_limits_out_of_range(mem) -> None:
    for bad in ({"query": ""}, {"query": "   "}, {"query": None}, {"query": 3}, {"query": "x" * 2001},
                {"query": "x", "limit": 0}, {"query": "x", "limit": 51}, {"query": "x", "limit": True}):
        with pytest.raises(InvalidInput):
            mem.find_nodes(bad.pop("query"), **bad)
    assert mem.find_nodes("x" * 2000, limit=50)["nodes"] == []
