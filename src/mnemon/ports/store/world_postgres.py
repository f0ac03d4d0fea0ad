"""World-model tables on PostgreSQL: the SQLite implementation's statements, run through psycopg.

`SQLiteWorld` writes portable SQL (plain INSERT … ON CONFLICT, LIKE … ESCAPE, ORDER BY) with qmark parameters;
rather than keeping a second copy of every world query, `PostgresWorld` hands it a view of the store that rewrites
`?` to psycopg's `%s` and SQLite's insert-once (`INSERT OR IGNORE`) to `ON CONFLICT DO NOTHING`. The one statement
that reads SQLite's catalogue (the table check) is replaced here.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .world_sqlite import _TABLES, SQLiteWorld

if TYPE_CHECKING:
    from .postgres import PostgresStore

_INSERT_OR_IGNORE = "INSERT OR IGNORE INTO"


def _pyformat(sql: str) -> str:
    # the world statements hold no literal '?' and no literal '%' (LIKE patterns travel as parameters)
    sql = sql.replace("%", "%%").replace("?", "%s")
    if sql.startswith(_INSERT_OR_IGNORE):  # SQLite's insert-once; the statement is a single-row VALUES insert
        sql = "INSERT INTO" + sql[len(_INSERT_OR_IGNORE):] + " ON CONFLICT DO NOTHING"
    return sql


class _QmarkConnection:
    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._store.conn.execute(_pyformat(sql), list(args) or None)  # type: ignore[arg-type]


class _QmarkStore:
    """What `SQLiteWorld` uses of its store (`conn.execute`, `_write`), speaking qmark SQL to a PostgresStore."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self.conn = _QmarkConnection(store)

    def _write(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._store._write(_pyformat(sql), list(args))


class PostgresWorld(SQLiteWorld):
    """The world-model tables of one `PostgresStore` (reach it as `store.world`)."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(_QmarkStore(store))  # type: ignore[arg-type]

    def ready(self) -> bool:
        if self._ready is None:
            found = self.conn.execute("SELECT COUNT(*) FROM unnest(?::text[]) AS t(name)"
                                      " WHERE to_regclass(t.name) IS NOT NULL", [list(_TABLES)]).fetchone()[0]
            self._ready = int(found) == len(_TABLES)
        return self._ready
