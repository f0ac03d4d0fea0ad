"""Applying SQLite migration steps: each in its own write transaction with its record, so several processes opening
one store at once apply every step exactly once; then, after a step that copied a whole table, the file is compacted."""
from __future__ import annotations

import sqlite3

from ...core.model import iso, utcnow
from ...core.errors import StoreError
from .base import refuse_newer_schema
from .schema_sqlite import MIGRATIONS, REWRITING_MIGRATIONS


def migrate(conn: sqlite3.Connection, path: str = "") -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {r[0] for r in conn.execute("SELECT name FROM migrations")}
    refuse_newer_schema(path, done, (name for name, _ in MIGRATIONS))
    if all(name in done for name, _ in MIGRATIONS):
        return
    rewrote = False
    for name, sql in MIGRATIONS:
        # Re-check inside the write lock: another process may have applied it meanwhile.
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("COMMIT")
                continue
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO migrations(name, applied_at) VALUES (?, ?)", (name, iso(utcnow())))
            conn.execute("COMMIT")
            rewrote = rewrote or name in REWRITING_MIGRATIONS
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    if rewrote:
        compact(conn)


def refuse_upgraded_meanwhile(conn: sqlite3.Connection, path: str) -> None:
    """Inside a write transaction: a newer mnemon upgraded the store since this process opened it (a `serve`, `mcp
    serve` or daemon runs on), so a write in the old layout, which it would misread, is refused as an open would be,
    the transaction rolled back."""
    if conn.execute("SELECT COUNT(*) FROM migrations").fetchone()[0] > len(MIGRATIONS):
        try:
            refuse_newer_schema(path, [r[0] for r in conn.execute("SELECT name FROM migrations")],
                                (name for name, _ in MIGRATIONS))
        except StoreError:
            conn.execute("ROLLBACK")
            raise


def compact(conn: sqlite3.Connection) -> None:
    """Give back the pages a migration that copied a table left free, when they are a large part of the file
    (an upgraded 100k-memory store: 2.7 GB before). Best effort: another process reading the store makes VACUUM
    wait or fail, and then SQLite simply reuses the free pages for later writes."""
    pages, free = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
    if free * 4 < pages:
        return
    try:
        conn.execute("VACUUM")
    except sqlite3.OperationalError:
        pass


def split_sql(script: str) -> list[str]:
    """Split a migration script into statements, keeping trigger bodies (BEGIN … END;) whole."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        if line.strip().startswith("--") and not buf.strip():
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
