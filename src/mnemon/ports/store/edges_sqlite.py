"""The edges of a SQLite store: writes to `edge_rows` (by node seq, edge_rows.py), reads through the `edges` view (rows
and, since m055, a note's edges to its own items read back from them: contained_sqlite.py) or `edge_heads` when only
the ends and weights are needed. `SQLiteStore` inherits these methods (a mixin, as graph_sqlite.py and
vectors_sqlite.py hold their own parts), so the store interface stays one object.
"""
from __future__ import annotations

import heapq
import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any

from ...core.model import EDGE_STATUSES, Edge, Link, iso, utcnow
from .base import EdgeHead, EdgeKey, ImportanceRow, MemoryFilter
from .coded_edges_sqlite import CODED_ROWS, as_rows, edge_view_arms
from .contained_sqlite import (CONTAINED_ROWS, CONTAINED_ROWS_OF_NOTES, derived_touching, edges_by_id, materialise,
                               positive_id_insert)
from .edge_rows import EDGE_VALUE_COLS, EDGES_ARM, SEQ_OF, edge_value_rows, latest_of_kinds, upsert_event_detail
from .text_index_sqlite import _chunks, _where

PAGE_ROWS = 5_000  # rows a whole-table walk holds at once (SQLite and PostgreSQL)
# an edge re-written with an earlier creation time (a restored decision, over the edge an ingest made again since)
# existed since then: its decision must not read as older than the edge ('' stands for its source node's time)
_EARLIER_CREATION = ("created_at = min(CASE WHEN created_at = '' THEN (SELECT n.created_at FROM nodes n"
                     " WHERE n.seq = edge_rows.src) ELSE created_at END, ?)")
_EDGE_COLS = (
    "id, src, dst, type, sub_type, weight, confidence, status, evidence, origin, rule, source_path, metadata, "
    "created_at, updated_at"
)

WHOLE_GRAPH_COUNTS = 20_000  # nodes from which `edge_counts` counts every edge once instead of looking each node up


def _edge(row: tuple[Any, ...]) -> Edge:
    return Edge(
        id=row[0], src=row[1], dst=row[2], type=row[3], sub_type=row[4], weight=row[5], confidence=row[6],
        status=row[7], evidence=row[8], origin=row[9], rule=row[10], source_path=row[11],
        metadata=json.loads(row[12]) if row[12] and row[12] != "{}" else {}, created_at=row[13], updated_at=row[14],
    )


def _paged(cursor: sqlite3.Cursor) -> Iterator[tuple[Any, ...]]:
    """A whole-table read a page at a time, so walking every node or edge (an export) holds one page, not all rows."""
    while rows := cursor.fetchmany(PAGE_ROWS):
        yield from rows


class SQLiteEdges:
    """Mixed into `SQLiteStore`; uses its connection and its write methods."""

    conn: sqlite3.Connection
    derives_edges: bool

    def _write(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        raise NotImplementedError  # (SQLiteStore's)

    def _write_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError  # (SQLiteStore's)

    def upsert_edge(self, edge: Edge, *, actor: str = "", event: str | None = None, reason: str = "") -> int:
        now = edge.updated_at or edge.created_at or iso(utcnow())
        meta = json.dumps(edge.metadata, ensure_ascii=False) if edge.metadata else "{}"
        row = self.conn.execute("SELECT id FROM edge_heads WHERE src = ? AND dst = ? AND type = ?",
                                (edge.src, edge.dst, edge.type)).fetchone()
        if row is not None:  # a derived edge or a coded row becomes an ordinary row first
            as_rows(self, [row[0]])
        if row is None:
            cur = self._write(
                self._positive_ids(
                    f"INSERT INTO edge_rows (src, dst, {EDGE_VALUE_COLS}) VALUES ({SEQ_OF},{SEQ_OF},?,?,?,?,?,?,?,?,?,?,?,?)"),
                (edge.src, edge.dst, edge.type, edge.sub_type, edge.weight, edge.confidence, edge.status,
                 edge.evidence, edge.origin, edge.rule, edge.source_path, meta, edge.created_at or now, now))
            edge_id = int(cur.lastrowid or 0)
            self._count_new_edges([(edge.type, edge.status)])
            if event is None:
                return edge_id  # creation is recorded by the row itself; see edge_events()
            kind = event
        else:
            edge_id = int(row[0])
            self._write(
                "UPDATE edge_rows SET sub_type=?, weight=?, confidence=?, status=?, evidence=?, origin=?, rule=?,"
                f" source_path=?, metadata=?, updated_at=?, {_EARLIER_CREATION} WHERE id=?",
                (edge.sub_type, edge.weight, edge.confidence, edge.status, edge.evidence, edge.origin, edge.rule,
                 edge.source_path, meta, now, edge.created_at or now, edge_id))
            kind = event or "updated"
        self._write("INSERT INTO edge_events(edge_id, event, actor, detail, created_at) VALUES (?,?,?,?,?)",
                    (edge_id, kind, actor or edge.origin, upsert_event_detail(edge, reason), now))
        return edge_id

    def insert_edges(self, edges: Sequence[Edge], *, origin: str | None = None) -> None:
        """Bulk-insert edges that cannot exist yet (they touch a node created in this transaction). Their creation
        is recorded by the row itself (created_at, origin, rule); `edge_events` reports it as the first event."""
        self.insert_edge_rows(edge_value_rows(edges, origin))

    def insert_edge_rows(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """`insert_edges` for edges already turned into `edge_value_rows` (a bulk import's rule engine does that in
        another process): node ids become seqs, a repeated edge is merged, then one plain INSERT."""
        if not rows:
            return
        seq = self.node_seqs([x for r in rows for x in (r[0], r[1])])
        keyed = [(seq[r[0]], seq[r[1]], *r[2:]) for r in rows]
        first: dict[tuple[Any, ...], int] = {}
        for k, r in enumerate(keyed):
            at = first.setdefault(r[:3], k)
            if at != k:
                # the same edge twice in one batch (a backbone step that is also a proximity pair): the later one
                # updates the first, as an upsert would — done here so the bulk insert stays a plain INSERT (an
                # ON CONFLICT clause costs ~30 % of a bulk import's edge inserts)
                f = keyed[at]
                keyed[at] = (*f[:3], r[3], r[4], *f[5:11], r[11], f[12], r[13] or r[12])  # ('' reads as created_at)
                keyed[k] = ()
        if len(first) < len(keyed):
            keyed = [r for r in keyed if r]
        self.insert_new_edge_rows(f"INSERT INTO edge_rows (src, dst, {EDGE_VALUE_COLS})"
                                  " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", keyed, Counter((r[2], r[6]) for r in keyed))

    def insert_new_edge_rows(self, sql: str, rows: list[tuple[Any, ...]], counts: Counter[tuple[str, str]], *,
                             ids_given: bool = False) -> None:
        """Run a bulk `INSERT INTO edge_rows` of `rows` (`counts` tallies them by type and status) and count them;
        `ids_given`: the statement gives each row its id (else SQLite does, above every id used: `_positive_ids`).
        The status CHECK is done here once per distinct value: SQLite doing it per row cost a third of the inserts.
        The pragma is this connection's and is off again before anything else runs on it."""
        bad = {status for _, status in counts} - set(EDGE_STATUSES)
        if bad:
            raise sqlite3.IntegrityError(f"CHECK constraint failed: edge status {sorted(bad)[0]!r}")
        self.conn.execute("PRAGMA ignore_check_constraints = ON")
        try:
            first = sql if ids_given else self._positive_ids(sql)
            if first is not sql and rows:
                self._write(first, rows[0])
                rows = rows[1:]
            self._write_many(sql, rows)
        finally:
            self.conn.execute("PRAGMA ignore_check_constraints = OFF")
        self._count_new_edges(counts)

    def _positive_ids(self, insert: str) -> str:
        return positive_id_insert(self.conn, insert)

    def _count_new_edges(self, keys: Iterable[tuple[str, str]]) -> None:
        """Count edge rows just inserted into `edge_counts` by (type, status). Updates and deletes are counted by
        triggers (m043); inserts here, once per statement, since a trigger on every insert slows bulk writes."""
        counts = Counter(keys)  # a Counter given is copied with its tallies
        if counts:
            self._write_many("INSERT INTO edge_counts(type, status, n) VALUES (?,?,?)"
                             " ON CONFLICT(type, status) DO UPDATE SET n = n + excluded.n",
                             [(t, st, n) for (t, st), n in counts.items()])

    def node_seqs(self, node_ids: Iterable[str]) -> dict[str, int]:
        """Node id → seq, the key `edge_rows` stores. An unknown id fails as a foreign key would."""
        wanted = list(dict.fromkeys(node_ids))
        out: dict[str, int] = {}
        for chunk in _chunks(wanted):
            out.update(self.conn.execute(f"SELECT id, seq FROM nodes WHERE id IN ({','.join('?' * len(chunk))})",
                                         chunk).fetchall())
        if len(out) < len(wanted):
            missing = next(i for i in wanted if i not in out)
            raise sqlite3.IntegrityError(f"FOREIGN KEY constraint failed: no node {missing!r}")
        return out

    def edge_heads(self, node_ids: Sequence[str], statuses: Sequence[str]) -> list[EdgeHead]:
        """(id, src, dst, type, status, weight × confidence, confidence) of the edges touching `node_ids`, by id:
        enough to rank and walk them without reading their evidence (for a vault edge, from its note's blob)."""
        out: dict[int, EdgeHead] = {}
        smarks = ",".join("?" * len(statuses))
        for chunk in _chunks(list(dict.fromkeys(node_ids))):
            marks = ",".join("?" * len(chunk))
            for col in ("src", "dst"):
                for r in self.conn.execute(f"SELECT id, src, dst, type, status, weight * confidence, confidence"
                                           f" FROM edge_heads WHERE {col} IN ({marks}) AND status IN ({smarks})",
                                           [*chunk, *statuses]):
                    out[r[0]] = (r[0], r[1], r[2], r[3], r[4], r[5], r[6])
        return [out[k] for k in sorted(out)]

    def get_edges(self, edge_ids: Sequence[int]) -> list[Edge]:
        return [_edge(r) for r in self._edges_by_id(_EDGE_COLS, edge_ids)]

    def get_edge(self, edge_id: int) -> Edge | None:
        rows = self._edges_by_id(_EDGE_COLS, [edge_id])
        return _edge(rows[0]) if rows else None

    def _edges_by_id(self, cols: str, edge_ids: Sequence[int]) -> list[tuple[Any, ...]]:
        """`cols` (id first) of the edges with these ids, in that order."""
        if self.derives_edges:  # (the `edges` view would evaluate every derived edge to match an id)
            return edges_by_id(self.conn, cols, edge_ids)
        out: list[tuple[Any, ...]] = []
        for chunk in _chunks(list(edge_ids)):
            out += self.conn.execute(f"SELECT {cols} FROM edges WHERE id IN ({','.join('?' * len(chunk))})",
                                     list(chunk)).fetchall()
        return out

    def find_edge(self, src: str, dst: str, type_: str) -> Edge | None:
        row = self.conn.execute(f"SELECT {_EDGE_COLS} FROM edges WHERE src = ? AND dst = ? AND type = ?",
                                (src, dst, type_)).fetchone()
        return _edge(row) if row else None

    def edge_states(self, keys: Sequence[EdgeKey]) -> dict[EdgeKey, tuple[int, str]]:
        """(src, dst, type) → (id, status) of the edges among `keys` that exist, one statement per source node: a
        restore over a store holding the file asked `find_edge` once per edge (~20 µs each, 354k for a 10k export)."""
        wanted = set(keys)
        targets: dict[str, set[str]] = {}
        for src, dst, _type in wanted:
            targets.setdefault(src, set()).add(dst)
        out: dict[EdgeKey, tuple[int, str]] = {}
        for src, dsts in targets.items():
            for chunk in _chunks(sorted(dsts)):
                for dst, type_, edge_id, status in self.conn.execute(
                        f"SELECT dst, type, id, status FROM edge_heads WHERE src = ? AND dst IN"
                        f" ({','.join('?' * len(chunk))})", [src, *chunk]):
                    if (src, dst, type_) in wanted:
                        out[(src, dst, type_)] = (int(edge_id), status)
        return out

    def edges_of(self, node_ids: Sequence[str], *, statuses: Sequence[str] = ("active",),
                 types: Sequence[str] | None = None, direction: str = "out") -> list[Edge]:
        out: list[Edge] = []
        ids = list(dict.fromkeys(node_ids))
        cols = {"out": ["src"], "in": ["dst"], "both": ["src", "dst"]}[direction]
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            for col in cols:
                sql = f"SELECT {_EDGE_COLS} FROM edges WHERE {col} IN ({marks})"
                args: list[Any] = list(chunk)
                if statuses:
                    sql += f" AND status IN ({','.join('?' * len(statuses))})"
                    args.extend(statuses)
                if types:
                    sql += f" AND type IN ({','.join('?' * len(types))})"
                    args.extend(types)
                out.extend(_edge(r) for r in self.conn.execute(sql + " ORDER BY id", args))
        if direction == "both":
            seen: set[int] = set()
            out = [e for e in out if e.id not in seen and not seen.add(e.id or 0)]  # type: ignore[func-returns-value]
        return out

    def adjacency(self, node_ids: Sequence[str], statuses: Sequence[str] = ("active",),
                  per_node: int | None = None) -> dict[str, list[Link]]:
        """Outgoing links per node, in edge-id order; `per_node` keeps only each node's newest links."""
        out: dict[str, list[Link]] = {}
        ids = list(dict.fromkeys(node_ids))
        smarks = ",".join("?" * len(statuses))
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            sql = (f"SELECT src, dst, type, sub_type, weight, id FROM edge_heads WHERE src IN ({marks})"
                   f" AND status IN ({smarks})")
            args: list[Any] = [*chunk, *statuses]
            if per_node is not None:
                sql = (f"SELECT src, dst, type, sub_type, weight, id FROM (SELECT *, ROW_NUMBER() OVER"
                       f" (PARTITION BY src ORDER BY id DESC) AS rn FROM ({sql})) WHERE rn <= ?")
                args.append(per_node)
            for row in self.conn.execute(sql + " ORDER BY id", args):
                out.setdefault(row[0], []).append(Link(*row))
        return out

    def edge_counts(self, node_ids: Sequence[str]) -> dict[str, int]:
        """Active edges touching each node (either end). Counted on `edge_rows` by node seq: through the `edges` view
        every counted row also joined both its ends to `nodes` (`gc` at 100k memories took 100 s)."""
        counts = dict.fromkeys(node_ids, 0)
        if len(counts) >= WHOLE_GRAPH_COUNTS:
            # most of the graph (`gc`): one pass over every edge beats a lookup per edge through the key index
            id_of = dict(self.conn.execute("SELECT seq, id FROM nodes").fetchall())
            # by dst: the (dst, status) index covers it; by src: reading the table in order (2 s at 5 M rows) beats the
            # (src, dst, type) index, which needs a table lookup per row for the status (8 s)
            sources = [("src", "edge_rows NOT INDEXED"), ("dst", "edge_rows"), ("src", CODED_ROWS), ("dst", CODED_ROWS)]
            if self.derives_edges:
                sources += [("src", f"({CONTAINED_ROWS})"), ("dst", f"({CONTAINED_ROWS})")]
            for col, source in sources:
                for seq, n in self.conn.execute(f"SELECT {col}, COUNT(*) FROM {source} WHERE status = 'active'"
                                                f" GROUP BY {col}"):
                    node = id_of.get(seq)
                    if node in counts:
                        counts[node] += n
            return counts
        for chunk in _chunks(list(counts)):
            id_of = dict(self.conn.execute(f"SELECT seq, id FROM nodes WHERE id IN ({','.join('?' * len(chunk))})",
                                           list(chunk)).fetchall())
            if not id_of:
                continue
            marks = ",".join("?" * len(id_of))
            for col in ("src", "dst"):
                derived = CONTAINED_ROWS_OF_NOTES if col == "src" else CONTAINED_ROWS
                for table in ["edge_rows", CODED_ROWS, *([f"({derived})"] if self.derives_edges else [])]:
                    for seq, n in self.conn.execute(f"SELECT {col}, COUNT(*) FROM {table} WHERE {col} IN ({marks})"
                                                    f" AND status = 'active' GROUP BY {col}", list(id_of)):
                        counts[id_of[seq]] += n
        return counts

    def importance_rows(self, flt: MemoryFilter, cap: int) -> list[ImportanceRow]:
        """Each memory's active edges counted up to `cap` through the indexes on either end, one memory at a time:
        `edge_counts` of every memory read every active edge (0.5 s of `gc` at 20k memories and 900k edges) and
        `get_nodes` decoded every row whole (0.4 s). Derived containment edges join a note to its vault rows, never
        a memory of the writer's, so the timed memories `gc` asks about have none."""
        where, args = _where(flt)
        ends = " UNION ALL ".join(
            f"SELECT 1 FROM {table} WHERE e.{col} = n.seq AND {status} = 'active'"
            for table, status in (("edge_rows e", "e.status"),
                                  ("coded_edges e JOIN edge_kinds k ON k.code = e.code", "k.status"))
            for col in ("dst", "src"))  # (dst first: its index holds the status; src's reads each row for it)
        return self.conn.execute(
            "SELECT n.id, n.importance, n.access_count, COALESCE(NULLIF(n.last_accessed_at, ''), n.created_at),"
            f" n.effective_importance, (SELECT COUNT(*) FROM ({ends} LIMIT ?)), n.created_at, n.inserted_at,"
            f" substr(n.source, 1, 8) = 'mneme://' FROM nodes n WHERE {where}",
            [cap, *args]).fetchall()

    def set_edge_status(self, edge_id: int, status: str, *, actor: str, reason: str,
                        confidence: float | None = None, when: str | None = None,
                        previous: str | None = None) -> None:
        now = when or iso(utcnow())
        as_rows(self, [edge_id])  # a decision on a derived edge or a coded row: it becomes a row first
        if confidence is None:
            self._write("UPDATE edge_rows SET status = ?, updated_at = ? WHERE id = ?", (status, now, edge_id))
        else:
            self._write("UPDATE edge_rows SET status = ?, confidence = ?, updated_at = ? WHERE id = ?",
                        (status, confidence, now, edge_id))
        detail: dict[str, Any] = {"status": status, "reason": reason}
        if confidence is not None:
            detail["confidence"] = confidence
        if previous is not None:
            detail["previous_status"] = previous
        self._write("INSERT INTO edge_events(edge_id, event, actor, detail, created_at) VALUES (?,?,?,?,?)",
                    (edge_id, status, actor, json.dumps(detail), now))

    def retire_edges_of(self, node_id: str, *, reason: str, when: str | None = None, actor: str = "forget") -> int:
        if self.derives_edges:
            materialise(self, derived_touching(self.conn, node_id, ("active", "candidate")))
        as_rows(self, [r[0] for r in self.conn.execute(
            f"SELECT id FROM {CODED_ROWS} WHERE (src = {SEQ_OF} OR dst = {SEQ_OF})"
            " AND status IN ('active', 'candidate')",
            (node_id, node_id))])
        held = self.conn.execute(
            f"SELECT id, status FROM edge_rows WHERE (src = {SEQ_OF} OR dst = {SEQ_OF})"
            " AND status IN ('active', 'candidate')", (node_id, node_id)).fetchall()
        ids = [r[0] for r in held]
        now = when or iso(utcnow())
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            self._write(f"UPDATE edge_rows SET status = 'retired', updated_at = ? WHERE id IN ({marks})", [now, *chunk])
        # the status it had: `forget --undo` gives a candidate back as a candidate (app/revival.py)
        self._write_many("INSERT INTO edge_events(edge_id, event, actor, detail, created_at) VALUES (?,?,?,?,?)",
                         [(i, "retired", actor, json.dumps({"reason": reason, "previous_status": was}), now)
                          for i, was in held])
        return len(ids)

    def edge_events(self, edge_id: int) -> list[dict[str, Any]]:
        """The edge's history: its creation (from the row) followed by every recorded change."""
        found = self._edges_by_id("id, origin, rule, created_at, status", [edge_id])
        row = found[0][1:] if found else None
        stored = [{"id": r[0], "event": r[1], "actor": r[2], "detail": json.loads(r[3]), "created_at": r[4]}
                  for r in self.conn.execute("SELECT id, event, actor, detail, created_at FROM edge_events"
                                             " WHERE edge_id = ? ORDER BY id", (edge_id,))]
        if row is None or (stored and stored[0]["event"] in ("created", "restored")):
            return stored
        created = {"id": None, "event": "created", "actor": row[0], "detail": {"origin": row[0], "rule": row[1]},
                   "created_at": row[2]}
        return [created, *stored]

    def latest_edge_events(self, edge_ids: Sequence[int],
                           kinds: Sequence[tuple[str, str]]) -> dict[int, tuple[str, str]]:
        wanted = set(kinds)
        out: dict[int, tuple[str, str]] = {}
        if not wanted:
            return out
        names = sorted({event for event, _actor in wanted})
        emarks = ",".join("?" * len(names))
        for chunk in _chunks(sorted(set(edge_ids))):
            # (every event of one edge is in one chunk, so the last one by id stands)
            out.update(latest_of_kinds(self.conn.execute(
                f"SELECT edge_id, event, actor FROM edge_events WHERE edge_id IN ({','.join('?' * len(chunk))})"
                f" AND event IN ({emarks}) ORDER BY id", [*chunk, *names]), wanted))
        return out

    def edges_with_events(self, events: Sequence[str]) -> set[int]:
        return {r[0] for r in self.conn.execute(
            f"SELECT DISTINCT edge_id FROM edge_events WHERE event IN ({','.join('?' * len(events))})", list(events))}

    def iter_edges(self, *, statuses: Sequence[str] | None = None) -> Iterator[Edge]:
        """Every edge in id order, each arm of the `edges` view read in its own id order and merged: the view read
        whole `ORDER BY id` sorted all its rows in a temporary B-tree before the first (an export of 100k memories,
        4.5 M edges, waited 75 s for it), reaching them through the nodes' id index in random order."""
        where, args = "", list(statuses or ())
        if statuses:
            where = f" WHERE status IN ({','.join('?' * len(statuses))})"
        # (CROSS JOIN keeps an arm's own table outermost, read in its key's order: left free, the planner started
        # an empty `coded_edges`' arm from the nodes; a store read-only before m066 has only the view)
        arms = [arm.replace(" JOIN ", " CROSS JOIN ") for arm in edge_view_arms(self.conn, EDGES_ARM) or []]
        yield from map(_edge, heapq.merge(*(_paged(self.conn.execute(
            f"SELECT {_EDGE_COLS} FROM ({arm}){where} ORDER BY id", args)) for arm in arms or ["SELECT * FROM edges"]),
            key=itemgetter(0)))

