"""SQLite backend: WAL, busy timeout, foreign keys, FTS5 keywords, float32 vector blobs."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .vault_sqlite import SQLiteVault
    from .world_sqlite import SQLiteWorld

import json
import os
import sqlite3
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from urllib.parse import quote


from ...core.errors import ReadOnly, StoreError
from ...core.model import Memory, OplogEntry, iso, utcnow
from ...core.surface import creating_write, store_read_only, typed
from .base import MemoryFilter, WriterBusy, another_writer
from .edges_sqlite import PAGE_ROWS, _EDGE_COLS, SQLiteEdges, _edge, _paged  # noqa: F401  (re-exported)
from .graph_sqlite import SQLiteGraphReads
from .vectors_sqlite import BUMP_VECTOR_GENERATION, SQLiteVectors
from .text_index_sqlite import (KEYWORD_POSTING_BUDGET, RoughCounts, SQLiteTextIndex, _chunks, _where,  # noqa: F401
                                register_keyword_functions)  # (KEYWORD_POSTING_BUDGET re-exported)
from .coded_edges_sqlite import LEGACY_CODED_EDGES, register_edge_metadata_function
from .contained_sqlite import LEGACY_EDGE_HEADS_VIEW, has_contained
from .edge_rows import LEGACY_EDGE_ROWS_VIEW
from .migrate_sqlite import migrate, refuse_upgraded_meanwhile
from .write_wait_sqlite import begin_taking_turns, is_busy, retry_busy
from .open_refusals import has_room, open_failure, parent_failure, special_file
from .vault_texts_sqlite import (RECOMPUTED_HASH_AND_TITLE, VAULT_METADATA_TABLE, VAULT_TEXTS_MIGRATION, rebuilt_title,
                                 metadata_of, register_vault_text_function, text_of, vector_is_current)
from .sources import NOT_VAULT_ROW, OWNED_SOURCE, source_is

_NODE_COLS = (
    "id, kind, title, content, content_hash, category, importance, tags, entities, source, created_at, "
    "updated_at, last_accessed_at, access_count, effective_importance, deleted_at, metadata, inserted_at"
)
_NODE_COLS_N = ", ".join("n." + c.strip() for c in _NODE_COLS.split(","))
# what a SQLite read of `nodes` selects: `_NODE_COLS` with a vault memory's text and metadata put back from its note's blob
# (vault_texts_sqlite.py; `_node` puts back a title left out, and never reads the hash); `_NODE_COLS` itself is also
# the insert column list, and PostgreSQL's
_NODE_SELECT = (_NODE_COLS.replace("content,", text_of("nodes") + ",", 1)
                .replace(" metadata,", f" {metadata_of('nodes')},", 1))
_NODE_SELECT_N = (_NODE_COLS_N.replace("n.content,", text_of("n") + ",", 1)
                  .replace(" n.metadata,", f" {metadata_of('n')},", 1))




def _node(row: sqlite3.Row | tuple[Any, ...]) -> Memory:
    metadata = json.loads(row[16]) if row[16] and row[16] != "{}" else {}
    if row[1] in ("memory", "heading") and "note" not in metadata and row[9].startswith("vault:"):
        metadata["note"] = row[9][6:]  # a vault row's note is its source: ingest does not store it twice
    return Memory(  # (content_hash is not a field: Memory computes it from the text)
        id=row[0], kind=row[1], title=rebuilt_title(row[16]) if row[4] == RECOMPUTED_HASH_AND_TITLE else row[2],
        content=row[3], category=row[5], importance=row[6],
        tags=tuple(json.loads(row[7])) if row[7] != "[]" else (),
        entities=tuple(json.loads(row[8])) if row[8] != "[]" else (), source=row[9], created_at=row[10],
        # '' = not changed since created (vault_sqlite writes derived rows so)
        updated_at=row[11] or row[10], last_accessed_at=row[12], access_count=row[13], effective_importance=row[14],
        deleted_at=row[15], metadata=metadata, inserted_at=row[17] or row[10],
    )


def fold_case(text: str) -> str:
    """The case folding of title search and `like_search` on both backends: each letter lowercased by Unicode's
    simple mapping (PostgreSQL's lower() under "pg_c_utf8"; str.lower() alone maps İ to "i̇" and a word-final Σ to
    ς), then ς read as σ, so "ΟΔΟΣ", "οδος" and "οδοσ" are one word and "istanbul" finds "İstanbul"."""
    return text.replace("İ", "i").replace("Σ", "σ").lower().replace("ς", "σ")


def _fold(text: str | None) -> str:
    """A title as nodes_by_title compares it: NFKC (full-width letters read as their plain forms), then fold_case."""
    return fold_case(unicodedata.normalize("NFKC", text)) if text else ""


def _fold_case_sql(text: str | None) -> str | None:
    return text if text is None or text.isascii() else fold_case(text)  # LIKE folds ASCII itself


def _recent_where(flt: MemoryFilter | None, since: str | None, until: str | None, source: str | None,
                  exclude: Iterable[str]) -> tuple[str, list[Any]]:
    where, args = _where(flt)
    for condition, value in (("n.created_at >= ?", since), ("n.created_at <= ?", until),
                             (source_is(source or "", "n"), source)):
        if value:
            where += f" AND {condition}"
            args.append(value)
    excluded = list(exclude)
    if excluded:
        where += f" AND n.id NOT IN ({','.join('?' * len(excluded))})"
        args.extend(excluded)
    return where, args


def _file_id(path: str) -> tuple[int, int] | None:
    """The file at `path` as the OS knows it (device, inode); None for a database that is no file of its own."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)  # gone: no file matches it
    return st.st_dev, st.st_ino


def _refuse_emptied(path: str) -> None:
    """An empty database file beside a log of writes lost the file the log belongs to (its writer crashed before any
    checkpoint, then the file was emptied: a failed copy, a sync tool's placeholder). SQLite takes the empty file for
    a new database and deletes the log, and every write in it with it: nothing is opened or touched."""
    try:
        if os.path.getsize(path) > 0 or os.path.getsize(f"{path}-wal") == 0:
            return
    except OSError:  # either file missing: a new store, or a store without a log
        return
    raise StoreError(f"{path} is empty but its log {path}-wal holds writes, so this is a store that lost its database "
                     "file, not a new one: nothing was opened or changed; put the file back from a copy taken with "
                     "the log, or move both aside to start a new store there", path=path)


def _log_holds_writes(path: str) -> bool:
    """Whether `path`'s write-ahead log holds writes not yet in the file (a writer that crashed or is running, files
    copied meanwhile); on media that cannot be written they are read through the -shm file, or the open is refused."""
    log = f"{path}-wal"
    if not os.path.exists(log) or os.path.getsize(log) == 0:
        return False
    if not os.path.exists(f"{path}-shm"):
        raise StoreError(f"{log} holds writes not yet in {path}, and its folder cannot be written, so SQLite cannot "
                         f"read them (it needs {os.path.basename(path)}-shm beside it): open the store once where it "
                         "can be written (or a copy of its files), which folds the log into it", path=path)
    return True


def opened_elsewhere(path: str) -> bool:
    """Whether another process has the SQLite store at `path` open (writable, WAL): every such connection holds a
    shared lock on the "DMS" byte (offset 128) of its -shm file for as long as it is open (sqlite.org/walformat.html,
    2.3). Tested with a non-blocking write lock taken and given back at once; this process's own connections never
    conflict with it. False where POSIX locks are unavailable or no -shm file exists (nothing holds it)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return False
    try:
        fd = os.open(f"{path}-shm", os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128, os.SEEK_SET)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, 128, os.SEEK_SET)
        return False
    finally:
        os.close(fd)


class SQLiteStore(SQLiteEdges, SQLiteGraphReads, SQLiteVectors, SQLiteTextIndex):
    """One SQLite file. Safe for many processes (WAL + BEGIN IMMEDIATE + busy timeout) and for threads (one lock)."""

    def __init__(self, path: str, *, readonly: bool = False, busy_timeout_ms: int = 60000,
                 busy_wait_set_by: str | None = None) -> None:
        """`busy_wait_set_by`: which setting chose `busy_timeout_ms` (a flag, variable, config file or "default"),
        for a `store_busy` refusal to say."""
        self.path = path
        self.busy_wait_set_by = busy_wait_set_by
        self.readonly = readonly
        self._lock = threading.RLock()
        self._turns = threading.Condition(self._lock)  # a write waiting for another's gives the lock up (`_begin`)
        self._keeps_turn = False  # ... unless its foreign keys are off (`bulk_transaction`)
        self._depth = 0
        self._changes_at_begin = 0
        self._rough_df = RoughCounts()  # document counts for choosing search words (text_index_sqlite)
        self._rough_holders = RoughCounts()  # entity holder counts for choosing where a walk starts
        self._exact_df: dict[str, int] = {}
        self._exact_df_token: tuple[int, int] | None = None
        if os.path.isdir(path):
            raise StoreError(f"{path} is a directory; --db names the database file (e.g. {path}/mnemon.db)")
        special = special_file(path)
        if special is not None:  # (before SQLite opens it: a pipe may block, and its error blamed the folder)
            raise StoreError(f"cannot use {path} as a mnemon store: it is {special}, not a regular file; --db names "
                             "a SQLite database file", path=path)
        _refuse_emptied(path)
        self._file_id: tuple[int, int] | None = None  # (no check while opening: the file may be made by it)
        self._reads_only = False  # read-only over a connection that could write (`_open`)
        try:
            self._open(path, readonly, busy_timeout_ms)
        except sqlite3.DatabaseError as exc:  # not a database, or a file SQLite cannot open: the user's mistake
            if hasattr(self, "conn"):
                self.conn.close()
            raise StoreError(f"cannot use {path} as a mnemon store: {open_failure(path, readonly, exc)}",
                             path=path) from None
        except BaseException:  # refused after connecting (a store of a newer mnemon): nothing left open
            if hasattr(self, "conn"):
                self.conn.close()
            raise
        self._file = os.path.abspath(path)  # the working directory may change (the resident process takes a caller's)
        self._file_id = _file_id(path)

    def _open(self, path: str, readonly: bool, busy_timeout_ms: int) -> None:
        if readonly:
            if not os.path.exists(path):
                # said for `serve` too, which opens read-only without --readonly: a first run of it lands here
                raise StoreError(typed(f"no database at {path} yet, and a read-only open (--readonly, or `mnemon "
                                       f"serve` without --allow-writes) creates none: a write ({creating_write()}) "
                                       "creates it"), path=path)
            # on read-only media (a backup mount, a snapshot) or a full disk SQLite cannot make the WAL's shared-memory
            # file even to read: the file is opened as immutable there, which it is — unless its log holds writes
            # (immutable would skip them without a word), which SQLite reads through the -shm file the writer left
            parent = os.path.dirname(os.path.abspath(path))
            writable = os.access(parent, os.W_OK) and has_room(parent)
            # Where the folder and file take writes and the log holds nothing (none, or an empty one another reader
            # made), a read-only connection (mode=ro) made the -wal and -shm files and, unable to remove them, left
            # them behind: `doctor` ("without writing anything"), every --readonly command and the prompt hook. A
            # connection that may write but is held to reads (query_only, set once its stand-ins are made) takes
            # part in WAL locking as any reader does and, the last to close, removes the files, as a writer does
            # (folding in first what a writer that began meanwhile logged, as that writer would have: no content
            # changes). Not `immutable=1`: it reads without locks, so a writer starting meanwhile (an agent's
            # remember during the hook's recall) could checkpoint into the file under it: wrong rows or
            # "malformed". A log holding writes (a writer open, or one that crashed) is read through as before
            # (mode=ro), its files left as they were: folding it in would write the file.
            log = f"{path}-wal"
            self._reads_only = (writable and os.access(path, os.W_OK)
                                and (not os.path.exists(log) or os.path.getsize(log) == 0))
            immutable = not writable and not _log_holds_writes(path)
            mode = "rw" if self._reads_only else "ro&immutable=1" if immutable else "ro"
            self.conn = sqlite3.connect(f"file:{quote(path)}?mode={mode}", uri=True, isolation_level=None,
                                        check_same_thread=False, timeout=busy_timeout_ms / 1000)
        else:
            parent = os.path.dirname(os.path.abspath(path))
            try:
                os.makedirs(parent, exist_ok=True)
            except OSError as exc:  # a path that cannot hold a database is the user's mistake, never a crash
                raise StoreError(f"cannot use {path} as a mnemon store: {parent_failure(parent, exc)}",
                                 path=path) from None
            self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                        timeout=busy_timeout_ms / 1000)
            self._refuse_foreign()
        self.conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        self.conn.execute("PRAGMA foreign_keys = ON")
        register_keyword_functions(self.conn)
        register_vault_text_function(self.conn)
        register_edge_metadata_function(self.conn)
        self.conn.create_function("mnemon_fold", 1, _fold, deterministic=True)  # nodes_by_title
        self.conn.create_function("mnemon_fold_case", 1, _fold_case_sql, deterministic=True)  # like_search
        if not readonly:
            # switching a fresh file to WAL and creating the schema can meet SQLITE_BUSY without the busy handler
            # being consulted (several processes opening a new store at once); retry those with backoff
            retry_busy(lambda: self.conn.execute("PRAGMA journal_mode = WAL"), busy_timeout_ms)
            self.conn.execute("PRAGMA synchronous = NORMAL")
            retry_busy(self._migrate, busy_timeout_ms)
            retry_busy(self._check_keyword_fingerprint, busy_timeout_ms)
        else:
            self._check_schema()
            if self._reads_only:  # (its stand-ins are TEMP tables and views, which query_only would refuse)
                self.conn.execute("PRAGMA query_only = 1")
        # containment edges read from their items (contained_sqlite.py); not in a store opened read-only before
        self.derives_edges = has_contained(self.conn)
        self.codes_edges = True  # ingested edges as coded rows (coded_edges_sqlite.py; empty stand-ins before m066)

    # ── lifecycle ────────────────────────────────────────────────────────────
    def one_call(self) -> AbstractContextManager[bool]:
        return self._lock  # (`Store.one_call`; a write waiting for another process's lets go of it: `_begin`)

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def _refuse_foreign(self) -> None:
        """Another program's SQLite file (tables, none of them ours) is never migrated into a mnemon store."""
        names = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and "migrations" not in names:
            self.conn.close()
            raise StoreError(f"{self.path} is a SQLite database of another program (no mnemon tables); "
                             "choose another --db", path=self.path)

    def _check_schema(self) -> None:
        row = self.conn.execute("SELECT name FROM sqlite_master WHERE name = 'migrations'").fetchone()
        if row is None:
            raise StoreError(f"{self.path} is not a mnemon database (no migrations table)")
        if self.conn.execute("SELECT name FROM sqlite_master WHERE name = 'edge_rows'").fetchone() is None:
            # written before m040 and not upgraded yet (a read-only open cannot): read the old table as the new one
            self.conn.execute(LEGACY_EDGE_ROWS_VIEW)
        if self.conn.execute("SELECT name FROM sqlite_master WHERE name = 'edge_heads'").fetchone() is None:
            self.conn.execute(LEGACY_EDGE_HEADS_VIEW)  # written before m056: the same columns of its `edges`
        if self.conn.execute("SELECT name FROM sqlite_master WHERE name = 'vault_texts'").fetchone() is None:
            # written before m050 (every text still in its row): reads name the table, so an empty one stands in
            self.conn.execute(VAULT_TEXTS_MIGRATION[1].replace("CREATE TABLE", "CREATE TEMP TABLE"))
        if self.conn.execute("SELECT name FROM sqlite_master WHERE name = 'vault_metadata'").fetchone() is None:
            # written before m057 (every metadata still in its row): likewise
            self.conn.execute(VAULT_METADATA_TABLE.replace("CREATE TABLE", "CREATE TEMP TABLE"))
        if self.conn.execute("SELECT name FROM sqlite_master WHERE name = 'coded_edges'").fetchone() is None:
            self.conn.executescript(LEGACY_CODED_EDGES)  # written before m066 (every edge a row): likewise

    def _migrate(self) -> None:
        migrate(self.conn, self.path)

    def _refuse_a_lost_file(self) -> None:
        """A write goes to the file this store opened: one removed since (`mnemon store remove` from another shell
        while a server ran) or replaced by another would take it along, acknowledged and lost for good."""
        if self._file_id is not None and _file_id(self._file) != self._file_id:
            raise StoreError(f"{self.path} was removed or replaced after this process opened it, so nothing was "
                             "written; restart the server (or command) to use the database there now", path=self.path)

    @property
    def world(self) -> "SQLiteWorld":  # noqa: F821  (the world-model tables; imported lazily to avoid a cycle)
        from .world_sqlite import SQLiteWorld
        if getattr(self, "_world", None) is None:
            self._world = SQLiteWorld(self)
        return self._world

    @property
    def vault(self) -> "SQLiteVault":  # noqa: F821  (vault bookkeeping tables; imported lazily like world)
        from .vault_sqlite import SQLiteVault
        if getattr(self, "_vault", None) is None:
            self._vault = SQLiteVault(self)
        return self._vault

    def change_token(self) -> tuple[int, int]:
        """Differs after any committed or pending write: `data_version` moves when another connection commits,
        `total_changes` when this one writes. Readers cache rows against it (one PRAGMA, microseconds)."""
        with self._lock:
            return int(self.conn.execute("PRAGMA data_version").fetchone()[0]), self.conn.total_changes

    def migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM migrations ORDER BY name")]

    @contextmanager
    def transaction(self, *, wait: bool = True) -> Iterator[None]:
        if self.readonly:
            raise ReadOnly(store_read_only())
        with self._lock:
            if self._depth == 0:
                self._refuse_a_lost_file()
                self._begin() if wait else self._begin_now()
                self._changes_at_begin = self.conn.total_changes
            else:
                self.conn.execute(f"SAVEPOINT sp{self._depth}")
            self._depth += 1
            try:
                yield
            except BaseException:
                self._depth -= 1
                try:
                    # SQLite rolls back on its own after some errors (a full disk, an I/O error): a second ROLLBACK
                    # would fail and its "no transaction is active" replace the error that says what went wrong
                    if self.conn.in_transaction:
                        if self._depth == 0:
                            self.conn.execute("ROLLBACK")
                        else:
                            self.conn.execute(f"ROLLBACK TO sp{self._depth}")
                            self.conn.execute(f"RELEASE sp{self._depth}")
                    else:
                        self._depth = 0  # the whole transaction is gone, savepoints with it
                finally:
                    if self._depth == 0 and getattr(self, "_vault", None) is not None:
                        self._vault.forget_pending()  # what it kept for rows that are gone with the transaction
                raise
            else:
                self._depth -= 1
                if self._depth == 0:
                    self.conn.execute("COMMIT")
                else:
                    self.conn.execute(f"RELEASE sp{self._depth}")

    @contextmanager
    def bulk_transaction(self) -> Iterator[None]:
        """`transaction` for a bulk insert (an import) without SQLite's per-row foreign-key probes (~15 % of a bulk
        edge insert). Safe because of how the bulk writers key rows: every node reference is read from `nodes` in the
        same transaction (`node_seqs` fails on an unknown id), and nothing in it deletes a node, so no reference can
        dangle and no cascade is missed. Inside an outer transaction the pragma cannot change: the checks stay on."""
        with self._lock:
            toggled = self._depth == 0 and not self.readonly
            if toggled:
                self.conn.execute("PRAGMA foreign_keys = OFF")
            self._keeps_turn = toggled
            try:
                with self.transaction():
                    yield
            finally:
                self._keeps_turn = False
                if toggled:
                    self.conn.execute("PRAGMA foreign_keys = ON")

    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """Every read inside sees one state of the store (a deferred read transaction: in WAL mode no writer waits
        for it); inside a writer's transaction that transaction's own state. Nothing may be written inside."""
        with self._lock:
            if self.conn.in_transaction:
                yield
                return
            self.conn.execute("BEGIN")
            try:
                yield
            finally:
                if self.conn.in_transaction:
                    self.conn.execute("COMMIT")

    def snapshot_path(self) -> str | None:
        """A file another process can open read-only to see exactly what this connection sees — while it holds
        the write lock (inside `transaction`, so nobody else can commit) and has not written yet. None otherwise:
        outside a transaction, after a write in it, or for a database that lives in memory."""
        if (self._depth == 0 or self.conn.total_changes != self._changes_at_begin or self.path == ":memory:"
                or self.path.startswith("file:")):
            return None
        # with a rollback journal a large transaction locks readers out when its cache spills; WAL never does
        if str(self.conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            return None
        return os.path.abspath(self.path)

    def _begin(self) -> None:
        waited = int(self.conn.execute("PRAGMA busy_timeout").fetchone()[0])
        if self._keeps_turn:  # a bulk write's foreign keys are off: no other thread's write may begin meanwhile
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                raise another_writer(self.path, waited, self.busy_wait_set_by) from None
        elif not begin_taking_turns(self.conn, self._turns, waited):  # another writer held on past the busy wait
            raise another_writer(self.path, waited, self.busy_wait_set_by) from None
        refuse_upgraded_meanwhile(self.conn, self.path)

    def _begin_now(self) -> None:
        """BEGIN IMMEDIATE without the busy wait: `WriterBusy` when another connection writes."""
        waited = int(self.conn.execute("PRAGMA busy_timeout").fetchone()[0])
        self.conn.execute("PRAGMA busy_timeout = 0")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                raise WriterBusy(str(exc)) from None
            raise
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {waited}")

    def _write(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        if self.readonly:
            raise ReadOnly(store_read_only())
        return self.conn.execute(sql, args)

    # ── nodes ────────────────────────────────────────────────────────────────
    def insert_node(self, node: Memory, fts_body: str | None = None) -> None:
        self.insert_nodes([(node, fts_body)])

    def insert_nodes(self, items: Sequence[tuple[Memory, str | None]]) -> None:
        """Insert many new nodes in two statements: the bulk form of `insert_node`. An FTS body, when given, must be
        `core.keywords.keyword_text_of` the node (tokenised ahead, e.g. by an import's worker); None computes it."""
        if not items:
            return
        first = int(self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM nodes").fetchone()[0])
        fallback = iso(utcnow())
        self._write_many(
            f"INSERT INTO nodes (seq, {_NODE_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(first + k, n.id, n.kind, n.title, n.content, n.content_hash, n.category, n.importance,
              json.dumps(list(n.tags), ensure_ascii=False), json.dumps(list(n.entities), ensure_ascii=False),
              n.source, n.created_at, n.updated_at or n.created_at, n.last_accessed_at, n.access_count,
              n.effective_importance, n.deleted_at, json.dumps(n.metadata, ensure_ascii=False) if n.metadata else "{}",
              n.inserted_at or fallback) for k, (n, _) in enumerate(items)])
        self._index_keywords([(first + k, n.title, n.content, n.source, n.metadata, n.tags,
                               n.entities, body) for k, (n, body) in enumerate(items)
                              if n.kind == "memory" and n.deleted_at is None])

    def update_node(self, node: Memory, fts_body: str | None = None) -> None:
        row = self.conn.execute("SELECT seq, deleted_at FROM nodes WHERE id = ?", (node.id,)).fetchone()
        if row is None:
            raise StoreError(f"no node {node.id}")
        self._unindex_keywords([row[0]])
        self._write(
            "UPDATE nodes SET kind=?, title=?, content=?, content_hash=?, category=?, importance=?, tags=?, entities=?,"
            " source=?, updated_at=?, metadata=? WHERE id=?",
            (node.kind, node.title, node.content, node.content_hash, node.category, node.importance,
             json.dumps(list(node.tags), ensure_ascii=False), json.dumps(list(node.entities), ensure_ascii=False),
             node.source, node.updated_at, json.dumps(node.metadata, ensure_ascii=False), node.id),
        )
        self._write(BUMP_VECTOR_GENERATION)  # a vector of the old text is no longer current
        if node.kind == "memory" and row[1] is None:  # the rows the keyword index holds (text_index_sqlite.INDEXED)
            self._index_keywords([(row[0], node.title, node.content, node.source, node.metadata,
                                   node.tags, node.entities, fts_body)])

    def get_node(self, node_id: str, *, include_deleted: bool = False) -> Memory | None:
        row = self.conn.execute(f"SELECT {_NODE_SELECT} FROM nodes WHERE id = ?", (node_id,)).fetchone()
        if row is None or (row[15] is not None and not include_deleted):
            return None
        return _node(row)

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Memory]:
        out: dict[str, Memory] = {}
        ids = list(dict.fromkeys(ids))
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(f"SELECT {_NODE_SELECT} FROM nodes WHERE id IN ({marks})", list(chunk)):
                out[row[0]] = _node(row)
        return out

    def node_heads(self, ids: Sequence[str]) -> dict[str, tuple[str, bool, str, str]]:
        """(kind, deleted?, category, source) per id: what traversal needs to decide whether to step on a node."""
        out: dict[str, tuple[str, bool, str, str]] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for r in self.conn.execute(
                    f"SELECT id, kind, deleted_at IS NOT NULL, category, source FROM nodes WHERE id IN ({marks})",
                    list(chunk)):
                out[r[0]] = (r[1], bool(r[2]), r[3], r[4])
        return out

    def find_active_by_hash(self, digest: str, kind: str = "memory") -> str | None:
        row = self.conn.execute(
            f"SELECT id FROM nodes WHERE content_hash = ? AND deleted_at IS NULL AND {OWNED_SOURCE} AND kind = ?"
            " ORDER BY seq LIMIT 1", (digest, kind),
        ).fetchone()
        return row[0] if row else None

    def find_scope_repeat(self, digest: str, source: str) -> str | None:
        row = self.conn.execute(
            f"SELECT id FROM nodes WHERE {source_is(source)} AND content_hash = ? AND deleted_at IS NULL"
            " AND kind = 'memory' AND substr(id, 1, ?) <> ? ORDER BY seq LIMIT 1",
            (source, digest, len(source) + 1, source + "#"),
        ).fetchone()
        return row[0] if row else None

    def find_active_by_hashes(self, digests: Iterable[str], kind: str = "memory") -> dict[str, str]:
        """`find_active_by_hash` for many digests at once (an import's duplicate check): digest → first such id."""
        out: dict[str, str] = {}
        for chunk in _chunks(list(dict.fromkeys(digests))):
            marks = ",".join("?" * len(chunk))
            # `+kind`: without statistics the planner walks every memory through the kind index instead of
            # looking each digest up
            for digest, node_id in self.conn.execute(
                    f"SELECT content_hash, id FROM nodes WHERE content_hash IN ({marks}) AND deleted_at IS NULL"
                    f" AND {OWNED_SOURCE} AND +kind = ? ORDER BY seq", [*chunk, kind]):
                out.setdefault(digest, node_id)
        return out

    def iter_nodes(self, *, kind: str | None = "memory", include_deleted: bool = False) -> Iterator[Memory]:
        clauses, args = [], []
        if kind:
            clauses.append("kind = ?")
            args.append(kind)
        if not include_deleted:
            clauses.append("deleted_at IS NULL")
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        yield from map(_node, _paged(self.conn.execute(f"SELECT {_NODE_SELECT} FROM nodes {where} ORDER BY seq", args)))

    def latest_by_source(self, source: str, *, exclude: str | None = None, before: str | None = None) -> Memory | None:
        sql = f"SELECT {_NODE_SELECT} FROM nodes WHERE {source_is(source)} AND deleted_at IS NULL AND kind = 'memory'"
        args: list[Any] = [source]
        if exclude:
            sql += " AND id != ?"
            args.append(exclude)
        if before:
            sql += " AND created_at <= ?"
            args.append(before)
        row = self.conn.execute(sql + " ORDER BY created_at DESC, seq DESC LIMIT 1", args).fetchone()
        return _node(row) if row else None

    def latest_created_at(self) -> str | None:
        """The newest `created_at` of any active node: a batch dated at or after it only appends to history."""
        row = self.conn.execute("SELECT MAX(created_at) FROM nodes WHERE deleted_at IS NULL").fetchone()
        return row[0] if row else None

    def next_by_source(self, source: str, *, after: str, exclude: str | None = None) -> Memory | None:
        """The earliest active memory of `source` created strictly after `after`: the successor a backdated write
        is spliced in front of."""
        sql = (f"SELECT {_NODE_SELECT} FROM nodes WHERE {source_is(source)} AND deleted_at IS NULL AND kind = 'memory'"
               " AND created_at > ?")
        args: list[Any] = [source, after]
        if exclude:
            sql += " AND id != ?"
            args.append(exclude)
        row = self.conn.execute(sql + " ORDER BY created_at ASC, seq ASC LIMIT 1", args).fetchone()
        return _node(row) if row else None

    def recent_memories(self, limit: int, *, since: str | None = None, until: str | None = None,
                        source: str | None = None, exclude: Iterable[str] = (),
                        flt: MemoryFilter | None = None, after: str | None = None) -> list[Memory]:
        where, args = _recent_where(flt, since, until, source, exclude)
        order = "DESC"
        if after:
            where, order = where + " AND n.created_at > ?", "ASC"
            args.append(after)
        sql = (f"SELECT {_NODE_SELECT_N} FROM nodes n WHERE {where}"
               f" ORDER BY n.created_at {order}, n.seq {order} LIMIT ?")
        return [_node(r) for r in self.conn.execute(sql, [*args, limit])]

    def recent_memory_ids(self, limit: int, flt: MemoryFilter | None = None) -> list[str]:
        """The ids `recent_memories(limit, flt=flt)` would return, without reading and decoding whole rows."""
        where, args = _where(flt)
        sql = f"SELECT n.id FROM nodes n WHERE {where} ORDER BY n.created_at DESC, n.seq DESC LIMIT ?"
        return [r[0] for r in self.conn.execute(sql, [*args, limit])]

    def memory_ids(self, flt: MemoryFilter | None = None) -> list[str]:
        where, args = _where(flt)
        return [r[0] for r in self.conn.execute(f"SELECT n.id FROM nodes n WHERE {where}", args)]

    def soft_delete(self, ids: Sequence[str], when: str) -> int:
        n = 0
        for chunk in _chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            seqs = [r[0] for r in self.conn.execute(
                f"SELECT seq FROM nodes WHERE id IN ({marks}) AND deleted_at IS NULL", list(chunk))]
            if not seqs:
                continue
            smarks = ",".join("?" * len(seqs))
            self._unindex_keywords(seqs)
            n += self._write(f"UPDATE nodes SET deleted_at = ?, updated_at = ? WHERE seq IN ({smarks})",
                             [when, when, *seqs]).rowcount
            self._write(f"DELETE FROM node_entities WHERE node_seq IN ({smarks})", seqs)
            self._write(BUMP_VECTOR_GENERATION)
        return n

    def undelete(self, ids: Sequence[str], when: str) -> list[str]:
        """`soft_delete` undone for these memories: the row as it was (inserted again now, for the prune grace
        period), back in the keyword and entity indexes (its vectors were kept and count again). A vault row is left
        deleted: its note decides whether it exists.
        Returns the ids brought back."""
        revived: list[str] = []
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(f"SELECT {_NODE_SELECT}, seq FROM nodes WHERE id IN ({marks})"
                                     f" AND deleted_at IS NOT NULL AND kind = 'memory' AND {NOT_VAULT_ROW}",
                                     list(chunk)).fetchall()
            if not rows:
                continue
            nodes = [(int(r[18]), _node(r)) for r in rows]
            seqs = [seq for seq, _ in nodes]
            smarks = ",".join("?" * len(seqs))
            # revived on purpose: its prune grace period runs from now (`inserted_at`), or the next write over the
            # cap took it first
            self._write(f"UPDATE nodes SET deleted_at = NULL, updated_at = ?, inserted_at = ? WHERE seq IN ({smarks})",
                        [when, when, *seqs])
            self._index_keywords([(seq, n.title, n.content, n.source, n.metadata, n.tags, n.entities, None)
                                  for seq, n in nodes])
            self.index_entities_of_new([(n.id, n.entities, n.created_at) for _, n in nodes if n.entities])
            self._write(BUMP_VECTOR_GENERATION)
            revived.extend(n.id for _, n in nodes)
        return revived

    def hard_delete(self, ids: Sequence[str]) -> int:
        """Remove rows for good: only for vault-derived rows that a rebuild replaces, never for memories."""
        n = 0
        for chunk in _chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            seqs = [r[0] for r in self.conn.execute(f"SELECT seq FROM nodes WHERE id IN ({marks})", list(chunk))]
            if not seqs:
                continue
            smarks = ",".join("?" * len(seqs))
            self._unindex_keywords(seqs)
            n += self._write(f"DELETE FROM nodes WHERE seq IN ({smarks})", seqs).rowcount
            self._write(BUMP_VECTOR_GENERATION)
        if n and getattr(self, "_vault", None) is not None:
            self._vault.forget_inserted()  # (a deleted seq may be given to the next row)
        return n

    def count_active(self) -> int:
        return int(self.conn.execute("SELECT value FROM meta WHERE key = 'active_memories'").fetchone()[0])

    def count_prunable(self, at_most: int) -> int:
        # nodes_timed_created holds these rows (and `kind`) and the payloads' (their source read from the table),
        # no more than `at_most` of them counted (a store far over its cap costs what one just over it does)
        return int(self.conn.execute(f"SELECT COUNT(*) FROM (SELECT 1 FROM nodes WHERE kind = 'memory'"
                                     f" AND deleted_at IS NULL AND {OWNED_SOURCE} LIMIT ?)", (at_most,)).fetchone()[0])

    def prune_pool(self, inserted_before: str, exclude: Iterable[str]) -> list[tuple[str, int, int, str, str]]:
        # named: without statistics the planner prefers nodes_kind_created and reads every memory
        if self.conn.execute(f"SELECT 1 FROM nodes INDEXED BY nodes_prune_age WHERE deleted_at IS NULL"
                             f" AND kind = 'memory' AND {OWNED_SOURCE} AND inserted_at <= ? LIMIT 1",
                             (inserted_before,)).fetchone() is None:
            return []  # every memory is in its grace period (nodes_prune_age answers this at once)
        excluded = set(exclude)
        # the rows of nodes_prune (which holds exactly the writer's active memories) read in its order, not sorted
        sql = (f"SELECT id, importance, access_count, COALESCE(NULLIF(last_accessed_at, ''), created_at), created_at"
               f" FROM nodes INDEXED BY nodes_prune WHERE deleted_at IS NULL AND kind = 'memory' AND {OWNED_SOURCE}"
               f" AND importance < 4 AND access_count < 3 AND inserted_at <= ?")
        return [r for r in self.conn.execute(sql, (inserted_before,)) if r[0] not in excluded]

    def set_effective_importance(self, values: dict[str, float]) -> None:
        if values and not self.readonly:
            self._write_many("UPDATE nodes SET effective_importance = ? WHERE id = ?",
                             [(v, k) for k, v in values.items()])

    def touch(self, ids: Sequence[str], when: str, amount: int = 1) -> None:
        if self.readonly or not ids:
            return
        self._write_many("UPDATE nodes SET access_count = access_count + ?, last_accessed_at = ? WHERE id = ?",
                         [(amount, when, i) for i in ids])

    def _write_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if self.readonly:
            raise ReadOnly("the store is open read-only (--readonly)")
        self.conn.executemany(sql, rows)

    def like_search(self, text: str, limit: int) -> list[Memory]:
        # case folds for every letter as on PostgreSQL (fold_case on both sides; SQLite's LIKE alone folds ASCII)
        pattern = "%" + fold_case(text).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [_node(r) for r in self.conn.execute(
            f"SELECT {_NODE_SELECT} FROM nodes WHERE deleted_at IS NULL AND kind = 'memory'"
            f" AND mnemon_fold_case({text_of('nodes')}) LIKE ? ESCAPE '\\'"
            " ORDER BY importance DESC, created_at DESC, id LIMIT ?", (pattern, limit))]

    def nodes_by_title(self, text: str, limit: int) -> list[Memory]:
        needle = _fold(text)
        if not needle.strip():
            return []
        # an ASCII title folds to its SQL lower() (NFKC keeps ASCII as it is): Python folds only the others. The two
        # ranges of the kind index around 'memory' skip the memories (43k of a 2,000-note vault's 58k rows), and the
        # ~15k titles left are read in ~9 ms: no index of titles, which would add to the database's size. Only the
        # chosen rows are read whole.
        titled = ("SELECT seq, kind, title, id, CASE WHEN length(title) = length(CAST(title AS BLOB)) THEN lower(title)"
                  " ELSE mnemon_fold(title) END AS folded FROM nodes"
                  " WHERE deleted_at IS NULL AND title IS NOT NULL AND kind {} 'memory'")
        return [_node(r) for r in self.conn.execute(
            f"SELECT {_NODE_SELECT} FROM (SELECT seq, kind <> 'note' AS other, CASE WHEN folded = ? THEN 0"
            " WHEN instr(folded, ?) = 1 THEN 1 ELSE 2 END AS tier, folded, title AS named, id AS named_id FROM"
            f" ({titled.format('<')} UNION ALL {titled.format('>')}) WHERE instr(folded, ?) > 0"
            " ORDER BY other, tier, folded, named, named_id LIMIT ?) AS t JOIN nodes USING (seq)"
            " ORDER BY t.other, t.tier, t.folded, t.named, t.named_id", (needle, needle, needle, limit))]

    # ── vectors (the rest in vectors_sqlite.py) ──────────────────────────────
    def nodes_missing_vectors(self, provider: str) -> list[Memory]:
        return [_node(r) for r in self.conn.execute(
            f"SELECT {_NODE_SELECT_N} FROM nodes n LEFT JOIN vectors v ON v.node_seq = n.seq"
            f" AND v.provider = ? AND {vector_is_current('n', 'v')}"
            " WHERE n.deleted_at IS NULL AND n.kind = 'memory' AND v.node_seq IS NULL ORDER BY n.seq", (provider,))]

    # ── audit and stats ──────────────────────────────────────────────────────
    def log(self, op: str, node_id: str | None, detail: dict[str, Any], when: str) -> None:
        self.log_many([(op, node_id, detail, when)])

    def log_many(self, entries: Sequence[tuple[str, str | None, dict[str, Any], str]]) -> None:
        if self.readonly:
            return  # a read-only snapshot leaves no trace, as in mnemon
        self.conn.executemany("INSERT INTO oplog(op, node_id, detail, created_at) VALUES (?,?,?,?)",
                              [(op, node_id, json.dumps(detail, ensure_ascii=False), when)
                               for op, node_id, detail, when in entries])

    def oplog(self, limit: int, *, op: str | None = None, node_id: str | None = None) -> list[OplogEntry]:
        sql = "SELECT id, op, node_id, detail, created_at FROM oplog"
        clauses, args = [], []
        if op:
            clauses.append("op = ?")
            args.append(op)
        if node_id:
            clauses.append("node_id = ?")
            args.append(node_id)
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        rows = self.conn.execute(sql + " ORDER BY id DESC LIMIT ?", [*args, limit])
        return [OplogEntry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def stats(self) -> dict[str, Any]:
        q = self.conn.execute
        by_cat = {r[0]: r[1] for r in q("SELECT category, COUNT(*) FROM nodes WHERE kind = 'memory'"
                                          " AND deleted_at IS NULL GROUP BY category ORDER BY category")}
        # memories from the kept count, the other kinds from the two ranges of the kind index around them (reading
        # the whole index was 11 ms of a 2,000-note vault's `status`)
        by_kind = {r[0]: r[1] for r in q("SELECT kind, COUNT(*) FROM nodes WHERE deleted_at IS NULL AND kind < 'memory'"
                                         " GROUP BY kind UNION ALL SELECT kind, COUNT(*) FROM nodes"
                                         " WHERE deleted_at IS NULL AND kind > 'memory' GROUP BY kind")}
        memories = self.count_active()
        if memories:
            by_kind = dict(sorted({**by_kind, "memory": memories}.items()))
        try:
            counted = q("SELECT type, status, n FROM edge_counts WHERE n != 0 ORDER BY type, status").fetchall()
        except sqlite3.OperationalError:  # opened read-only before m043: count the rows
            counted = q("SELECT type, status, COUNT(*) FROM edge_rows GROUP BY type, status ORDER BY type, status"
                        ).fetchall()
        by_edge = {t: n for t, st, n in counted if st == "active"}
        tally: Counter[str] = Counter()
        for _t, st, n in counted:
            tally[st] += n
        by_status = dict(sorted(tally.items()))
        deleted = q("SELECT COUNT(*) FROM nodes WHERE deleted_at IS NOT NULL AND kind = 'memory'").fetchone()[0]
        size = sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))
        return {
            "total_insights": memories,
            "deleted_insights": deleted,
            "by_category": by_cat,
            "nodes_by_kind": by_kind,
            "edges_by_type": by_edge,
            "edges_by_status": by_status,
            "edge_count": sum(by_edge.values()),  # (active edges, as edges_by_type: mnemon's status counts so)
            "edges_total": sum(by_status.values()),  # every edge whatever its status, as `ingest` counts them
            "oplog_count": q("SELECT COUNT(*) FROM oplog").fetchone()[0],
            "db_path": self.path,
            "db_size_bytes": size,
        }
