"""`Mnemon.graph_export`: the graph view written as DOT or HTML with the bounds `graph` takes, memories coloured by
their category (as the real mnemon's viz), and a reply that says what the file holds."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.render.graph_export import CATEGORY_COLOURS


def test_a_memory_is_coloured_by_its_category(mem: Mnemon, tmp_path: Path) -> None:
    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    b = mem.remember("Qdrant runs on the staging cluster", category="fact")["id"]
    out = tmp_path / "g.dot"
    doc = mem.graph_export("dot", str(out))
    assert doc["nodes"] == 2 and doc["bytes"] == out.stat().st_size
    text = out.read_text(encoding="utf-8")
    for node, category in ((a, "decision"), (b, "fact")):
        line = next(x for x in text.splitlines() if f'mnemon_id="{node}"' in x)
        assert f'fillcolor="{CATEGORY_COLOURS[category]}"' in line and f'group_of="{category}"' in line


def test_the_file_holds_what_graph_answers_within_the_same_bounds(example_vault_mem: Mnemon, tmp_path: Path) -> None:
    mem = example_vault_mem
    focus = "note:Projects/lighthouse.md"
    for bounds in ({}, {"focus": focus, "depth": 2, "max_nodes": 20, "max_links": 15}, {"folder": "People"}):
        view = mem.graph(**bounds)
        out = tmp_path / "g.html"
        doc = mem.graph_export("html", str(out), **bounds)
        assert (doc["nodes"], doc["links"], doc["truncated"]) == (len(view["nodes"]), len(view["links"]),
                                                                 view["truncated"])
        page = out.read_text(encoding="utf-8")
        assert page.count("<circle ") == len(view["nodes"]) and page.count("<line ") == len(view["links"])
        assert set(re.findall(r'data-id="([^"]*)"', page)) == {n["id"] for n in view["nodes"]}


def test_killed_edges_only_when_asked(mem: Mnemon, tmp_path: Path) -> None:
    a = mem.remember("Chose Qdrant as the vector database")["id"]
    b = mem.remember("Milvus was too heavy for the laptop")["id"]
    mem.link(a, b, "causal")
    killed = next(e for e in mem.graph()["links"] if e["type"] == "causal")["id"]
    mem.kill_edge(killed, reason="wrong")
    out = tmp_path / "g.dot"
    mem.graph_export("dot", str(out))
    assert "style=dotted" not in out.read_text(encoding="utf-8")
    mem.graph_export("dot", str(out), include_killed=True)
    assert f'style=dotted, mnemon_edge="{killed}"' in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["svg", "json", "", None])
def test_an_unknown_format_is_refused_and_nothing_written(mem: Mnemon, tmp_path: Path, fmt: object) -> None:
    mem.remember("Alice owns the payment service")
    with pytest.raises(InvalidInput, match="--format must be one of dot, html"):
        mem.graph_export(fmt, str(tmp_path / "g.x"))  # type: ignore[arg-type]
    assert not (tmp_path / "g.x").exists()


def test_a_refused_view_leaves_an_earlier_file_as_it_was(mem: Mnemon, tmp_path: Path) -> None:
    out = tmp_path / "g.dot"
    out.write_text("earlier", encoding="utf-8")
    with pytest.raises(InvalidInput):
        mem.graph_export("dot", str(out), max_nodes=0)
    assert out.read_text(encoding="utf-8") == "earlier"
