"""A vault note's memory texts, stored once per note and compressed, instead of in every memory row (SQLite).

A 2,000-note vault makes ~43k memory rows whose texts (10.9 MB) were the largest column of the store; zlib over one
note's texts together compresses them about three to four times, where a row's few hundred characters alone barely
compress. So vault ingestion writes a memory row with `content = ''` and its text into `vault_texts` (one row per
note source, `'vault:<path>'`, keyed by the rows' seqs), and every read of a node's content goes through `text_of`,
which puts the text back in SQL. Nothing above the store sees the difference: `Memory.content` is the text, as
before. (A blob of ~1.6 KB: two share a 4 KiB page; keyed by row id, at ~2.2 KB, each took a page of its own.)

A row is *packed* when it is a memory of a vault source with an empty `content` and a non-empty `content_hash` (a
row's hash is of its text: only a packed row has one without content). Other rows, and every row on PostgreSQL,
keep their text in `content`. A note's blob keeps the texts of every packed row of that source that still exists —
soft-deleted rows a killed edge holds on to included — so a tombstone still shows what it was about.

A packed row also leaves out what else of it can be rebuilt exactly, as a one-character marker in its `content_hash`
says (`packed_columns`): `RECOMPUTED_HASH` stands for the 64 hex digits of its text's sha256 (2.8 MB of the benchmark
vault's 61.7 MB), recomputed from the text by the reads that need it (`hash_of`: the ingest's stored rows, the hash a
new vector is stamped with — vector checks need none, see `vector_is_current`); `RECOMPUTED_HASH_AND_TITLE` also leaves out its title (NULL), the one its own
metadata rebuilds (`rebuilt_title`: a section's heading path joined by ' > ', a bullet's or task's first heading —
the note's title when that heads the note), put back by `title_of` in SQL and by `sqlite._node` for a Memory (which
computes `content_hash` from its text, so `_node` never reads the stored one). The writer leaves a value out only
when the row shows it is exactly what would be rebuilt; rows written before (full hash and title) read as they did,
without a migration, and are rewritten the new way only when their values change.

A packed row's metadata JSON (5.7 MB of the benchmark vault's 49.6: a section's or bullet's kind, line, heading path,
score, dates), in keys and heading paths the note's other rows repeat, goes the same way into a second blob per note,
`vault_metadata` (m057), where zlib takes it to about a seventh: the row keeps `metadata = ''` (`PACKED_METADATA`: no
writer stores an empty text there, an empty object is '{}') and every read of it goes through `metadata_of`. A
second blob, not more of the first: the texts' blob of a note is ~1.8 KB, two to a 4 KiB page, and with the
metadata in it (~2.2 KB) each took a page of its own, which cost back most of what the rows saved. A row written
before keeps its JSON.

An ingested edge's evidence (the line it was parsed from: 8.6 MB over the benchmark vault's 103k edges, most of it
text the blob holds already) goes the same way: the row keeps a 9-character key of the text (`evidence_key`) and
`source_path = PACKED_NOTE_PATH`, the note blob of the edge's source node maps the key to the text, and the `edges`
view (m053, edge_rows.py) puts it back. The blob keeps an evidence text while any edge of the note's rows still names it.
A note's edge to one of its own items that is derived, not stored (contained_sqlite.py), has its evidence kept under
the item's seq instead (`"e"`), rewritten with the note's plan each time.
"""
from __future__ import annotations

import binascii
import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ...core.model import content_hash

VAULT_PREFIX = "vault:"
_LEVEL = 6  # zlib level: level 1 is ~25 % larger on vault prose for little time saved (one blob per note)
_CACHE_NOTES = 1024  # decoded blobs a connection keeps (~10 KB each): a graph walk or recall spans many notes
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

VAULT_METADATA_TABLE = """
    -- a vault note's packed memory rows' metadata JSON, compressed once per note (vault_texts_sqlite.py); those
    -- rows keep metadata = '' and are read back through metadata_of() (small bodies: WITHOUT ROWID keeps them in
    -- the key's b-tree, no second index)
    CREATE TABLE vault_metadata (
        source TEXT PRIMARY KEY,
        body BLOB NOT NULL
    ) WITHOUT ROWID;
"""

VAULT_TEXTS_MIGRATION = (
    "m050_vault_texts",
    """
    -- a vault note's memory texts, compressed once per note (vault_texts_sqlite.py); its memory rows keep
    -- content = '' and are read back through text_of()
    -- (a rowid table: WITHOUT ROWID would spill every blob over ~1 KB into an overflow page of its own)
    CREATE TABLE vault_texts (
        source TEXT PRIMARY KEY,
        body BLOB NOT NULL
    );
    """,
)


# An ingested edge's `source_path` when its evidence is in its note's blob: like edge_rows.NOTE_PATH, the path is its
# source node's; the evidence column holds the text's key (`evidence_key`). Neither can be a vault path or a scope.
PACKED_NOTE_PATH = ":"


_KEYS: dict[str, str] = {}  # an ingest keys each evidence text twice (its blob, then its rows): once is enough


def evidence_key(text: str) -> str:
    """The key of an evidence text in its note's blob: `~` and 48 bits of its hash (a note holds a few hundred
    texts at most; a memory's key is `kind:digest`, never starting with `~`)."""
    key = _KEYS.get(text)
    if key is None:
        if len(_KEYS) >= 300_000:
            _KEYS.clear()
        key = _KEYS[text] = "~" + binascii.b2a_base64(hashlib.blake2b(text.encode("utf-8"), digest_size=6).digest(),
                                                       newline=False).decode()
    return key


def is_packable(kind: str, source: str, content: str, content_hash: str) -> bool:
    """Whether a node row's text goes to its note's blob: a vault memory with text (and so a hash of it)."""
    return kind == "memory" and bool(content) and bool(content_hash) and source.startswith(VAULT_PREFIX)


# `content_hash` of a packed row whose hash is its text's sha256, recomputed on read rather than stored; the second
# also means its title is left out, rebuilt from its metadata. Neither can be a stored hash (64 hex digits or '').
RECOMPUTED_HASH = "="
RECOMPUTED_HASH_AND_TITLE = ">"


_HEADING_PATH = '"heading_path":['
_DECODE_AT = json.JSONDecoder().raw_decode
_KINDS = ('{"memory_kind":"section",', '{"memory_kind":"observation",', '{"memory_kind":"task",')


def rebuilt_title(metadata: str) -> str | None:
    """The title vault ingest gives a memory with this metadata JSON, as the planner writes it (`app.vault.plan`): a
    section's heading path joined by ' > ', a bullet's or task's first heading (the note's title when that heads
    the note); None when it does not say. Read from the text (six times cheaper than parsing it whole, for every
    packed row an ingest writes or a graph load reads): the writer and every reader apply this same function to
    the same stored text, so whatever it reads the title left out is exactly the one put back."""
    at = metadata.find(_HEADING_PATH)
    if at < 0 or not metadata.startswith(_KINDS):
        return None
    try:
        path = _DECODE_AT(metadata, at + len(_HEADING_PATH) - 1)[0]
    except ValueError:
        return None
    if not isinstance(path, list) or not path:
        return None
    if metadata.startswith(_KINDS[0]):
        try:
            return " > ".join(path)
        except TypeError:  # a heading that is not a string
            return None
    return path[0] if isinstance(path[0], str) else None


# a packed row's `metadata` when its JSON is in its note's blob (never a stored JSON text)
PACKED_METADATA = ""


def packed_columns(title: str | None, metadata: str) -> tuple[str | None, str, str]:
    """(title, content, content_hash) as a packed row stores them (`is_packable` rows only): no text, the hash as a
    marker (a row's hash is of its text: `node_row` takes `Memory.content_hash` and the planner hashes each text it
    plans, so it is not hashed a second time here), no title when its metadata (JSON) rebuilds it exactly."""
    if title is not None and title == rebuilt_title(metadata):
        return None, "", RECOMPUTED_HASH_AND_TITLE
    return title, "", RECOMPUTED_HASH


def packs_metadata(metadata: str) -> bool:
    """Whether a packed row's metadata JSON goes to its note's blob (an empty object stays: it costs two bytes)."""
    return metadata not in (PACKED_METADATA, "{}")


def text_of(alias: str) -> str:
    """SQL for a node row's text, in a statement reading `nodes` as `alias`: `content`, or from the note's blob."""
    return (f"CASE WHEN {alias}.content = '' AND {alias}.content_hash <> '' AND {alias}.kind = 'memory'"
            f" THEN mnemon_vault_text({alias}.source, (SELECT t.body FROM vault_texts t WHERE t.source = {alias}.source),"
            f" {alias}.seq) ELSE {alias}.content END")


def hash_of(alias: str) -> str:
    """SQL for a node row's content hash, in a statement reading `nodes` as `alias`: stored, or of its text (a row
    with a marker is packed: `text_of` would read its text from the same blob)."""
    return (f"CASE WHEN {alias}.content_hash IN ('{RECOMPUTED_HASH}', '{RECOMPUTED_HASH_AND_TITLE}')"
            f" THEN mnemon_vault_hash({alias}.source, (SELECT t.body FROM vault_texts t WHERE t.source = {alias}.source),"
            f" {alias}.seq) ELSE {alias}.content_hash END")


def vector_is_current(node: str, vector: str) -> str:
    """SQL: the vectors row `vector` was made from the current text of the `nodes` row `node`. A packed row with a
    marker is not hashed again (a decompression and a sha256 per vector: ~0.3 s for `status` on a 43k-bullet vault):
    its vectors are always of its current text, because the vault refresh, the one writer that rewrites such a row's
    text under the same id, deletes them (`SQLiteVault.refresh_node_rows`), and `put_vector` stores a vector of a
    packed row only when it was made from the text the row holds."""
    return (f"({vector}.content_hash = {node}.content_hash"
            f" OR {node}.content_hash IN ('{RECOMPUTED_HASH}', '{RECOMPUTED_HASH_AND_TITLE}'))")


def metadata_of(alias: str) -> str:
    """SQL for a node row's metadata JSON, in a statement reading `nodes` as `alias`: stored, or from its note's
    blob."""
    return (f"CASE WHEN {alias}.metadata = '{PACKED_METADATA}'"
            f" THEN mnemon_vault_metadata({alias}.source, (SELECT m.body FROM vault_metadata m WHERE m.source = {alias}.source),"
            f" {alias}.seq) ELSE {alias}.metadata END")


def title_of(alias: str) -> str:
    """SQL for a node row's title, in a statement reading `nodes` as `alias`: stored, or rebuilt from its metadata."""
    # (one call a row: the title is rebuilt where its metadata is read, a graph build reads 43k of them)
    return (f"CASE WHEN {alias}.content_hash <> '{RECOMPUTED_HASH_AND_TITLE}' THEN {alias}.title"
            f" WHEN {alias}.metadata = '{PACKED_METADATA}' THEN mnemon_vault_packed_title({alias}.source,"
            f" (SELECT m.body FROM vault_metadata m WHERE m.source = {alias}.source), {alias}.seq)"
            f" ELSE mnemon_vault_title({alias}.metadata) END")


def titles_and_texts(conn: sqlite3.Connection,
                     rows: Sequence[tuple[int, str, str, str | None, str, str, str]]) -> list[tuple[str | None, str]]:
    """(`title_of`, `text_of`) of many node rows (seq, kind, source, title, content, content_hash, metadata) read
    as they are stored, computed here rather than in SQL: each note's blobs are read and decoded once, not handed to
    a function call once per row (a graph build reads every row: 1.0 → 0.4 s on the benchmark vault). Same values
    as the SQL (tests/ports/test_graph_rows.py)."""
    texts_of = {r[2] for r in rows if r[4] == "" and r[5] != "" and r[1] == "memory"}
    metas_of = {r[2] for r in rows if r[5] == RECOMPUTED_HASH_AND_TITLE and r[6] == PACKED_METADATA}
    texts = {s: decode(b).rows for s, b in _bodies_of(conn, "vault_texts", texts_of).items()}
    metas = {s: decode_metadata(b) for s, b in _bodies_of(conn, "vault_metadata", metas_of).items()}
    out: list[tuple[str | None, str]] = []
    for seq, kind, source, title, content, digest, metadata in rows:
        if digest == RECOMPUTED_HASH_AND_TITLE:
            title = rebuilt_title((metas.get(source) or {}).get(seq) or "{}" if metadata == PACKED_METADATA
                                  else metadata)
        if content == "" and digest != "" and kind == "memory":
            content = (texts.get(source) or {}).get(seq) or ""
        out.append((title, content))
    return out


def _bodies_of(conn: sqlite3.Connection, table: str, sources: set[str]) -> dict[str, bytes]:
    if len(sources) > 500:  # most of the vault: one pass over the table beats lookups by key
        return {s: b for s, b in conn.execute(f"SELECT source, body FROM {table}") if s in sources}
    wanted = sorted(sources)
    return dict(conn.execute(f"SELECT source, body FROM {table} WHERE source IN ({','.join('?' * len(wanted))})",
                             wanted).fetchall()) if wanted else {}


class Blob(NamedTuple):
    """A note's blob decoded: node seq → text of its packed rows, evidence key → evidence text, and item seq → the
    evidence of the item's derived containment edge (contained_sqlite.py)."""

    rows: dict[int, str]
    evidence: dict[str, str]
    item_evidence: dict[int, str]


def _steps(by_seq: Mapping[int, str]) -> list[list[Any]]:
    steps: list[list[Any]] = []
    last = 0
    for seq in sorted(by_seq):
        steps.append([seq - last, by_seq[seq]])
        last = seq
    return steps


def _by_seq(steps: Iterable[list[Any]]) -> dict[int, str]:
    out: dict[int, str] = {}
    seq = 0
    for step, text in steps:
        seq += step
        out[seq] = text
    return out


def encode(rows: Mapping[int, str], evidence: Mapping[str, str], item_evidence: Mapping[int, str] | None = None) -> bytes:
    """zlib of `{"m": [[seq step, text], …], "e": [[seq step, evidence], …], "~key": evidence, …}`: rows by seq in
    order, each seq written as its step from the one before (a note's rows are mostly consecutive: keys cost a byte
    or two, where row ids cost ~9 bytes of random digest each — the difference between one and two blobs per 4 KiB
    page); "e" only when there is one."""
    obj: dict[str, Any] = {"m": _steps(rows)}
    if item_evidence:
        obj["e"] = _steps(item_evidence)
    return zlib.compress(_COMPACT({**obj, **evidence}).encode("utf-8"), _LEVEL)


def decode(body: bytes) -> Blob:
    obj = json.loads(zlib.decompress(body).decode("utf-8"))
    rows = _by_seq(obj.pop("m", ()))
    return Blob(rows, obj, _by_seq(obj.pop("e", ())))


def encode_metadata(metadata: Mapping[int, str]) -> bytes:
    """zlib of `[[seq step, metadata JSON], …]`, as `encode` writes rows."""
    return zlib.compress(_COMPACT(_steps(metadata)).encode("utf-8"), _LEVEL)


def decode_metadata(body: bytes) -> dict[int, str]:
    return _by_seq(json.loads(zlib.decompress(body).decode("utf-8")))


def register_vault_text_function(conn: sqlite3.Connection) -> None:
    """`mnemon_vault_text(source, body, key)`: the text a note's blob holds for a row seq (an integer) or an
    evidence key (a text), empty when absent; `mnemon_vault_hash(source, body, seq)`: the sha256 of that row text
    (`hash_of`); `mnemon_vault_title(metadata)`: `rebuilt_title` (`title_of`); `mnemon_vault_evidence(source, body,
    seq)`: the evidence of an item's derived containment edge (contained_sqlite.py); `mnemon_vault_metadata(source,
    body, seq)`: a packed row's metadata JSON ('{}' when absent: `metadata_of`), and `mnemon_vault_packed_title(source,
    body, seq)` the title it rebuilds (`title_of`). Pure functions of their
    arguments; the cache only spares decoding the same blob once per row of the note."""
    cache: dict[str, tuple[bytes, Blob]] = {}

    def decoded(source: str, body: bytes) -> tuple[bytes, Blob]:
        hit = cache.get(source)
        if hit is None or hit[0] != body:
            if len(cache) >= _CACHE_NOTES:
                del cache[next(iter(cache))]  # the note decoded longest ago
            hit = cache[source] = (body, decode(body))
        return hit

    def vault_text(source: str, body: bytes | None, key: int | str) -> str:
        if body is None:
            return ""
        blob = decoded(source, body)[1]
        return (blob.rows.get(key) if isinstance(key, int) else blob.evidence.get(key)) or ""

    def vault_evidence(source: str, body: bytes | None, seq: int) -> str:
        return (decoded(source, body)[1].item_evidence.get(seq) or "") if body is not None else ""

    metadata_cache: dict[str, tuple[bytes, dict[int, str]]] = {}

    def vault_metadata(source: str, body: bytes | None, seq: int) -> str:
        if body is None:
            return "{}"
        hit = metadata_cache.get(source)
        if hit is None or hit[0] != body:
            if len(metadata_cache) >= _CACHE_NOTES:
                del metadata_cache[next(iter(metadata_cache))]
            hit = metadata_cache[source] = (body, decode_metadata(body))
        return hit[1].get(seq) or "{}"

    def vault_packed_title(source: str, body: bytes | None, seq: int) -> str | None:
        return rebuilt_title(vault_metadata(source, body, seq))

    def vault_hash(source: str, body: bytes | None, seq: int) -> str:
        # (the text never leaves Python; vector checks do not call this: `vector_is_current`)
        return content_hash(decoded(source, body)[1].rows.get(seq) or "" if body is not None else "")

    conn.create_function("mnemon_vault_text", 3, vault_text, deterministic=True)
    conn.create_function("mnemon_vault_hash", 3, vault_hash, deterministic=True)
    conn.create_function("mnemon_vault_title", 1, rebuilt_title, deterministic=True)
    conn.create_function("mnemon_vault_evidence", 3, vault_evidence, deterministic=True)
    conn.create_function("mnemon_vault_metadata", 3, vault_metadata, deterministic=True)
    conn.create_function("mnemon_vault_packed_title", 3, vault_packed_title, deterministic=True)


class VaultTexts:
    """The `vault_texts` table of one SQLite store connection (writes go through the store's write methods)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def write(self, texts: Mapping[str, Mapping[str, str]], evidence: Mapping[str, Iterable[str]] | None = None,
              inserted: Mapping[str, tuple[int, Any]] | None = None,
              item_evidence: Mapping[str, Mapping[str, str]] | None = None,
              metadata: Mapping[str, str] | None = None) -> None:
        """Replace each note source's blob with `texts[source]` (row id → text of its packed rows just written),
        `evidence[source]` (the evidence texts of the edge rows its parse planned) and `item_evidence[source]` (item
        id → the evidence of its derived containment edge: every one the note has now), and its metadata blob with
        `metadata` (row id → the metadata JSON of a row just written without it, `PACKED_METADATA`), keeping the
        texts and metadata of the source's other packed rows that still exist and the evidence its rows' edges
        still name. An empty result deletes the blob. The rows must exist (their seqs key the blobs). `inserted`:
        node id → (seq, …) of rows this transaction inserted and nothing deleted since; a new note whose rows are
        all there is not looked up again."""
        upserts: list[tuple[str, bytes]] = []
        gone: list[tuple[str]] = []
        meta_upserts: list[tuple[str, bytes]] = []
        meta_gone: list[tuple[str]] = []
        sources = list(texts)
        stored = self._bodies("vault_texts", sources)
        stored_metadata = self._bodies("vault_metadata", sources)
        written = metadata or {}
        for source, fresh in texts.items():
            body, meta_body = stored.get(source), stored_metadata.get(source)
            old = decode(body) if body is not None else None
            if old is None and meta_body is None and inserted and all(i in inserted for i in fresh):
                # (a note without a blob has no other rows that count)
                rows, named = [_Row(inserted[i][0], i, True, i in written) for i in fresh], set[str]()
            else:
                rows, named = self._rows_of(source, old is not None)
            packed = {r.seq: fresh[r.id] for r in rows if r.id in fresh}
            metas = {r.seq: written[r.id] for r in rows if r.bare and r.id in written}
            notes = {evidence_key(t): t for t in (evidence or {}).get(source, ()) if t}
            if old is not None:
                packed.update((r.seq, old.rows[r.seq]) for r in rows
                              if r.packed and r.seq not in packed and r.seq in old.rows)
                notes.update((k, old.evidence[k]) for k in named if k not in notes and k in old.evidence)
            if meta_body is not None:
                old_metas = decode_metadata(meta_body)
                metas.update((r.seq, old_metas[r.seq]) for r in rows
                             if r.bare and r.seq not in metas and r.seq in old_metas)
            items = (item_evidence or {}).get(source) or {}
            by_seq = self._item_seqs(items, rows, inserted) if items else {}
            if packed or notes or by_seq:
                upserts.append((source, encode(packed, notes, by_seq)))
            elif body is not None:
                gone.append((source,))
            if metas:
                meta_upserts.append((source, encode_metadata(metas)))
            elif meta_body is not None:
                meta_gone.append((source,))
        for table, up, down in (("vault_texts", upserts, gone), ("vault_metadata", meta_upserts, meta_gone)):
            if up:
                self.store._write_many(f"INSERT INTO {table}(source, body) VALUES (?, ?)"
                                       " ON CONFLICT(source) DO UPDATE SET body = excluded.body", up)
            if down:
                self.store._write_many(f"DELETE FROM {table} WHERE source = ?", down)

    def _bodies(self, table: str, sources: Sequence[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for i in range(0, len(sources), 500):
            chunk = sources[i:i + 500]
            out.update(self.store.conn.execute(f"SELECT source, body FROM {table} WHERE source IN"
                                               f" ({','.join('?' * len(chunk))})", chunk).fetchall())
        return out

    def _item_seqs(self, items: Mapping[str, str], rows: list[_Row],
                   inserted: Mapping[str, tuple[int, Any]] | None) -> dict[int, str]:
        """`items` (node id → evidence) keyed by the nodes' seqs: from the note's rows, the rows just inserted, or
        looked up (a heading's id is not in the note's id range)."""
        seq_of = {r.id: r.seq for r in rows}
        if inserted:
            seq_of.update((i, inserted[i][0]) for i in items if i not in seq_of and i in inserted)
        missing = [i for i in items if i not in seq_of]
        for at in range(0, len(missing), 500):
            chunk = missing[at:at + 500]
            seq_of.update(self.store.conn.execute(
                f"SELECT id, seq FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", chunk).fetchall())
        return {seq_of[i]: text for i, text in items.items() if i in seq_of}

    def _rows_of(self, source: str, with_evidence: bool) -> tuple[list[_Row], set[str]]:
        """Every row of a note source, live or soft-deleted, and — `with_evidence` — the evidence keys edges leaving
        the note or its rows still name. By id range (a note's rows are `vault:<path>:…`): the source index holds
        live rows only, and no vault row since m058."""
        conn = self.store.conn
        prefix = source + ":"
        rows = [_Row(seq, node_id, bool(packed), bool(bare)) for seq, node_id, packed, bare in conn.execute(
            f"SELECT seq, id, content = '' AND content_hash <> '', metadata = '{PACKED_METADATA}' FROM nodes"
            " WHERE id >= ? AND id < ?", (prefix, prefix + "\U0010ffff"))]
        if not with_evidence:
            return rows, set()
        note = conn.execute("SELECT seq FROM nodes WHERE id = ?", ("note:" + source[len(VAULT_PREFIX):],)).fetchone()
        seqs = [r.seq for r in rows] + ([note[0]] if note else [])
        named: set[str] = set()
        for i in range(0, len(seqs), 500):
            chunk = seqs[i:i + 500]
            marks = ",".join("?" * len(chunk))
            named.update(k for (k,) in conn.execute(  # (a coded row's evidence is always a key: coded_edges_sqlite.py)
                f"SELECT DISTINCT evidence FROM edge_rows WHERE src IN ({marks}) AND source_path = ?"
                f" UNION SELECT evidence FROM coded_edges WHERE src IN ({marks})", [*chunk, PACKED_NOTE_PATH, *chunk]))
        return rows, named


class _Row(NamedTuple):
    """A row of a note source as its blob sees it: whether its text is in the blob (`packed`) and whether its
    metadata is (`bare`: the row's is `PACKED_METADATA`)."""

    seq: int
    id: str
    packed: bool
    bare: bool
