"""The graph as DOT and as an HTML page (`render/graph_export.py`): any memory text gives a DOT file Graphviz reads
and draws as the text it is (quotes, backslashes, newlines, `&`, Graphviz's own escapes such as `\\N`, any script),
and a page whose every text is escaped."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.render.graph_export import label_lines, node_colour, node_group, to_dot, to_html

# a DOT statement as the file writes one: `n<k> [attrs];` or `n<i> -> n<j> [attrs];`, every value an ID or a quoted
# string, in which (Graphviz's lexer) only `\"` and `\\` pair up and a `\` before a newline joins lines
QUOTED = r'"(?:[^"\\]|\\.)*"'
ATTR = rf"[a-z_]+=(?:{QUOTED}|[a-z0-9.]+)"
STATEMENT = re.compile(rf"  n\d+(?: -> n\d+)? \[{ATTR}(?:, {ATTR})*\];")
TRICKY = ['a"b', "back\\slash\\", 'x\\"y', "AT&amp;T & &lt;b&gt; &#65;", "two\nlines\r\nthree", "Zürich 中文 🎉",
          "\\N \\G \\l \\n \\\\", "}; digraph x {", "<b>html</b>", '"', "\\", "a\u202eb\x07c", "\u2028x", "tab\tx"]
texts = st.text(st.characters(codec="utf-8"), max_size=90)


def _view(titles: list[str], ids: list[str] | None = None, relation: str = "causal") -> dict[str, Any]:
    ids = ids or [f"id-{k}" for k in range(len(titles))]
    nodes = [{"id": i, "title": t, "kind": "memory", "type": "memory", "category": "fact"} for i, t in zip(ids, titles)]
    links = [{"id": k, "src": ids[k], "dst": ids[k + 1], "type": relation, "status": "candidate",
              "category": "association"} for k in range(len(ids) - 1)]
    return {"focus": None, "folder": None, "nodes": nodes, "links": links, "truncated": False,
            "stats": {"nodes": len(nodes), "links": len(links)}}


def _label_as_drawn(quoted: str) -> list[str]:
    """A quoted label read as Graphviz reads it: the string's `\\"`, then the label's escapes (`\\n` a line
    break, `\\\\` a backslash) and entities (`&amp;`)."""
    body, lines, line, k = quoted[1:-1], [], "", 0
    while k < len(body):
        if body[k] == "\\" and k + 1 < len(body):
            nxt = body[k + 1]
            if nxt == "n":
                lines.append(line)
                line = ""
            else:
                line += nxt
            k += 2
            continue
        line += body[k]
        k += 1
    return [html.unescape(x) for x in [*lines, line]]


@settings(max_examples=200)
@given(st.lists(texts, min_size=1, max_size=5), st.lists(texts, min_size=5, max_size=5), texts)
def test_any_text_gives_well_formed_dot_that_draws_it(titles: list[str], ids: list[str], relation: str) -> None:
    ids = list(dict.fromkeys(ids))[: len(titles)]
    titles = titles[: len(ids)]
    dot = to_dot(_view(titles, ids, relation or "x"))
    lines = dot.split("\n")
    assert lines[0] == "digraph mnemon {" and lines[-2:] == ["}", ""]
    body = [line for line in lines[4:-2]]
    assert len(body) == len(titles) + len(titles) - 1
    for k, statement in enumerate(body):
        assert STATEMENT.fullmatch(statement), statement
        if k < len(titles):
            label = re.match(rf"  n\d+ \[label=({QUOTED}),", statement)
            assert label and _label_as_drawn(label.group(1)) == label_lines(titles[k])


def test_a_label_is_the_text_a_reader_sees() -> None:
    assert label_lines("Chose  Qdrant\nfor   vectors") == ["Chose Qdrant for vectors"]
    assert label_lines("a\u202eb\x07c") == ["abc"]  # a bidi override and a bell are not drawn
    assert label_lines("") == [""]


def _drawn_labels(svg: str, count: int) -> list[list[str]]:
    found = []
    for k in range(count):
        group = re.search(rf"<title>n{k}</title>(.*?)</g>", svg, re.S)
        assert group, k
        found.append([html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", group.group(1), re.S)])
    return found


needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz is not installed (apt-get install graphviz)")


def _graphviz(dot: str) -> str:
    done = subprocess.run(["dot", "-Tsvg"], input=dot.encode("utf-8"), capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    return done.stdout.decode("utf-8")


@needs_dot
def test_graphviz_reads_and_draws_tricky_text() -> None:
    svg = _graphviz(to_dot(_view(TRICKY, [f"{t}-{k}" for k, t in enumerate(TRICKY)], relation='we"ird\\')))
    assert _drawn_labels(svg, len(TRICKY)) == [[x for x in label_lines(t) if x] for t in TRICKY]


@needs_dot
@settings(max_examples=30)
@given(st.lists(texts.filter(str.strip), min_size=1, max_size=4))
def test_graphviz_reads_any_text(titles: list[str]) -> None:
    svg = _graphviz(to_dot(_view(titles)))
    drawn = _drawn_labels(svg, len(titles))
    # Graphviz draws a line of spaces as nothing and trims none of the rest
    assert drawn == [[x for x in label_lines(t) if x.strip()] for t in titles]


def test_memories_are_coloured_by_category_and_other_nodes_by_kind() -> None:
    decision = {"id": "a", "kind": "memory", "type": "memory", "category": "decision"}
    fact = {**decision, "category": "fact"}
    task = {"id": "t", "kind": "memory", "type": "task"}
    note = {"id": "n", "kind": "note", "type": "person"}
    groups = [node_group(n) for n in (decision, fact, task, note, {"id": "x", "kind": "tag", "type": "tag"})]
    assert groups == ["decision", "fact", "task", "person", "tag"]
    assert len({node_colour(g) for g in groups}) == len(groups)


def test_edges_are_coloured_by_type_and_styled_by_status() -> None:
    view = _view(["a", "b", "c"])
    view["links"][0].update(type="temporal", status="active")
    view["links"][1].update(type="semantic", status="killed")
    dot = to_dot(view)
    temporal = re.search(r"n0 -> n1 \[.*color=\"(#\w+)\".*style=solid", dot)
    semantic = re.search(r"n1 -> n2 \[.*color=\"(#\w+)\".*style=dotted", dot)
    assert temporal and semantic and temporal.group(1) != semantic.group(1)


def test_the_page_escapes_every_text_and_loads_nothing() -> None:
    page = to_html(_view(['<script>alert("x")</script>', "AT&T", 'say "hi"'], ['"><img src=x>', "b", "c"]))
    assert "<script>" not in page and "<img" not in page and "&lt;script&gt;" in page
    assert "AT&amp;T" in page and 'data-id="&quot;&gt;&lt;img src=x&gt;"' in page
    assert "default-src 'none'" in page and not re.search(r"(?:src|href)=\"(?:https?:)?//", page)
    assert page.count("<circle ") == 3
