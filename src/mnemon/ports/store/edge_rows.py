"""Edges keyed by node seq: the `edge_rows` table and the `edges` view over it, on SQLite and PostgreSQL.

An edge row used to name its ends by node id (a 36-character UUID) — twice in the row, again in the (src, dst, type)
unique index and once more in the dst index: ~200 bytes of keys per row at ~40 rows per memory, and every insert
compared text keys in three B-trees and checked two foreign keys through the text index of `nodes`. `edge_rows`
holds the nodes' integer seqs instead: edge inserts run 1.5–2× faster (measured alone: 48k → 87–130k rows/s)
and a store of memories is about half the size (18.9 → 10.1 KB per memory at 10k).

Everything that reads edges reads the view `edges`, which puts the node ids back (two integer-key lookups per
row); statements that look edges up by node id go through the view too, and the planner turns `src = ?` into one
lookup of the node's seq followed by the index on `edge_rows`. Writes go to `edge_rows`: by edge id as before, and
with node ids turned into seqs either in SQL (`SEQ_OF`) or, for bulk inserts, by one lookup per batch.

Two values most rows would only repeat are left out of the row and put back by the view (`m052_edge_row_defaults`):
29.7 → 23.8 MB of edge rows for a 2,000-note vault. An `updated_at` equal to the row's `created_at` (an edge not
changed since it was written) is stored as '', and the `source_path` of an edge the vault ingest parsed, which is
the path of the note its source node comes from (that node's `source` is 'vault:' + path), is stored as `NOTE_PATH`
('.', which no vault path or scope can be). Not as '': an edge of any origin may hold a genuinely empty path (a
person's link, an edge restored from an export, which carries no path) and reads back empty. A row written with
the full values (before m052, or by `upsert_edge`) reads back as written.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from json.encoder import encode_basestring as _json_key  # how json spells a string (ensure_ascii=False)
from typing import Any

from ...core.model import Edge
from .graph_postgres import edge_triggers
from .vault_texts_sqlite import PACKED_NOTE_PATH, evidence_key

EDGE_VALUE_COLS = ("type, sub_type, weight, confidence, status, evidence, origin, rule, source_path, metadata,"
                   " created_at, updated_at")
SEQ_OF = "(SELECT seq FROM nodes WHERE id = ?)"  # a node id in, its seq out (NULL, so NOT NULL fails, if unknown)

_JSON = json.JSONEncoder(ensure_ascii=False)


def edge_value_rows(edges: Sequence[Edge], origin: str | None = None) -> list[tuple[Any, ...]]:
    """Edges as insert rows keyed by node id: (src, dst, then the `EDGE_VALUE_COLS`), metadata as JSON text.
    `origin` overrides each edge's own. Pure, so a bulk import builds them where its rules run."""
    encoded: dict[int, str] = {}  # symmetric pairs share one metadata dict: encode it once
    seen: dict[tuple[str, Any, type], str] = {}

    def meta(m: dict[str, Any]) -> str:
        if not m:
            return "{}"
        got = encoded.get(id(m))
        if got is None:
            got = encoded[id(m)] = _metadata_json(m, seen)
        return got

    # an updated_at equal to created_at is stored as '' (the `edges` view reads it back as created_at)
    return [(e.src, e.dst, e.type, e.sub_type, e.weight, e.confidence, e.status, e.evidence, origin or e.origin,
             e.rule, e.source_path, meta(e.metadata), created := e.created_at or e.updated_at,
             "" if (updated := e.updated_at or e.created_at) == created else updated)
            for e in edges]


def upsert_event_detail(edge: Edge, reason: str) -> str:
    """The JSON detail of the event `upsert_edge` records for an edge it wrote (both backends)."""
    detail: dict[str, Any] = {"status": edge.status, "weight": round(edge.weight, 6),
                              "confidence": round(edge.confidence, 6), "origin": edge.origin}
    if edge.rule:
        detail["rule"] = edge.rule
    if reason:  # a person's why (validate-edge --reason) belongs in the audit trail, as kill's and weaken's do
        detail["reason"] = reason
    return json.dumps(detail)


def _metadata_json(m: dict[str, Any], seen: dict[tuple[str, Any, type], str]) -> str:
    """`json.dumps(m, ensure_ascii=False)`, cheaper for the one-key dicts the edge rules make by the hundred
    thousand: a float value is spelled as json spells it (its repr); a text, integer or boolean value a few hundred
    edges share ({"entity": "Redis"}) is encoded once (its type is part of the key: 1 and True are equal keys)."""
    if len(m) == 1:
        ((k, v),) = m.items()
        if k.__class__ is str:
            if v.__class__ is float and math.isfinite(v):
                return "{" + _json_key(k) + ": " + repr(v) + "}"
            if v.__class__ in (str, int, bool):
                key = (k, v, v.__class__)
                got = seen.get(key)
                if got is None:
                    got = seen[key] = _JSON.encode(m)
                return got
    return _JSON.encode(m)


_E_VALUES = ", ".join("e." + c.strip() for c in EDGE_VALUE_COLS.split(","))
_VIEW = f"""
    CREATE VIEW edges AS
        SELECT e.id AS id, s.id AS src, d.id AS dst, {_E_VALUES}
        FROM edge_rows e JOIN nodes s ON s.seq = e.src JOIN nodes d ON d.seq = e.dst;
"""
_COPY = f"""
    INSERT INTO edge_rows (id, src, dst, {EDGE_VALUE_COLS})
        SELECT e.id, s.seq, d.seq, {_E_VALUES}
        FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst;
"""
# An edge whose end is not a node (possible only if foreign keys were ever off) cannot be keyed by seq: the copy
# leaves it out, and this records each one it left out in the oplog, so nothing disappears without a trace.
_DANGLING = """
    INSERT INTO oplog(op, node_id, detail, created_at)
        SELECT 'migrate-drop-edge', e.src, {json}, {now} FROM edges e
        WHERE NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.id = e.id);
"""
_DANGLING_SQLITE = _DANGLING.format(
    json="json_object('edge_id', e.id, 'src', e.src, 'dst', e.dst, 'type', e.type, 'status', e.status,"
         " 'reason', 'an end is not a node')",
    now="strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
_DANGLING_POSTGRES = _DANGLING.format(
    json="json_build_object('edge_id', e.id, 'src', e.src, 'dst', e.dst, 'type', e.type, 'status', e.status,"
         " 'reason', 'an end is not a node')::text",
    now="to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")
# a store opened read-only before it was upgraded: `edge_rows` as a temporary view over its old `edges` table
LEGACY_EDGE_ROWS_VIEW = f"""
    CREATE TEMP VIEW edge_rows AS
        SELECT e.id AS id, s.seq AS src, d.seq AS dst, {_E_VALUES}
        FROM main.edges e JOIN main.nodes s ON s.id = e.src JOIN main.nodes d ON d.id = e.dst
"""
# the columns after (id, src, dst), on SQLite; `postgres_ddl` spells them for PostgreSQL
EDGE_VALUE_DDL = """
    type TEXT NOT NULL,
    sub_type TEXT NOT NULL DEFAULT '',
    weight REAL NOT NULL DEFAULT 1.0,
    confidence REAL NOT NULL DEFAULT 1.0,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'candidate', 'killed', 'retired')),
    evidence TEXT NOT NULL DEFAULT '',
    origin TEXT NOT NULL DEFAULT 'auto',
    rule TEXT NOT NULL DEFAULT '',
    source_path TEXT NOT NULL DEFAULT '',
    metadata TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (src, dst, type)
"""


def postgres_ddl(sqlite_ddl: str) -> str:
    return sqlite_ddl.replace("REAL", "DOUBLE PRECISION").replace("TEXT NOT NULL", 'TEXT COLLATE "C" NOT NULL')


# The recall graph's change log names the node an updated edge leaves from: its id, read back from the seq.
_SQLITE_BUMP = "UPDATE meta SET value = random() WHERE key IN ('graph_generation', 'graph_mutation');"
_SQLITE_MARK = "(SELECT value FROM meta WHERE key = 'graph_mutation')"

SQLITE_EDGE_ROWS_MIGRATION = (
    "m040_edge_rows",
    f"""
    DROP TRIGGER IF EXISTS edges_graph_del;
    DROP TRIGGER IF EXISTS edges_graph_upd;
    CREATE TABLE edge_rows (
        id INTEGER PRIMARY KEY,
        src INTEGER NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        dst INTEGER NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        {EDGE_VALUE_DDL}
    );
    {_COPY}
    {_DANGLING_SQLITE}
    DROP TABLE edges;
    CREATE INDEX edge_rows_dst ON edge_rows(dst, status);
    {_VIEW}
    CREATE TRIGGER edges_graph_del AFTER DELETE ON edge_rows
        BEGIN {_SQLITE_BUMP} INSERT INTO graph_changes(node, mark) VALUES (NULL, {_SQLITE_MARK}); END;
    CREATE TRIGGER edges_graph_upd AFTER UPDATE OF src, dst, type, sub_type, weight, status ON edge_rows
        BEGIN {_SQLITE_BUMP} INSERT INTO graph_changes(node, mark) SELECT id, {_SQLITE_MARK} FROM nodes WHERE seq = OLD.src;
              INSERT INTO graph_changes(node, mark) SELECT id, {_SQLITE_MARK} FROM nodes
                  WHERE seq = NEW.src AND NEW.src != OLD.src; END;
    """,
)

POSTGRES_EDGE_ROWS_MIGRATION = (
    "m040_edge_rows",
    f"""
    DROP TRIGGER IF EXISTS edges_graph_deleted ON edges;
    DROP TRIGGER IF EXISTS edges_graph_updated ON edges;
    CREATE TABLE edge_rows (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        src BIGINT NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        dst BIGINT NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        {postgres_ddl(EDGE_VALUE_DDL)}
    );
    {_COPY}
    {_DANGLING_POSTGRES}
    SELECT setval(pg_get_serial_sequence('edge_rows', 'id'), GREATEST((SELECT MAX(id) FROM edge_rows), 1),
                  (SELECT MAX(id) FROM edge_rows) IS NOT NULL);
    DROP TABLE edges;
    CREATE INDEX edge_rows_dst ON edge_rows(dst, status);
    {_VIEW}
    CREATE OR REPLACE FUNCTION mnemon_graph_edge_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            PERFORM mnemon_graph_log(NULL);
        ELSE
            PERFORM mnemon_graph_log((SELECT id FROM nodes WHERE seq = OLD.src));
            IF NEW.src IS DISTINCT FROM OLD.src THEN
                PERFORM mnemon_graph_log((SELECT id FROM nodes WHERE seq = NEW.src));
            END IF;
        END IF;
        RETURN NULL;
    END $$;
    {edge_triggers('edge_rows')}
    """,
)


# m052: the view of m040 with `source_path` and `updated_at` put back (see the module docstring). The path is read
# from the source node only for a row holding `NOTE_PATH` (CASE stops at the first true test); nothing filters or
# sorts on either column through an index, so the planner still starts from `edge_rows`' own indexes.
NOTE_PATH = "."
RESTORED_UPDATED_AT = "CASE WHEN e.updated_at = '' THEN e.created_at ELSE e.updated_at END"
RESTORED_SOURCE_PATH = (f"CASE WHEN e.source_path <> '{NOTE_PATH}' THEN e.source_path"
                        " WHEN substr(s.source, 1, 6) = 'vault:' THEN substr(s.source, 7) ELSE '' END")
_E_VALUES_RESTORED = (_E_VALUES.replace("e.source_path", f"{RESTORED_SOURCE_PATH} AS source_path")
                      .replace("e.updated_at", f"{RESTORED_UPDATED_AT} AS updated_at"))


def _edges_arm(values: str) -> str:
    """The `edges` view's SELECT over `edge_rows` with these value columns (after id, src and dst)."""
    return (f"SELECT e.id AS id, s.id AS src, d.id AS dst, {values}"
            " FROM edge_rows e JOIN nodes s ON s.seq = e.src JOIN nodes d ON d.seq = e.dst")


def _edges_view(values: str) -> str:
    """A migration step that redefines the `edges` view with these value columns (after id, src and dst)."""
    return f"""
    DROP VIEW edges;
    CREATE VIEW edges AS {_edges_arm(values)};
    """


# existing rows keep their full values (they read back unchanged): shrinking them in place would give no space back
# without a VACUUM on SQLite, and would leave a dead copy of every edge row behind on PostgreSQL
EDGE_ROW_DEFAULTS_MIGRATION = ("m052_edge_row_defaults", _edges_view(_E_VALUES_RESTORED))


# m053 (SQLite only: PostgreSQL keeps evidence in its rows): an ingested edge whose row holds `PACKED_NOTE_PATH` names
# its evidence by a key into the note blob of its source node (vault_texts_sqlite.py), and the view puts the text back
_PACKED_EVIDENCE = (f"CASE WHEN e.source_path = '{PACKED_NOTE_PATH}' THEN mnemon_vault_text(s.source,"
                    " (SELECT t.body FROM vault_texts t WHERE t.source = s.source), e.evidence) ELSE e.evidence END")
_PACKED_SOURCE_PATH = RESTORED_SOURCE_PATH.replace(f"e.source_path <> '{NOTE_PATH}'",
                                                   f"e.source_path NOT IN ('{NOTE_PATH}', '{PACKED_NOTE_PATH}')")
_M053_VALUES = (_E_VALUES_RESTORED.replace(RESTORED_SOURCE_PATH, _PACKED_SOURCE_PATH)
                .replace("e.evidence,", f"{_PACKED_EVIDENCE} AS evidence,"))
EDGE_EVIDENCE_MIGRATION = ("m053_edge_evidence_packed", _edges_view(_M053_VALUES))

# m054 (SQLite only): an ingested edge created with its source node (the same ingest wrote both: every edge of a first
# ingest, 2.8 MB of timestamps on the 2,000-note vault) stores `created_at = ''` and reads the node's back
_BORN_WITH_SOURCE = "CASE WHEN e.created_at = '' THEN s.created_at ELSE e.created_at END"
assert _M053_VALUES.count("e.created_at") == 2 and _M053_VALUES.endswith("END AS updated_at")
_M054_VALUES = (_M053_VALUES.replace(", e.created_at,", f", {_BORN_WITH_SOURCE} AS created_at,")
                .replace("THEN e.created_at", f"THEN {_BORN_WITH_SOURCE}"))
EDGE_BIRTH_MIGRATION = ("m054_edge_created_with_source", _edges_view(_M054_VALUES))
# the stored edges as the `edges` view reads them since m054 (m055 adds the derived ones: contained_sqlite.py)
EDGES_ARM = _edges_arm(_M054_VALUES)


def packed_evidence(rows: Sequence[tuple[Any, ...]], evidence_at: int, path_at: int) -> list[tuple[Any, ...]]:
    """Edge rows with each ingested edge's evidence (a row whose path is `NOTE_PATH`) replaced by its key, the text
    being in its note's blob (`SQLiteVault.write_texts`); the evidence column comes before the path column."""
    return [(*r[:evidence_at], evidence_key(r[evidence_at]), *r[evidence_at + 1:path_at], PACKED_NOTE_PATH,
             *r[path_at + 1:]) if r[path_at] == NOTE_PATH and r[evidence_at] else r for r in rows]


def packed_insert_rows(rows: Sequence[tuple[Any, ...]], ends: dict[str, tuple[int, str]]) -> list[tuple[Any, ...]]:
    """`insert_edge_rows` rows (src, dst, type, weight, confidence, status, evidence, origin, rule, source_path,
    metadata, created_at) as stored, each followed by an empty `updated_at`: the ends as seqs (`ends`: node id →
    (seq, created_at)), an ingested edge's evidence as its key into the note blob (`packed_evidence`), and its
    creation time left out when it is its source node's. One pass: a cold ingest writes 100k of these."""
    key, note, packed = evidence_key, NOTE_PATH, PACKED_NOTE_PATH
    return [(src[0], ends[r[1]][0], r[2], r[3], r[4], r[5], key(r[6]) if own and r[6] else r[6], r[7], r[8],
             packed if own and r[6] else r[9], r[10], "" if (own or r[9] == packed) and r[11] == src[1] else r[11], "")
            for r in rows for src, own in ((ends[r[0]], r[9] == note),)]


def latest_of_kinds(rows: Iterable[tuple[Any, str, str]], wanted: set[tuple[str, str]]) -> dict[int, tuple[str, str]]:
    """Edge id → the last (event, actor) of `wanted` among `rows` (edge id, event, actor) read in event order: what
    `Store.latest_edge_events` answers on either backend."""
    out: dict[int, tuple[str, str]] = {}
    for edge_id, event, actor in rows:
        if (event, actor) in wanted:
            out[int(edge_id)] = (event, actor)
    return out
