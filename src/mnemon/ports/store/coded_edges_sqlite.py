"""An ingested edge stored as a narrow coded row (SQLite vault).

After the containment edges went (contained_sqlite.py), the 50k edges a 2,000-note vault still stores — links, and
the notes' dates, emails and tags — were ≈ 9.5 MB of `edge_rows` and its two indexes: ≈ 145 bytes a row for values
that are the same in thousands of rows (type, weights, status, origin, rule: one of five combinations in the
benchmark vault), a metadata JSON of ≈ 50 characters whose key is its target again, and text keys in both indexes.
So an edge the ingest writes whose values allow it is a `coded_edges` row instead: its ends, a small `code` naming a
row of `edge_kinds` (type, sub type, weight, confidence, status, origin, rule and the `shape` of its metadata), the
key of its evidence text in its note's blob (vault_texts_sqlite.py), and the line and the one text (a link's target,
a date's text) its metadata holds (`edge_metadata` rebuilds the JSON). ≈ 45 bytes a row, its indexes on integers.

Everything reads both: `stored_edges`, `edges` and `edge_heads` have a third arm over these rows (`CODED_ARM`,
`CODED_HEADS`), and the few readers of `edge_rows` itself read `CODED_ROWS` beside it. The writer codes an edge only
when every value reads back exactly as the row it replaces would (`fit`: the metadata rebuilt character for
character), so nothing above the store sees the difference. Ids are one space: a coded row's id is an edge id like a
row's, handed out in the same order (`next_edge_id`), never given twice (`EDGE_ID_HIGH`).

The rule holding it together, as for derived edges: **only an ingest re-parse changes a coded row** (its code, line,
text, evidence, update time: `recode`). Every other change — kill, validate, weaken, promote, retire, upsert, moving
its ends — first moves it into `edge_rows` under the same id (`as_rows`), after which it is an ordinary row. The
triggers keep `edge_counts`, the recall graph's change log and the highest deleted id as `edge_rows`' do; a row moved
to `edge_rows` (one with its id is there when it goes) counts and logs nothing, being the same edge.

A store written before keeps its edge rows; its notes' edges are coded as they are written again. PostgreSQL keeps
rows (`packs_texts` is False there), as for the texts.
"""
from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from json.encoder import encode_basestring
from typing import Any

from .contained_sqlite import _BUMP, _FROM_NOTES, _MARK, EDGE_ID_HIGH, materialise
from .vault_texts_sqlite import PACKED_NOTE_PATH

# The shapes a coded row's metadata JSON takes, each rebuilt from (line, value) by `edge_metadata`. `fold` below is
# part of this format and never changes: a link's key is rebuilt from its target with it (when the key the ingest
# wrote is another, the row keeps its whole JSON as `VERBATIM`).
LINK, DATE, LINE_ONLY, EMPTY, VERBATIM = "key,target,line", "text,line", "line", "", "json"
_LINK = re.compile(r'\{"key":("(?:[^"\\]|\\.)*"),"target":("(?:[^"\\]|\\.)*"),"line":(\d+)\}\Z')
_DATE = re.compile(r'\{"text":("(?:[^"\\]|\\.)*"),"line":(\d+)\}\Z')
_LINE = re.compile(r'\{"line":(\d+)\}\Z')


def fold(target: str) -> str:
    """A link's key as a coded row rebuilds it from the target (frozen: rows stored with it depend on it)."""
    return target.casefold()


def _unquoted(json_string: str) -> str | None:
    """The text a JSON string literal spells, when `encode_basestring` spells it back the same (else None)."""
    if "\\" not in json_string:
        return json_string[1:-1]
    text = json.loads(json_string)
    return text if encode_basestring(text) == json_string else None


def edge_metadata(shape: str, line: int | None, value: str | None) -> str:
    """The metadata JSON of a coded row (the SQL function `mnemon_edge_metadata`)."""
    if shape == LINK:
        return (f'{{"key":{encode_basestring(fold(value or ""))},"target":{encode_basestring(value or "")},'
                f'"line":{line}}}')
    if shape == DATE:
        return f'{{"text":{encode_basestring(value or "")},"line":{line}}}'
    if shape == LINE_ONLY:
        return f'{{"line":{line}}}'
    if shape == EMPTY:
        return "{}"
    return value or "{}"


_LINE_AT = ',"line":'
_HEADS: dict[str, tuple[str, str | None] | None] = {}  # what `fit` found for a link's or date's JSON before its line
_HEADS_MAX = 100_000


def fit(metadata: str) -> tuple[str, int | None, str | None]:
    """(shape, line, value) of a metadata JSON as a coded row stores it: `edge_metadata` of them is `metadata` again
    (a JSON none of the shapes rebuilds character for character is kept whole).

    A vault's 30k links and 11k dates name a few thousand targets and dates, each on many lines: the part before
    the line (which no JSON string can hold: its quote would be escaped) is checked once, the line each time."""
    head, at, tail = metadata.rpartition(_LINE_AT)
    line = tail[:-1]
    if not (at and tail.endswith("}") and line.isascii() and line.isdigit() and len(line) <= 18
            and str(int(line)) == line):  # (a line as `edge_metadata` writes it back; else read the whole)
        return _fit(metadata)
    if head not in _HEADS:
        if len(_HEADS) >= _HEADS_MAX:
            _HEADS.clear()
        shape, _line, value = _fit(head + _LINE_AT + "0}")
        _HEADS[head] = None if shape == VERBATIM else (shape, value)
    known = _HEADS[head]
    return (VERBATIM, None, metadata) if known is None else (known[0], int(line), known[1])


def _fit(metadata: str) -> tuple[str, int | None, str | None]:
    got: tuple[str, int | None, str | None] | None = None
    if metadata == "{}":
        got = (EMPTY, None, None)
    elif m := _LINE.match(metadata):
        got = (LINE_ONLY, int(m[1]), None)
    elif m := _LINK.match(metadata):
        got = (LINK, int(m[3]), _unquoted(m[2]))
    elif m := _DATE.match(metadata):
        got = (DATE, int(m[2]), _unquoted(m[1]))
    if got is None or (got[0] in (LINK, DATE) and got[2] is None) or edge_metadata(*got) != metadata:
        return VERBATIM, None, metadata
    return got


def register_edge_metadata_function(conn: sqlite3.Connection) -> None:
    conn.create_function("mnemon_edge_metadata", 3, edge_metadata, deterministic=True)


_GRAPH_LOG = "INSERT INTO graph_changes(node, mark) SELECT id, {mark} FROM nodes WHERE seq = {end};"
_KIND = "(SELECT type, status FROM edge_kinds WHERE code = {code})"
_MOVED = "EXISTS (SELECT 1 FROM edge_rows r WHERE r.id = OLD.id)"

CODED_EDGES_TABLES = """
    -- an ingested edge's values most edges share (contained_sqlite's `contained_kinds` for rows' edges)
    CREATE TABLE edge_kinds (
        code INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        sub_type TEXT NOT NULL,
        weight REAL NOT NULL,
        confidence REAL NOT NULL,
        status TEXT NOT NULL,
        origin TEXT NOT NULL,
        rule TEXT NOT NULL,
        shape TEXT NOT NULL,
        UNIQUE (type, sub_type, weight, confidence, status, origin, rule, shape)
    );
    -- an ingested edge as a coded row (coded_edges_sqlite.py): evidence is the key of its text in the source
    -- note's blob, line and value what its metadata holds, a NULL time its source node's (created) or created_at
    CREATE TABLE coded_edges (
        id INTEGER PRIMARY KEY,
        src INTEGER NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        dst INTEGER NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        code INTEGER NOT NULL,
        evidence TEXT NOT NULL,
        line INTEGER,
        value TEXT,
        created_at TEXT,
        updated_at TEXT,
        UNIQUE (src, dst, code)
    );
    CREATE INDEX coded_edges_dst ON coded_edges(dst);
"""

_CREATED = "COALESCE(c.created_at, s.created_at)"
_SOURCE_PATH = "CASE WHEN substr(s.source, 1, 6) = 'vault:' THEN substr(s.source, 7) ELSE '' END"
CODED_ARM = (
    "SELECT c.id AS id, s.id AS src, d.id AS dst, k.type AS type, k.sub_type AS sub_type, k.weight AS weight,"
    " k.confidence AS confidence, k.status AS status,"
    " mnemon_vault_text(s.source, (SELECT t.body FROM vault_texts t WHERE t.source = s.source), c.evidence)"
    " AS evidence, k.origin AS origin, k.rule AS rule,"
    f" {_SOURCE_PATH} AS source_path, mnemon_edge_metadata(k.shape, c.line, c.value) AS metadata,"
    f" {_CREATED} AS created_at, COALESCE(c.updated_at, {_CREATED}) AS updated_at"
    " FROM coded_edges c JOIN edge_kinds k ON k.code = c.code JOIN nodes s ON s.seq = c.src"
    " JOIN nodes d ON d.seq = c.dst")
# the coded rows keyed by seq, as `edge_rows` holds them: read beside it (a simple subquery, flattened into a join)
CODED_ROWS = ("(SELECT c.id AS id, c.src AS src, c.dst AS dst, k.type AS type, k.sub_type AS sub_type,"
              " k.weight AS weight, k.confidence AS confidence, k.status AS status, k.origin AS origin,"
              " k.rule AS rule, c.evidence AS evidence, k.shape AS shape, c.line AS line, c.value AS value,"
              " c.created_at AS created_at, c.updated_at AS updated_at"
              " FROM coded_edges c JOIN edge_kinds k ON k.code = c.code)")
# (id, type, origin, metadata, status) of every stored edge, rows and coded rows: what the world model's contract reads
STORED_FACTS = ("(SELECT id, type, origin, metadata, status FROM edge_rows UNION ALL SELECT c.id, k.type, k.origin,"
                " mnemon_edge_metadata(k.shape, c.line, c.value), k.status FROM coded_edges c"
                " JOIN edge_kinds k ON k.code = c.code)")
CODED_HEADS = ("SELECT c.id, s.id, d.id, k.type, k.sub_type, k.weight, k.confidence, k.status"
               " FROM coded_edges c JOIN edge_kinds k ON k.code = c.code JOIN nodes s ON s.seq = c.src"
               " JOIN nodes d ON d.seq = c.dst")
_ROW_HEADS = ("SELECT e.id AS id, s.id AS src, d.id AS dst, e.type AS type, e.sub_type AS sub_type,"
              " e.weight AS weight, e.confidence AS confidence, e.status AS status"
              " FROM edge_rows e JOIN nodes s ON s.seq = e.src JOIN nodes d ON d.seq = e.dst")
_DERIVED_HEADS = f"SELECT -i.seq, n.id, i.id, k.type, '', k.weight, k.confidence, k.status {_FROM_NOTES}"

def edges_arms(stored_arm: str) -> list[str]:
    """The SELECTs the `edges` view joins (`UNION ALL`) since m066, `stored_arm` first."""
    return [stored_arm, CODED_ARM, "SELECT * FROM derived_edges"]


def edge_view_arms(conn: sqlite3.Connection, stored_arm: str) -> list[str] | None:
    """`edges_arms` when the store's `edges` view is the one they make (None when it is an older one: a store
    opened read-only before m066), for a reader that reads each arm alone (`iter_edges`)."""
    arms = edges_arms(stored_arm)
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'edges'").fetchone()
    return arms if row is not None and row[0] == f"CREATE VIEW edges AS {' UNION ALL '.join(arms)}" else None


def coded_edges_migration(stored_arm: str) -> tuple[str, str]:
    """m066: the tables, their triggers, and the views with a coded arm beside `stored_arm` (the rows as m054
    reads them: edge_rows.EDGES_ARM, which the schema imports and this module cannot, edge_rows importing the
    recall graph's reads)."""
    return ("m066_coded_edges", f"""
    {CODED_EDGES_TABLES}
    CREATE TRIGGER coded_edges_del AFTER DELETE ON coded_edges WHEN NOT {_MOVED}
        BEGIN
            UPDATE edge_counts SET n = n - 1 WHERE (type, status) = {_KIND.format(code="OLD.code")};
            {_BUMP}
            INSERT INTO graph_changes(node, mark) VALUES (NULL, {_MARK});
            UPDATE meta SET value = OLD.id WHERE key = '{EDGE_ID_HIGH}' AND OLD.id > CAST(value AS INTEGER);
        END;
    CREATE TRIGGER coded_edges_upd AFTER UPDATE OF src, dst, code ON coded_edges
        WHEN OLD.code IS NOT NEW.code OR OLD.src IS NOT NEW.src OR OLD.dst IS NOT NEW.dst
        BEGIN
            UPDATE edge_counts SET n = n - 1 WHERE (type, status) = {_KIND.format(code="OLD.code")};
            INSERT INTO edge_counts(type, status, n) SELECT type, status, 1 FROM edge_kinds WHERE code = NEW.code
                ON CONFLICT(type, status) DO UPDATE SET n = n + 1;
            {_BUMP}
            {_GRAPH_LOG.format(mark=_MARK, end="OLD.src")}
            {_GRAPH_LOG.format(mark=_MARK, end="NEW.src AND NEW.src != OLD.src")}
        END;
    DROP VIEW edges;
    DROP VIEW stored_edges;
    DROP VIEW edge_heads;
    CREATE VIEW stored_edges AS {stored_arm} UNION ALL {CODED_ARM};
    CREATE VIEW edges AS {" UNION ALL ".join(edges_arms(stored_arm))};
    CREATE VIEW edge_heads AS {_ROW_HEADS} UNION ALL {CODED_HEADS} UNION ALL {_DERIVED_HEADS};
    """)


# a store opened read-only before m066: empty tables stand in, so every read names them
LEGACY_CODED_EDGES = """
    CREATE TEMP TABLE edge_kinds (code INTEGER PRIMARY KEY, type TEXT, sub_type TEXT, weight REAL, confidence REAL,
                                  status TEXT, origin TEXT, rule TEXT, shape TEXT);
    CREATE TEMP TABLE coded_edges (id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER, code INTEGER, evidence TEXT,
                                   line INTEGER, value TEXT, created_at TEXT, updated_at TEXT);
"""


def codes_edges(store: Any) -> bool:
    """Whether a store keeps coded rows: a SQLite one (`SQLiteStore.codes_edges`; the sub-stores PostgreSQL shares
    with SQLite reach it through a store that has no such attribute)."""
    return bool(getattr(store, "codes_edges", False))


def next_edge_id(conn: sqlite3.Connection) -> int:
    """The id the next new edge gets: above every row's, coded or not, and every deleted one's (`EDGE_ID_HIGH`)."""
    return 1 + max(conn.execute("SELECT COALESCE(MAX(id), 0) FROM edge_rows").fetchone()[0],
                   conn.execute("SELECT COALESCE(MAX(id), 0) FROM coded_edges").fetchone()[0],
                   int((conn.execute(f"SELECT value FROM meta WHERE key = '{EDGE_ID_HIGH}'").fetchone() or (0,))[0]))


class EdgeKinds:
    """`edge_kinds` of one store: the code of (type, sub_type, weight, confidence, status, origin, rule, shape),
    added when new (inside the caller's write transaction, which takes it back if it rolls back)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._codes: dict[tuple[Any, ...], int] = {}

    def code(self, kind: tuple[Any, ...]) -> int:
        got = self._codes.get(kind)
        if got is None:
            self._codes.update((tuple(r[1:]), r[0]) for r in self.store.conn.execute(
                "SELECT code, type, sub_type, weight, confidence, status, origin, rule, shape FROM edge_kinds"))
            got = self._codes.get(kind)
        if got is None:
            cur = self.store._write("INSERT INTO edge_kinds (type, sub_type, weight, confidence, status, origin, rule,"
                                    " shape) VALUES (?,?,?,?,?,?,?,?)", kind)
            got = self._codes[kind] = int(cur.lastrowid or 0)
        return got


def coded_row(kinds: EdgeKinds, edge_id: int, row: Sequence[Any]) -> tuple[Any, ...] | None:
    """The `coded_edges` row of a stored edge row (src, dst, type, weight, confidence, status, evidence, origin, rule,
    source_path, metadata, created_at, updated_at) as the vault writes it, or None when it is no ingested edge with
    its evidence in its note's blob (`PACKED_NOTE_PATH`): only those read back the same from a coded row."""
    if row[9] != PACKED_NOTE_PATH or row[7] != "ingest" or not row[6]:
        return None
    shape, line, value = fit(row[10])
    code = kinds.code((row[2], "", row[3], row[4], row[5], row[7], row[8], shape))
    return (edge_id, row[0], row[1], code, row[6], line, value, row[11] or None, row[12] or None)


def insert_coded(store: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    store._write_many("INSERT INTO coded_edges (id, src, dst, code, evidence, line, value, created_at, updated_at)"
                      " VALUES (?,?,?,?,?,?,?,?,?)", list(rows))


def coded_ids(conn: sqlite3.Connection, edge_ids: Iterable[int]) -> list[int]:
    """Those of `edge_ids` that are coded rows now."""
    wanted = sorted({i for i in edge_ids if i > 0})
    out: list[int] = []
    for at in range(0, len(wanted), 500):
        chunk = wanted[at:at + 500]
        out += [r[0] for r in conn.execute(f"SELECT id FROM coded_edges WHERE id IN ({','.join('?' * len(chunk))})",
                                           chunk)]
    return out


def as_rows(store: Any, edge_ids: Iterable[int]) -> None:
    """Make each of `edge_ids` that is a coded row or a derived edge an `edge_rows` row under the same id, with the
    values it reads as: an edge about to be decided on, moved or updated other than by a re-parse."""
    ids = list(edge_ids)
    if getattr(store, "derives_edges", False):
        materialise(store, ids)
    if not codes_edges(store):
        return
    coded = coded_ids(store.conn, ids)
    for at in range(0, len(coded), 500):
        chunk = coded[at:at + 500]
        marks = ",".join("?" * len(chunk))
        # the path is the note's (`NOTE_PATH` with the evidence a key: `PACKED_NOTE_PATH`), times '' as the source
        # node's (edge_rows.py); the row goes in first, so the coded row's triggers see it moved, not deleted
        store._write(
            "INSERT INTO edge_rows (id, src, dst, type, sub_type, weight, confidence, status, evidence, origin, rule,"
            " source_path, metadata, created_at, updated_at)"
            f" SELECT id, src, dst, type, sub_type, weight, confidence, status, evidence, origin, rule,"
            f" '{PACKED_NOTE_PATH}', mnemon_edge_metadata(shape, line, value), COALESCE(created_at, ''),"
            f" COALESCE(updated_at, '') FROM {CODED_ROWS} WHERE id IN ({marks})", chunk)
        store._write(f"DELETE FROM coded_edges WHERE id IN ({marks})", chunk)


def recode(store: Any, kinds: EdgeKinds, rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Give the coded rows among `rows` — a re-parse's new values (weight, confidence, status, evidence, rule,
    source_path, metadata, updated_at, id), evidence already a key — their new code, line, text and evidence, when
    the new values are still a coded row's; the others of them become rows (`as_rows`). Returns the rows left for
    `edge_rows` to update."""
    by_id = {r[8]: r for r in rows}
    coded = coded_ids(store.conn, by_id)
    if not coded:
        return list(rows)
    types = dict(_types_of(store.conn, coded))
    updates: list[tuple[Any, ...]] = []
    moved: list[int] = []
    for edge_id in coded:
        w, c, status, evidence, rule, path, metadata, updated, _ = by_id[edge_id]
        new = coded_row(kinds, edge_id, (0, 0, types[edge_id], w, c, status, evidence, "ingest", rule, path,
                                         metadata, "", updated))
        if new is None:
            moved.append(edge_id)
        else:
            updates.append((new[3], new[4], new[5], new[6], new[8], edge_id))
    store._write_many("UPDATE coded_edges SET code = ?, evidence = ?, line = ?, value = ?, updated_at = ? WHERE id = ?",
                      updates)
    as_rows(store, moved)
    done = {u[-1] for u in updates}
    return [r for r in rows if r[8] not in done]


def _types_of(conn: sqlite3.Connection, ids: Sequence[int]) -> Iterable[tuple[int, str]]:
    for at in range(0, len(ids), 500):
        chunk = list(ids[at:at + 500])
        yield from conn.execute(f"SELECT c.id, k.type FROM coded_edges c JOIN edge_kinds k ON k.code = c.code"
                                f" WHERE c.id IN ({','.join('?' * len(chunk))})", chunk)


def delete_coded(store: Any, edge_ids: Sequence[int]) -> int:
    n = 0
    for at in range(0, len(edge_ids), 500):
        chunk = list(edge_ids[at:at + 500])
        n += store._write(f"DELETE FROM coded_edges WHERE id IN ({','.join('?' * len(chunk))})", chunk).rowcount
    return n

