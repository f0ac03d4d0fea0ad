"""PostgreSQL backend (psycopg 3 + pgvector): one shared database instead of one SQLite file.

Same `Store` protocol, orderings and tie-breaks as `SQLiteStore`. The node/audit half lives here; keywords, entities
and vectors are in `postgres_index.py`, edges in `postgres_edges.py`. Lists travel as array parameters
(`= ANY(%s)`), so nothing is chunked. The connection runs in autocommit; `transaction()` opens a transaction and
nests savepoints inside it (psycopg's own nesting).

A URL may choose the schema with libpq's `options`, e.g. `postgresql://host/db?options=-csearch_path%3Dteam,public`
(keep `public`, which holds the `vector` extension, on the path).
"""
from __future__ import annotations

import atexit
import json
import os
import re
import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

from ...core.errors import NotFound, ReadOnly, StoreBusy, StoreError
from ...core.keywords import keyword_text_of
from ...core.model import Memory, OplogEntry, iso, utcnow
from ...core.surface import store_read_only
from ...core.text import normalize
from .base import MemoryFilter, WriterBusy, another_writer, refuse_newer_schema, take_turns, wait_said
from .graph_postgres import PostgresGraphReads
from .postgres_edges import EdgeTables
from .postgres_index import IndexTables, folded, memory_where, refuse_a_newer_recipe, tsvector_literal
from .schema_postgres import MIGRATIONS, steps_readers_need
from .sources import NOT_VAULT_ROW, OWNED_SOURCE
from .sqlite import _NODE_COLS, PAGE_ROWS, _node

if TYPE_CHECKING:
    from .subtables_postgres import PostgresVault, PostgresWorld

_NODE_COLS_N = ", ".join("n." + c.strip() for c in _NODE_COLS.split(","))
CONNECT_TIMEOUT_S = 10  # how long a connection waits for the server to answer, unless the URL or PGCONNECT_TIMEOUT says
# a session a firewall or NAT dropped while idle (a long-running serve, mcp serve) is found dead by keepalives within
# ~2 min, and a statement sent into one fails after 30 s: with the kernel's defaults (2 h idle, ~15 min of
# retransmissions) the next call hung ~15 min. libpq takes these for TCP only; the URL's own values are kept.
TCP_BOUNDS = {"keepalives": 1, "keepalives_idle": 60, "keepalives_interval": 10, "keepalives_count": 6,
              "tcp_user_timeout": 30_000}
_MIGRATION_LOCK = 7_216_001  # pg_advisory_xact_lock key: one process migrates a database at a time
_spare_test_schemas: dict[str, list[str]] = {}  # server URL → test schemas released by closed stores


def _drop_spare_test_schemas() -> None:
    """At exit: drop the test schemas this process made (on a server the tests did not start themselves)."""
    import psycopg

    for url, schemas in _spare_test_schemas.items():
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                for schema in schemas:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')  # type: ignore[arg-type]
        except psycopg.Error:
            pass  # the throwaway server is already gone, and its schemas with it


def redact(url: str) -> str:
    """The URL without its password (it is printed as `db` in command output): everything up to the last `@`, as
    a password holding a raw `@` ("p@ss") left its tail shown; masking more of an odd URL is the safe side."""
    url = re.sub(r"(://[^:/@]*:).*@", r"\1***@", url)
    return re.sub(r"(password=)[^&\s]*", r"\1***", url)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def finds_nothing(sql: str, args: Sequence[Any] | None) -> bool:
    """Whether a read is handed a text holding NUL, which no PostgreSQL text can hold, so no row can equal it: the
    server refuses such a parameter outright (SQLite compares it and finds no row). The reads take what a user typed
    only as values a row must match — an id, a subject, a source, an op — so the read answers no rows, as SQLite's
    does: `show` of such an id is `not_found`, `state list --subject` empty, not an internal error."""
    if not args or sql.lstrip()[:4].upper() not in ("SELE", "WITH"):
        return False
    for arg in args:
        if isinstance(arg, str):
            if "\x00" in arg:
                return True
        elif isinstance(arg, (list, tuple)) and any(isinstance(a, str) and "\x00" in a for a in arg):
            return True
    return False


class PostgresStore(IndexTables, EdgeTables, PostgresGraphReads):
    """One PostgreSQL database (or schema). Many processes may share it; threads share one connection and a lock."""

    derives_edges = False  # every edge is a row here (SQLite derives containment edges: contained_sqlite.py)
    holds_nul_text = False  # a text column cannot hold "\x00" (SQLite's can): a restore refuses such a row up front

    def __init__(self, url: str, *, readonly: bool = False, create: bool = True, busy_timeout_ms: int = 60_000,
                 busy_wait_set_by: str | None = None) -> None:
        """Open (and unless `readonly` migrate) the store; `create=False` refuses a schema that holds none
        (`NotFound`) instead of creating it there. `busy_timeout_ms`: how long a write waits for another writer of
        the schema (SQLite's busy_timeout), then `StoreBusy`, which says the setting that chose it (`busy_wait_set_by`:
        a flag, variable, config file or "default")."""
        self.write_wait_ms = int(busy_timeout_ms)
        self.busy_wait_set_by = busy_wait_set_by
        try:
            import psycopg
            from pgvector.psycopg.vector import register_vector_info
            from psycopg.types import TypeInfo
        except ImportError as exc:
            raise StoreError("the PostgreSQL backend needs psycopg and pgvector: pip install 'mnemon[postgres]'"
                             f" ({exc.name} is missing)") from exc
        self.path = redact(url)
        self._url = url
        self.readonly = readonly
        self._lock = threading.RLock()
        self._turns = threading.Condition(self._lock)  # a write waiting for another's gives it up (`take_turns`)
        self._depth = 0
        self._test_schema: str | None = None
        self._world: PostgresWorld | None = None
        self._vault: PostgresVault | None = None
        self._vector_info: Any = None
        self.session_locks = 0  # session-level locks held (`PostgresVault.ingest_lock`): no new session meanwhile
        self._conn = self._connect()
        try:
            self._check_search_path()
            if not create and not self._has_migrations_table():
                # (asked on this connection: a second one only to ask cost every read of a server store a connect)
                raise NotFound(f"no mnemon store in {self.path}", path=self.path)
            self._check_vector_schema()
            if readonly:
                self.conn.execute("SET default_transaction_read_only = on")
                self._check_schema()
            else:
                self._migrate()
                self._check_keyword_fingerprint()
            self._vector_info = TypeInfo.fetch(self.conn, "vector")
            if self._vector_info is None:
                raise StoreError(f"the pgvector extension is not installed in {self.path}; run"
                                 " CREATE EXTENSION vector as a superuser once")
            register_vector_info(self.conn, self._vector_info)
        except psycopg.errors.LockNotAvailable:  # a table locked past busy_wait (the session's lock_timeout)
            self._conn.close()
            raise StoreBusy(f"the store is busy: another session (an upgrade by a newer mnemon, a VACUUM FULL) has"
                            f" held a table of {self.path} locked for"
                            f" {wait_said(self.write_wait_ms, self.busy_wait_set_by)}: try again when it is done"
                            ) from None
        except psycopg.Error as exc:  # no schema to create in, no right to create the extension, …
            self._conn.close()
            raise StoreError(f"cannot open the mnemon schema in {self.path}: {str(exc).strip()}") from exc
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> Any:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        # a server that takes the connection and never answers (hung, overloaded, a proxy with nothing behind it) held
        # every command for psycopg's 130 s, and a prompt hook until its host killed it: a bound unless one is given
        given: Any = True
        try:
            named = conninfo_to_dict(self._url)
            given = "connect_timeout" in named or os.environ.get("PGCONNECT_TIMEOUT")
            bound: dict[str, Any] = {} if given else {"connect_timeout": CONNECT_TIMEOUT_S}
            bound.update((key, value) for key, value in TCP_BOUNDS.items() if key not in named
                         and (key != "tcp_user_timeout" or psycopg.pq.version() >= 120000))  # (libpq 12 has it)
            # prepared statements survive schema switches badly (reset_for_tests); the statements are cheap to plan
            conn = psycopg.connect(self._url, autocommit=True, prepare_threshold=None, **bound)
        except psycopg.Error as exc:
            hint = "" if given or "timeout" not in str(exc) else (
                f" (no answer within {CONNECT_TIMEOUT_S} s; connect_timeout=N in the URL waits N s)")
            # libpq quotes some malformed URIs whole ('… in IPv6 host address in URI: "postgresql://u:pw@[::1/db"')
            raise StoreError(f"cannot connect to PostgreSQL at {self.path}: {redact(str(exc).strip())}{hint}") from exc
        # every statement waits for a lock at most busy_wait, as a write waits for the write lock: a read waited
        # without end behind a table another session locked (an upgrade's ALTER TABLE, a VACUUM FULL), where
        # SQLite's readers never wait; lock_not_available is then store_busy
        try:
            conn.execute(f"SET lock_timeout = {max(1, self.write_wait_ms)}")
        except BaseException:
            conn.close()
            raise
        return conn

    @property
    def conn(self) -> Any:
        """The session every statement runs in. One the server ended (a restart, an idle-session timeout, a network
        cut: psycopg calls it broken) is replaced by a new one set up as this one was, outside a transaction only: a
        long-running `serve` or `mcp serve` failed every call after a restart until someone restarted it too. One the
        server ended while it was idle (`_ended_while_idle`) is replaced before the next statement, so that call
        answers too. (A statement that meets a lost session still fails: whether a write in it ran is unknown.)"""
        if self._depth == 0 and not self.session_locks and (self._conn.broken or self._ended_while_idle()):
            with self._lock:
                if self._depth == 0 and not self.session_locks and (self._conn.broken or self._ended_while_idle()):
                    self._conn = self._reconnected()
        return self._conn

    def _ended_while_idle(self) -> bool:
        """Whether the server ended this idle session (a restart, `pg_terminate_backend`, an idle timeout): it says
        so on the socket before closing it, and nothing else arrives unasked on an idle session (no LISTEN). Only a
        readable socket costs a statement, which tells the goodbye from anything else."""
        import select

        import psycopg

        conn = self._conn
        if conn.closed or conn.pgconn.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            return False  # (a statement of another thread in flight: its answer is what is on the socket)
        try:
            if not select.select([conn.fileno()], [], [], 0)[0]:
                return False
            conn.execute("SELECT 1")
        except (OSError, ValueError, psycopg.OperationalError):
            return bool(conn.broken)
        return False

    def _reconnected(self) -> Any:
        from pgvector.psycopg.vector import register_vector_info

        conn = self._connect()
        try:
            if self._test_schema:
                conn.execute(f'SET search_path TO "{self._test_schema}", public')
            if self.readonly:
                conn.execute("SET default_transaction_read_only = on")
            if self._vector_info is not None:
                register_vector_info(conn, self._vector_info)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_search_path(self) -> None:
        """The schema a URL names first must exist: PostgreSQL skips a missing one silently, and the store would
        land in the next (usually `public`), shared with every team whose schema is missing too."""
        first = str(self.conn.execute("SHOW search_path").fetchone()[0]).split(",")[0].strip()
        if not first or first == '"$user"' or first == "$user":
            return
        wanted = first[1:-1].replace('""', '"') if first.startswith('"') else first.lower()
        current = self.conn.execute("SELECT current_schema()").fetchone()[0]
        if current != wanted:
            self._conn.close()
            raise StoreError(f"schema {wanted!r}, first on the search_path of {self.path}, does not exist: create it"
                             f' (CREATE SCHEMA "{wanted}") or fix the URL; mnemon would otherwise write to'
                             f" {current or 'no schema'}")

    def _check_vector_schema(self) -> None:
        """pgvector's types live in one schema, shared by every mnemon schema of the database: `public` (m001_graph
        creates the extension there). An older mnemon created it in the first schema it opened, hidden from the
        others: a store that cannot see it says how to move it rather than failing on `type "vector"`."""
        row = self.conn.execute("SELECT n.nspname, n.nspname = ANY(current_schemas(false)) FROM pg_extension e"
                                " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'").fetchone()
        home, visible = row if row is not None else ("public", "public" in self.conn.execute(
            "SELECT current_schemas(false)").fetchone()[0])  # type: ignore[index]
        if visible:
            return
        if home == "public":
            raise StoreError(f"the pgvector extension lives in schema public, which is not on the search_path of"
                             f" {self.path}: add it after the store's schema (options=-csearch_path%3Dteam,public)")
        raise StoreError(f"the pgvector extension is installed in schema {home!r}, which the store at {self.path}"
                         " cannot see (an older mnemon created it in the first schema it opened): run"
                         " ALTER EXTENSION vector SET SCHEMA public once, as its owner or a superuser")

    # ── lifecycle ────────────────────────────────────────────────────────────
    def close(self) -> None:
        with self._lock:
            if self._test_schema and not self._conn.closed:
                _spare_test_schemas.setdefault(self._url, []).append(self._test_schema)
            self._conn.close()

    def reset_for_tests(self) -> None:
        """Switch to an empty, migrated schema of its own: one a closed test store released (emptied, ids restarted)
        or a new one. `path` becomes a URL that opens that schema, so a test can reopen the store (read-only, from
        the CLI, from another process). Creating a schema costs ~40 DDL statements; emptying one, one round trip."""
        spare = _spare_test_schemas.get(self._url)
        reuse = spare.pop() if spare else None
        self._test_schema = reuse or f"mnemon_test_{uuid.uuid4().hex[:16]}"
        if reuse is None:
            self.conn.execute(f'CREATE SCHEMA "{self._test_schema}"')
            if not _spare_test_schemas:
                atexit.register(_drop_spare_test_schemas)
            _spare_test_schemas.setdefault(self._url, [])
        self.conn.execute(f'SET search_path TO "{self._test_schema}", public')
        self._migrate()
        if reuse is not None:
            self._empty_schema()
        # (no keyword recipe recorded: the schema's first open records its own, so a test of an older release's
        # recipe gets a schema as that release made it, not one the running recipe claimed first)
        sep = "&" if "?" in self._url else "?"
        self.path = f"{redact(self._url)}{sep}options=-csearch_path%3D{self._test_schema},public"

    def _empty_schema(self) -> None:
        # the graph's row triggers log deletes into graph_changes: emptied last, or rows logged after its own DELETE
        # collide with its restarted ids (the catalogue's table order changes with any ALTER TABLE)
        tables = sorted((r[0] for r in self._rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                                                  " AND tablename NOT IN ('migrations', 'meta')")),
                        key=lambda t: (t == "graph_changes", t))
        identities = self._rows("SELECT table_name, column_name FROM information_schema.columns"
                                " WHERE table_schema = current_schema() AND is_identity = 'YES'")
        self.conn.execute("; ".join([*(f'DELETE FROM "{t}"' for t in tables), "UPDATE meta SET value = 0",
                                     *(f'ALTER TABLE "{t}" ALTER COLUMN "{c}" RESTART' for t, c in identities)]))

    def _check_schema(self) -> None:
        if not self._has_migrations_table():
            raise StoreError(f"{self.path} holds no mnemon schema (no migrations table); open it once without"
                             " --readonly to create it")
        # a schema an older mnemon wrote is read as it is when it lacks only steps reads do without (after a package
        # upgrade every teammate's read-only hooks and `serve` open it before anyone writes), as SQLite reads one
        needed = steps_readers_need({r[0] for r in self.conn.execute("SELECT name FROM migrations")})
        if needed:
            raise StoreError(f"{self.path} was written by an older mnemon and lacks steps a reader needs"
                             f" ({', '.join(needed)}); open it once without --readonly to upgrade its schema",
                             path=self.path, missing_steps=needed)

    def _has_migrations_table(self) -> bool:
        # in the schema tables are created in, not anywhere on the search path (a test schema shadows public)
        return self._value("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'migrations'"
                           ) is not None

    def _migrate(self) -> None:
        applied = set()
        if self._has_migrations_table():
            applied = {r[0] for r in self.conn.execute("SELECT name FROM migrations")}
        refuse_newer_schema(self.path, applied, (name for name, _ in MIGRATIONS))
        if all(name in applied for name, _ in MIGRATIONS):
            return
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            # and the schema's write lock, as a writer: a write in progress ends first, and every later one sees
            # the steps (beside one, the upgrade let it go on writing the old layout after it committed)
            self._queue_for_the_upgrade()
            self.conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            applied = {r[0] for r in self.conn.execute("SELECT name FROM migrations")}
            for name, script in MIGRATIONS:
                if name in applied:
                    continue
                self.conn.execute(script)  # type: ignore[arg-type]  # a fixed script: simple query protocol
                self.conn.execute("INSERT INTO migrations(name, applied_at) VALUES (%s, %s)", (name, iso(utcnow())))

    def migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM migrations ORDER BY name")]

    def change_token(self) -> tuple[str, str]:
        """Moves with any write to the cluster (committed or pending in this session): the WAL insert position.
        Conservative — unrelated writes also move it — but one cheap query; readers cache rows against it."""
        with self._lock:
            row = self.conn.execute(
                "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
                " ELSE pg_current_wal_insert_lsn() END::text, current_schema()").fetchone()
        return str(row[0]), str(row[1])  # type: ignore[index]

    @property
    def world(self) -> PostgresWorld:
        from .subtables_postgres import PostgresWorld

        if self._world is None:
            self._world = PostgresWorld(self)
        return self._world

    @property
    def vault(self) -> PostgresVault:
        from .subtables_postgres import PostgresVault

        if self._vault is None:
            self._vault = PostgresVault(self)
        return self._vault

    def bulk_transaction(self) -> AbstractContextManager[None]:
        return self.transaction()  # the server's checks are set-based and cheap: nothing to switch off

    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """As `SQLiteStore.read_snapshot`: one REPEATABLE READ transaction (no lock a writer waits for)."""
        with self._lock:
            inside = self._depth > 0
            with self.conn.transaction():
                if not inside:
                    self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                yield

    def snapshot_path(self) -> str | None:
        return None  # no file a second process could read this transaction's starting state from

    def one_call(self) -> AbstractContextManager[bool]:
        return self._lock  # (`Store.one_call`)

    @contextmanager
    def transaction(self, *, wait: bool = True) -> Iterator[None]:
        if self.readonly:
            raise ReadOnly(store_read_only())
        with self._lock, ExitStack() as begun:
            if self._depth == 0:
                self._begin_writing(begun, wait)
            else:
                begun.enter_context(self.conn.transaction())  # (a savepoint)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1

    def _begin_writing(self, begun: ExitStack, wait: bool) -> None:
        """A transaction entered into `begun` holding this schema's write lock: writers of one schema queue for it,
        as SQLite's BEGIN IMMEDIATE makes them, so a write transaction sees every earlier write (remember's
        in-transaction duplicate check relies on that). Waited for at most `write_wait_ms` (SQLite's busy wait;
        without a bound a stuck writer — a paused process, a client cut off the network — held every other writer up
        for good), in tries that do not wait, each in a transaction of its own rolled back when it fails: between two
        the other threads' calls run (`take_turns`), where waiting on the server kept them queued behind this one
        for the whole wait (`mnemon serve` beside a CLI ingest: every page stuck on "Loading…"). Once taken, the
        steps a newer mnemon may have added meanwhile are refused (a write that does not wait skips that check)."""

        def attempt() -> bool:
            with ExitStack() as trying:
                trying.enter_context(self.conn.transaction())
                cur = self.conn.execute("SELECT pg_try_advisory_xact_lock(hashtext('mnemon:' || current_schema()))"
                                        + ("; SELECT COUNT(*) FROM migrations;"
                                           " SELECT value FROM meta WHERE key = 'keyword_recipe'" if wait else ""))
                if not cur.fetchone()[0]:
                    return False  # (ended, empty: no transaction stays open while the others' calls run)
                if wait:
                    cur.nextset()
                    if int(cur.fetchone()[0]) > len(MIGRATIONS):  # (in the same round trip, after the lock)
                        self._refuse_a_newer_schema()
                    cur.nextset()
                    recipe = cur.fetchone()
                    refuse_a_newer_recipe(self.path, recipe[0] if recipe else None)
                begun.enter_context(trying.pop_all())
            return True

        if not wait:
            if not attempt():
                raise WriterBusy("another writer holds this schema's write transaction")
        elif not take_turns(attempt, self._turns, self.write_wait_ms):
            raise another_writer(self.path, self.write_wait_ms, self.busy_wait_set_by)

    def _queue_for_the_upgrade(self) -> None:
        """This schema's write lock for the migration itself (on opening, before any other thread shares the store),
        waited for at most `write_wait_ms` on the server (the session's lock_timeout)."""
        import psycopg

        try:
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtext('mnemon:' || current_schema()))")
        except psycopg.errors.LockNotAvailable:
            raise another_writer(self.path, self.write_wait_ms, self.busy_wait_set_by) from None

    def _refuse_a_newer_schema(self) -> None:
        """A newer mnemon upgraded the schema since this process opened it (a teammate's `serve` or `mcp serve` runs
        on): a write in the old layout would be misread by it, so it is refused as a writable open would be."""
        refuse_newer_schema(self.path, (r[0] for r in self.conn.execute("SELECT name FROM migrations")),
                            (name for name, _ in MIGRATIONS))

    def _write(self, sql: str, args: Sequence[Any] = ()) -> Any:
        if self.readonly:
            raise ReadOnly(store_read_only())
        return self.conn.execute(sql, args or None)  # type: ignore[arg-type]

    def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if self.readonly:
            raise ReadOnly(store_read_only())
        if rows:
            with self.conn.cursor() as cur:
                cur.executemany(sql, rows)  # type: ignore[arg-type]

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if finds_nothing(sql, args):
            return []
        return self.conn.execute(sql, args or None).fetchall()  # type: ignore[arg-type]

    def _value(self, sql: str, args: Sequence[Any] = ()) -> Any:
        if finds_nothing(sql, args):
            return None
        row = self.conn.execute(sql, args or None).fetchone()  # type: ignore[arg-type]
        return row[0] if row else None

    def _bump_vector_generation(self) -> None:
        self._write("UPDATE meta SET value = value + 1 WHERE key = 'vector_generation'")

    # ── nodes ────────────────────────────────────────────────────────────────
    def insert_node(self, node: Memory, fts_body: str | None = None) -> None:
        self.insert_nodes([(node, fts_body)])

    def insert_nodes(self, items: Sequence[tuple[Memory, str | None]]) -> None:
        """Insert many new nodes with their keyword documents (None: `keyword_text_of` the node): the bulk form of
        `insert_node`."""
        if not items:
            return
        fallback = iso(utcnow())
        with self._lock, self.conn.transaction():  # the nodes and their documents land together or not at all
            self._write_many(
                f"INSERT INTO nodes ({_NODE_COLS}) VALUES ({', '.join(['%s'] * 18)})",
                [(n.id, n.kind, n.title, n.content, n.content_hash, n.category, n.importance, _json(list(n.tags)),
                  _json(list(n.entities)), n.source, n.created_at, n.updated_at or n.created_at, n.last_accessed_at,
                  n.access_count, n.effective_importance, n.deleted_at, _json(n.metadata) if n.metadata else "{}",
                  n.inserted_at or fallback) for n, _ in items])
            self._write_many(
                "INSERT INTO memory_fts(node_seq, doc) SELECT seq, %s::tsvector FROM nodes WHERE id = %s",
                [(tsvector_literal(keyword_text_of(n) if body is None else body, n.tags, n.entities), n.id)
                 for n, body in items
                 if n.kind == "memory" and n.deleted_at is None])

    def update_node(self, node: Memory, fts_body: str | None = None) -> None:
        updated = self._write(
            "UPDATE nodes SET kind=%s, title=%s, content=%s, content_hash=%s, category=%s, importance=%s, tags=%s,"
            " entities=%s, source=%s, updated_at=%s, metadata=%s WHERE id=%s RETURNING seq",
            (node.kind, node.title, node.content, node.content_hash, node.category, node.importance,
             _json(list(node.tags)), _json(list(node.entities)), node.source, node.updated_at, _json(node.metadata),
             node.id)).fetchone()
        if updated is None:
            raise StoreError(f"no node {node.id}")
        seq = updated[0]
        self._write("DELETE FROM memory_fts WHERE node_seq = %s", (seq,))
        self._bump_vector_generation()  # a vector of the old text is no longer current
        if node.kind == "memory":
            self._write("INSERT INTO memory_fts(node_seq, doc) VALUES (%s, %s::tsvector)",
                        (seq, tsvector_literal(keyword_text_of(node) if fts_body is None else fts_body, node.tags,
                                               node.entities)))

    def get_node(self, node_id: str, *, include_deleted: bool = False) -> Memory | None:
        rows = self._rows(f"SELECT {_NODE_COLS} FROM nodes WHERE id = %s", (node_id,))
        if not rows or (rows[0][15] is not None and not include_deleted):
            return None
        return _node(rows[0])

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Memory]:
        rows = self._rows(f"SELECT {_NODE_COLS} FROM nodes WHERE id = ANY(%s)", (list(dict.fromkeys(ids)),))
        return {r[0]: _node(r) for r in rows}

    def node_heads(self, ids: Sequence[str]) -> dict[str, tuple[str, bool, str, str]]:
        """(kind, deleted?, category, source) per id: what traversal needs to decide whether to step on a node."""
        return {r[0]: (r[1], bool(r[2]), r[3], r[4]) for r in self._rows(
            "SELECT id, kind, deleted_at IS NOT NULL, category, source FROM nodes WHERE id = ANY(%s)",
            (list(dict.fromkeys(ids)),))}

    def nodes_by_title(self, text: str, limit: int) -> list[Memory]:
        needle = normalize(text)
        if not needle.strip() or "\x00" in needle:  # (no text column holds NUL here: nothing to find)
            return []
        # as the SQLite store folds (sqlite.fold_case after NFKC), the title and the text by one SQL expression: an
        # ASCII title is NFKC already (normalize() on every title tripled the time); under a "C" locale before
        # PostgreSQL 17 lower() changes ASCII letters only. The kind index's ranges skip the memories, and only the
        # chosen rows are read whole (joining every match before sorting took 30-60 ms on the 2,000-note vault)
        version = self.conn.info.server_version
        title = folded("CASE WHEN octet_length(title) = length(title) THEN title ELSE normalize(title, NFKC) END",
                       version)
        titled = (f"SELECT seq, kind, title, id, {title} AS folded FROM nodes"
                  " WHERE deleted_at IS NULL AND title IS NOT NULL AND kind {} 'memory'")
        order = 'other, tier, folded COLLATE "C", title COLLATE "C", id'
        return [_node(r) for r in self._rows(
            f"SELECT {_NODE_COLS_N} FROM (SELECT seq, kind <> 'note' AS other, CASE WHEN folded = q.needle THEN 0"
            " WHEN strpos(folded, q.needle) = 1 THEN 1 ELSE 2 END AS tier, folded, title, id FROM"
            f" ({titled.format('<')} UNION ALL {titled.format('>')}) f,"
            f" (SELECT {folded('normalize(%s::text, NFKC)', version)} AS needle) q WHERE strpos(folded, q.needle) > 0"
            f" ORDER BY {order} LIMIT %s) t JOIN nodes n USING (seq) ORDER BY t.{order.replace(', ', ', t.')}",
            (text, limit))]

    def find_active_by_hash(self, digest: str, kind: str = "memory") -> str | None:
        return self._value(f"SELECT id FROM nodes WHERE content_hash = %s AND deleted_at IS NULL AND {OWNED_SOURCE}"
                           " AND kind = %s ORDER BY seq LIMIT 1", (digest, kind))

    def find_scope_repeat(self, digest: str, source: str) -> str | None:
        return self._value("SELECT id FROM nodes WHERE source = %s AND content_hash = %s AND deleted_at IS NULL"
                           " AND kind = 'memory' AND substr(id, 1, %s) <> %s ORDER BY seq LIMIT 1",
                           (source, digest, len(source) + 1, source + "#"))

    def find_active_by_hashes(self, digests: Iterable[str], kind: str = "memory") -> dict[str, str]:
        out: dict[str, str] = {}
        for digest, node_id in self._rows("SELECT content_hash, id FROM nodes WHERE content_hash = ANY(%s)"
                                          f" AND deleted_at IS NULL AND {OWNED_SOURCE} AND kind = %s ORDER BY seq",
                                          (list(dict.fromkeys(digests)), kind)):
            out.setdefault(digest, node_id)
        return out

    def iter_nodes(self, *, kind: str | None = "memory", include_deleted: bool = False) -> Iterator[Memory]:
        # a full walk in insertion order, a page at a time (an export of any size holds one page): optional
        # conditions as parameters rather than a built WHERE
        after = 0
        while rows := self._rows(f"SELECT seq, {_NODE_COLS} FROM nodes WHERE seq > %s AND (%s::text IS NULL"
                                 " OR kind = %s) AND (%s OR deleted_at IS NULL) ORDER BY seq LIMIT %s",
                                 (after, kind or None, kind, include_deleted, PAGE_ROWS)):
            yield from (_node(r[1:]) for r in rows)
            after = rows[-1][0]

    def _one_of_source(self, source: str, condition: str, args: list[Any], exclude: str | None,
                       order: str) -> Memory | None:
        sql = (f"SELECT {_NODE_COLS} FROM nodes WHERE source = %s AND deleted_at IS NULL AND kind = 'memory'"
               f"{condition}")
        if exclude:
            sql += " AND id <> %s"
            args.append(exclude)
        rows = self._rows(f"{sql} ORDER BY created_at {order}, seq {order} LIMIT 1", [source, *args])
        return _node(rows[0]) if rows else None

    def latest_by_source(self, source: str, *, exclude: str | None = None, before: str | None = None) -> Memory | None:
        return self._one_of_source(source, " AND created_at <= %s" if before else "", [before] if before else [],
                                   exclude, "DESC")

    def next_by_source(self, source: str, *, after: str, exclude: str | None = None) -> Memory | None:
        """The earliest active memory of `source` created strictly after `after` (a backdated write's successor)."""
        return self._one_of_source(source, " AND created_at > %s", [after], exclude, "ASC")

    def latest_created_at(self) -> str | None:
        """The newest `created_at` of any active node: a batch dated at or after it only appends to history."""
        return self._value("SELECT MAX(created_at) FROM nodes WHERE deleted_at IS NULL")

    def recent_memories(self, limit: int, *, since: str | None = None, until: str | None = None,
                        source: str | None = None, exclude: Iterable[str] = (),
                        flt: MemoryFilter | None = None, after: str | None = None) -> list[Memory]:
        where, args = memory_where(flt)
        for condition, value in (("n.created_at >= %s", since), ("n.created_at <= %s", until),
                                 ("n.source = %s", source), ("n.created_at > %s", after)):
            if value:
                where += f" AND {condition}"
                args.append(value)
        excluded = list(exclude)
        if excluded:
            where += " AND n.id <> ALL(%s)"
            args.append(excluded)
        order = "ASC" if after else "DESC"
        return [_node(r) for r in self._rows(
            f"SELECT {_NODE_COLS_N} FROM nodes n WHERE {where} ORDER BY n.created_at {order}, n.seq {order} LIMIT %s",
            [*args, limit])]

    def recent_memory_ids(self, limit: int, flt: MemoryFilter | None = None) -> list[str]:
        """The ids `recent_memories(limit, flt=flt)` would return, without reading whole rows."""
        where, args = memory_where(flt)
        return [r[0] for r in self._rows(
            f"SELECT n.id FROM nodes n WHERE {where} ORDER BY n.created_at DESC, n.seq DESC LIMIT %s", [*args, limit])]

    def memory_ids(self, flt: MemoryFilter | None = None) -> list[str]:
        where, args = memory_where(flt)
        return [r[0] for r in self._rows(f"SELECT n.id FROM nodes n WHERE {where}", args)]

    def soft_delete(self, ids: Sequence[str], when: str) -> int:
        with self._lock, self.conn.transaction():
            seqs = [r[0] for r in self._write(
                "UPDATE nodes SET deleted_at = %s, updated_at = %s WHERE id = ANY(%s) AND deleted_at IS NULL"
                " RETURNING seq", (when, when, list(dict.fromkeys(ids))))]
            if seqs:
                self._write("DELETE FROM memory_fts WHERE node_seq = ANY(%s)", (seqs,))
                self._write("DELETE FROM node_entities WHERE node_seq = ANY(%s)", (seqs,))
                self._bump_vector_generation()
        return len(seqs)

    def undelete(self, ids: Sequence[str], when: str) -> list[str]:
        """As `SQLiteStore.undelete`: `soft_delete` undone for these memories (not vault rows); the ids brought back."""
        with self._lock, self.conn.transaction():
            rows = self._write(
                f"UPDATE nodes SET deleted_at = NULL, updated_at = %s, inserted_at = %s WHERE id = ANY(%s)"
                f" AND deleted_at IS NOT NULL AND kind = 'memory' AND {NOT_VAULT_ROW} RETURNING {_NODE_COLS}, seq",
                (when, when, list(dict.fromkeys(ids)))).fetchall()
            nodes = [(int(r[18]), _node(r)) for r in rows]
            if nodes:
                self._write_many("INSERT INTO memory_fts(node_seq, doc) VALUES (%s, %s::tsvector)",
                                 [(seq, tsvector_literal(keyword_text_of(n), n.tags, n.entities)) for seq, n in nodes])
                self.index_entities_of_new([(n.id, n.entities, n.created_at) for _, n in nodes if n.entities])
                self._bump_vector_generation()
        return [n.id for _, n in nodes]

    def hard_delete(self, ids: Sequence[str]) -> int:
        """Remove rows for good: only for vault-derived rows that a rebuild replaces, never for memories."""
        with self._lock, self.conn.transaction():
            n = self._write("DELETE FROM nodes WHERE id = ANY(%s)", (list(dict.fromkeys(ids)),)).rowcount
            if n:
                self._bump_vector_generation()
        return int(n)

    def count_active(self) -> int:
        return int(self._value("SELECT value FROM meta WHERE key = 'active_memories'"))

    def count_prunable(self, at_most: int) -> int:
        return int(self._value(f"SELECT COUNT(*) FROM (SELECT 1 FROM nodes WHERE kind = 'memory' AND deleted_at IS NULL"
                               f" AND {OWNED_SOURCE} LIMIT %s) AS capped", (at_most,)))

    def prune_pool(self, inserted_before: str, exclude: Iterable[str]) -> list[tuple[str, int, int, str, str]]:
        if not self._rows(f"SELECT 1 FROM nodes WHERE deleted_at IS NULL AND kind = 'memory' AND {OWNED_SOURCE}"
                          " AND inserted_at <= %s LIMIT 1", (inserted_before,)):
            return []  # every memory is in its grace period (nodes_prune_age answers this at once)
        return [tuple(r) for r in self._rows(  # type: ignore[misc]
            "SELECT id, importance, access_count, COALESCE(NULLIF(last_accessed_at, ''), created_at), created_at"
            f" FROM nodes WHERE deleted_at IS NULL AND kind = 'memory' AND {OWNED_SOURCE} AND importance < 4"
            " AND access_count < 3 AND inserted_at <= %s AND id <> ALL(%s)", (inserted_before, list(exclude)))]

    def set_effective_importance(self, values: dict[str, float]) -> None:
        if values and not self.readonly:
            self._write("UPDATE nodes n SET effective_importance = v.value FROM unnest(%s::text[], %s::float8[])"
                        " AS v(id, value) WHERE n.id = v.id", (list(values), list(values.values())))

    def touch(self, ids: Sequence[str], when: str, amount: int = 1) -> None:
        if self.readonly or not ids:
            return
        # one row per occurrence, as the SQLite backend's executemany counts a repeated id twice
        self._write("UPDATE nodes n SET access_count = n.access_count + %s * t.times, last_accessed_at = %s"
                    " FROM (SELECT id, COUNT(*) AS times FROM unnest(%s::text[]) AS u(id) GROUP BY id) t"
                    " WHERE n.id = t.id", (amount, when, list(ids)))

    # ── audit and stats ──────────────────────────────────────────────────────
    def log(self, op: str, node_id: str | None, detail: dict[str, Any], when: str) -> None:
        self.log_many([(op, node_id, detail, when)])

    def log_many(self, entries: Sequence[tuple[str, str | None, dict[str, Any], str]]) -> None:
        if self.readonly:
            return  # a read-only snapshot leaves no trace, as in mnemon
        self._write_many("INSERT INTO oplog(op, node_id, detail, created_at) VALUES (%s, %s, %s, %s)",
                         [(op, node_id, _json(detail), when) for op, node_id, detail, when in entries])

    def oplog(self, limit: int, *, op: str | None = None, node_id: str | None = None) -> list[OplogEntry]:
        clauses, args = [], []
        for column, value in (("op", op), ("node_id", node_id)):
            if value:
                clauses.append(f"{column} = %s")
                args.append(value)
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        rows = self._rows(f"SELECT id, op, node_id, detail, created_at FROM oplog{where} ORDER BY id DESC LIMIT %s",
                          [*args, limit])
        return [OplogEntry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def stats(self) -> dict[str, Any]:
        def counts(sql: str) -> dict[str, int]:
            return {r[0]: int(r[1]) for r in self._rows(sql)}

        by_cat = counts("SELECT category, COUNT(*) FROM nodes WHERE kind = 'memory' AND deleted_at IS NULL"
                        " GROUP BY category ORDER BY category")
        by_edge = counts("SELECT type, COUNT(*) FROM edge_rows WHERE status = 'active' GROUP BY type ORDER BY type")
        by_status = counts("SELECT status, COUNT(*) FROM edge_rows GROUP BY status ORDER BY status")
        size = self._value("SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                           " JOIN pg_namespace s ON s.oid = c.relnamespace"
                           " WHERE s.nspname = current_schema() AND c.relkind = 'r'")
        return {
            "total_insights": self.count_active(),
            "deleted_insights": int(self._value(
                "SELECT COUNT(*) FROM nodes WHERE kind = 'memory' AND deleted_at IS NOT NULL")),
            "by_category": by_cat,
            "nodes_by_kind": counts("SELECT kind, COUNT(*) FROM nodes WHERE deleted_at IS NULL GROUP BY kind"
                                    " ORDER BY kind"),  # (by name, as on SQLite: the server's hash order is none)
            "edges_by_type": by_edge,
            "edges_by_status": by_status,
            "edge_count": sum(by_edge.values()),  # (active edges, as edges_by_type: mnemon's status counts so)
            "edges_total": sum(by_status.values()),  # every edge whatever its status, as `ingest` counts them
            "oplog_count": int(self._value("SELECT COUNT(*) FROM oplog")),
            "db_path": self.path,
            "db_size_bytes": int(size),
        }
