"""PostgreSQL backend, part 3: typed edges and their event log (mixed into `PostgresStore`).

Edge creation is recorded by the row itself (created_at, origin, rule); `edge_events` holds every later change —
the same split as on SQLite, so `explain-edge` reads alike on both backends.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from ...core.model import Edge, Link, iso, utcnow
from .base import EdgeHead, EdgeKey, ImportanceRow, MemoryFilter
from .edge_rows import EDGE_VALUE_COLS, edge_value_rows, latest_of_kinds, upsert_event_detail
from .postgres_index import memory_where
from .sqlite import _EDGE_COLS, PAGE_ROWS, _chunks, _edge

_SEQ_OF = "(SELECT seq FROM nodes WHERE id = %s)"
_EDGE_VALUES = f"INSERT INTO edge_rows (src, dst, {EDGE_VALUE_COLS}) VALUES"
_EDGE_INSERT = _EDGE_VALUES + f" ({_SEQ_OF}, {_SEQ_OF}, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
_EDGE_INSERT_SEQS = _EDGE_VALUES + " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
_EVENT_INSERT = "INSERT INTO edge_events(edge_id, event, actor, detail, created_at) VALUES (%s, %s, %s, %s, %s)"
_DIRECTION_COLUMNS = {"out": ("src",), "in": ("dst",), "both": ("src", "dst")}


def _meta(metadata: dict[str, Any]) -> str:
    return json.dumps(metadata, ensure_ascii=False) if metadata else "{}"


class EdgeTables:
    """Edges of a `PostgresStore` (which provides `_rows`, `_value`, `_write`, `_write_many`, `_lock`, `conn`)."""

    _rows: Any
    _value: Any
    _write: Any
    _write_many: Any

    def upsert_edge(self, edge: Edge, *, actor: str = "", event: str | None = None, reason: str = "") -> int:
        now = edge.updated_at or edge.created_at or iso(utcnow())
        edge_id = self._value("SELECT id FROM edges WHERE src = %s AND dst = %s AND type = %s",
                              (edge.src, edge.dst, edge.type))
        if edge_id is None:
            edge_id = int(self._write(
                _EDGE_INSERT + " RETURNING id",
                (edge.src, edge.dst, edge.type, edge.sub_type, edge.weight, edge.confidence, edge.status,
                 edge.evidence, edge.origin, edge.rule, edge.source_path, _meta(edge.metadata),
                 edge.created_at or now, now)).fetchone()[0])
            if event is None:
                return edge_id  # creation is recorded by the row itself; see edge_events()
            kind = event
        else:
            self._write(
                "UPDATE edge_rows SET sub_type=%s, weight=%s, confidence=%s, status=%s, evidence=%s, origin=%s, rule=%s,"
                " source_path=%s, metadata=%s, updated_at=%s, created_at = LEAST(created_at, %s) WHERE id=%s",
                (edge.sub_type, edge.weight, edge.confidence, edge.status, edge.evidence, edge.origin, edge.rule,
                 edge.source_path, _meta(edge.metadata), now, edge.created_at or now, edge_id))
            kind = event or "updated"
        self._write(_EVENT_INSERT, (edge_id, kind, actor or edge.origin, upsert_event_detail(edge, reason), now))
        return int(edge_id)

    def insert_edges(self, edges: Sequence[Edge], *, origin: str | None = None) -> None:
        """Bulk-insert edges that cannot exist yet (they touch a node created in this transaction)."""
        self.insert_edge_rows(edge_value_rows(edges, origin))

    def insert_edge_rows(self, rows: Sequence[tuple[Any, ...]]) -> None:
        if not rows:
            return
        seq = self.node_seqs([x for r in rows for x in (r[0], r[1])])
        # an updated_at of '' stands for the row's own created_at (`edge_value_rows`): the edge it updates has another
        self._write_many(_EDGE_INSERT_SEQS + " ON CONFLICT (src, dst, type) DO UPDATE SET weight = excluded.weight,"
                         " sub_type = excluded.sub_type, metadata = excluded.metadata, updated_at = CASE"
                         " WHEN excluded.updated_at = '' THEN excluded.created_at ELSE excluded.updated_at END",
                         [(seq[r[0]], seq[r[1]], *r[2:]) for r in rows])

    def node_seqs(self, node_ids: Sequence[str]) -> dict[str, int]:
        """Node id → seq, the key `edge_rows` stores. An unknown id fails as a foreign key would."""
        wanted = list(dict.fromkeys(node_ids))
        out: dict[str, int] = {}
        for chunk in _chunks(wanted):
            out.update((r[0], int(r[1])) for r in self._rows("SELECT id, seq FROM nodes WHERE id = ANY(%s)", (chunk,)))
        if len(out) < len(wanted):
            import psycopg

            missing = next(i for i in wanted if i not in out)
            raise psycopg.errors.ForeignKeyViolation(f"no node {missing!r}")
        return out

    def edge_heads(self, node_ids: Sequence[str], statuses: Sequence[str]) -> list[EdgeHead]:
        """(id, src, dst, type, status, weight × confidence, confidence) of the edges touching `node_ids`, by id."""
        ids = list(dict.fromkeys(node_ids))
        return [(int(r[0]), r[1], r[2], r[3], r[4], float(r[5]), float(r[6])) for r in self._rows(
            "SELECT id, src, dst, type, status, weight * confidence, confidence FROM edges"
            " WHERE (src = ANY(%s) OR dst = ANY(%s)) AND status = ANY(%s) ORDER BY id", (ids, ids, list(statuses)))]

    def get_edges(self, edge_ids: Sequence[int]) -> list[Edge]:
        return [_edge(r) for r in self._rows(f"SELECT {_EDGE_COLS} FROM edges WHERE id = ANY(%s::bigint[])",
                                             (list(edge_ids),))]

    def get_edge(self, edge_id: int) -> Edge | None:
        rows = self._rows(f"SELECT {_EDGE_COLS} FROM edges WHERE id = %s", (edge_id,))
        return _edge(rows[0]) if rows else None

    def find_edge(self, src: str, dst: str, type_: str) -> Edge | None:
        rows = self._rows(f"SELECT {_EDGE_COLS} FROM edges WHERE src = %s AND dst = %s AND type = %s",
                          (src, dst, type_))
        return _edge(rows[0]) if rows else None

    def edge_states(self, keys: Sequence[EdgeKey]) -> dict[EdgeKey, tuple[int, str]]:
        """As on SQLite: (src, dst, type) → (id, status) of the edges among `keys` that exist."""
        out: dict[EdgeKey, tuple[int, str]] = {}
        wanted = list(dict.fromkeys(keys))
        for chunk in _chunks(wanted):
            out.update(((r[0], r[1], r[2]), (int(r[3]), r[4])) for r in self._rows(
                "SELECT e.src, e.dst, e.type, e.id, e.status FROM edges e"
                " JOIN unnest(%s::text[], %s::text[], %s::text[]) AS k(src, dst, type)"
                " ON e.src = k.src AND e.dst = k.dst AND e.type = k.type",
                ([k[0] for k in chunk], [k[1] for k in chunk], [k[2] for k in chunk])))
        return out

    def edges_of(self, node_ids: Sequence[str], *, statuses: Sequence[str] = ("active",),
                 types: Sequence[str] | None = None, direction: str = "out") -> list[Edge]:
        """Edges per direction column in id order (outgoing before incoming for `both`, each edge once)."""
        ids = list(dict.fromkeys(node_ids))
        filters, args = "", []
        if statuses:
            filters += " AND status = ANY(%s)"
            args.append(list(statuses))
        if types:
            filters += " AND type = ANY(%s)"
            args.append(list(types))
        out: dict[int, Edge] = {}
        for col in _DIRECTION_COLUMNS[direction]:
            for r in self._rows(f"SELECT {_EDGE_COLS} FROM edges WHERE {col} = ANY(%s){filters} ORDER BY id",
                                [ids, *args]):
                out.setdefault(int(r[0]), _edge(r))
        return list(out.values())

    def adjacency(self, node_ids: Sequence[str], statuses: Sequence[str] = ("active",),
                  per_node: int | None = None) -> dict[str, list[Link]]:
        """Outgoing links per node, in edge-id order; `per_node` keeps only each node's newest links."""
        sql = ("SELECT src, dst, type, sub_type, weight, id FROM edges WHERE src = ANY(%s) AND status = ANY(%s)")
        args: list[Any] = [list(dict.fromkeys(node_ids)), list(statuses)]
        if per_node is not None:
            sql = (f"SELECT src, dst, type, sub_type, weight, id FROM (SELECT *, ROW_NUMBER() OVER"
                   f" (PARTITION BY src ORDER BY id DESC) AS rn FROM ({sql}) AS e) AS ranked WHERE rn <= %s")
            args.append(per_node)
        out: dict[str, list[Link]] = {}
        for r in self._rows(sql + " ORDER BY id", args):
            out.setdefault(r[0], []).append(Link(r[0], r[1], r[2], r[3], r[4], int(r[5])))
        return out

    def edge_counts(self, node_ids: Sequence[str]) -> dict[str, int]:
        counts = dict.fromkeys(node_ids, 0)
        for node, count in self._rows(
                "SELECT node, COUNT(*) FROM (SELECT src AS node FROM edges WHERE src = ANY(%s) AND status = 'active'"
                " UNION ALL SELECT dst FROM edges WHERE dst = ANY(%s) AND status = 'active') AS ends GROUP BY node",
                (list(counts), list(counts))):
            counts[node] += int(count)
        return counts

    def importance_rows(self, flt: MemoryFilter, cap: int) -> list[ImportanceRow]:
        """As `SQLiteEdges.importance_rows`: each memory's active edges counted up to `cap`, by seq, on either end."""
        where, args = memory_where(flt)
        ends = " UNION ALL ".join(f"SELECT 1 FROM edge_rows e WHERE e.{col} = n.seq AND e.status = 'active'"
                                  for col in ("dst", "src"))
        return [(r[0], int(r[1]), int(r[2]), r[3], float(r[4]), int(r[5]), r[6], r[7], bool(r[8]))
                for r in self._rows(
            "SELECT n.id, n.importance, n.access_count, COALESCE(NULLIF(n.last_accessed_at, ''), n.created_at),"
            f" n.effective_importance, (SELECT COUNT(*) FROM ({ends} LIMIT %s) AS ends), n.created_at, n.inserted_at,"
            f" substr(n.source, 1, 8) = 'mneme://' FROM nodes n WHERE {where}", [cap, *args])]

    def set_edge_status(self, edge_id: int, status: str, *, actor: str, reason: str,
                        confidence: float | None = None, when: str | None = None,
                        previous: str | None = None) -> None:
        now = when or iso(utcnow())
        self._write("UPDATE edge_rows SET status = %s, confidence = COALESCE(%s, confidence), updated_at = %s"
                    " WHERE id = %s", (status, confidence, now, edge_id))
        detail: dict[str, Any] = {"status": status, "reason": reason}
        if confidence is not None:
            detail["confidence"] = confidence
        if previous is not None:
            detail["previous_status"] = previous
        self._write(_EVENT_INSERT, (edge_id, status, actor, json.dumps(detail), now))

    def retire_edges_of(self, node_id: str, *, reason: str, when: str | None = None, actor: str = "forget") -> int:
        now = when or iso(utcnow())
        # the status each had (read in the same statement: RETURNING gives the new one), for `forget --undo`
        held = sorted((int(r[0]), str(r[1])) for r in self._write(
            "UPDATE edge_rows e SET status = 'retired', updated_at = %s FROM (SELECT id, status FROM edge_rows"
            f" WHERE (src = {_SEQ_OF} OR dst = {_SEQ_OF}) AND status IN ('active', 'candidate') FOR UPDATE) old"
            " WHERE e.id = old.id RETURNING e.id, old.status", (now, node_id, node_id)).fetchall())
        self._write_many(_EVENT_INSERT, [
            (i, "retired", actor, json.dumps({"reason": reason, "previous_status": was}), now) for i, was in held])
        return len(held)

    def edge_events(self, edge_id: int) -> list[dict[str, Any]]:
        """The edge's history: its creation (from the row) followed by every recorded change."""
        head = self._rows("SELECT origin, rule, created_at, status FROM edges WHERE id = %s", (edge_id,))
        stored = [{"id": int(r[0]), "event": r[1], "actor": r[2], "detail": json.loads(r[3]), "created_at": r[4]}
                  for r in self._rows("SELECT id, event, actor, detail, created_at FROM edge_events"
                                      " WHERE edge_id = %s ORDER BY id", (edge_id,))]
        if not head or (stored and stored[0]["event"] in ("created", "restored")):
            return stored
        origin, rule, created_at, _ = head[0]
        created = {"id": None, "event": "created", "actor": origin, "detail": {"origin": origin, "rule": rule},
                   "created_at": created_at}
        return [created, *stored]

    def latest_edge_events(self, edge_ids: Sequence[int],
                           kinds: Sequence[tuple[str, str]]) -> dict[int, tuple[str, str]]:
        wanted = set(kinds)
        out: dict[int, tuple[str, str]] = {}
        if not wanted:
            return out
        names = sorted({event for event, _actor in wanted})
        for chunk in _chunks(sorted(set(edge_ids))):
            out.update(latest_of_kinds(self._rows(
                "SELECT edge_id, event, actor FROM edge_events WHERE edge_id = ANY(%s::bigint[])"
                " AND event = ANY(%s) ORDER BY id", (list(chunk), names)), wanted))
        return out

    def edges_with_events(self, events: Sequence[str]) -> set[int]:
        return {int(r[0]) for r in self._rows("SELECT DISTINCT edge_id FROM edge_events WHERE event = ANY(%s)",
                                              (list(events),))}

    def iter_edges(self, *, statuses: Sequence[str] | None = None) -> Iterator[Edge]:
        # a page at a time, by id: an export of any size holds one page
        sql = f"SELECT {_EDGE_COLS} FROM edges WHERE id > %s" + (" AND status = ANY(%s)" if statuses else "")
        after = 0
        while rows := self._rows(sql + " ORDER BY id LIMIT %s",
                                 [after, *([list(statuses)] if statuses else []), PAGE_ROWS]):
            yield from map(_edge, rows)
            after = rows[-1][0]
