"""Graph algorithms as pure functions over an injected `neighbors(node_ids) -> {node: [(neighbor, edge)]}`.

The store is never seen here; a batch neighbour function keeps traversal at one query per level.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .model import Edge, Link

Neighbors = Callable[[Sequence[str]], Mapping[str, Sequence[tuple[str, Edge | Link]]]]


@dataclass(frozen=True)
class Reached:
    id: str
    depth: int
    via: Edge | Link


def bfs(start: str, neighbors: Neighbors, *, max_depth: int = 2, limit: int | None = None,
        exclude: Iterable[str] = (), frontier_cap: int | None = None) -> list[Reached]:
    """Breadth-first neighbourhood of `start`, nearest first, ties in edge-id order (a note's own items first, in
    the order of their ids: `_tie`).

    >>> from mnemon.core.model import Edge
    >>> g = {"a": [("b", Edge("a", "b", "causal", id=1))], "b": [("c", Edge("b", "c", "entity", id=2))]}
    >>> [(r.id, r.depth) for r in bfs("a", lambda ids: {i: g.get(i, []) for i in ids})]
    [('b', 1), ('c', 2)]
    """
    seen = {start, *exclude}
    frontier = [start]
    out: list[Reached] = []
    for depth in range(1, max_depth + 1):
        if not frontier:
            break
        if frontier_cap is not None:
            frontier = frontier[:frontier_cap]  # nearest-first order: a hub's thousand neighbours are not all walked
        adjacency: dict[str, Sequence[tuple[str, Edge | Link]]] = {}
        fetched, batch = 0, 1
        nxt: list[str] = []
        for k, node in enumerate(frontier):
            if k == fetched:
                # with a limit, ask for a growing batch of the frontier at a time: the limit is often reached in
                # the first few nodes, and a hub frontier's every edge need not be read for it
                fetched = len(frontier) if limit is None else min(len(frontier), k + batch)
                batch *= 2
                adjacency.update(neighbors(frontier[k:fetched]))
            for nb, edge in sorted(adjacency.get(node, []), key=lambda p: _tie(node, *p)):
                if nb in seen:
                    continue
                seen.add(nb)
                out.append(Reached(nb, depth, edge))
                nxt.append(nb)
                if limit is not None and len(out) >= limit:
                    return out
        frontier = nxt
    return out


def own_item_edge(edge: Edge | Link) -> bool:
    """Whether `edge` joins a note to a section, heading or bullet of its own (`note:P` → `vault:P:…`/`heading:P#…`):
    SQLite derives those from their items and numbers them below zero, from the note's last item up (m055), where
    PostgreSQL stores rows numbered as written, so their ids order them differently on each backend."""
    if not edge.src.startswith("note:"):
        return False
    path = edge.src[5:]
    return edge.dst.startswith((f"vault:{path}:", f"heading:{path}#"))


def _tie(node: str, neighbour: str, edge: Edge | Link) -> tuple[int, int, str, bool, str, str]:
    # a note's own items by their ids (by edge id a cut at the limit kept a note's last items on SQLite and its first
    # on PostgreSQL), then every other edge in id order: the order both backends write them in
    if own_item_edge(edge):
        return 0, 0, neighbour, edge.src != node, edge.type, edge.sub_type or ""
    return 1, edge.id or 0, neighbour, edge.src != node, edge.type, edge.sub_type or ""


def _line(edge: Edge) -> int:
    line = edge.metadata.get("line") if isinstance(edge.metadata, dict) else None
    return line if isinstance(line, int) and not isinstance(line, bool) else -1


def as_listed(edges: Iterable[Edge], node_id: str) -> list[Edge]:
    """A node's edges as `show` lists them: its own (outgoing) first, by the line of its note they were read from
    (a note's edges read top to bottom), then type, then as written (a memory's links, oldest first); then the
    edges coming in, as written. A note's edges to its own items are never ordered by id
    (`own_item_edge`): by id the same note listed its edges in two orders, one per backend.

    >>> a = Edge("n", "b", "links_to", metadata={"line": 9}, id=-1)
    >>> b = Edge("n", "s", "has_section", metadata={"line": 2}, id=-2)
    >>> c = Edge("x", "n", "links_to", metadata={"line": 1}, id=-3)
    >>> [e.dst for e in as_listed([c, a, b], "n")]
    ['s', 'b', 'n']
    """
    def key(e: Edge) -> tuple[bool, int, str, int, str, str]:
        written = 0 if own_item_edge(e) else e.id or 0
        if e.src == node_id:
            return False, _line(e), e.type, written, e.dst, e.sub_type or ""
        return True, 0, "", written, e.src, e.type
    return sorted(edges, key=key)


def topo_order(ids: Sequence[str], causal_edges: Iterable[tuple[str, str]], score: dict[str, float]) -> list[str]:
    """Kahn's algorithm: causes before effects; among ready nodes first the one leading to the best result (its own
    score or the best of the effects it leads to), then the higher score, then the earlier in `ids` (the caller's
    ranking: recall's tie-break by importance and recency, not the ids' random order). Ready nodes taken by their own
    score alone put a chain of weak causes ahead of the cause of the best result, and that result near the bottom.
    A cycle is broken at its best member (`_acyclic`): appended after every ready node, a cycle's members — a plan
    "causing" its own correction, read before it — put the best result behind all the unrelated ones.

    >>> topo_order(["effect", "cause"], [("cause", "effect")], {"effect": 0.9, "cause": 0.1})
    ['cause', 'effect']
    >>> topo_order(["best", "weak", "weak_effect", "why"], [("why", "best"), ("weak", "weak_effect")],
    ...            {"best": 0.8, "weak": 0.6, "weak_effect": 0.5, "why": 0.3})
    ['why', 'best', 'weak', 'weak_effect']
    >>> topo_order(["best", "other", "old"], [("old", "best"), ("best", "old")],
    ...            {"best": 0.7, "other": 0.3, "old": 0.1})
    ['best', 'other', 'old']
    """
    members = set(ids)
    position = {i: k for k, i in enumerate(ids)}
    pairs = _acyclic([(a, b) for a, b in dict.fromkeys(causal_edges) if a in members and b in members and a != b],
                     lambda i: (-score.get(i, 0.0), position[i]))
    indeg = dict.fromkeys(ids, 0)
    succ: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in pairs:
        succ[a].append(b)
        indeg[b] += 1
    leads_to: dict[str, float] = {}

    def best_reached(i: str) -> float:
        if i not in leads_to:
            leads_to[i] = max([score.get(i, 0.0), *(best_reached(nb) for nb in succ[i])])
        return leads_to[i]

    def key(i: str) -> tuple[float, float, int]:
        return -best_reached(i), -score.get(i, 0.0), position[i]

    order: list[str] = []
    ready = sorted((i for i in ids if indeg[i] == 0), key=key)
    while ready:
        node = ready.pop(0)
        order.append(node)
        for nb in succ[node]:
            indeg[nb] -= 1
            if indeg[nb] == 0:
                ready.append(nb)
        ready.sort(key=key)
    return order


def _acyclic(pairs: list[tuple[str, str]], rank: Callable[[str], tuple[float, int]]) -> list[tuple[str, str]]:
    """`pairs` without the edges that close a cycle: in each strongly connected component the edges into its best
    member (lowest `rank`) from inside it are dropped, which makes that member the cycle's first, until none is left."""
    while True:
        components = [c for c in _strong_components(pairs) if len(c) > 1]
        if not components:
            return pairs
        cut: set[tuple[str, str]] = set()
        for comp in components:
            head = min(comp, key=rank)
            cut.update((a, head) for a in comp)
        pairs = [p for p in pairs if p not in cut]


def _strong_components(pairs: Sequence[tuple[str, str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iteratively (a result list of 100 must not meet the recursion limit)."""
    succ: dict[str, list[str]] = {}
    for a, b in pairs:
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for root in succ:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, k = work.pop()
            if k == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if k < len(succ[node]):
                work.append((node, k + 1))
                nb = succ[node][k]
                if nb not in index:
                    work.append((nb, 0))
                elif nb in on_stack:
                    low[node] = min(low[node], index[nb])
                continue
            if low[node] == index[node]:
                comp: set[str] = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.add(top)
                    if top == node:
                        break
                out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out
