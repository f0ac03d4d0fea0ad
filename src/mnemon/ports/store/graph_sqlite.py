"""Whole-graph reads on SQLite for the in-memory recall graph (`ports.graph_index`): a generation token that
changes with every write recall can see, and every node head and active edge in one pass each.

`SQLiteStore` inherits these methods (a mixin, like `world_sqlite` / `vault_sqlite` hold their own SQL), so the
store interface stays one object and a PostgreSQL backend implements the same three calls.
"""
from __future__ import annotations

import sqlite3
import threading
from typing import Any

# Every change recall can observe bumps `graph_generation` in the same transaction, whoever writes it (this
# store, vault ingest, another process). Touching (access counts) and effective-importance updates do not: recall
# reads neither. The value is a fresh random number rather than a counter, so a snapshot saved for one history of
# the file is never mistaken for another history that happens to reach the same count (a restored backup).
GRAPH_GENERATION_MIGRATION = (
    "m030_graph_generation",
    """
    INSERT OR IGNORE INTO meta(key, value) VALUES ('graph_generation', '0');
    CREATE TRIGGER edges_graph_ins AFTER INSERT ON edges
        BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;
    CREATE TRIGGER edges_graph_del AFTER DELETE ON edges
        BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;
    CREATE TRIGGER edges_graph_upd AFTER UPDATE OF src, dst, type, sub_type, weight, status ON edges
        BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;
    CREATE TRIGGER nodes_graph_ins AFTER INSERT ON nodes
        BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;
    CREATE TRIGGER nodes_graph_del AFTER DELETE ON nodes
        BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;
    CREATE TRIGGER nodes_graph_upd AFTER UPDATE OF kind, title, content, category, importance, tags, entities,
        source, created_at, deleted_at ON nodes
        BEGIN UPDATE meta SET value = random() WHERE key = 'graph_generation'; END;
    """,
)


class SQLiteGraphReads:
    """Mixed into `SQLiteStore`; uses its connection and lock."""

    conn: sqlite3.Connection
    _lock: threading.RLock

    def graph_generation(self) -> str:
        """Opaque token, equal only while nodes and active edges are unchanged. A token starting with
        'volatile:' is only meaningful to this connection (a read-only store from before the counter existed)."""
        with self._lock:
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'graph_generation'").fetchone()
            if row is None:
                version = self.conn.execute("PRAGMA data_version").fetchone()[0]
                return f"volatile:{version}:{self.conn.total_changes}"
            return str(row[0])

    def graph_export(self) -> tuple[str, list[tuple[str, str, bool, str, str]], list[tuple[Any, ...]]]:
        """(generation, nodes, edges) read in one transaction, so the rows are exactly that generation's.
        nodes: (id, kind, deleted?, category, source) of every node, deleted ones included, in insertion order;
        edges: (src, dst, type, sub_type, weight) of every active edge, in edge-id order."""
        with self._lock:
            own = not self.conn.in_transaction
            if own:
                self.conn.execute("BEGIN")  # deferred: a read snapshot, no write lock
            try:
                generation = self.graph_generation()
                nodes = self.conn.execute(
                    "SELECT id, kind, deleted_at IS NOT NULL, category, source FROM nodes ORDER BY seq").fetchall()
                edges = self.conn.execute(
                    "SELECT src, dst, type, sub_type, weight FROM edges WHERE status = 'active' ORDER BY id").fetchall()
            finally:
                if own:
                    self.conn.execute("COMMIT")
        return generation, nodes, edges
