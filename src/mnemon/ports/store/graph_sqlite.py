"""Whole-graph reads on SQLite for the in-memory recall graph (`ports.graph_index`): a generation token that
changes with every write recall can see, and the node heads and active edges in one pass each — all of them, or
only those added after a known node seq and edge id.

`SQLiteStore` inherits these methods (a mixin, like `world_sqlite` / `vault_sqlite` hold their own SQL), so the
store interface stays one object and a PostgreSQL backend implements the same two calls.
"""
from __future__ import annotations

import heapq
import itertools
import json
import sqlite3
import threading
from operator import itemgetter
from collections.abc import Callable, Generator, Iterator
from typing import Any

from .base import EdgeColumns
from .coded_edges_sqlite import CODED_ROWS
from .contained_sqlite import CONTAINED_ROWS, NOTES_OF_ITEMS_AFTER
from .vault_texts_sqlite import titles_and_texts

CHANGES_KEPT = 50_000  # rows of graph_changes kept; a reader further behind reads everything again

# Inserts show in the newest node seq and edge id, so they need no trigger (a write adds ~40 edge rows). Every
# other change recall can observe — an update of a column it reads, a delete — redraws `graph_generation` and
# `graph_mutation` in the same transaction, whoever writes it (this store, vault ingest, another process), and
# records which node it touched in `graph_changes` (an updated node, or the source of an updated edge; NULL for a
# deleted row, which only a full read can follow). A reader that knows the last change it saw reads only the rows
# added since plus the touched nodes and their out-edges. Touching (access counts) and effective-importance
# updates record nothing: recall reads neither. Values are fresh random numbers rather than counters, so a
# snapshot saved for one history of the file is never taken for another that reaches the same count.
_BUMP_ALL = "UPDATE meta SET value = random() WHERE key IN ('graph_generation', 'graph_mutation');"
_MARK = "(SELECT value FROM meta WHERE key = 'graph_mutation')"  # which history a logged change belongs to
GRAPH_GENERATION_MIGRATION = (
    "m030_graph_generation",
    f"""
    INSERT OR IGNORE INTO meta(key, value) VALUES ('graph_generation', '0'), ('graph_mutation', '0');
    CREATE TABLE graph_changes (seq INTEGER PRIMARY KEY, node TEXT, mark TEXT);
    CREATE TRIGGER graph_changes_trim AFTER INSERT ON graph_changes WHEN NEW.seq % 1000 = 0
        BEGIN DELETE FROM graph_changes WHERE seq <= NEW.seq - {CHANGES_KEPT}; END;
    CREATE TRIGGER edges_graph_del AFTER DELETE ON edges
        BEGIN {_BUMP_ALL} INSERT INTO graph_changes(node, mark) VALUES (NULL, {_MARK}); END;
    CREATE TRIGGER edges_graph_upd AFTER UPDATE OF src, dst, type, sub_type, weight, status ON edges
        BEGIN {_BUMP_ALL} INSERT INTO graph_changes(node, mark) VALUES (OLD.src, {_MARK});
              INSERT INTO graph_changes(node, mark) SELECT NEW.src, {_MARK} WHERE NEW.src != OLD.src; END;
    CREATE TRIGGER nodes_graph_del AFTER DELETE ON nodes
        BEGIN {_BUMP_ALL} INSERT INTO graph_changes(node, mark) VALUES (NULL, {_MARK}); END;
    CREATE TRIGGER nodes_graph_upd AFTER UPDATE OF kind, title, content, category, importance, tags, entities,
        source, created_at, deleted_at ON nodes
        BEGIN {_BUMP_ALL} INSERT INTO graph_changes(node, mark) VALUES (OLD.id, {_MARK}); END;
    """,
)

# a packed vault memory (vault_texts_sqlite.py) changes its text without touching `content`: its hash tells (an
# UPDATE naming the column fires the trigger whatever the value, so a rewrite keeping a hash marker still counts)
GRAPH_TEXT_HASH_MIGRATION = (
    "m051_graph_sees_text_hash",
    f"""
    DROP TRIGGER nodes_graph_upd;
    CREATE TRIGGER nodes_graph_upd AFTER UPDATE OF kind, title, content, content_hash, category, importance, tags,
        entities, source, created_at, deleted_at ON nodes
        BEGIN {_BUMP_ALL} INSERT INTO graph_changes(node, mark) VALUES (OLD.id, {_MARK}); END;
    """,
)

# the statements that name how far a read reached and read back what a mark names, in qmark style (PostgreSQL's
# reader runs them with its own placeholder)
LAST_NODE = "SELECT seq, id FROM nodes ORDER BY seq DESC LIMIT 1"
# the view cannot use edge_rows' key for ORDER BY … LIMIT 1 (it would scan every edge): look the newest id up first.
# Rows only: an edge derived from its item (contained_sqlite.py, id = -seq) is new when its item is
_EDGE_KEY = ("SELECT e.id, s.id || ' ' || d.id || ' ' || e.type FROM edge_rows e JOIN nodes s ON s.seq = e.src"
             " JOIN nodes d ON d.seq = e.dst WHERE e.id = ")
LAST_EDGE = _EDGE_KEY + "(SELECT MAX(id) FROM edge_rows WHERE id > 0)"
LAST_CHANGE = "SELECT seq, mark FROM graph_changes ORDER BY seq DESC LIMIT 1"
CHANGES_AFTER = "SELECT seq, node FROM graph_changes WHERE seq > ? ORDER BY seq"
VALUE_AT = {"node": "SELECT id FROM nodes WHERE seq = ?",
            "edge": _EDGE_KEY.replace("e.id, ", "", 1) + "?",
            "change": "SELECT mark FROM graph_changes WHERE seq = ?"}
# ...and on SQLite, where an edge the ingest wrote may be a coded row (coded_edges_sqlite.py): the newest edge's id,
# and an edge's key read from either table (one indexed lookup each: a UNION of the two in a join is a co-routine)
_NEWEST_EDGE = ("SELECT MAX(m) FROM (SELECT MAX(id) AS m FROM edge_rows WHERE id > 0"
                " UNION ALL SELECT MAX(id) FROM coded_edges)")
_CODED_KEY = ("SELECT s.id || ' ' || d.id || ' ' || k.type FROM coded_edges e JOIN edge_kinds k ON k.code = e.code"
              " JOIN nodes s ON s.seq = e.src JOIN nodes d ON d.seq = e.dst WHERE e.id = ?")
# the active edges after an id, their ends named, in id order (CROSS JOIN: from the id range, whatever the statistics)
_EDGES_AFTER = tuple(f"SELECT e.id, s.id, d.id, {cols} FROM {table} CROSS JOIN nodes s ON s.seq = e.src"
                     f" CROSS JOIN nodes d ON d.seq = e.dst WHERE {status} = 'active' AND e.id > ? ORDER BY e.id"
                     for table, cols, status in (
                         ("edge_rows e", "e.type, e.sub_type, e.weight", "e.status"),
                         ("coded_edges e CROSS JOIN edge_kinds k ON k.code = e.code", "k.type, k.sub_type, k.weight",
                          "k.status")))
_SEQ_KEYS = ("SELECT src, dst, type FROM edge_rows WHERE id = ?",
             "SELECT c.src, c.dst, k.type FROM coded_edges c JOIN edge_kinds k ON k.code = c.code WHERE c.id = ?")

class SQLiteGraphReads:
    """Mixed into `SQLiteStore`; uses its connection and lock."""

    conn: sqlite3.Connection
    _lock: threading.RLock
    derives_edges: bool

    def graph_generation(self) -> tuple[str, str]:
        """(generation, mutation): opaque tokens. `generation` is equal only while nodes and active edges are
        unchanged; `mutation` stays equal while every change since was an insert. Tokens starting with
        'volatile:' mean only something to this connection (a read-only store from before the counters)."""
        with self._lock:
            rows = dict(self.conn.execute(
                "SELECT key, value FROM meta WHERE key IN ('graph_generation', 'graph_mutation')").fetchall())
            if len(rows) < 2:
                version = self.conn.execute("PRAGMA data_version").fetchone()[0]
                token = f"volatile:{version}:{self.conn.total_changes}"
                return token, token
            # the newest node's id and edge's ends too: two histories that only inserted (a restored backup written
            # on again, a database removed and started anew) reach the same counts, not the same rows
            newest = [*self.conn.execute("SELECT n.seq, n.id FROM (SELECT MAX(seq) AS last_seq FROM nodes)"
                                         " LEFT JOIN nodes n ON n.seq = last_seq").fetchone(),
                      self.conn.execute(_NEWEST_EDGE).fetchone()[0]]
            newest += self._first_row(_SEQ_KEYS, newest[2]) or (None, None, None)
            return (f"{rows['graph_generation']}:{newest[0] or 0}:{newest[2] or 0}:{newest[1]}:{newest[3]}>"
                    f"{newest[4]}:{newest[5]}", str(rows["graph_mutation"]))

    def graph_export(self, after: list[Any] | None = None) -> Generator[Any, None, None]:
        """The graph as of one generation, read in one transaction. First yields (generation, nodes, marks,
        inside a writer's transaction?), then the active edges in batches (a million-edge graph never sits in one
        list). Iterate it to the end or close it. `marks` say how far this read reached; handed back as `after`,
        they ask for only what a reader holding them lacks: the nodes added or changed since and every active
        out-edge of a changed node or added since. If that cannot be told (a row was deleted, the change log no
        longer reaches back, or the rows the marks name are not there: another history of the file) `nodes` is
        None and no edges follow: read everything instead.
        nodes: (id, kind, deleted?, category, source, title, content, tags, entities, importance, created_at) in
        seq order, deleted ones included; edges: (src, dst, type, sub_type, weight) in edge-id order."""
        with self._lock:
            inside = self.conn.in_transaction
            if not inside:
                self.conn.execute("BEGIN")  # deferred: a read snapshot, no write lock
            try:
                marks = self._marks()
                start = resume_point(after, marks, self._changes_since)
                if start is None:
                    yield self.graph_generation(), None, marks, inside
                    return
                changed, after_seq, after_edge_id = start
                if after is not None and self.derives_edges:
                    # a derived edge is new with its item (contained_sqlite.py) but leaves an older note: that
                    # note's out-edges are read again, in id order, as a changed node's are
                    changed = list(dict.fromkeys([*changed, *(r[0] for r in self.conn.execute(
                        NOTES_OF_ITEMS_AFTER, (after_seq,)))]))
                seqs, nodes = self._node_rows(after_seq, changed)
                yield self.graph_generation(), nodes, marks, inside
                if after is None:  # every node was just read: name the edges' ends from them, not row by row
                    yield from self._all_edge_columns(seqs)
                else:
                    yield from self._edge_rows(after_edge_id, changed)
            finally:
                if not inside:
                    self.conn.execute("COMMIT")

    def _marks(self) -> list[Any]:
        """[last node seq, its id, last edge id, its src/dst/type, last change seq, its mark]."""
        node = self.conn.execute(LAST_NODE).fetchone() or (0, "")
        last = self.conn.execute(_NEWEST_EDGE).fetchone()[0]
        key = self._value_at("edge", last) if last is not None else None
        edge = (last, key) if key is not None else (0, "")
        try:
            change = self.conn.execute(LAST_CHANGE).fetchone()
        except sqlite3.OperationalError:  # a read-only store from before the log: nothing can be followed
            change = (-1, "")
        return [*node, *edge, *(change or (0, ""))]

    def _changes_since(self, after: list[Any], now: list[Any]) -> list[str] | None:
        return changes_since(after, now, self._value_at,
                             lambda change: self.conn.execute(CHANGES_AFTER, (change,)).fetchall())

    def _value_at(self, what: str, key: int) -> Any:
        if what == "edge":
            row = self._first_row((_EDGE_KEY.replace("e.id, ", "", 1) + "?", _CODED_KEY), key)
        else:
            row = self.conn.execute(VALUE_AT[what], (key,)).fetchone()
        return row[0] if row else None

    def _first_row(self, statements: tuple[str, ...], key: Any) -> tuple[Any, ...] | None:
        """The row the first of `statements` finds for `key` (an edge id: a row's, else a coded row's)."""
        if key is None:
            return None
        for sql in statements:
            row = self.conn.execute(sql, (key,)).fetchone()
            if row is not None:
                return tuple(row)
        return None

    def _node_rows(self, after_seq: int, changed: list[str]) -> tuple[list[int], list[tuple[Any, ...]]]:
        # packed rows' titles and texts are put back in Python, a note's blobs decoded once (`titles_and_texts`)
        cols = ("seq, kind, source, title, content, content_hash, metadata, id, deleted_at IS NOT NULL, category,"
                " tags, entities, importance, created_at")
        rows = self.conn.execute(f"SELECT {cols} FROM nodes WHERE seq > ?", (after_seq,)).fetchall()
        for i in range(0, len(changed), 500):
            chunk = changed[i:i + 500]
            rows += self.conn.execute(f"SELECT {cols} FROM nodes WHERE id IN ({','.join('?' * len(chunk))})"
                                      " AND seq <= ?", [*chunk, after_seq]).fetchall()
        rows.sort(key=lambda r: r[0])
        shown = titles_and_texts(self.conn, [r[:7] for r in rows])
        return [r[0] for r in rows], [(r[7], r[1], r[8], r[9], r[2], title, text, _words(r[10]), _words(r[11]),
                                       r[12], r[13]) for r, (title, text) in zip(rows, shown)]

    def _all_edge_columns(self, seqs: list[int]) -> Iterator[EdgeColumns]:
        """Every active edge as one `EdgeColumns`, ends as indexes into the node rows of `seqs` (ascending). Each
        table is read in batches into arrays and the edges put in id order by one sort (derived edges' ids, -item
        seq, are below every row's), not merged and renamed row by row in Python."""
        import numpy as np

        tables = [f"({CONTAINED_ROWS})"] if self.derives_edges else []
        code = _ClassCodes()
        node_seqs = np.array(seqs, dtype=np.int64)
        last = max(0, len(seqs) - 1)
        parts: list[tuple[np.ndarray, ...]] = []  # per batch: (id, src, dst, class, weight) of the known edges
        for table in [*tables, "edge_rows", CODED_ROWS]:
            cur = self.conn.execute(f"SELECT id, src, dst, weight, type, sub_type FROM {table} WHERE status = 'active'")
            while rows := cur.fetchmany(self._EXPORT_BATCH):
                n = len(rows)  # (a column by `itemgetter` costs a tenth of what transposing by zip(*rows) does)
                ends = []
                for k in (1, 2):
                    seq = np.fromiter(map(itemgetter(k), rows), dtype=np.int64, count=n)
                    at = np.minimum(np.searchsorted(node_seqs, seq), last)
                    ends.append((at, node_seqs[at] == seq if len(seqs) else np.zeros(n, dtype=bool)))
                known = ends[0][1] & ends[1][1]  # (every edge's ends are nodes: the foreign keys say so)
                parts.append((np.fromiter(map(itemgetter(0), rows), dtype=np.int64, count=n)[known],
                              ends[0][0][known].astype(np.int32), ends[1][0][known].astype(np.int32),
                              np.fromiter(map(code.__getitem__, map(itemgetter(4, 5), rows)), dtype=np.int16,
                                          count=n)[known],
                              np.fromiter(map(itemgetter(3), rows), dtype=np.float64, count=n)[known]))
        dtypes = (np.int64, np.int32, np.int32, np.int16, np.float64)
        columns = [np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, dtype=dt)
                   for k, dt in enumerate(dtypes)]
        del parts
        order = np.argsort(columns.pop(0), kind="stable")
        for k, column in enumerate(columns):  # (one column at a time: a 100k store's edges are 4.5 million)
            columns[k] = column[order]
            del column
        src, dst, cls, weight = columns
        yield EdgeColumns(src=src, dst=dst, cls=cls, classes=list(code), weight=weight)

    def _edge_rows(self, after_edge_id: int, changed: list[str]) -> Iterator[list[tuple[Any, ...]]]:
        """Active edges in id order: the changed nodes' out-edges up to `after_edge_id` (their ids are all below
        the rest), then every edge after it."""
        old: list[tuple[Any, ...]] = []
        for i in range(0, len(changed), 500):
            chunk = changed[i:i + 500]
            old += self.conn.execute(
                "SELECT id, src, dst, type, sub_type, weight FROM edge_heads WHERE status = 'active' AND id <= ?"
                f" AND src IN ({','.join('?' * len(chunk))})", [after_edge_id, *chunk]).fetchall()
        if old:
            old.sort(key=lambda r: r[0])
            yield [r[1:] for r in old]
        # (ids after it are rows or coded rows, in one id order: a derived one's is negative)
        merged = heapq.merge(*(self._named(sql, after_edge_id) for sql in _EDGES_AFTER))
        while rows := [r[1:] for r in itertools.islice(merged, self._EXPORT_BATCH)]:
            yield rows

    def _named(self, sql: str, after_edge_id: int) -> Iterator[tuple[Any, ...]]:
        cur = self.conn.execute(sql, (after_edge_id,))
        while rows := cur.fetchmany(self._EXPORT_BATCH):
            yield from rows

    _EXPORT_BATCH = 50_000


def resume_point(after: list[Any] | None, marks: list[Any],
                 since: Callable[[list[Any], list[Any]], list[str] | None]) -> tuple[list[str], int, int] | None:
    """Where an export picks up for a reader holding `after`: (changed node ids, last node seq, last edge id) it
    already has — nothing for a first read — or None when the changes since cannot be followed."""
    if after is None:
        return [], 0, 0
    changed = since(after, marks)
    return None if changed is None else (changed, int(after[0]), int(after[2]))


def changes_since(after: list[Any], now: list[Any], value_at: Callable[[str, int], Any],
                  logged_after: Callable[[int], list[Any]]) -> list[str] | None:
    """The nodes changed since `after` (marks of an earlier read; `now` the current ones), or None when that cannot
    be told: the rows the marks name are not there (another history of the file), a row was deleted, or the change
    log was trimmed past what the reader saw. `value_at(kind, key)` reads back the node id at a seq, the edge key at
    an edge id or the mark of a change; `logged_after(change)` the (seq, node) rows logged since, in order."""
    seq, node_id, edge_id, edge_key, change, mark = after
    if now[4] < 0 or change < 0 or now[0] < seq or now[2] < edge_id or now[4] < change:
        return None
    if (seq and value_at("node", seq) != node_id) or (edge_id and value_at("edge", edge_id) != edge_key):
        return None
    if change and value_at("change", change) != mark:
        return None
    if now[4] == change:
        return []
    rows = logged_after(change)
    if not rows or rows[0][0] != change + 1 or any(node is None for _, node in rows):
        return None
    return list(dict.fromkeys(node for _, node in rows))


class _ClassCodes(dict):  # type: ignore[type-arg]
    """(type, sub_type) → its code, numbered on first sight; iterating gives the classes in code order."""

    def __missing__(self, key: tuple[str, str]) -> int:
        k = self[key] = len(self)
        return k


def _words(value: str) -> list[str]:
    return json.loads(value) if value and value != "[]" else []
