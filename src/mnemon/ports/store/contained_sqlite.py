"""Containment edges derived from their item rows, not stored (SQLite vault).

Half the edges of an ingested vault join a note to a row parsed out of it: `has_section` to each section,
`has_heading` to each heading, `has_blocked` / `has_risk` / `has_done` / … to each scored bullet and task (53k of the
benchmark vault's 103k edges). Stored as `edge_rows` they were ≈ 8 MB with their index entries and ≈ 1 CPU s of the
writer, for values the item row already implies. So an item row whose containment edge the ingest could derive
carries a small code in `nodes.contained` instead, naming a row of `contained_kinds` (type, weight, confidence,
status, rule and the shape of its metadata: a vault holds a few dozen such combinations), and the view reads the
edge back from the item (`CONTAINED_ARM`):

* id: the negated seq of the item (`-seq`: unique, stable while the item exists, never handed out by SQLite to a
  row, whose ids count up from the largest one);
* ends: the note node of the item's source (`note:<path>` for `vault:<path>`) and the item;
* evidence: the line it was parsed from, kept in the note's blob under the item's seq (vault_texts_sqlite.py);
* metadata: `{"line": …}` (and `"level"` for a heading) as the item's own metadata says;
* created and updated: the item's.

`edges` reads both: `stored_edges` (the rows) `UNION ALL` `derived_edges`. A lookup by edge id reads the one it needs
(`SQLiteStore._edges_by_id`): the derived arm cannot find an id through an index.

The writer derives an edge only when every planned value is exactly what this reads back (`app.vault.contained`),
so a derived edge reads as the row it replaces would have; anything else stays a row. A store written before keeps
its rows (its items carry no code). The rule holding it together: **an item has a code exactly when its derived
edge exists.** Every change of such an edge other than a re-parse — kill, validate, weaken, promote, retire,
upsert — first *materialises* it (`materialise`): the row it reads as is written under its id and the code goes,
so from then on it is an ordinary row that survives rebuilds like any other. A derived edge is removed by removing
the code (`forget_derived`), or goes with its item.

The triggers below keep `edge_counts` (so `status` still counts no rows) and the recall graph's change log
(`graph_sqlite.py`) as they are for rows: a code appearing, changing or going — or its item deleted or revived —
counts and logs the change to the note's out-edges. Codes set on insert are counted by the writer
(`SQLiteVault.insert_node_rows`), as row inserts are.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from .sources import NOT_VAULT_ROW
from .vault_texts_sqlite import VAULT_METADATA_TABLE, metadata_of


_BUMP = "UPDATE meta SET value = random() WHERE key IN ('graph_generation', 'graph_mutation');"
_MARK = "(SELECT value FROM meta WHERE key = 'graph_mutation')"
_COUNTED_OLD = "(CASE WHEN OLD.deleted_at IS NULL THEN OLD.contained END)"
_COUNTED_NEW = "(CASE WHEN NEW.deleted_at IS NULL THEN NEW.contained END)"
_KIND_OF = "(SELECT type, status FROM contained_kinds WHERE code = {code})"

# the metadata of a derived edge, from its item's (a heading's carries its level)
LEVEL_LINE, LINE = "level,line", "line"
# (an item's metadata may be in its note's blob, vault_texts_sqlite.py; a heading's never is: its kind is no memory)
_METADATA = (f"CASE k.shape WHEN '{LEVEL_LINE}' THEN '{{\"level\":' || json_extract(i.metadata, '$.level')"
             " || ',\"line\":' || json_extract(i.metadata, '$.line') || '}'"
             f" ELSE '{{\"line\":' || json_extract({metadata_of('i')}, '$.line') || '}}' END")
_EVIDENCE = "mnemon_vault_evidence(i.source, (SELECT t.body FROM vault_texts t WHERE t.source = i.source), i.seq)"
# the item's note, joined both ways: from the item by the note's id, from the note by the item's source (which
# since m058 no index holds for vault rows: for that side, `_FROM_NOTES` below)
_FROM = ("FROM nodes i JOIN contained_kinds k ON k.code = i.contained"
         " JOIN nodes n ON n.id = 'note:' || substr(i.source, 7) AND i.source = 'vault:' || substr(n.id, 6)"
         " WHERE i.contained IS NOT NULL AND i.deleted_at IS NULL")
# ...and as the views read them, the items of a note also found by their ids' ranges under it (`vault:<path>:…`,
# `heading:<path>#…`): the source index holds no vault rows (m058), and a note's edges are read from the note's side
# (a walk, a context pack) more than any other way. Each bound says it is selective (`likelihood`): without statistics
# SQLite guesses a range holds a sixteenth of the index, and for a list of ~30 ids (a re-ingest reading one note's
# edges) it read every item instead (130 ms, not 2). Queries that scan, or read from the item's side, use `_FROM`.
_NOTE_ITEMS = "(" + " OR ".join(
    f"(likelihood(i.id > '{prefix}' || substr(n.id, 6) || '{low}', 0.01)"
    f" AND likelihood(i.id < '{prefix}' || substr(n.id, 6) || '{high}', 0.01))"
    for prefix, low, high in (("vault:", ":", ";"), ("heading:", "#", "$"))) + ")"
_FROM_NOTES = f"{_FROM} AND {_NOTE_ITEMS}"
_UPDATED = "CASE WHEN i.updated_at = '' THEN i.created_at ELSE i.updated_at END"
DERIVED_ORIGIN = "ingest"  # every derived edge's: only an ingest writes the items they are derived from
CONTAINED_ARM = (f"SELECT -i.seq AS id, n.id AS src, i.id AS dst, k.type AS type, '' AS sub_type, k.weight AS weight,"
                 f" k.confidence AS confidence, k.status AS status, {_EVIDENCE} AS evidence,"
                 f" '{DERIVED_ORIGIN}' AS origin,"
                 f" k.rule AS rule, substr(i.source, 7) AS source_path, {_METADATA} AS metadata,"
                 f" i.created_at AS created_at, {_UPDATED} AS updated_at {_FROM_NOTES}")
# the same edges keyed by seq, as `edge_rows` holds them (the recall graph's export, degree counts)
_ROW_COLS = ("-i.seq AS id, n.seq AS src, i.seq AS dst, k.type AS type, '' AS sub_type, k.weight AS weight,"
             " k.status AS status")
CONTAINED_ROWS = f"SELECT {_ROW_COLS} {_FROM}"
# ...and read from the notes' side (`src IN` note seqs): through `_FROM` each note scanned every row for its items
CONTAINED_ROWS_OF_NOTES = f"SELECT {_ROW_COLS} {_FROM_NOTES}"

# (id, type, origin, metadata, status) of the derived edges: what the world model's contract reads of active edges
CONTAINED_FACTS = (f"SELECT -i.seq AS id, k.type AS type, '{DERIVED_ORIGIN}' AS origin,"
                   f" {_METADATA} AS metadata,"
                   f" k.status AS status {_FROM}")
# `edge_heads`: what a walk or a ranking reads of an edge, rows and derived alike, without evidence or metadata. The
# `edges` view is a co-routine (SQLite does not flatten this UNION ALL), which computes every column of every edge it
# finds, the evidence from its note's blob included: 17 ms of a 20 ms `retrieve` when read through it
_HEAD_COLS = "id, src, dst, type, sub_type, weight, confidence, status"


def _edge_heads_view(items_from: str) -> str:
    return f"""
    CREATE VIEW edge_heads AS
        SELECT e.id AS id, s.id AS src, d.id AS dst, e.type AS type, e.sub_type AS sub_type, e.weight AS weight,
            e.confidence AS confidence, e.status AS status
        FROM edge_rows e JOIN nodes s ON s.seq = e.src JOIN nodes d ON d.seq = e.dst
        UNION ALL
        SELECT -i.seq, n.id, i.id, k.type, '', k.weight, k.confidence, k.status {items_from};
    """


EDGE_HEADS_MIGRATION_SQLITE = ("m056_edge_heads", _edge_heads_view(_FROM))
# (PostgreSQL's `edges` view computes nothing a head does not need: the same columns of it)
EDGE_HEADS_MIGRATION_POSTGRES = ("m056_edge_heads", f"CREATE VIEW edge_heads AS SELECT {_HEAD_COLS} FROM edges;")
# a store opened read-only before m056 (the view is a temporary one over what it has)
LEGACY_EDGE_HEADS_VIEW = f"CREATE TEMP VIEW edge_heads AS SELECT {_HEAD_COLS} FROM edges"

# the derived edges from notes to their headings, found by the headings' id range under each note (`heading:<path>#…`)
# rather than by reading every item of the note: `derived_heads_from` (`+i.source` keeps the planner off the source
# index, which would read them all)
_HEADINGS_OF_NOTES = (
    "SELECT -i.seq, n.id, i.id, k.type, k.status FROM nodes n"
    " JOIN nodes i ON i.id >= 'heading:' || substr(n.id, 6) || '#' AND i.id < 'heading:' || substr(n.id, 6) || '$'"
    " AND n.id = 'note:' || substr(+i.source, 7) AND +i.source = 'vault:' || substr(n.id, 6)"
    " JOIN contained_kinds k ON k.code = i.contained"
    " WHERE i.contained IS NOT NULL AND i.deleted_at IS NULL AND n.id IN ({notes}) AND k.status IN ({statuses})")

# the notes whose derived out-edges include one of an item added after a node seq (the recall graph's catch-up)
NOTES_OF_ITEMS_AFTER = f"SELECT DISTINCT n.id {_FROM} AND i.seq > ?"


def contained_edges_migration(stored_arm: str) -> tuple[str, str]:
    """m055: the code column, its kinds, the triggers, and `edges` over `stored_arm` (the rows as m054 reads them:
    edge_rows.EDGES_ARM) and the derived edges."""
    return ("m055_contained_edges", f"""
    ALTER TABLE nodes ADD COLUMN contained INTEGER;
    CREATE TABLE contained_kinds (
        code INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        weight REAL NOT NULL,
        confidence REAL NOT NULL,
        status TEXT NOT NULL,
        rule TEXT NOT NULL,
        shape TEXT NOT NULL,
        UNIQUE (type, weight, confidence, status, rule, shape)
    );
    CREATE TRIGGER nodes_contained_del AFTER DELETE ON nodes WHEN {_COUNTED_OLD} IS NOT NULL
        BEGIN UPDATE edge_counts SET n = n - 1 WHERE (type, status) = {_KIND_OF.format(code="OLD.contained")}; END;
    CREATE TRIGGER nodes_contained_upd AFTER UPDATE OF contained, deleted_at ON nodes
        WHEN {_COUNTED_OLD} IS NOT {_COUNTED_NEW}
        BEGIN
            UPDATE edge_counts SET n = n - 1
                WHERE {_COUNTED_OLD} IS NOT NULL AND (type, status) = {_KIND_OF.format(code="OLD.contained")};
            INSERT INTO edge_counts(type, status, n) SELECT type, status, 1 FROM contained_kinds
                WHERE code = {_COUNTED_NEW} ON CONFLICT(type, status) DO UPDATE SET n = n + 1;
            {_BUMP}
            INSERT INTO graph_changes(node, mark) VALUES ('note:' || substr(OLD.source, 7), {_MARK});
        END;
    CREATE VIEW stored_edges AS {stored_arm};
    CREATE VIEW derived_edges AS {CONTAINED_ARM};
    DROP VIEW edges;
    CREATE VIEW edges AS SELECT * FROM stored_edges UNION ALL SELECT * FROM derived_edges;
    """)


# m057: a vault memory's metadata in its note's metadata blob (vault_texts_sqlite.py), from which the derived edges
# read an item's line when its row leaves it there; `edges` is dropped first, as it reads `derived_edges`
PACKED_METADATA_MIGRATION = ("m057_packed_metadata", f"""
    {VAULT_METADATA_TABLE}
    DROP VIEW edges;
    DROP VIEW derived_edges;
    CREATE VIEW derived_edges AS {CONTAINED_ARM};
    CREATE VIEW edges AS SELECT * FROM stored_edges UNION ALL SELECT * FROM derived_edges;
    """)


# m058: the source index without vault rows (≈ 4 MB of a 2,000-note vault's store, for lookups a vault's rows are
# found by otherwise: `sources.source_is`), and the views reading a note's items by their ids' ranges (`_FROM_NOTES`)
SOURCE_INDEX_MIGRATION = ("m058_source_index_without_vault", f"""
    DROP VIEW edges;
    DROP VIEW derived_edges;
    DROP VIEW edge_heads;
    CREATE VIEW derived_edges AS {CONTAINED_ARM};
    CREATE VIEW edges AS SELECT * FROM stored_edges UNION ALL SELECT * FROM derived_edges;
    {_edge_heads_view(_FROM_NOTES)}
    DROP INDEX nodes_source_created;
    CREATE INDEX nodes_source_created ON nodes(source, created_at) WHERE deleted_at IS NULL AND {NOT_VAULT_ROW};
    """)


def has_contained(conn: sqlite3.Connection) -> bool:
    """Whether the store derives containment edges (m055 applied; a store opened read-only before has none)."""
    return any(r[1] == "contained" for r in conn.execute("PRAGMA table_info(nodes)"))


class ContainedKinds:
    """`contained_kinds` of one store: code of (type, weight, confidence, status, rule, shape), added when new. For
    one write transaction (an ingest run): a code it adds is gone if the transaction rolls back."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._codes: dict[tuple[Any, ...], int] = {}
        self._kinds: dict[int, tuple[str, str]] = {}

    def _load(self) -> None:
        for code, *kind in self.store.conn.execute(
                "SELECT code, type, weight, confidence, status, rule, shape FROM contained_kinds"):
            self._codes[tuple(kind)] = code
            self._kinds[code] = (kind[0], kind[3])

    def code(self, type_: str, weight: float, confidence: float, status: str, rule: str, shape: str) -> int:
        key = (type_, weight, confidence, status, rule, shape)
        got = self._codes.get(key)
        if got is None:
            self._load()  # (another writer may have added it since)
            got = self._codes.get(key)
        if got is None:
            cur = self.store._write("INSERT INTO contained_kinds (type, weight, confidence, status, rule, shape)"
                                    " VALUES (?,?,?,?,?,?)", key)
            got = self._codes[key] = int(cur.lastrowid or 0)
            self._kinds[got] = (type_, status)
        return got

    def count(self, codes: Iterable[int | None]) -> None:
        """Count the derived edges of rows just inserted with these codes into `edge_counts`."""
        known = self._kinds
        keys = []
        for code in codes:
            if code is None:
                continue
            if code not in known:
                self._load()
            keys.append(known[code])
        self.store._count_new_edges(keys)

    def take_used_ids(self, above: int, revived: Sequence[str]) -> list[str]:
        """The items just given a code — any row inserted above seq `above`, and the `revived` ones — whose derived
        id (−seq) an edge had before: their codes go (the triggers uncount them) and their ids are returned, for the
        caller to write their edges as rows with ids of their own.

        A derived edge's id is its item's seq negated, and SQLite gives a new row the largest seq + 1: once the item
        holding the top seq is deleted for good (its bullet edited, its materialised edge going with it), the next
        item inserted gets its seq, and its derived edge the old edge's id — with that edge's `edge_events` and the
        oplog decisions written with them, which are keyed by id (`explain-edge` of the new bullet showed the old
        one's `weaken-edge`). A revived item's id is its own, but the edge it had went while it was gone (a
        decided edge is a row, and stays): the one it gets now is another, as on PostgreSQL. An id only ever
        gets history as a row (every decision materialises the edge first), so the events are what to look in."""
        conn = self.store.conn
        low = conn.execute("SELECT MIN(edge_id) FROM edge_events").fetchone()[0]
        if low is None or low >= 0:  # (no negative id has any history: most stores)
            return []
        # seqs above `above` were no row's when this run began: any event naming one is a gone edge's (one range)
        seqs = {-r[0] for r in conn.execute("SELECT DISTINCT edge_id FROM edge_events WHERE edge_id < ?",
                                            (-above,))} if low < -above else set()
        for at in range(0, len(revived), 500):
            chunk = list(revived[at:at + 500])
            seqs.update(-r[0] for r in conn.execute(
                "SELECT DISTINCT e.edge_id FROM nodes i JOIN edge_events e ON e.edge_id = -i.seq"
                f" WHERE i.id IN ({','.join('?' * len(chunk))}) AND i.contained IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.id = -i.seq)", chunk))
        if not seqs:
            return []
        ordered = sorted(seqs)
        ids: list[str] = []
        for at in range(0, len(ordered), 500):
            chunk = ordered[at:at + 500]
            ids += [r[0] for r in conn.execute(f"SELECT id FROM nodes WHERE seq IN ({','.join('?' * len(chunk))})"
                                               " AND contained IS NOT NULL AND deleted_at IS NULL", chunk)]
        forget_derived(self.store, ordered)
        return ids


def derived_seqs(conn: sqlite3.Connection, edge_ids: Iterable[int]) -> list[int]:
    """The item seqs of those `edge_ids` that are derived edges now (negative ids whose item carries a code)."""
    seqs = sorted({-i for i in edge_ids if i < 0})
    out: list[int] = []
    for at in range(0, len(seqs), 500):
        chunk = seqs[at:at + 500]
        out += [r[0] for r in conn.execute(
            f"SELECT seq FROM nodes WHERE seq IN ({','.join('?' * len(chunk))}) AND contained IS NOT NULL"
            " AND deleted_at IS NULL", chunk)]
    return out


def materialise(store: Any, edge_ids: Iterable[int]) -> None:
    """Write each derived edge among `edge_ids` as the row it reads as, under its id, and take its item's code: an
    edge about to be decided on (killed, validated, weakened, retired, updated) is then an ordinary row."""
    seqs = derived_seqs(store.conn, edge_ids)
    if not seqs:
        return
    rows: list[tuple[Any, ...]] = []
    for at in range(0, len(seqs), 500):
        chunk = seqs[at:at + 500]
        rows += store.conn.execute(
            f"SELECT -i.seq, n.seq, i.seq, k.type, k.weight, k.confidence, k.status, {_EVIDENCE}, k.rule, {_METADATA},"
            f" i.created_at, {_UPDATED} {_FROM} AND i.seq IN ({','.join('?' * len(chunk))})", chunk).fetchall()
    from .edge_rows import NOTE_PATH  # (edge_rows imports the recall graph's reads, which import this module)

    # the path is the note's (`NOTE_PATH`, put back by the view), the evidence the text itself
    store._write_many("INSERT INTO edge_rows (id, src, dst, type, weight, confidence, status, evidence, origin, rule,"
                      " source_path, metadata, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,'ingest',?,?,?,?,?)",
                      [(*r[:9], NOTE_PATH, *r[9:]) for r in rows])
    store._count_new_edges([(r[3], r[6]) for r in rows])
    forget_derived(store, [r[2] for r in rows])


def forget_derived(store: Any, seqs: Sequence[int]) -> int:
    """Remove the derived edges of these items (their codes; the triggers uncount and log them); how many."""
    n = 0
    for at in range(0, len(seqs), 500):
        chunk = list(seqs[at:at + 500])
        n += store._write(f"UPDATE nodes SET contained = NULL WHERE seq IN ({','.join('?' * len(chunk))})"
                          " AND contained IS NOT NULL AND deleted_at IS NULL", chunk).rowcount
    return n


def derived_touching(conn: sqlite3.Connection, node_id: str, statuses: Sequence[str]) -> list[int]:
    """Ids of the derived edges with these statuses that touch a node: its own (an item), or its items' (a note)."""
    marks = ",".join("?" * len(statuses))
    return [r[0] for end in ("i", "n") for r in conn.execute(
        f"SELECT -i.seq {_FROM_NOTES} AND k.status IN ({marks}) AND {end}.id = ?", [*statuses, node_id])]


def edges_by_id(conn: sqlite3.Connection, cols: str, edge_ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """`cols` (id first) of the edges with these ids, found by key: a row by its id (`stored_edges`), a derived edge
    by its item's seq (`derived_edges`: `WHERE id = ?` on it, or on `edges`, would evaluate every derived edge)."""
    found: dict[int, tuple[Any, ...]] = {}
    wanted = list(dict.fromkeys(edge_ids))
    for at in range(0, len(wanted), 500):
        chunk = wanted[at:at + 500]
        found.update((r[0], r) for r in conn.execute(
            f"SELECT {cols} FROM stored_edges WHERE id IN ({','.join('?' * len(chunk))})", chunk))
        items = [-i for i in chunk if i < 0 and i not in found]
        if items:
            found.update((r[0], r) for r in conn.execute(
                f"SELECT {cols} FROM derived_edges WHERE dst IN (SELECT id FROM nodes WHERE seq IN"
                f" ({','.join('?' * len(items))}))", items))
    return [found[i] for i in edge_ids if i in found]


# m062 (SQLite only: PostgreSQL's identity column never hands an id out twice). SQLite gives a new row the largest id
# + 1, so deleting the edge that held the largest id (a payload re-sent without an observation, a note's removed
# line) gave its id to the next edge, and with it the old edge's `edge_events` and oplog decisions, which are keyed by
# id: `explain-edge` of a new link showed someone's `weaken-edge` of another edge. `meta.edge_id_high` keeps the
# largest id a deleted row held (from the upgrade on; before it, the largest id an event or decision names), and
# `positive_id_insert` starts new rows above it
EDGE_ID_HIGH = "edge_id_high"
EDGE_IDS_MIGRATION = ("m062_edge_ids_never_reused", f"""
    INSERT OR REPLACE INTO meta(key, value) SELECT '{EDGE_ID_HIGH}', MAX(
        COALESCE((SELECT MAX(edge_id) FROM edge_events), 0),
        COALESCE((SELECT MAX(CAST(json_extract(detail, '$.edge_id') AS INTEGER)) FROM oplog
                  WHERE json_valid(detail) AND json_type(detail, '$.edge_id') IN ('integer', 'text')), 0));
    CREATE TRIGGER edge_rows_id_high AFTER DELETE ON edge_rows
        WHEN OLD.id > (SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{EDGE_ID_HIGH}')
        BEGIN UPDATE meta SET value = OLD.id WHERE key = '{EDGE_ID_HIGH}'; END;
""")


def positive_id_insert(conn: sqlite3.Connection, insert: str) -> str:
    """`insert` (of one edge row, its id left to SQLite), or the same giving the row the next unused id when it must:
    SQLite gives a new row the largest id + 1, and that may be an id already used — a deleted edge's, whose events
    and oplog decisions still name it (`EDGE_IDS_MIGRATION`: the largest such id is kept in `meta`), a coded row's
    (coded_edges_sqlite.py), or,
    when every row is a materialised derived edge (a negative id), another derived edge's. Once the first row of an
    insert has it, the rest follow it."""
    # two reads: MAX(id) alone is one step down the rowid tree, with another column it scans the table
    top = conn.execute("SELECT MAX(id) FROM edge_rows").fetchone()[0] or 0
    used = conn.execute(f"SELECT CAST(value AS INTEGER) FROM meta WHERE key = '{EDGE_ID_HIGH}'").fetchone()
    coded = conn.execute("SELECT MAX(id) FROM coded_edges").fetchone()[0]  # (coded_edges_sqlite.py: one id space)
    high = max(int(used[0]) if used else 0, coded or 0, 0)
    if top >= high:
        return insert
    return insert.replace("INSERT INTO edge_rows (", "INSERT INTO edge_rows (id, ", 1).replace(
        "VALUES (", f"VALUES ({high + 1}, ", 1)


def derived_heads_from(conn: sqlite3.Connection, src_ids: Sequence[str], keep: Sequence[str],
                       sentence_relations: Sequence[str], statuses: Sequence[str]) -> list[tuple[Any, ...]]:
    """(id, src, dst, type, status) of the derived edges leaving `src_ids` that `edge_heads_around` returns from
    its sources' side: all but those of `sentence_relations` to a note's own memories (`vault:…`) with neither end
    in `keep`. A derived edge ends at a memory or a heading, so that is its headings' edges — read through their
    ids, not by decoding each item of the note — plus the memory edges whose memory is kept (through the kept ids),
    and, when a note is kept or a derived type is not among the sentence relations, its other matching ones."""
    notes = [i for i in src_ids if i.startswith("note:")]
    if not notes:
        return []
    smarks, nmarks = ",".join("?" * len(statuses)), ",".join("?" * len(notes))
    out = conn.execute(_HEADINGS_OF_NOTES.format(notes=nmarks, statuses=smarks), [*notes, *statuses]).fetchall()
    kept_items = [k for k in keep if k.startswith("vault:")]
    if kept_items:
        out += conn.execute(f"SELECT id, src, dst, type, status FROM edge_heads WHERE id < 0"
                            f" AND dst IN ({','.join('?' * len(kept_items))}) AND src IN ({nmarks})"
                            f" AND status IN ({smarks})", [*kept_items, *notes, *statuses]).fetchall()
    rmarks = ",".join("?" * len(sentence_relations))  # (SQLite reads `IN ()` as false)
    kept = set(keep)
    kept_notes = [n for n in notes if n in kept]
    odd_kinds = conn.execute(f"SELECT 1 FROM contained_kinds WHERE type NOT IN ({rmarks}) LIMIT 1",
                             list(sentence_relations)).fetchone() is not None
    wide = notes if odd_kinds else kept_notes
    if wide:
        kmarks = ",".join("?" * len(keep))
        out += conn.execute(
            f"SELECT id, src, dst, type, status FROM edge_heads WHERE id < 0 AND src IN ({','.join('?' * len(wide))})"
            f" AND dst >= 'vault:' AND dst < 'vault;' AND (type NOT IN ({rmarks}) OR src IN ({kmarks}))"
            f" AND status IN ({smarks})", [*wide, *sentence_relations, *keep, *statuses]).fetchall()
    return out
