"""The graph as a person browses it (the workbench's `graph` call): a bounded set of nodes and the links among them.

Two views. Around a `focus` node: breadth-first over its edges in both directions, strongest edges first, until
`depth` hops or `max_nodes`. Without one, an overview: the best-connected notes (of one vault folder, when given; in
a store without a vault, the best-connected recent memories) and the links among them. Either way `truncated` says when the limits cut something
off, so a drawing never passes for the whole graph. Killed edges appear only when asked for (they are tombstones:
a person said they are wrong), candidates unless asked not to.

`find_nodes` (the workbench's search by title) finds a node to focus on anywhere in the store, not only among the
nodes drawn: notes, then headings, tags, people and the other named nodes, each as the graph view lists it.
"""
from __future__ import annotations

import shlex
import unicodedata
from itertools import islice
from typing import Any

from ..core.errors import InvalidInput
from ..core.model import Edge, Memory
from ..core.ontology import category_of
from ..core.surface import step
from ..core.text import excerpt
from ..core.stored_text import check_query_text
from ..core.vault.links import link_name
from .curation import removed_refusal, stored_id, unknown_id
from .runtime import Runtime

MAX_NODES = 2000
MAX_LINKS = 10_000
MAX_DEPTH = 4
OVERVIEW_POOL = 5000  # nodes ranked by degree for an overview: beyond this a vault is sampled by recency
_LABEL_CHARS = 80
MAX_FOUND = 50  # a list to pick from, not a dump of the store
# as long as a recall query: the workbench asks both with what was typed, and a search between the two limits
# failed whole while recall had answers
MAX_TITLE_QUERY = 2000
# an overview ranks every note by degree (~80 ms at 2,000 notes): a server answering the workbench keeps the last
# few rankings, each valid while the graph's generation (nodes and active edges) is unchanged
RANKINGS_KEPT = 8
_RANKED: dict[tuple[str, str, str | None], list[str]] = {}


def _bounded(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer from {low} to {high}")
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be from {low} to {high}; got {value}")
    return value


def graph_view(rt: Runtime, *, focus: str | None = None, depth: int = 1, max_nodes: int = 150,
               max_links: int = 600, include_candidates: bool = True, include_killed: bool = False,
               folder: str | None = None) -> dict[str, Any]:
    max_nodes = _bounded("max_nodes", max_nodes, 1, MAX_NODES)
    max_links = _bounded("max_links", max_links, 0, MAX_LINKS)
    depth = _bounded("depth", depth, 1, MAX_DEPTH)
    statuses = ("active", *(("candidate",) if include_candidates else ()), *(("killed",) if include_killed else ()))
    store = rt.store
    if focus and folder:
        raise InvalidInput("give a focus or a folder, not both")
    if focus:
        focus = stored_id(rt, focus)  # (a note's id typed in another Unicode form than its file's name)
        if store.get_node(focus) is None:
            gone = store.get_node(focus, include_deleted=True)
            if gone is not None and gone.deleted_at:  # when and by what, as `show` says it: not "no node"
                raise removed_refusal(rt, gone, "focus")
            raise unknown_id(rt, f"no node {focus!r}", focus, "focus",
                             step("`mnemon recall` or the overview (no focus) lists ids",
                                  "`recall`, or `graph` without a focus, lists ids"))
        chosen, cut = _around(rt, focus, depth, max_nodes, statuses)
    else:
        chosen, cut = _overview(rt, max_nodes, _folder_prefix(folder) if folder else None)
    nodes = store.get_nodes(chosen)
    chosen = [i for i in chosen if i in nodes]  # a deleted memory is not drawn
    inside = set(chosen)
    # the heads first (no decoding): a note's many edges to its own sections and bullets are mostly outside
    among = sorted({h[0] for h in store.edge_heads(chosen, statuses) if h[1] in inside and h[2] in inside})
    edges = store.get_edges(among)
    # ties by what a link joins, not its id: SQLite numbers a note's links to its own rows below zero, PostgreSQL
    # does not, and a cut at --max-links kept other links on each
    edges.sort(key=lambda e: (-(e.weight * e.confidence), e.type, e.src, e.dst, e.id))
    if focus:
        edges = _from_the_focus_out(edges, chosen)
    degree = store.edge_counts(chosen)
    out = {
        "focus": focus or None,
        "folder": _folder_prefix(folder) if folder else None,
        "nodes": [_node(nodes[i], degree.get(i, 0)) for i in chosen],
        "links": [_link(e) for e in edges[:max_links]],
        "truncated": cut or len(edges) > max_links,
        "stats": {"nodes": len(chosen), "links": min(len(edges), max_links), "links_among_nodes": len(edges)},
        "limits": {"max_nodes": max_nodes, "max_links": max_links, "depth": depth, "statuses": list(statuses)},
    }
    if folder and not chosen:
        out.update(_folder_named_note(rt, _folder_prefix(folder)[:-1]))
    return out


def _folder_named_note(rt: Runtime, name: str) -> dict[str, Any]:
    """For a folder with no notes whose name is a note's (its path, "Projects/lighthouse.md", or any name a link
    gives it): `note`, that note as the graph view lists it, and a `hint` to focus on it; else nothing."""
    named = _named_note(rt, name)
    if named is None:
        return {}
    degree = rt.store.edge_counts([named.id]).get(named.id, 0)
    draws = step(f"`mnemon graph --focus {shlex.quote(named.id)}` draws it",
                 f"`graph` with focus {named.id!r} draws it")
    return {"note": _node(named, degree), "hint": f"{name} is a note, not a folder: {draws}"}


def find_nodes(rt: Runtime, query: Any, *, limit: int = 10) -> dict[str, Any]:
    """The nodes whose title holds `query` in any case (`Store.nodes_by_title`: notes first, exact titles, then
    prefixes, then the rest), as the graph view lists nodes; `more` says when the limit left some out. A query that is
    one wikilink looks for the title it links to. First of all, the note a link written as the query lands on, by its
    path, file name or an alias too ("bram-okafor" or "[[bram-okafor]]" for the note titled "Bram Okafor")."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("query must be a non-blank text: part of a title")
    text = query.strip()
    if len(text) > MAX_TITLE_QUERY:
        raise InvalidInput(f"query must be at most {MAX_TITLE_QUERY} characters; got {len(text)}")
    check_query_text(text)
    limit = _bounded("limit", limit, 1, MAX_FOUND)
    found = rt.store.nodes_by_title(_linked_title(text), limit + 1)
    named = _named_note(rt, text)
    if named is not None:
        found = [named, *(n for n in found if n.id != named.id)]
    shown = found[:limit]
    degree = rt.store.edge_counts([n.id for n in shown])
    return {"query": text, "nodes": [_node(n, degree.get(n.id, 0)) for n in shown], "more": len(found) > limit}


def _linked_title(text: str) -> str:
    """A query written as an Obsidian link or embed ("[[Lighthouse]]", "![[Projects/lighthouse#Budget|LH]]") as the
    title it names (its target's last path part: "Lighthouse", "lighthouse"); any other query as it is."""
    target = link_name(text[1:] if text.startswith("![[") else text)
    return target.rpartition("/")[2].strip() or text if target != text else text


def _named_note(rt: Runtime, text: str) -> Memory | None:
    """The note a link written as `text` ("bram-okafor", "[[People/bram-okafor|Bram]]", an alias) lands on, as the
    vault resolves its links (`vault.resolve.link_index`: path, path suffix, title, alias, file name), or None."""
    from ..core.vault.links import resolve_link
    from .vault.plan import note_id
    from .vault.resolve import link_index

    path = resolve_link(link_name(text[1:] if text.startswith("![[") else text), link_index(rt))
    node = rt.store.get_node(note_id(path)) if path else None
    return node if node is not None and node.kind == "note" else None


def _around(rt: Runtime, focus: str, depth: int, max_nodes: int, statuses: tuple[str, ...]) -> tuple[list[str], bool]:
    seen = {focus}
    order = [focus]
    frontier = [focus]
    for _ in range(depth):
        heads = rt.store.edge_heads(frontier, statuses)  # (not whole edges: evidence is not needed to walk)
        heads.sort(key=lambda h: (-h[5], h[3], h[1], h[2], h[0]))  # (ties as the links' above: the same nodes)
        frontier = []
        for head in heads:
            for other in (head[1], head[2]):
                if other in seen:
                    continue
                if len(order) >= max_nodes:
                    return order, True
                seen.add(other)
                order.append(other)
                frontier.append(other)
        if not frontier:
            break
    return order, False


def _from_the_focus_out(edges: list[Edge], chosen: list[str]) -> list[Edge]:
    """The links of a focus view (strongest first) in the order a cut keeps them: first, for each node in the order
    the walk reached it, the link by which it was reached (to the first node reached of those it links to, the
    strongest such; the focus's own links come first, and any prefix holds together from the focus out); then the
    others, nearest the focus first."""
    at = {node: k for k, node in enumerate(chosen)}
    reached_by: dict[int, tuple[int, int]] = {}  # node's position → (the earlier end's position, the link's index)
    for i, e in enumerate(edges):  # strongest first: of two links to the same earlier node, the first is kept
        near, far = sorted((at[e.src], at[e.dst]))
        if near < far and near < reached_by.get(far, (far, 0))[0]:
            reached_by[far] = (near, i)
    tree = {i for _, i in reached_by.values()}
    first = sorted(((far, i) for far, (_, i) in reached_by.items()))
    rest = sorted((max(at[e.src], at[e.dst]), i) for i, e in enumerate(edges) if i not in tree)
    return [edges[i] for _, i in first + rest]


def _folder_prefix(folder: str) -> str:
    """"Projects" or "/Projects/" → "Projects/": a vault folder, as note paths start with it, composed (NFC): a name
    typed composed and one a file system keeps decomposed ("Ärzte" as A + U+0308) look alike and are one folder."""
    parts = [p for p in str(folder).replace("\\", "/").split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise InvalidInput(f"folder must be a vault folder like Projects or Areas/Finance; got {folder!r}")
    return unicodedata.normalize("NFC", "/".join(parts) + "/")


def _overview(rt: Runtime, max_nodes: int, prefix: str | None) -> tuple[list[str], bool]:
    """The best-connected notes (under `prefix` when given); a store without notes offers its recent memories."""
    generation = rt.store.graph_generation()[0]
    key = (f"{id(rt.store)}:{rt.store.path}", generation, prefix)  # one open store: a file made anew is another
    ranked = _RANKED.get(key) if not generation.startswith("volatile:") else None
    if ranked is None:
        ranked = _ranked(rt, prefix)
        _RANKED[key] = ranked
        while len(_RANKED) > RANKINGS_KEPT:
            _RANKED.pop(next(iter(_RANKED)))
    return ranked[:max_nodes], len(ranked) > max_nodes


def _ranked(rt: Runtime, prefix: str | None) -> list[str]:
    notes = islice(rt.store.iter_nodes(kind="note"), OVERVIEW_POOL if prefix is None else None)
    pool = [n.id for n in notes if prefix is None or _composed_path(n).startswith(prefix)]
    if not pool and prefix is None:  # a folder without notes draws nothing, not the store's memories
        pool = rt.store.recent_memory_ids(OVERVIEW_POOL)
    degree = rt.store.edge_counts(pool)
    return sorted(pool, key=lambda i: (-degree.get(i, 0), i))


def _composed_path(note: Memory) -> str:
    return unicodedata.normalize("NFC", str((note.metadata or {}).get("path", "")))


def node_label(node: Memory) -> str:
    """What a person reads on a node: a note's or heading's title, a bullet's own words (not its note's title)."""
    kind = (node.metadata or {}).get("memory_kind")
    if node.kind == "memory" and kind in ("observation", "task") or not node.title:
        return excerpt(node.content, _LABEL_CHARS) if node.content else node.id.split(":", 1)[-1]
    return excerpt(node.title, _LABEL_CHARS)


def _node(node: Memory, degree: int) -> dict[str, Any]:
    meta = node.metadata or {}
    kind = meta.get("memory_kind") if node.kind == "memory" else meta.get("type") if node.kind == "note" else None
    return {"id": node.id, "title": node_label(node), "kind": node.kind, "type": str(kind or node.kind),
            "degree": degree, "source_path": meta.get("path") or meta.get("note") or None}


def _link(edge: Edge) -> dict[str, Any]:
    category = category_of(edge.type)
    return {"id": edge.id, "src": edge.src, "dst": edge.dst, "type": edge.type, "status": edge.status,
            "category": category, "weight": round(edge.weight, 4),
            "confidence": round(edge.confidence, 4)}
