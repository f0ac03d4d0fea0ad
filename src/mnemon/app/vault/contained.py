"""Which planned containment edges the store derives from their items instead of storing them as rows.

A note's edge to one of its own sections, headings, bullets or tasks can be read back from the item row
(`ports/store/contained_sqlite.py`): its type, weights, status and rule become a code the item carries, its evidence
is kept under the item in the note's blob, and its line (and a heading's level) are the item's own. The planner puts
such an edge on its item (`PlannedNode.contained`) when it reads back exactly (`plan.readback_shape`); the writer
derives it unless a row already holds that edge — a decided one, or one written before — or the store keeps every
edge as a row (PostgreSQL), and then writes it as a row after all (`take_rows`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...ports.store.contained_sqlite import LEVEL_LINE, LINE
from .plan import NotePlan, PlannedEdge, note_id


class Containment:
    """The derived containment edges of one ingest run; with no `kinds` (a store that keeps every edge as a row)
    it derives none."""

    def __init__(self, kinds: Any | None) -> None:
        self.kinds = kinds  # ports.store.contained_sqlite.ContainedKinds
        self.before: set[tuple[str, str, str]] = set()  # keys that were derived edges when the run read them
        self.rows: set[tuple[str, str, str]] = set()  # keys of the planned notes' edges that are rows
        self._rows: dict[str, list[PlannedEdge]] = {}  # note path → its items' edges to write as rows after all

    def plan(self, plans: Sequence[NotePlan]
             ) -> tuple[dict[str, int], dict[str, dict[str, str]], set[tuple[str, str, str]]]:
        """(node id → code, note source → {node id: evidence}, their keys) of the containment edges these plans
        derive; the others their items carry wait in `take_rows`."""
        codes: dict[str, int] = {}
        evidence: dict[str, dict[str, str]] = {}
        keys: set[tuple[str, str, str]] = set()
        kinds, rows = self.kinds, self.rows
        for plan in plans:
            nid = note_id(plan.path)
            mine: dict[str, str] = {}
            for node in plan.nodes:
                edge = node.contained
                if edge is None:
                    continue
                key = (nid, node.id, edge.relation)
                if kinds is None or key in rows:
                    self._rows.setdefault(plan.path, []).append(edge)
                    continue
                codes[node.id] = kinds.code(edge.relation, edge.confidence, edge.confidence, edge.status, edge.rule,
                                            LEVEL_LINE if node.kind == "heading" else LINE)
                mine[node.id] = edge.evidence
                keys.add(key)
            evidence[f"vault:{plan.path}"] = mine
        return codes, evidence, keys

    def as_rows(self, plans: Sequence[NotePlan], item_ids: Iterable[str], evidence: dict[str, dict[str, str]],
                keys: set[tuple[str, str, str]]) -> None:
        """Write the edges of these items (planned derived, their codes since taken: `ContainedKinds.take_used_ids`)
        as rows after all, out of `plan`'s `evidence` and `keys`."""
        wanted = set(item_ids)
        for plan in plans:
            nid, mine = note_id(plan.path), evidence.get(f"vault:{plan.path}", {})
            for node in plan.nodes:
                if node.id in wanted and node.contained is not None:
                    self._rows.setdefault(plan.path, []).append(node.contained)
                    mine.pop(node.id, None)
                    keys.discard((nid, node.id, node.contained.relation))

    def row_evidence(self, plan: NotePlan) -> list[str]:
        """The evidence texts of a plan's edges that are rows (what its blob keeps by key)."""
        return [e.evidence for e in (*plan.edges, *self._rows.get(plan.path, ()))]

    def take_rows(self) -> list[tuple[str, PlannedEdge]]:
        """(note path, edge) of the items' edges planned so far that are to be written as rows."""
        out = [(path, e) for path, edges in self._rows.items() for e in edges]
        self._rows = {}
        return out

    def count(self, codes: Iterable[int | None]) -> None:
        """Count the derived edges of item rows just inserted with these codes."""
        if self.kinds is not None:
            self.kinds.count(codes)
