"""Which planned containment edges the store derives from their items instead of storing them as rows.

A note's edge to one of its own sections, headings, bullets or tasks is derived (`ports/store/contained_sqlite.py`)
when the `edges` view would read back exactly the planned values: its type, weights, status and rule are the code's
(`contained_kinds`), its evidence is kept under the item in the note's blob, and its metadata must be the line (and
a heading's level) the item's own metadata holds — checked here on the planned texts, so exactness never depends on
the parser staying as it is. Anything else (a second edge to the same item, an edge a row already holds: a decided
one, or one from a store written before) stays a row.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .plan import NotePlan, PlannedEdge, PlannedNode, note_id

LINE, LEVEL_LINE = "line", "level,line"  # the metadata shapes `contained_sqlite` reads back
_ITEM_PREFIX = {kind: f'{{"memory_kind":"{kind}","line":' for kind in ("section", "observation", "task")}


def _number(text: str) -> bool:
    """A JSON integer as json_extract reads it back and SQL spells it again: ASCII digits, no leading zero."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


def derived_shape(edge: PlannedEdge, node: PlannedNode) -> str | None:
    """The metadata shape under which `edge` (from a note to `node`, one of its items) reads back exactly from the
    item; None when it would not."""
    meta = edge.metadata
    if edge.link_key or not meta.endswith("}"):
        return None
    if node.kind == "heading":
        level, sep, line = meta[len('{"level":'):-1].partition(',"line":')
        if (meta.startswith('{"level":') and sep and _number(level) and _number(line)
                and node.metadata == f'{{"line":{line},"level":{level}}}'):
            return LEVEL_LINE
        return None
    prefix = _ITEM_PREFIX.get(node.memory_kind)
    if node.kind != "memory" or prefix is None or not meta.startswith('{"line":'):
        return None
    line = meta[len('{"line":'):-1]
    return LINE if _number(line) and node.metadata.startswith(prefix + line + ",") else None


class Containment:
    """The derived containment edges of one ingest run (SQLite; see the module docstring)."""

    def __init__(self, kinds: Any) -> None:
        self.kinds = kinds  # ports.store.contained_sqlite.ContainedKinds
        self.derived: set[tuple[str, str, str]] = set()  # keys this run derives
        self.before: set[tuple[str, str, str]] = set()  # keys that were derived edges when the run read them
        self.rows: set[tuple[str, str, str]] = set()  # keys of the planned notes' edges that are rows

    def plan(self, plans: Sequence[NotePlan]
             ) -> tuple[dict[str, int], dict[str, dict[str, str]], set[tuple[str, str, str]]]:
        """(node id → code, note source → {node id: evidence}, their keys) of the containment edges these plans
        derive."""
        codes: dict[str, int] = {}
        evidence: dict[str, dict[str, str]] = {}
        keys: set[tuple[str, str, str]] = set()
        for plan in plans:
            nid = note_id(plan.path)
            items = {n.id: n for n in plan.nodes}
            mine: dict[str, str] = {}
            for edge in plan.edges:
                node = items.get(edge.dst) if edge.src == nid else None
                if node is None or node.id in codes:
                    continue
                key = (nid, node.id, edge.relation)
                shape = derived_shape(edge, node)
                if shape is None or key in self.rows:
                    continue
                codes[node.id] = self.kinds.code(edge.relation, edge.confidence, edge.confidence, edge.status,
                                                 edge.rule, shape)
                mine[node.id] = edge.evidence
                keys.add(key)
            evidence[f"vault:{plan.path}"] = mine
        self.derived |= keys
        return codes, evidence, keys

    def row_evidence(self, plan: NotePlan) -> list[str]:
        """The evidence texts of a plan's edges that stay rows (what its blob keeps by key)."""
        derived = self.derived
        return [e.evidence for e in plan.edges if (e.src, e.dst, e.relation) not in derived]

    def count(self, codes: Iterable[int | None]) -> None:
        self.kinds.count(codes)
