"""A graph view (`app.graph_view`) as a file to open elsewhere: DOT for Graphviz, or one self-contained HTML page.

Both are pure functions of the view, byte-for-byte the same for the same view. Nodes are coloured by what they are
(a memory by its category — decision, fact, insight… — as the real mnemon's `viz` does; a vault row or a note by
its kind, as the workbench colours them), edges by their type (mnemon's five; any other relation by its ontology
category), a candidate edge dashed and a killed one dotted.

DOT: every node is `n<k>` (its mnemon id is the `mnemon_id` attribute), and every text is a quoted DOT string with
`\\` and `"` escaped, lines joined by `\\n`, `&` written `&amp;` (Graphviz reads entities in labels) and the
characters no reader shows dropped (controls, bidi overrides: `render.cards`): any memory text gives a file `dot`
reads, drawing the text as it is.

HTML: an inline SVG on a ring layout — the focus (or the best-connected node) in the middle, then each hop from it
(or, for an overview, the next best-connected) on a ring of its own — with the legend and counts above it. No script,
no font, no request: a Content-Security-Policy forbids any, so the page is the same offline.
"""
from __future__ import annotations

import math
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from typing import Any

from xml.sax.saxutils import escape

from .card_text import clip, unshown_dropped, wrap_count, xml_text

# a memory's category (the real mnemon's `viz` colours), then the workbench's kinds (interfaces/http/workbench)
CATEGORY_COLOURS: dict[str, str] = {
    "decision": "#d4a017", "fact": "#4e79a7", "insight": "#59a14f", "preference": "#e15759", "context": "#8f6bb3",
    "general": "#7ab86c",
}
KIND_COLOURS: dict[str, str] = {
    "note": "#76b7b2", "person": "#ff9da7", "project": "#2a9d8f", "place": "#b07aa1", "observation": "#9ad07f",
    "task": "#f28e2b", "section": "#8d939c", "heading": "#9c755f", "date": "#c5b0d5", "tag": "#5fb3ad",
    "email": "#c9a227", "placeholder": "#bdb6b0", "entity": "#f1a340", "other": "#8c8c8c",
}
EDGE_COLOURS: dict[str, str] = {
    "temporal": "#8c8c8c", "semantic": "#4e79a7", "causal": "#e15759", "entity": "#f28e2b", "supersedes": "#7f3c8d",
}
RELATION_COLOURS: dict[str, str] = {  # any other relation, by its ontology category
    "reference": "#76b7b2", "structure": "#b0b0b0", "extraction": "#9c755f", "observation": "#59a14f",
    "semantic": "#4e79a7", "semantic_pending": "#a0cbe8", "association": "#8c8c8c", "lineage": "#7f3c8d",
}
EDGE_STYLES = {"active": "solid", "candidate": "dashed", "killed": "dotted"}
LABEL_WIDTH = 28  # characters on a line of a node's DOT label (titles are at most 80: three lines)
HTML_LABEL = 36  # characters of a node's label drawn on the page (its tooltip holds the whole title)


def node_group(node: Mapping[str, Any]) -> str:
    """What a node is coloured as: a mnemon memory by its category, anything else by its kind (or a note's type)."""
    kind, kind_of = node.get("kind"), node.get("type")
    if kind == "memory" and kind_of == "memory" and node.get("category") in CATEGORY_COLOURS:
        return str(node["category"])
    if kind == "note":
        return str(kind_of) if kind_of in ("person", "project", "place") else "note"
    if kind == "memory":
        return str(kind_of) if kind_of in ("observation", "task", "section") else "general"
    return str(kind) if kind in KIND_COLOURS else "other"


def node_colour(group: str) -> str:
    return CATEGORY_COLOURS.get(group) or KIND_COLOURS.get(group) or KIND_COLOURS["other"]


def edge_colour(link: Mapping[str, Any]) -> str:
    return EDGE_COLOURS.get(link.get("type", "")) or RELATION_COLOURS.get(link.get("category", ""), "#8c8c8c")


def shown(text: Any) -> str:
    """`text` without the characters no reader shows (as a card drops them), its runs of space one space."""
    return " ".join(unshown_dropped(str(text)).split())


def _attr(text: str) -> str:
    """`text` (already `shown`) inside a double-quoted XML attribute."""
    return escape(text, {'"': "&quot;"})


def dot_string(text: str) -> str:
    """`text` as a quoted DOT string whose label Graphviz draws as `text` (newlines become line breaks)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;")
    return '"' + escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n") + '"'


def label_lines(title: Any) -> list[str]:
    """A node's label as the lines DOT draws (shown text, wrapped at `LABEL_WIDTH` characters as a reader counts
    them: an emoji sequence, a flag or an accented letter is one, and never cut)."""
    return wrap_count(shown(title), LABEL_WIDTH) or [""]


def to_dot(view: Mapping[str, Any]) -> str:
    nodes: Sequence[Mapping[str, Any]] = view["nodes"]
    name = {n["id"]: f"n{k}" for k, n in enumerate(nodes)}
    stats = view.get("stats", {})
    title = f"mnemon graph: {stats.get('nodes', len(nodes))} nodes, {stats.get('links', len(view['links']))} links"
    if view.get("truncated"):
        title += " (cut by its limits: not the whole graph)"
    out = ["digraph mnemon {",
           f"  graph [label={dot_string(title)}, labelloc=t, fontname=\"Helvetica\", fontsize=12, overlap=false];",
           '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, color="#555555"];',
           '  edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];']
    for n in nodes:
        group = node_group(n)
        attrs = [f"label={dot_string(chr(10).join(label_lines(n.get('title', ''))))}",
                 f"fillcolor={dot_string(node_colour(group))}", f"group_of={dot_string(group)}",
                 f"tooltip={dot_string(shown(n.get('title', '')) + chr(10) + shown(n['id']))}",
                 f"mnemon_id={dot_string(shown(n['id']))}"]
        if n["id"] == view.get("focus"):
            attrs.append("penwidth=2.5")
        out.append(f"  {name[n['id']]} [{', '.join(attrs)}];")
    for link in view["links"]:
        if link["src"] not in name or link["dst"] not in name:
            continue
        attrs = [f"label={dot_string(shown(link['type']))}", f"color={dot_string(edge_colour(link))}",
                 f"fontcolor={dot_string(edge_colour(link))}", f"style={EDGE_STYLES.get(link.get('status'), 'solid')}",
                 f"mnemon_edge={dot_string(shown(link['id']))}"]
        out.append(f"  {name[link['src']]} -> {name[link['dst']]} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _levels(view: Mapping[str, Any]) -> list[list[str]]:
    """The nodes ring by ring: around a focus, by hops from it over the drawn links (the unreached last); for an
    overview, in the view's order (best-connected first), 1, 8, 16, 24… to a ring."""
    ids = [n["id"] for n in view["nodes"]]
    focus = view.get("focus")
    if isinstance(focus, str) and focus in ids:
        around: dict[str, list[str]] = defaultdict(list)
        for link in view["links"]:
            around[link["src"]].append(link["dst"])
            around[link["dst"]].append(link["src"])
        hops: dict[str, int] = {focus: 0}
        parent: dict[str, str] = {focus: focus}
        queue = deque([focus])
        while queue:
            here = queue.popleft()
            for other in around[here]:
                if other not in hops:
                    hops[other], parent[other] = hops[here] + 1, here
                    queue.append(other)
        far = max(hops.values()) + 1
        rings: dict[int, list[str]] = defaultdict(list)
        for i in ids:
            rings[hops.get(i, far)].append(i)
        levels = [rings[k] for k in sorted(rings)]
        for inner, ring in zip(levels, levels[1:]):  # each node toward the one it was reached from: fewer crossings
            at = {node: k for k, node in enumerate(inner)}
            ring.sort(key=lambda node: at.get(parent.get(node, ""), len(inner)))
        return levels
    levels, start, size = [], 0, 1
    while start < len(ids):
        levels.append(ids[start:start + size])
        start, size = start + size, 8 * len(levels)
    return levels


def _positions(view: Mapping[str, Any]) -> tuple[dict[str, tuple[float, float]], float]:
    where: dict[str, tuple[float, float]] = {}
    radius = 0.0
    for depth, ring in enumerate(_levels(view)):
        if depth or len(ring) > 1:
            radius = max(radius + 140.0, len(ring) * 34.0 / (2 * math.pi))
        for k, node in enumerate(ring):
            angle = 2 * math.pi * k / len(ring)
            where[node] = (round(radius * math.cos(angle), 1), round(radius * math.sin(angle), 1))
    return where, radius


_CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --text: #1f2328; --muted: #59636e; --halo: #ffffff; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --text: #e6edf3; --muted: #9198a1; --halo: #0d1117; } }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.4 system-ui, sans-serif; }
header { padding: 12px 16px; } h1 { font-size: 18px; margin: 0 0 4px; } .muted { color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 6px 0 0; padding: 0; list-style: none; }
.legend li::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 5px;
  border-radius: 50%; background: var(--c); } .legend.edges li::before { border-radius: 0; height: 3px; }
svg { display: block; margin: 0 auto; } /* at its own size: a large graph scrolls, its labels stay readable */
.node text { font-size: 11px; fill: var(--text); paint-order: stroke; stroke: var(--halo); stroke-width: 3px; }
.node circle { stroke: var(--text); stroke-width: 0.8; } .node.focus circle { stroke-width: 3; }
.node:hover circle { stroke-width: 3; } line { stroke-width: 1.3; opacity: 0.7; }
.candidate { stroke-dasharray: 6 4; } .killed { stroke-dasharray: 2 4; }
"""


def to_html(view: Mapping[str, Any], *, generated_at: str = "") -> str:
    nodes: Sequence[Mapping[str, Any]] = view["nodes"]
    where, radius = _positions(view)
    titles = {n["id"]: shown(n.get("title", "")) for n in nodes}
    groups: dict[str, int] = defaultdict(int)
    kinds: dict[str, tuple[str, int]] = {}
    for n in nodes:
        groups[node_group(n)] += 1
    lines = []
    for link in view["links"]:
        if link["src"] not in where or link["dst"] not in where:
            continue
        colour = edge_colour(link)
        kinds[link["type"]] = (colour, kinds.get(link["type"], (colour, 0))[1] + 1)
        (x1, y1), (x2, y2) = where[link["src"]], where[link["dst"]]
        lines.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" class="{link["status"]}" '
                     f'marker-end="url(#arrow)"><title>{xml_text(shown(link["type"]))} ({link["status"]}): '
                     f'{xml_text(titles[link["src"]])} → {xml_text(titles[link["dst"]])}</title></line>')
    circles = []
    for n in nodes:
        x, y = where[n["id"]]
        group = node_group(n)
        focus = " focus" if n["id"] == view.get("focus") else ""
        circles.append(
            f'<g class="node{focus}" data-id="{_attr(shown(n["id"]))}" data-group="{_attr(group)}">'
            f'<title>{xml_text(shown(n.get("title", "")))}\n{xml_text(group)} · {xml_text(shown(n["id"]))}</title>'
            f'<circle cx="{x}" cy="{y}" r="{9 if focus else 6}" fill="{node_colour(group)}"/>'
            f'<text x="{round(x + 9, 1)}" y="{round(y + 4, 1)}">{xml_text(clip(shown(n.get("title", "")), HTML_LABEL))}'
            "</text></g>")
    stats = view.get("stats", {})
    shown_nodes, shown_links = stats.get("nodes", len(nodes)), stats.get("links", len(lines))
    cut = (" <strong>Cut by its limits: this is not the whole graph.</strong>" if view.get("truncated") else "")
    where_from = (f"around {xml_text(titles.get(view['focus'], shown(view['focus'])))}" if view.get("focus")
                  else f"the best-connected of {xml_text(shown(view['folder']))}" if view.get("folder")
                  else "the best-connected nodes")
    node_legend = "".join(f'<li style="--c:{node_colour(g)}">{xml_text(g)} ({c})</li>'
                          for g, c in sorted(groups.items()))
    edge_legend = "".join(f'<li style="--c:{c}">{xml_text(shown(t))} ({k})</li>' for t, (c, k) in sorted(kinds.items()))
    span = round(radius + 240)
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<title>mnemon graph: {shown_nodes} nodes, {shown_links} links</title><style>{_CSS}</style></head><body>",
        f"<header><h1>mnemon graph</h1><div id=\"summary\">{shown_nodes} nodes and {shown_links} links, "
        f"{where_from}.{cut}</div>",
        f"<div class=\"muted\">{xml_text(generated_at)} · hover a node or a link for its title</div>",
        f"<ul class=\"legend\" aria-label=\"node colours\">{node_legend}</ul>",
        f"<ul class=\"legend edges\" aria-label=\"link colours\">{edge_legend}</ul></header>",
        f"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{-span} {-span} {2 * span} {2 * span}\" "
        f"width=\"{2 * span}\" "
        f"height=\"{2 * span}\" role=\"img\" "
        f"aria-label=\"{shown_nodes} nodes and {shown_links} links\"><defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" "
        "refX=\"16\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">"
        "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#8c8c8c\"/></marker></defs>",
        f"<g class=\"links\">{''.join(lines)}</g><g class=\"nodes\">{''.join(circles)}</g></svg></body></html>\n"])

