"""Whole-graph reads on SQLite for the in-memory recall graph (`ports.graph_index`): a generation token that
changes with every write recall can see, and the node heads and active edges in one pass each — all of them, or
only those added after a known node seq and edge id.

`SQLiteStore` inherits these methods (a mixin, like `world_sqlite` / `vault_sqlite` hold their own SQL), so the
store interface stays one object and a PostgreSQL backend implements the same two calls.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

# Every change recall can observe redraws `graph_generation` in the same transaction, whoever writes it (this
# store, vault ingest, another process); a change that is not a plain insert (an update of a column recall reads,
# a delete) also redraws `graph_mutation`. While `graph_mutation` stands, a reader may extend what it read with
# the rows added since instead of reading everything again. Touching (access counts) and effective-importance
# updates redraw nothing: recall reads neither. Values are fresh random numbers rather than counters, so a snapshot
# saved for one history of the file is never taken for another that reaches the same count (a restored backup).
_BUMP_ANY = "BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;"
_BUMP_ALL = "BEGIN UPDATE meta SET value = random() WHERE key IN ('graph_generation', 'graph_mutation'); END;"
GRAPH_GENERATION_MIGRATION = (
    "m030_graph_generation",
    f"""
    INSERT OR IGNORE INTO meta(key, value) VALUES ('graph_generation', '0'), ('graph_mutation', '0');
    CREATE TRIGGER edges_graph_ins AFTER INSERT ON edges {_BUMP_ANY}
    CREATE TRIGGER edges_graph_del AFTER DELETE ON edges {_BUMP_ALL}
    CREATE TRIGGER edges_graph_upd AFTER UPDATE OF src, dst, type, sub_type, weight, status ON edges {_BUMP_ALL}
    CREATE TRIGGER nodes_graph_ins AFTER INSERT ON nodes {_BUMP_ANY}
    CREATE TRIGGER nodes_graph_del AFTER DELETE ON nodes {_BUMP_ALL}
    CREATE TRIGGER nodes_graph_upd AFTER UPDATE OF kind, title, content, category, importance, tags, entities,
        source, created_at, deleted_at ON nodes {_BUMP_ALL}
    """,
)


class SQLiteGraphReads:
    """Mixed into `SQLiteStore`; uses its connection and lock."""

    conn: sqlite3.Connection
    _lock: threading.RLock

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
            return str(rows["graph_generation"]), str(rows["graph_mutation"])

    def graph_export(self, after_seq: int = 0, after_edge_id: int = 0, batch: int = 50_000) -> Iterator[Any]:
        """The graph as of one generation, read in one transaction: first (generation, nodes, last seq, last
        edge id), then the active edges in batches (a million-edge graph never sits in one list). With `after_*`
        only the nodes and edges added after those. Iterate it to the end or close it.
        nodes: (id, kind, deleted?, category, source, title, content, tags, entities, importance, created_at) in
        seq order, deleted ones included;
        edges: (src, dst, type, sub_type, weight) in edge-id order."""
        with self._lock:
            own = not self.conn.in_transaction
            if own:
                self.conn.execute("BEGIN")  # deferred: a read snapshot, no write lock
            try:
                nodes = [(*r[:5], r[5], r[6], _words(r[7]), _words(r[8]), r[9], r[10]) for r in self.conn.execute(
                    "SELECT id, kind, deleted_at IS NOT NULL, category, source, title, content, tags, entities,"
                    " importance, created_at FROM nodes WHERE seq > ? ORDER BY seq", (after_seq,))]
                last_seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM nodes").fetchone()[0]
                last_edge = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM edges").fetchone()[0]
                yield self.graph_generation(), nodes, max(after_seq, last_seq), max(after_edge_id, last_edge)
                cur = self.conn.execute(
                    "SELECT src, dst, type, sub_type, weight FROM edges WHERE id > ? AND status = 'active'"
                    " ORDER BY id", (after_edge_id,))
                while rows := cur.fetchmany(batch):
                    yield rows
            finally:
                if own:
                    self.conn.execute("COMMIT")


def _words(value: str) -> list[str]:
    return json.loads(value) if value and value != "[]" else []
