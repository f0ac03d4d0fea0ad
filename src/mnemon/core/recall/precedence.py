"""A correction above what it corrects: the order recall hands back when both are among its results.

Demoting a retired fact × 0.25 is not enough on its own: the old fact usually says the query's words ("Mira lives in
Lisbon" for "where does Mira live") while its correction says them less ("Mira moved from Lisbon to Porto"), so the
old score can be more than four times the new one and the retired value still came first.
"""
from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def correctors_first(order: Sequence[K], pairs: Iterable[tuple[K, K]]) -> list[K]:
    """`order` (best first) with each corrector placed above every result it corrects: `pairs` are (corrector,
    corrected). A corrector already above keeps its place; one below takes the place of the first result it
    corrects (the rank the query gave the retired fact goes to the fact that replaced it), and the others keep
    their order. A chain (c corrects b, b corrects a) comes out c, b, a; of two links that contradict each
    other (a supersedes b, b supersedes a) the first one given holds.

    >>> correctors_first(["old", "other", "new"], [("new", "old")])
    ['new', 'old', 'other']
    >>> correctors_first(["new", "other", "old"], [("new", "old")])
    ['new', 'other', 'old']
    >>> correctors_first(["a", "b", "c"], [("b", "a"), ("c", "b")])
    ['c', 'b', 'a']
    """
    position = {i: k for k, i in enumerate(order)}
    below: dict[K, list[K]] = {}
    waiting = dict.fromkeys(order, 0)
    for new, old in dict.fromkeys(pairs):
        if new in position and old in position and not _reaches(below, old, new):
            below.setdefault(new, []).append(old)
            waiting[old] += 1
    if not below:
        return list(order)
    place: dict[K, int] = {}

    def place_of(i: K) -> int:
        """The best position among i and everything it must precede: where i belongs."""
        if i not in place:
            place[i] = min([position[i], *(place_of(o) for o in below.get(i, ()))])
        return place[i]

    ready = [(place_of(i), position[i], i) for i in order if not waiting[i]]
    heapq.heapify(ready)
    out: list[K] = []
    while ready:
        _, _, i = heapq.heappop(ready)
        out.append(i)
        for old in below.get(i, ()):
            waiting[old] -= 1
            if not waiting[old]:
                heapq.heappush(ready, (place_of(old), position[old], old))
    return out


def _reaches(below: dict[K, list[K]], start: K, goal: K) -> bool:
    """Whether `goal` is `start` or must already come below it: a pair that would close a cycle is dropped."""
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        if i == goal:
            return True
        for nxt in below.get(i, ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False
