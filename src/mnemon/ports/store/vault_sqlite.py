"""Vault tables on SQLite: which files were ingested (by content hash), the seeded relationship ontology, and the
bulk helpers ingestion needs to write thousands of rows per second.

Vault-derived rows live in the shared `nodes` / `edges` tables (one graph). Everything here goes through the owning
`SQLiteStore` connection, so it shares its lock, read-only guard and nestable transactions. Every bulk edge insert
records its creation in the edge row itself; later changes go to `edge_events` — the audit trail `explain-edge`
reads.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ...core.keywords import skipped_lines
from ...core.model import Edge, Memory
from ...core.vault.lifecycle import kept_active
from ..cache_paths import beside
from .base import another_ingest
from .coded_edges_sqlite import (CODED_ROWS, EdgeKinds, as_rows, coded_row, delete_coded, insert_coded,
                                 next_edge_id, recode)
from .contained_sqlite import ContainedKinds, derived_heads_from, forget_derived
from .edge_rows import SEQ_OF, packed_evidence, packed_insert_rows
from .sources import source_is
from .vault_files_sqlite import _chunks
from .vault_reads_sqlite import VaultReads
from .vectors_sqlite import BUMP_VECTOR_GENERATION
from .vault_texts_sqlite import PACKED_METADATA, VaultTexts, is_packable, packed_columns, packs_metadata

try:
    import fcntl
except ImportError:  # Windows: no advisory file locks; two ingests at once both plan the vault, as before
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:  # imported lazily by SQLiteStore.vault; a runtime import back would be a cycle
    from .sqlite import SQLiteStore

_NODE_INSERT = (
    "INSERT INTO nodes (id, kind, title, content, content_hash, category, importance, tags, entities, source,"
    " created_at, updated_at, last_accessed_at, access_count, effective_importance, deleted_at, metadata, inserted_at,"
    " proactive) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,0,?,NULL,?,?,?)"
)
# ...with the code of each row's derived containment edge (contained_sqlite.py)
_NODE_INSERT_CONTAINED = _NODE_INSERT.replace(" proactive)", " proactive, contained)").replace("?,?,?)", "?,?,?,?)")
# The per-row trigger keeping `meta.active_memories` (schema m001): a bulk load may suspend it and add its effect in
# one statement, but only while it reads exactly like this — any other definition stays in place.
# the page cache of a bulk load (`SQLiteVault.bulk_load`): a 2,000-note vault's store is ~35 MB, all dirty in its one
# transaction; a larger vault spills past it as before
BULK_CACHE_BYTES = 64 * 2**20
_COUNT_TRIGGER = "nodes_count_ins"
_COUNT_TRIGGER_SQL = (
    "CREATE TRIGGER nodes_count_ins AFTER INSERT ON nodes WHEN NEW.kind = 'memory' AND NEW.deleted_at IS NULL"
    " BEGIN UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'active_memories'; END"
)


# One encoder each, built once: `json.dumps` with non-default options builds a new encoder per call, which cost
# seconds over the ~400k metadata/event blobs of a 2,000-note vault.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_LIST = json.JSONEncoder(ensure_ascii=False).encode  # the `["a", "b"]` spelling SQLiteStore writes for tags
# what ingest compares a re-parsed edge with (`edge_values_from`, `edge_values_by_keys`)
# the columns of an ingested edge row as `insert_edge_rows` writes it
# an edge whose row says it was born with its source node (`created_at = ''`: edge_rows.py) keeps that node's time
# when it moves to another source (a moved note, a joined placeholder): read from the new one, a decision made before
# the move read as older than its edge (the right side of an UPDATE sees the row before it)
_BORN_BEFORE_MOVE = ("created_at = CASE WHEN created_at = '' THEN COALESCE((SELECT n.created_at FROM nodes n"
                     " WHERE n.seq = edge_rows.src), '') ELSE created_at END")
_INSERTED_COLS = ("src, dst, type, weight, confidence, status, evidence, origin, rule, source_path, metadata,"
                  " created_at, updated_at")
_EDGE_VALUES = "src, dst, type, id, status, weight, confidence, evidence, rule, source_path, metadata, origin"


def _edge_values(r: Sequence[Any]) -> tuple[Any, ...]:
    """(id, status, weight, confidence, evidence, rule, source_path, metadata JSON) of an `_EDGE_VALUES` row."""
    return (int(r[3]), r[4], r[5], r[6], r[7], r[8], r[9], r[10] if isinstance(r[10], str) else _COMPACT(r[10]))





def _dump(value: Any) -> str:
    return _COMPACT(value) if value else "{}"


def _dump_list(values: Sequence[str]) -> str:
    return _LIST(list(values)) if values else "[]"


def _same_metadata(stored: Any, given: Any, source: str) -> bool:
    """Whether two metadata columns say the same, however spaced, and with or without the row's note (a read adds
    it from the source, so a restored row holds it; ingest stores none)."""
    if stored == given:
        return True
    try:
        read = [json.loads(text or "{}") for text in (stored, given)]
    except (TypeError, ValueError):
        return False
    for meta in read:
        if isinstance(meta, dict) and source.startswith("vault:") and meta.get("note") == source[6:]:
            del meta["note"]
    return bool(read[0] == read[1])


def node_row(n: Memory) -> tuple[Any, ...]:
    """The `nodes` insert row of a memory: (id, kind, title, content, content_hash, category, importance, tags JSON,
    entities JSON, source, created_at, updated_at, effective_importance, metadata JSON, inserted_at, proactive)
    — the last a vault bullet's static proactive score (`core.vault.proactive`), None for anything else."""
    return (n.id, n.kind, n.title, n.content, n.content_hash if n.content else "", n.category, n.importance,
            _dump_list(n.tags), _dump_list(n.entities), n.source, n.created_at, n.updated_at or n.created_at,
            n.effective_importance, _dump(n.metadata), n.inserted_at or n.created_at, None)


def _decided(status: str, metadata: str | None, origin: str = "", weight: float = 0.0,
             confidence: float = 0.0) -> bool:
    """Whether an edge records a decision: killed, validated or promoted while active, or an ingested edge weakened
    (`weaken-edge`: its strength below its confidence, as the ingest writer reads it)."""
    return (status == "killed" or kept_active(status, metadata)
            or (origin == "ingest" and status in ("active", "candidate") and weight < confidence))


class SQLiteVault(VaultReads):
    """The vault tables of one `SQLiteStore` (reach it as `store.vault`)."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        # inside `bulk_load`: node id → (seq, created_at) of each row inserted in the block, which the edge inserts
        # read instead of looking the ~100k ends of a cold ingest's edges up again; emptied by any node deletion
        # (`SQLiteStore.hard_delete` calls `forget_inserted`), after which a seq may name another row
        self._inserted: dict[str, tuple[int, str]] | None = None
        # node id → metadata JSON of each packed row written without it since the last `write_texts`, which puts
        # it in the row's note blob (the `pack` writes' callers must call it, as they must for the texts)
        self._bare: dict[str, str] = {}

    def _packed(self, rows: Sequence[tuple[Any, ...]], new: bool = False) -> list[tuple[Any, ...]]:
        """`node_row` tuples as stored: a vault memory's text and metadata leave its row for its note's blob
        (`write_texts`), and its hash and title what they can be rebuilt from (`packed_columns`); `new` rows also
        leave out an update and insert time equal to their creation (`sqlite._node` reads '' as created_at: two
        timestamps of every derived row, 3 MB of a 2,000-note vault)."""
        if not self.packs_texts:
            return list(rows)
        out = [(r[0], r[1], *packed_columns(r[2], r[13]), *r[5:13],
                PACKED_METADATA if packs_metadata(r[13]) else r[13], *r[14:])
               if is_packable(r[1], r[9], r[3], r[4]) else r for r in rows]
        if new:
            out = [(*r[:11], "" if r[11] == r[10] else r[11], *r[12:14], "" if r[14] == r[10] else r[14], *r[15:])
                   for r in out]
        return out

    def containment_kinds(self) -> ContainedKinds:
        """The codes of derived containment edges, for one write transaction (`derives_edges` only)."""
        return ContainedKinds(self.store)

    def row_keys_from(self, srcs: Sequence[str]) -> set[tuple[str, str, str]]:
        """(src, dst, type) of the edge rows leaving these nodes — derived edges left out (`derives_edges` only)."""
        out: set[tuple[str, str, str]] = set()
        for chunk in _chunks(list(dict.fromkeys(srcs))):
            out.update(self.conn.execute(f"SELECT src, dst, type FROM stored_edges WHERE src IN"
                                         f" ({','.join('?' * len(chunk))})", list(chunk)).fetchall())
        return out

    def write_texts(self, texts: dict[str, dict[str, str]], evidence: dict[str, list[str]] | None = None,
                    item_evidence: dict[str, dict[str, str]] | None = None) -> None:
        """Note source → {memory id: text} of the packed rows just written for it (every packed row of the note
        that this parse planned), → the evidence texts of the edge rows the parse planned (their rows name them by
        key, `insert_edge_rows`), and → {item id: evidence} of the note's derived containment edges; the texts of
        the note's other rows that still exist are kept. Call it once the rows are written and unindexed
        (unindexing a row reads its old text from the blob this replaces), before the parse's edges are written."""
        if self.packs_texts:
            metadata, self._bare = self._bare, {}
            VaultTexts(self.store).write(texts, evidence, self._inserted_rows(), item_evidence, metadata)

    def forget_pending(self) -> None:
        """The write transaction rolled back: the metadata kept for `write_texts` is of rows that are gone."""
        self._bare = {}

    def _leave_bare(self, texts: Sequence[tuple[Any, ...]], stored: Sequence[tuple[Any, ...]]) -> None:
        """Remember the metadata of the rows just written without it (`PACKED_METADATA`), for `write_texts`."""
        self._bare.update((t[0], t[13]) for t, r in zip(texts, stored) if r[13] == PACKED_METADATA)

    @property
    def conn(self) -> Any:
        return self.store.conn

    def _write(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self.store._write(sql, args)

    def _write_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self.store._write_many(sql, rows)

    @contextmanager
    def ingest_lock(self) -> Iterator[None]:
        """Held by an ingest from before it reads which notes the store holds until their vectors are written: a
        second ingest of the store waits here, then finds every note the first one wrote unchanged. Without it the
        second read the store before the first committed and planned, wrote and embedded the whole vault again.
        Readers and other writers never take it. Here an exclusive lock on a file beside the database (released by
        the kernel if the process dies); an in-memory store has no other process to wait for."""
        path = beside(self.store, "ingest.lock")
        fd = -1
        if path is not None and fcntl is not None and not path.startswith("file:") and not self.store.readonly:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                pass  # a folder we cannot create files in: the ingest's own write transaction still serialises
        try:
            if fd >= 0:
                self._wait_for_ingest_lock(fd)
            yield
        finally:
            if fd >= 0:
                os.close(fd)  # (closing releases the lock)

    def _wait_for_ingest_lock(self, fd: int) -> None:
        """At most the store's busy wait (`busy_wait`), as a write waits for another: an ingest stuck holding the
        lock (a paused process) held every later ingest up without end and without a word; then `StoreBusy`."""
        wait_ms = int(self.store.conn.execute("PRAGMA busy_timeout").fetchone()[0])
        deadline = time.monotonic() + wait_ms / 1000
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise another_ingest(self.store.path, wait_ms, self.store.busy_wait_set_by) from None
                time.sleep(0.05)

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Inside the caller's write transaction: suspend the secondary indexes of `nodes` and `edges` and the
        active-memory count trigger, and rebuild them once at the end of the block, after merging the keyword index
        (`_merge_keyword_index`).

        A cold ingest inserts ~160k rows in random key order; building each index once from the finished table
        (and adding the memory count in one UPDATE) costs about a third less than maintaining them row by row.
        The connection's page cache is raised to `BULK_CACHE_BYTES` for the block (then set back): with the default
        2 MB the load's dirty pages spilled into the write-ahead log and were read back (≈ 10 % of the writer's SQLite
        CPU for 2,000 notes); durability is unchanged, the load staying one transaction.
        Lookups by node id or by edge (src, dst, type) keep their UNIQUE indexes inside the block; any other lookup
        scans, so the block should do little else. If the block raises, the caller's transaction must roll back (as
        `SQLiteStore.transaction` does), which restores the schema with everything else."""
        suspended = [(kind, name, sql) for kind, name, sql in self.conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('nodes', 'edge_rows', 'coded_edges')"
            " AND sql IS NOT NULL"
            " AND (type = 'index' OR (type = 'trigger' AND name = ?)) ORDER BY type, name", (_COUNT_TRIGGER,))
            if kind == "index" or " ".join(sql.split()) == _COUNT_TRIGGER_SQL]
        before = self.max_seq()
        cache = int(self.conn.execute("PRAGMA cache_size").fetchone()[0])
        page = int(self.conn.execute("PRAGMA page_size").fetchone()[0])
        if (-cache * 1024 if cache < 0 else cache * page) < BULK_CACHE_BYTES:
            self.conn.execute(f"PRAGMA cache_size = {-(BULK_CACHE_BYTES // 1024)}")
        try:
            for kind, name, _sql in suspended:
                self._write(f'DROP {kind.upper()} "{name}"')
            self._inserted = {}
            try:
                yield
            finally:
                self._inserted = None
            self.store._merge_keyword_index()
            for kind, _name, sql in suspended:
                self._write(sql)
                if kind == "trigger":
                    self._write("UPDATE meta SET value = CAST(value AS INTEGER) + (SELECT COUNT(*) FROM nodes WHERE"
                                " seq > ? AND kind = 'memory' AND deleted_at IS NULL) WHERE key = 'active_memories'",
                                (before,))
        finally:
            self.conn.execute(f"PRAGMA cache_size = {cache}")  # (a connection setting: committed or not)

    def release_wal(self, wait_ms: int = 250) -> bool:
        """Copy the write-ahead log into the database and truncate it, waiting at most `wait_ms` for readers of
        older snapshots; True when done. After a bulk load the log is as large as the database, and without this
        it keeps that disk space until the next truncating checkpoint (SQLite only reuses it)."""
        if self.store.readonly:
            return False
        previous = int(self.conn.execute("PRAGMA busy_timeout").fetchone()[0])
        self.conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
        try:
            busy = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {previous}")
        return not busy

    def max_seq(self) -> int:
        """The highest node seq: how many node rows the store has ever held, read from the end of the table."""
        return int(self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM nodes").fetchone()[0])

    # ── nodes ────────────────────────────────────────────────────────────────
    def existing_nodes(self, ids: Sequence[str]) -> dict[str, tuple[str | None, str]]:
        """id → (deleted_at, content_hash) for the ids that have a row."""
        out: dict[str, tuple[str | None, str]] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            for r in self.conn.execute(f"SELECT id, deleted_at, {self._hash('nodes')} FROM nodes WHERE id IN"
                                       f" ({','.join('?' * len(chunk))})", list(chunk)):
                out[r[0]] = (r[1], r[2])
        return out

    def has_vault_rows(self) -> bool:
        """Whether any note, vault memory or heading row exists (soft-deleted ones included): three index probes."""
        return any(self.conn.execute("SELECT 1 FROM nodes WHERE id >= ? AND id < ? LIMIT 1", (prefix, prefix[:-1] + ";"))
                   .fetchone() for prefix in ("note:", "vault:", "heading:"))

    def derived_node_ids(self, path: str) -> list[str]:
        """Rows a note's parse produced: its memories (`vault:<path>:…`) and its heading nodes (`heading:<path>#…`).
        Range scans over the id index: the ids are prefixed by the path on purpose."""
        ids: list[str] = []
        for prefix in (f"vault:{path}:", f"heading:{path}#"):
            ids += [r[0] for r in self.conn.execute("SELECT id FROM nodes WHERE id >= ? AND id < ?",
                                                    (prefix, prefix + "\U0010ffff"))]
        return ids

    def insert_nodes(self, nodes: Sequence[Memory], fts_bodies: Sequence[str] | None = None) -> None:
        """Insert new rows (ids must not exist); memories also enter the FTS index."""
        self.insert_node_rows([node_row(n) for n in nodes], fts_bodies)

    def insert_node_rows(self, rows: Sequence[tuple[Any, ...]], fts_bodies: Sequence[str | None] | None = None, *,
                         pack: bool = False, contained: Sequence[int | None] | None = None) -> None:
        """`node_row` tuples of new ids; memories also enter the keyword index. `fts_bodies`, aligned with `rows`,
        may carry bodies tokenised ahead by the ingest workers: each must be `core.keywords.keyword_text` of its row
        (None, or no list, computes them here). Two `executemany` calls. `pack`: the caller hands the vault
        memories' texts to `write_texts` afterwards, so their rows may leave them out. `contained`, aligned with
        `rows` (only where `derives_edges`): the code of each row's derived containment edge, or None; the caller
        counts them (`ContainedKinds.count`)."""
        if not rows:
            return
        before = self.max_seq()
        stored = self._packed(rows, new=True) if pack else list(rows)
        if pack:
            self._leave_bare(rows, stored)
        if contained is not None and self.derives_edges:
            self._write_many(_NODE_INSERT_CONTAINED, [(*r, code) for r, code in zip(stored, contained)])
        else:
            self._write_many(_NODE_INSERT, stored)
        after = int(self.conn.execute("SELECT MAX(seq) FROM nodes").fetchone()[0])
        # nodes.seq is an INTEGER PRIMARY KEY: inside our write transaction SQLite gives each new row max + 1, in
        # insertion order, so the seqs are known without a lookup per row (checked; else looked up)
        seqs = range(before + 1, after + 1) if after == before + len(rows) else None
        if seqs is not None and self._inserted is not None:
            self._inserted.update(zip([r[0] for r in rows], zip(seqs, [r[10] for r in rows])))
        self._index_rows(rows, fts_bodies, seqs)

    def refresh_nodes(self, nodes: Sequence[Memory], fts_bodies: Sequence[str | None] | None = None) -> None:
        """Update existing rows in place (keeping access stats and vectors) and revive soft-deleted ones; ids without
        a row are ignored."""
        self.refresh_node_rows([node_row(n) for n in nodes], fts_bodies)

    def refresh_node_rows(self, rows: Sequence[tuple[Any, ...]], fts_bodies: Sequence[str | None] | None = None,
                          stored: dict[str, tuple[Any, ...]] | None = None, *, pack: bool = False,
                          contained: Sequence[int | None] | None = None) -> None:
        """`refresh_nodes` for `node_row` tuples (their created/inserted times are not applied); `stored` is what
        `stored_rows` says of them, when the caller read it already; `pack` and `contained` as for
        `insert_node_rows` (the triggers count a code that changes)."""
        if not rows:
            return
        codes = list(contained) if contained is not None and self.derives_edges else None
        # A changed note re-plans every row, but most come back as they were (an edit moves a few lines): a row
        # equal to its stored self is left alone, and only a row whose keyword text changed is re-indexed — taking
        # a row out of the contentless index means tokenising its old text again.
        if stored is None:
            stored = self.stored_rows([r[0] for r in rows])
        # compared with the stored rows as `stored_rows` reads them (content as stored, title and hash restored),
        # and written as stored
        texts, rows = rows, (self._packed(rows) if pack else rows)
        changed: list[int] = []
        reindex: list[int] = []
        derived_only: set[int] = set()  # rows whose text and fields stay: their updated_at stays too
        for i, r in enumerate(rows):
            was = stored.get(r[0])
            if was is None:
                continue  # no such row: refresh ignores it
            live = was[10] is None
            title, digest = texts[i][2], texts[i][4]
            if live and was[:10] == (r[1], title, r[3], digest, r[5], r[6], r[7], r[9], texts[i][13], r[15]) and (
                    codes is None or was[11] == codes[i]):
                continue
            changed.append(i)
            # only how the row is kept differs (its text packed into the note's blob, compact metadata without its
            # note) or what an ingest derives (the containment code, the proactive score), as on a restored row read
            # again: its text (by hash) and fields are what they were, and it is no "update"
            if live and (was[:2], was[3:8]) == ((r[1], title), (digest, r[5], r[6], r[7], r[9])) and _same_metadata(
                    was[8], texts[i][13], r[9]):
                derived_only.add(i)
            if not (live and was[0] == r[1] and was[1:4] == (title, r[3], digest) and was[6:8] == (r[7], r[9])
                    and skipped_lines(was[8]) == skipped_lines(texts[i][13])):
                reindex.append(i)
        if not changed:
            return
        # a vector of a row's old text goes with it: vector checks then need no hash of a packed row's text
        # (`vault_texts_sqlite.vector_is_current`; this is the one writer that rewrites such a row's text in place)
        retext = [rows[i][0] for i in changed if stored[rows[i][0]][3] != texts[i][4]]
        for chunk in _chunks(retext):
            self._write(f"DELETE FROM vectors WHERE node_seq IN (SELECT seq FROM nodes WHERE id IN"
                        f" ({','.join('?' * len(chunk))}))", list(chunk))
        # a forgotten row its note brings back counts its kept vector again: the matrices must reload to see it
        if retext or any(stored[rows[i][0]][10] is not None for i in changed):
            self._write(BUMP_VECTOR_GENERATION)
        self._unindex_rows([rows[i][0] for i in reindex])
        update = ("UPDATE nodes SET kind=?, title=?, content=?, content_hash=?, category=?, importance=?, tags=?,"
                  " source=?, updated_at=COALESCE(?, updated_at), metadata=?, proactive=?, deleted_at=NULL WHERE id=?")
        values: list[tuple[Any, ...]] = [(rows[i][1], rows[i][2], rows[i][3], rows[i][4], rows[i][5], rows[i][6],
                                          rows[i][7], rows[i][9], None if i in derived_only else rows[i][11],
                                          rows[i][13], rows[i][15], rows[i][0])
                                         for i in changed]
        if codes is not None:
            update = update.replace(", deleted_at=NULL", ", deleted_at=NULL, contained=?")
            values = [(*v[:-1], codes[i], v[-1]) for i, v in zip(changed, values)]
        self._write_many(update, values)
        if pack:
            self._leave_bare([texts[i] for i in changed], [rows[i] for i in changed])
        self._index_rows([texts[i] for i in reindex], [fts_bodies[i] for i in reindex] if fts_bodies is not None
                         else None, None)

    def stored_rows(self, ids: Sequence[str]) -> dict[str, tuple[Any, ...]]:
        """id → (kind, title, content, content_hash, category, importance, tags, source, metadata, proactive,
        deleted_at, containment code): the columns `refresh_node_rows` writes, as stored — but a packed row's title,
        hash and metadata as they read (`vault_texts_sqlite.packed_columns`); the code None where edges are not
        derived."""
        out: dict[str, tuple[Any, ...]] = {}
        code = "contained" if self.derives_edges else "NULL"
        for chunk in _chunks(list(dict.fromkeys(ids))):
            for r in self.conn.execute(f"SELECT id, kind, {self._title('nodes')}, content, {self._hash('nodes')},"
                                       f" category, importance, tags, source, {self._metadata('nodes')}, proactive,"
                                       f" deleted_at, {code}"
                                       " FROM nodes"
                                       f" WHERE id IN ({','.join('?' * len(chunk))})",
                                       list(chunk)):
                out[r[0]] = tuple(r[1:])
        return out

    # keyword index upkeep of the rows above; PostgreSQL's vault replaces these two (subtables_postgres.py)
    def _index_rows(self, rows: Sequence[tuple[Any, ...]], fts_bodies: Sequence[str | None] | None,
                    seqs: Sequence[int] | None) -> None:
        """Index the memory rows among `rows` (all undeleted now), by the given seqs or looked up by id."""
        memories = [i for i, r in enumerate(rows) if r[1] == "memory"]
        if not memories:
            return
        if seqs is None:
            by_id: dict[str, int] = {}
            for chunk in _chunks([rows[i][0] for i in memories]):
                by_id.update(self.conn.execute(f"SELECT id, seq FROM nodes WHERE id IN ({','.join('?' * len(chunk))})",
                                               list(chunk)).fetchall())
            seqs = [by_id.get(r[0], 0) for r in rows]  # 0: no such row (refresh ignores it), nothing to index
        self.store._index_keywords([(seqs[i], rows[i][2], rows[i][3], rows[i][9], rows[i][13], rows[i][7], rows[i][8],
                                     fts_bodies[i] if fts_bodies is not None else None) for i in memories if seqs[i]])

    def _unindex_rows(self, ids: Sequence[str]) -> None:
        seqs: list[int] = []
        for chunk in _chunks(list(ids)):
            seqs += [r[0] for r in self.conn.execute(f"SELECT seq FROM nodes WHERE id IN ({','.join('?' * len(chunk))})",
                                                     list(chunk))]
        self.store._unindex_keywords(seqs)

    def ensure_shared_nodes(self, nodes: Sequence[Memory]) -> None:
        """Date, email, tag and placeholder nodes are shared by every note: insert once, never overwrite; a
        soft-deleted one is revived.

        The soft-deleted ones are found by a read first, so the UPDATE runs only when one exists (rarely): a
        multi-row UPDATE opens a statement savepoint, which makes FTS5 flush the keyword index's pending terms:
        once per batch, those UPDATEs took ~0.3 s of a 2,000-note cold ingest (and left more, smaller segments)."""
        revive: list[str] = []
        for chunk in _chunks([n.id for n in nodes]):
            revive += [r[0] for r in self.conn.execute(f"SELECT id FROM nodes WHERE id IN ({','.join('?' * len(chunk))})"
                                                       " AND deleted_at IS NOT NULL", list(chunk))]
        self._write_many(
            "INSERT OR IGNORE INTO nodes (id, kind, title, content, content_hash, source, created_at, updated_at,"
            " inserted_at, metadata) VALUES (?,?,?,'','',?,?,?,?,?)",
            [(n.id, n.kind, n.title, n.source, n.created_at, n.created_at, n.created_at, _dump(n.metadata))
             for n in nodes])
        for chunk in _chunks(revive):
            self._write(f"UPDATE nodes SET deleted_at = NULL WHERE id IN ({','.join('?' * len(chunk))})", list(chunk))

    def unreferenced(self, kinds: Sequence[str], source: str, among: Sequence[str] | None = None) -> list[str]:
        """Shared nodes of `kinds` written by `source` that no edge touches any more; only ids in `among` when given
        (an incremental run checks the few nodes it released instead of scanning every shared node)."""
        marks = ",".join("?" * len(kinds))
        sql = (f"SELECT n.id FROM nodes n WHERE n.kind IN ({marks}) AND {source_is(source, 'n')}"
               " AND NOT EXISTS (SELECT 1 FROM edge_rows e WHERE e.dst = n.seq)"
               " AND NOT EXISTS (SELECT 1 FROM edge_rows e WHERE e.src = n.seq)"
               + (" AND NOT EXISTS (SELECT 1 FROM coded_edges e WHERE e.dst = n.seq)"
                  " AND NOT EXISTS (SELECT 1 FROM coded_edges e WHERE e.src = n.seq)" if self.packs_texts else ""))
        if among is None:
            return [r[0] for r in self.conn.execute(sql, [*kinds, source])]
        out: list[str] = []
        for chunk in _chunks(list(among)):
            out += [r[0] for r in self.conn.execute(sql + f" AND n.id IN ({','.join('?' * len(chunk))})",
                                                    [*kinds, source, *chunk])]
        return out

    def nodes_of_kind(self, kind: str) -> list[tuple[str, str, dict[str, Any]]]:
        return [(r[0], r[1] or "", json.loads(r[2]) if r[2] and r[2] != "{}" else {})
                for r in self.conn.execute(f"SELECT id, {self._title('nodes')}, {self._metadata('nodes')} FROM nodes"
                                           " WHERE kind = ? AND deleted_at IS NULL", (kind,))]

    # ── edges ────────────────────────────────────────────────────────────────
    def edge_values_from(self, srcs: Sequence[str], *, rows_only: bool = False, types: Sequence[str] = ()
                         ) -> list[tuple[tuple[str, str, str], str, tuple[Any, ...]]]:
        """((src, dst, type), origin, values) of every edge from `srcs` (of `types`, when given), the values as
        `edge_values_by_keys` gives them: what a rebuild needs to decide which edges survive and to compare the
        re-parsed ones with, in one read that decodes nothing. `rows_only`: the edges stored as rows, not those
        derived from an item (contained_sqlite.py; `derived_keys_from` lists those without computing their
        evidence)."""
        out: list[tuple[tuple[str, str, str], str, tuple[Any, ...]]] = []
        view = "stored_edges" if rows_only and self.derives_edges else "edges"
        of_types = f" AND type IN ({','.join('?' * len(types))})" if types else ""
        for chunk in _chunks(list(dict.fromkeys(srcs))):
            for r in self.conn.execute(f"SELECT {_EDGE_VALUES} FROM {view} WHERE src IN ({','.join('?' * len(chunk))})"
                                       f"{of_types} ORDER BY id", [*chunk, *types]):
                out.append(((r[0], r[1], r[2]), r[11], _edge_values(r)))
        return out

    def derived_keys_from(self, srcs: Sequence[str]) -> list[tuple[tuple[str, str, str], int]]:
        """((src, dst, type), id) of the edges from `srcs` derived from an item (contained_sqlite.py), none of their
        values computed: a re-parse replaces them whole (their evidence, cut out of the note's blob, was 2 of the 3 s
        a re-plan of every note spent reading its edges)."""
        if not self.derives_edges:
            return []
        out: list[tuple[tuple[str, str, str], int]] = []
        for chunk in _chunks(list(dict.fromkeys(srcs))):
            out += [((r[0], r[1], r[2]), int(r[3])) for r in self.conn.execute(
                f"SELECT src, dst, type, id FROM derived_edges WHERE src IN ({','.join('?' * len(chunk))})", chunk)]
        return out

    def edges_touching(self, ids: Sequence[str]) -> list[Edge]:
        from .sqlite import _EDGE_COLS, _edge

        out: dict[int, Edge] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for col in ("src", "dst"):
                for r in self.conn.execute(f"SELECT {_EDGE_COLS} FROM edges WHERE {col} IN ({marks})", list(chunk)):
                    e = _edge(r)
                    out[int(e.id or 0)] = e
        return [out[k] for k in sorted(out)]

    def edges_by_keys(self, keys: Sequence[tuple[str, str, str]]) -> dict[tuple[str, str, str], Edge]:
        from .sqlite import _EDGE_COLS, _edge

        out: dict[tuple[str, str, str], Edge] = {}
        srcs = sorted({k[0] for k in keys})
        wanted = set(keys)
        for chunk in _chunks(srcs):
            for r in self.conn.execute(f"SELECT {_EDGE_COLS} FROM edges WHERE src IN ({','.join('?' * len(chunk))})",
                                       list(chunk)):
                e = _edge(r)
                if (e.src, e.dst, e.type) in wanted:
                    out[(e.src, e.dst, e.type)] = e
        return out

    def edge_values_by_keys(self, keys: Sequence[tuple[str, str, str]]) -> dict[tuple[str, str, str], tuple[Any, ...]]:
        """(src, dst, type) → (id, status, weight, confidence, evidence, rule, source_path, metadata JSON) of the
        edges that exist: what ingest compares a re-parsed edge with, read without decoding the others."""
        out: dict[tuple[str, str, str], tuple[Any, ...]] = {}
        wanted = set(keys)
        for chunk in _chunks(sorted({k[0] for k in keys})):
            for r in self.conn.execute(f"SELECT {_EDGE_VALUES} FROM edges WHERE src IN ({','.join('?' * len(chunk))})",
                                       list(chunk)):
                if (r[0], r[1], r[2]) in wanted:
                    out[(r[0], r[1], r[2])] = _edge_values(r)
        return out

    def edge_heads_around(self, node_ids: Sequence[str], keep: Sequence[str], sentence_relations: Sequence[str],
                          statuses: Sequence[str]) -> list[tuple[int, str, str, str, str]]:
        """(id, src, dst, type, status) of the edges touching `node_ids`, leaving out a note's edges of
        `sentence_relations` to its own derived memories (`vault:…` ids) unless one end is in `keep`.

        Those are the note's other sections and bullets: a 40-bullet note has 40 of them, and excluding them in the
        WHERE clause tests only index columns (src, dst, type), so they cost no table lookup."""
        out: dict[int, tuple[int, str, str, str, str]] = {}
        keep = list(dict.fromkeys(keep)) or [""]
        kmarks, rmarks, smarks = (",".join("?" * len(x)) for x in (keep, sentence_relations, statuses))
        def skip(src: str = "src", dst: str = "dst", type_: str = "type") -> str:
            return (f"{dst} >= 'vault:' AND {dst} < 'vault;' AND {type_} IN ({rmarks}) AND {src} NOT IN ({kmarks})"
                    f" AND {dst} NOT IN ({kmarks})")
        derived = self.derives_edges
        for chunk in _chunks(list(dict.fromkeys(node_ids))):
            marks = ",".join("?" * len(chunk))
            if derived:  # the rows (coded ones too), then the derived edges without reading every item of each note
                rows = [r for table in ("edge_rows", CODED_ROWS) for r in self.conn.execute(
                    f"SELECT e.id, s.id, d.id, e.type, e.status FROM {table} e JOIN nodes s ON s.seq = e.src"
                    f" JOIN nodes d ON d.seq = e.dst WHERE s.id IN ({marks})"
                    f" AND NOT ({skip('s.id', 'd.id', 'e.type')})"
                    f" AND e.status IN ({smarks})", [*chunk, *sentence_relations, *keep, *keep, *statuses])]
                rows += derived_heads_from(self.conn, chunk, keep, sentence_relations, statuses)
            else:
                rows = self.conn.execute(
                    f"SELECT id, src, dst, type, status FROM edge_heads WHERE src IN ({marks}) AND NOT ({skip()})"
                    f" AND status IN ({smarks})", [*chunk, *sentence_relations, *keep, *keep, *statuses]).fetchall()
            rows += self.conn.execute(f"SELECT id, src, dst, type, status FROM edge_heads WHERE dst IN ({marks})"
                                      f" AND status IN ({smarks})", [*chunk, *statuses]).fetchall()
            for r in rows:
                out[r[0]] = (r[0], r[1], r[2], r[3], r[4])
        return [out[k] for k in sorted(out)]

    def delete_edges(self, ids: Sequence[int]) -> int:
        """Delete these edges: rows, and derived edges (their items' codes go)."""
        n = forget_derived(self.store, [-i for i in ids if i < 0]) if self.derives_edges else 0
        if self.packs_texts:
            n += delete_coded(self.store, [i for i in ids if i > 0])
        for chunk in _chunks(list(ids)):
            n += self._write(f"DELETE FROM edge_rows WHERE id IN ({','.join('?' * len(chunk))})", list(chunk)).rowcount
        return n

    def insert_edge_rows(self, rows: Sequence[tuple[Any, ...]], *, pack: bool = False) -> None:
        """Insert new edges (their (src, dst, type) must not exist) in one `executemany`. A row is (src, dst, type,
        weight, confidence, status, evidence, origin, rule, source_path, metadata JSON, created_at).

        No event row is written: the edge row records its creation (origin, rule, created_at) and `edge_events`
        reports it as the first event — a stored "created" row per parsed edge was 12 MB of a 2,000-note vault.
        `pack`: `write_texts` put the evidence of the rows whose path is `NOTE_PATH` in their notes' blobs, so the rows
        may name it by key (`edge_rows.packed_evidence`)."""
        if not rows:
            return
        ends = [x for r in rows for x in r[:2]]
        counts = Counter((r[2], r[5]) for r in rows)
        if not (pack and self.packs_texts):
            seq = self.store.node_seqs(ends)
            self.store.insert_new_edge_rows(
                f"INSERT INTO edge_rows ({_INSERTED_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(seq[r[0]], seq[r[1]], *r[2:], "") for r in rows], counts)
            return
        # ingested edges whose evidence is in their notes' blobs are coded rows (coded_edges_sqlite.py) when their
        # values allow; ids in the planned order across both tables, as one insert would give them
        stored = packed_insert_rows(rows, self._seqs_and_times(ends))
        first, kinds = next_edge_id(self.conn), EdgeKinds(self.store)
        coded: list[tuple[Any, ...]] = []
        full: list[tuple[Any, ...]] = []
        for k, row in enumerate(stored):
            as_coded = coded_row(kinds, first + k, row)
            if as_coded is None:
                full.append((first + k, *row))
            else:
                coded.append(as_coded)
        self.store.insert_new_edge_rows(
            f"INSERT INTO edge_rows (id, {_INSERTED_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", full, counts,
            ids_given=True)
        insert_coded(self.store, coded)

    def _inserted_rows(self) -> dict[str, tuple[int, str]]:
        """The rows `bulk_load` saw inserted (see `__init__`) since the last node deletion."""
        return self._inserted or {}

    def forget_inserted(self) -> None:
        """A node row was deleted: SQLite may give its seq to the next row, so what `bulk_load` saw inserted goes."""
        if self._inserted:
            self._inserted.clear()

    def _seqs_and_times(self, node_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Node id → (seq, created_at): `node_seqs` with the time an ingested edge compares its own with."""
        wanted = list(dict.fromkeys(node_ids))
        out: dict[str, tuple[int, str]] = {}
        inserted = self._inserted_rows()
        if inserted:
            out = {i: inserted[i] for i in wanted if i in inserted}
        for chunk in _chunks([i for i in wanted if i not in out] if out else wanted):
            out.update((r[0], (r[1], r[2])) for r in self.conn.execute(
                f"SELECT id, seq, created_at FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", list(chunk)))
        if len(out) < len(wanted):
            missing = next(i for i in wanted if i not in out)
            raise sqlite3.IntegrityError(f"FOREIGN KEY constraint failed: no node {missing!r}")
        return out

    def reparse_edge_rows(self, rows: Sequence[tuple[Any, ...]], *, pack: bool = False) -> None:
        """Give kept edges their re-parsed values: (weight, confidence, status, evidence, rule, source_path,
        metadata JSON, updated_at, id); `pack` as for `insert_edge_rows`."""
        stored = packed_evidence(rows, 3, 5) if pack and self.packs_texts else list(rows)
        if self.packs_texts:  # (coded rows take their new values in place, or become rows: coded_edges_sqlite.py)
            stored = recode(self.store, EdgeKinds(self.store), stored)
        self._write_many("UPDATE edge_rows SET weight = ?, confidence = ?, status = ?, evidence = ?, rule = ?,"
                         " source_path = ?, metadata = ?, updated_at = ? WHERE id = ?", stored)

    def log_edge_events(self, rows: Sequence[tuple[int, str, str, dict[str, Any], str]]) -> None:
        self._write_many("INSERT INTO edge_events(edge_id, event, actor, detail, created_at) VALUES (?,?,?,?,?)",
                         [(i, ev, actor, _COMPACT(detail), when)
                          for i, ev, actor, detail, when in rows])

    def repoint_edges(self, old_dst: str, new_dst: str, when: str) -> list[int]:
        """Move every edge touching `old_dst` to `new_dst` (a placeholder joining its note) — at either end: a
        `resolve` claim's subject is a placeholder at the edge's source until its note appears.

        Where the note already has the same edge, the one that records a decision wins: a killed, validated,
        promoted or weakened edge moves and the undecided duplicate goes (the tombstone keeps blocking what it
        blocked); two decided edges both stay, the moving one on the placeholder; an undecided moving edge is
        dropped, the note's own edge carrying the same claim. A decided edge is never deleted here."""
        moved: list[int] = []
        # two indexed reads: one OR over the view with its derived arm scanned every item (~0.3 s a call)
        cols = "id, src, dst, type, status, metadata, origin, weight, confidence"
        rows = self.conn.execute(f"SELECT {cols} FROM edges WHERE dst = ? UNION"
                                 f" SELECT {cols} FROM edges WHERE src = ? ORDER BY 1", (old_dst, old_dst)).fetchall()
        for edge_id, src, dst, type_, status, meta, *values in rows:
            src, dst = (new_dst if src == old_dst else src), (new_dst if dst == old_dst else dst)
            decided = _decided(status, meta, *values)
            clash = self.conn.execute("SELECT id, status, metadata, origin, weight, confidence FROM edges"
                                      " WHERE src = ? AND dst = ? AND type = ?", (src, dst, type_)).fetchone()
            if src == dst or (clash is not None and (not decided or _decided(*clash[1:]))):
                if not decided:
                    self._drop_edge(int(edge_id))
                continue
            if clash is not None:
                self._drop_edge(int(clash[0]))
            as_rows(self.store, [int(edge_id)])
            self._write(f"UPDATE edge_rows SET src = {SEQ_OF}, dst = {SEQ_OF}, {_BORN_BEFORE_MOVE}, updated_at = ?"
                        " WHERE id = ?", (src, dst, when, edge_id))
            moved.append(int(edge_id))
        return moved

    def take_place(self, edge_id: int, successor: int, weight: float, status: str, when: str) -> None:
        """Edge `edge_id` takes the place of `successor` (the edge a re-parse planned where its link resolves now, or
        its note's new path): its ends and parsed values, with `weight` and `status`; its id, creation time and
        history stay, and `successor` goes — so a decision's edge keeps its id when its ends change, as
        `repoint_edges` keeps a killed or validated one's."""
        as_rows(self.store, [edge_id, successor])
        cols = "src, dst, sub_type, confidence, evidence, origin, rule, source_path, metadata"
        values = self.conn.execute(f"SELECT {cols} FROM edge_rows WHERE id = ?", (successor,)).fetchone()
        self._drop_edge(successor)  # (first: the two rows would share (src, dst, type))
        sets = ", ".join(f"{c.strip()} = ?" for c in cols.split(","))
        self._write(f"UPDATE edge_rows SET {sets}, {_BORN_BEFORE_MOVE}, weight = ?, status = ?, updated_at = ?"
                    " WHERE id = ?",
                    (*values, weight, status, when, edge_id))

    def _drop_edge(self, edge_id: int) -> None:
        """A stored edge's row goes; an edge derived from an item (a negative id, no row) goes with the item's code."""
        if edge_id < 0 and self.derives_edges:
            self._write("UPDATE nodes SET contained = NULL WHERE seq = ?", (-edge_id,))
        else:
            self._write("DELETE FROM edge_rows WHERE id = ?", (edge_id,))
            if self.packs_texts:
                delete_coded(self.store, [edge_id])

    def forget_derived_of(self, node_ids: Sequence[str]) -> None:
        """Remove the derived containment edges of these items (`derives_edges` only)."""
        for chunk in _chunks(list(node_ids)):
            self._write(f"UPDATE nodes SET contained = NULL WHERE id IN ({','.join('?' * len(chunk))})"
                        " AND contained IS NOT NULL", list(chunk))

    def update_edge_strength(self, edge_id: int, weight: float, status: str, when: str) -> None:
        as_rows(self.store, [edge_id])
        self._write("UPDATE edge_rows SET weight = ?, status = ?, updated_at = ? WHERE id = ?",
                    (weight, status, when, edge_id))

    def mark_edges(self, edge_ids: Sequence[int], key: str, value: Any) -> None:
        """Set `key` to `value` in these edges' metadata: a decision recorded on the edge itself, where a rebuild
        reads it (`promote-candidates`; a derived edge becomes a row first)."""
        as_rows(self.store, edge_ids)
        rows: list[tuple[str, int]] = []
        for chunk in _chunks(list(edge_ids)):
            for edge_id, meta in self.conn.execute(
                    f"SELECT id, metadata FROM edge_rows WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                data = meta if isinstance(meta, dict) else json.loads(meta) if meta else {}
                rows.append((_COMPACT({**data, key: value}), edge_id))
        self._write_many("UPDATE edge_rows SET metadata = ? WHERE id = ?", rows)

    def edge_status_counts(self) -> dict[str, int]:
        if self.derives_edges:  # (derived edges are no rows; `edge_counts` counts both)
            return {r[0]: r[1] for r in self.conn.execute("SELECT status, SUM(n) FROM edge_counts GROUP BY status"
                                                          " HAVING SUM(n) > 0")}
        return {r[0]: r[1] for r in self.conn.execute("SELECT status, COUNT(*) FROM edge_rows GROUP BY status")}

    def counts(self) -> dict[str, int]:
        q = self.conn.execute
        return {
            "notes": int(q("SELECT COUNT(*) FROM nodes WHERE kind = 'note' AND deleted_at IS NULL").fetchone()[0]),
            # the kept count of active memories plus the other kinds, two ranges of nodes_kind_created: counting
            # every live row read a whole index (~4 ms of a one-note re-ingest at 58k rows)
            "nodes": int(q(
                "SELECT (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'active_memories')"
                " + (SELECT COUNT(*) FROM nodes WHERE deleted_at IS NULL AND kind < 'memory')"
                " + (SELECT COUNT(*) FROM nodes WHERE deleted_at IS NULL AND kind > 'memory')").fetchone()[0]),
            "edges": int(q("SELECT COALESCE(SUM(n), 0) FROM edge_counts" if self.derives_edges
                           else "SELECT COUNT(*) FROM edge_rows").fetchone()[0]),
            # kept per file at ingest: counting the `vault:<path>:observation:…` ids took a scan of every vault id
            "observations": int(q("SELECT COALESCE(SUM(observations), 0) FROM vault_files").fetchone()[0]),
        }
