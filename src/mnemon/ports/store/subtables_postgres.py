"""World-model and vault tables on PostgreSQL: the SQLite implementations' statements, run through psycopg.

`SQLiteWorld` and `SQLiteVault` write portable SQL (INSERT … ON CONFLICT, LIKE … ESCAPE, range scans, joins) with
qmark parameters. Rather than keeping a second copy of every world and vault query, the PostgreSQL classes hand them
a view of the store that rewrites the few dialect spellings: `?` → `%s`, SQLite's insert-once (`INSERT OR IGNORE`)
→ `ON CONFLICT DO NOTHING`, `instr(` → `strpos(` (same arguments, same 1-based result), and the column name
`symmetric` (reserved in PostgreSQL) is quoted. What cannot be rewritten is
overridden below: reads of SQLite's catalogue, and the keyword index, which is a tsvector here (`postgres_index`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from ...core.keywords import keyword_text
from .base import another_ingest, take_turns
from .postgres import finds_nothing
from .postgres_index import tsvector_literal
from .schema_postgres import quote_reserved
from .vault_sqlite import SQLiteVault
from .world_sqlite import _TABLES, SQLiteWorld

if TYPE_CHECKING:
    from .postgres import PostgresStore

_INSERT_OR_IGNORE = "INSERT OR IGNORE INTO"


def _pyformat(sql: str) -> str:
    # the shared statements hold no literal '?' and no literal '%' (LIKE patterns travel as parameters)
    sql = sql.replace("%", "%%").replace("?", "%s").replace("instr(", "strpos(")
    sql = quote_reserved(sql)
    if sql.startswith(_INSERT_OR_IGNORE):  # SQLite's insert-once; the statements are single-row VALUES inserts
        sql = "INSERT INTO" + sql[len(_INSERT_OR_IGNORE):] + " ON CONFLICT DO NOTHING"
    return sql


class _NoRows:
    """The answer of a read no row can match (`postgres.finds_nothing`), as a cursor reads it."""

    rowcount = 0

    def fetchone(self) -> None:
        return None

    def fetchall(self) -> list[Any]:
        return []

    def fetchmany(self, size: int = 0) -> list[Any]:
        return []

    def __iter__(self) -> Iterator[Any]:
        return iter(())


class _QmarkConnection:
    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        if finds_nothing(sql, list(args)):
            return _NoRows()
        return self._store.conn.execute(_pyformat(sql), list(args) or None)  # type: ignore[arg-type]


class _QmarkStore:
    """What the SQLite sub-stores use of their store (`conn.execute`, `_write`, `_write_many`), in qmark SQL."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self.conn = _QmarkConnection(store)

    def _write(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._store._write(_pyformat(sql), list(args))

    def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._store._write_many(_pyformat(sql), rows)

    def node_seqs(self, node_ids: Sequence[str]) -> dict[str, int]:
        return self._store.node_seqs(node_ids)

    def _count_new_edges(self, keys: Iterable[tuple[str, str]]) -> None:
        """Nothing to keep: PostgreSQL counts edges by type and status with `GROUP BY` (no `edge_counts` table)."""

    def insert_new_edge_rows(self, sql: str, rows: list[tuple[Any, ...]], counts: Any) -> None:
        self._write_many(sql, rows)  # the server checks the status per row, and counts nothing (see above)


def _tables_exist(store: Any, names: Sequence[str]) -> bool:
    found = store.conn.execute("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()"
                               " AND tablename = ANY(?)", [list(names)]).fetchone()[0]
    return int(found) == len(names)


class PostgresWorld(SQLiteWorld):
    """The world-model tables of one `PostgresStore` (reach it as `store.world`)."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(_QmarkStore(store))  # type: ignore[arg-type]

    def ready(self) -> bool:
        if self._ready is None:
            self._ready = _tables_exist(self.store, _TABLES)
        return self._ready

    def active_edge_relations(self) -> dict[str, int]:
        """As on SQLite; counted here (SQLite keeps the counts in a table of their own)."""
        return {r[0]: int(r[1]) for r in self.conn.execute(
            "SELECT type, COUNT(*) FROM edge_rows WHERE status = 'active' GROUP BY type")}


class PostgresVault(SQLiteVault):
    """The vault tables of one `PostgresStore` (reach it as `store.vault`)."""

    packs_texts = False  # TOAST compresses a long text in its row; short ones stay readable in place

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(_QmarkStore(store))  # type: ignore[arg-type]

    def _index_rows(self, rows: Sequence[tuple[Any, ...]], fts_bodies: Sequence[str | None] | None,
                    seqs: Sequence[int] | None) -> None:
        """The tsvector documents of the memories among `node_row` tuples (SQLite's FTS rows, spelled for here)."""
        memories = [(r, fts_bodies[i] if fts_bodies is not None else None) for i, r in enumerate(rows)
                    if r[1] == "memory"]
        self._write_many("DELETE FROM memory_fts WHERE node_seq = (SELECT seq FROM nodes WHERE id = ?)",
                         [(r[0],) for r, _ in memories])
        self._write_many("INSERT INTO memory_fts(node_seq, doc) SELECT seq, ?::tsvector FROM nodes WHERE id = ?",
                         [(tsvector_literal(keyword_text(r[2], r[3], r[9], r[13]) if body is None else body,
                                            json.loads(r[7]), json.loads(r[8])), r[0]) for r, body in memories])

    def _unindex_rows(self, ids: Sequence[str]) -> None:
        pass  # `_index_rows` replaces a row's document by its seq: nothing has to be handed back first

    @contextmanager
    def ingest_lock(self) -> Iterator[None]:
        """As on SQLite (`SQLiteVault.ingest_lock`): a session advisory lock per schema, apart from the write
        transactions' one, so remembers and readers go on while a second ingest waits. The server releases it if
        the session ends."""
        store = self.store._store  # type: ignore[attr-defined]
        if store.readonly:
            yield
            return
        import psycopg

        key = "SELECT hashtext('mnemon-ingest:' || current_schema())"
        with store._lock:
            # waited for at most busy_wait, as a write is (another ingest stuck in it — a paused process, a client cut
            # off the network, whose session the server keeps — held every later ingest up without end), in tries
            # between which the other threads' calls run, as a write's (`PostgresStore._begin_writing`)
            if not take_turns(lambda: bool(store._value(f"SELECT pg_try_advisory_lock(({key}))")), store._turns,
                              store.write_wait_ms):
                raise another_ingest(store.path, store.write_wait_ms, store.busy_wait_set_by)
            store.session_locks += 1  # the lock is this session's: one lost must end the ingest, never be replaced
        try:
            yield
        finally:
            # a lost connection took the lock with its session: its error must not hide the one that ended the ingest
            with store._lock, suppress(psycopg.OperationalError):
                store.session_locks -= 1
                if not store._conn.closed:
                    store._conn.execute(f"SELECT pg_advisory_unlock(({key}))")

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        yield  # SQLite's suspend-and-rebuild of indexes reads its own catalogue; PostgreSQL keeps them as they are

    def release_wal(self, wait_ms: int = 250) -> bool:
        return False  # no SQLite write-ahead log to truncate: the server manages its own
