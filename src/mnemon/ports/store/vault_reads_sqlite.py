"""What the thinking side and the write paths read of a vault's rows in SQLite (and, through `PostgresVault`,
PostgreSQL): the SQL for a row's text, hash, title and metadata wherever they are kept, the derived memories and
proactive pages the thought pass walks, edges by status or date, a payload scope's rows, the memories still lacking
a vector, a note's observation texts, and the thought history a rebuild clears. Mixed into `SQLiteVault`, whose
connection and writes it uses."""
from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ...core.keywords import embedding_text
from ...core.model import Edge, Memory
from .contained_sqlite import DERIVED_ORIGIN
from .sources import NOT_VAULT_ROW, OWNED_SOURCE, in_scope, scope_args
from .vault_files_sqlite import VaultFilesSQLite, _chunks
from .vault_texts_sqlite import hash_of, metadata_of, text_of, title_of, vector_is_current

THOUGHTS_CLEARED = "thoughts_cleared_through"  # vault state: no oplog row up to this id is a thought


class VaultReads(VaultFilesSQLite):
    store: Any
    # A vault memory's text is written once per note into `vault_texts` (vault_texts_sqlite.py) and its row keeps
    # `content = ''`; PostgreSQL's vault keeps texts in their rows.
    packs_texts = True

    @property
    def derives_edges(self) -> bool:
        """Whether a note's containment edges may be derived from its items (contained_sqlite.py), not stored."""
        return self.packs_texts and bool(getattr(self.store, "derives_edges", False))

    def _text(self, alias: str) -> str:
        """SQL for the text of the `nodes` row named `alias`."""
        return text_of(alias) if self.packs_texts else f"{alias}.content"

    def _hash(self, alias: str) -> str:
        """SQL for the content hash of the `nodes` row named `alias` (a packed row's is of its text)."""
        return hash_of(alias) if self.packs_texts else f"{alias}.content_hash"

    def _vector_current(self, node: str, vector: str) -> str:
        """SQL: the vectors row `vector` was made from the current text of the `nodes` row `node`."""
        return vector_is_current(node, vector) if self.packs_texts else f"{vector}.content_hash = {node}.content_hash"

    def _title(self, alias: str) -> str:
        """SQL for the title of the `nodes` row named `alias`."""
        return title_of(alias) if self.packs_texts else f"{alias}.title"

    def _metadata(self, alias: str) -> str:
        """SQL for the metadata JSON of the `nodes` row named `alias`."""
        return metadata_of(alias) if self.packs_texts else f"{alias}.metadata"

    def derived_memories(self, *, observations_only: bool = False, payload_only: bool = False) -> list[Memory]:
        """Live memories taken from a vault note or a payload scope (where observations are), in write order; a
        store's own memories, however many, are not read. `observations_only` leaves out most vault sections in
        SQL (a superset of the bullets and tasks: the caller decides), so their long texts are not decoded;
        `payload_only` reads the payload scopes' alone (`mneme://…`, a range of the source index)."""
        from .sqlite import _NODE_COLS, _NODE_SELECT, _node

        # (a vault item's id names its kind, `vault:<path>:<kind>:<digest>`; its metadata may be in its note's blob)
        narrow = (" AND (id LIKE ? OR id LIKE ? OR metadata LIKE ? OR metadata LIKE ? OR source LIKE ?)"
                  if observations_only else "")
        args: tuple[str, ...] = (("%:observation:%", "%:task:%", '%"observation"%', '%"task"%', "mneme://%")
                                 if observations_only else ())
        scope = (f" AND source >= 'mneme://' AND source < 'mneme:/0' AND {NOT_VAULT_ROW}" if payload_only
                 else f" AND NOT ({OWNED_SOURCE})")
        # the payload scopes through the source index: by kind, SQLite read every memory of a vault to find none
        # (`kind || ''` is no indexed column, in either backend; 60 ms → 0.1 ms at 43k vault memories)
        kind = "kind || '' = 'memory'" if payload_only else "kind = 'memory'"
        cols = _NODE_SELECT if self.packs_texts else _NODE_COLS
        return [_node(r) for r in self.conn.execute(f"SELECT {cols} FROM nodes WHERE {kind}"
                                                    f" AND deleted_at IS NULL{scope}{narrow} ORDER BY seq", args)]

    def count_payload_memories(self) -> int:
        """The active memories of the payload scopes (`mneme://…`), through the source index, as `scope_memories`."""
        return int(self.conn.execute(f"SELECT COUNT(*) FROM nodes WHERE kind || '' = 'memory' AND deleted_at IS NULL"
                                     f" AND source >= 'mneme://' AND source < 'mneme:/0' AND {NOT_VAULT_ROW}"
                                     ).fetchone()[0])

    def proactive_page(self, after: tuple[float, int] | None, limit: int) -> list[tuple[int, str, float]]:
        """(seq, id, static proactive score) of live vault bullets, best score first (then newest), starting below
        `after` = (score, seq) of the last row of the previous page."""
        args: list[Any]
        below, args = "", [limit]
        if after is not None:
            below, args = " AND (proactive < ? OR (proactive = ? AND seq < ?))", [after[0], after[0], after[1], limit]
        return [(int(r[0]), r[1], float(r[2])) for r in self.conn.execute(
            "SELECT seq, id, proactive FROM nodes WHERE proactive IS NOT NULL AND deleted_at IS NULL" + below
            + " ORDER BY proactive DESC, seq DESC LIMIT ?", args)]

    def proactive_count(self) -> int:
        """How many live vault bullets carry a static proactive score."""
        return int(self.conn.execute("SELECT COUNT(*) FROM nodes WHERE proactive IS NOT NULL AND deleted_at IS NULL")
                   .fetchone()[0])

    def edges_with_status(self, status: str, *, origin_not: str | None = None,
                          evidence_unread: Collection[str] = ()) -> list[Edge]:
        """The edges of one status, by id. `origin_not` leaves out one origin, and the edges of the relations in
        `evidence_unread` come back without their evidence: an ingested vault's edges are most of the store's, and
        their evidence is unpacked from their notes. Each arm of `edges` is read on its own, since through the view
        SQLite computes every column of every row, the ones not selected too (70k candidates of a 2,000-note vault:
        1.9 s with their evidence through the view, 0.5 s by arm without it)."""
        from .sqlite import _EDGE_COLS, _edge

        unread = sorted(set(evidence_unread))
        cols = _EDGE_COLS.replace(
            "evidence", f"CASE WHEN type IN ({','.join('?' * len(unread))}) THEN NULL ELSE evidence END") \
            if unread else _EDGE_COLS
        where, args = "status = ?", [*unread, status]
        if origin_not is not None:
            where, args = where + " AND origin <> ?", [*args, origin_not]
        views = ["edges"] if not self.derives_edges else ["stored_edges"] + (
            ["derived_edges"] if origin_not != DERIVED_ORIGIN else [])
        rows = [row for view in views for row in self.conn.execute(f"SELECT {cols} FROM {view} WHERE {where}", args)]
        rows.sort(key=lambda r: r[0])
        return [_edge(r) for r in rows]

    def dated_edges(self, relations: Sequence[str], before: str) -> list[tuple[int, str, float, str]]:
        """(id, status, weight, latest day) of the active edges of these relations into nodes whose latest dated day
        (`mentions_date` edges to `date:YYYY-MM-DD` nodes, which a yearless "Mar 5" never gets) is before `before`,
        by id. Read from the edges' heads: the full edges of a vault's observations decode every note's evidence
        (0.8 s against 0.2 s on the 2,000-note vault), and a caller needs them only for the few it lists."""
        wanted = sorted(set(relations))
        if not wanted:
            return []
        return [(int(r[0]), str(r[1]), float(r[2]), str(r[3])) for r in self.conn.execute(
            "SELECT h.id, h.status, h.weight, d.latest FROM edge_heads h JOIN (SELECT src AS dated,"
            " MAX(substr(dst, 6)) AS latest FROM edge_heads WHERE type = 'mentions_date' AND status <> 'killed'"
            " GROUP BY src) d ON d.dated = h.dst"
            f" WHERE h.status = 'active' AND h.type IN ({','.join('?' * len(wanted))}) AND d.latest < ?"
            " ORDER BY h.id", [*wanted, before])]

    def edges_with_source_prefix(self, prefix: str) -> list[Edge]:
        """The edges whose source path is this payload scope or under it (`sources.in_scope`)."""
        from .sqlite import _EDGE_COLS, _edge

        return [_edge(r) for r in self.conn.execute(
            f"SELECT {_EDGE_COLS} FROM edges WHERE {in_scope('source_path')} ORDER BY id", scope_args(prefix))]

    def nodes_with_source(self, source: str) -> list[str]:
        """The nodes whose source is this payload scope or under it (`sources.in_scope`)."""
        return [r[0] for r in self.conn.execute(f"SELECT id FROM nodes WHERE {in_scope('source')} ORDER BY seq",
                                                scope_args(source))]

    def memories_missing_vectors(self, ids: Sequence[str], provider: str) -> list[tuple[str, str, str]]:
        """(id, text to embed, content_hash) of the given active memories that have no vector of `provider` for
        their current content — so unchanged text is never embedded twice."""
        out: list[tuple[str, str, str]] = []
        for chunk in _chunks(list(dict.fromkeys(ids))):
            out.extend((r[0], embedding_text(r[1], r[2], r[3], r[4]), r[5]) for r in self.conn.execute(
                f"SELECT n.id, {self._title('n')}, {self._text('n')}, n.source, {self._metadata('n')}, {self._hash('n')}"
                f" FROM nodes n LEFT JOIN vectors v ON v.node_seq = n.seq AND v.provider = ?"
                f" AND {self._vector_current('n', 'v')}"
                f" WHERE n.id IN ({','.join('?' * len(chunk))})"
                " AND n.deleted_at IS NULL AND n.kind = 'memory' AND v.node_seq IS NULL ORDER BY n.seq",
                [provider, *chunk]))
        return out

    def observation_texts(self, sources: Sequence[str]) -> list[tuple[str, str, str, str]]:
        """(id, source, metadata JSON, text) of the live task and bullet memories of these vault notes (sources
        `vault:<path>`; the memories a note's parse gave it, whose ids are under the note's, `vault:<path>:…`),
        and maybe a few of their sections (the narrowing is by id and metadata text: the caller tells them apart by
        their ids). What a vault note's sense event observed is made of these (app/world/note_text.py). Found by
        their ids' ranges, one note after another: the source index holds no vault rows, and as one `OR` of ranges
        SQLite read every memory through the kind index instead (0.2 s per 100 notes, 9× this)."""
        out: list[tuple[str, str, str, str]] = []
        for chunk in _chunks(list(dict.fromkeys(sources)), 500):
            out.extend(self.conn.execute(
                f"WITH notes(source) AS (VALUES {','.join(['(?)'] * len(chunk))})"
                f" SELECT n.id, n.source, {self._metadata('n')}, {self._text('n')} FROM notes r"
                " JOIN nodes n ON n.id > r.source || ':' AND n.id < r.source || ';' AND n.source = r.source"
                " WHERE n.kind || '' = 'memory' AND n.deleted_at IS NULL"  # (`|| ''`: not by the kind index)
                " AND (n.id LIKE ? OR n.id LIKE ? OR n.metadata LIKE ? OR n.metadata LIKE ?)",
                [*chunk, "%:task:%", "%:observation:%", '%"task"%', '%"observation"%']))
        return out

    def clear_thought_history(self) -> int:
        """A rebuild drops generated thoughts (they quote note text that may be gone, and their cooldown names rows
        a rebuild may replace); `update` keeps them. Returns how many were dropped.

        Thought history is the oplog's `thought` rows (`app.thoughts` logs one per card); every other oplog row is
        audit and stays. The oplog has no index by op, and it grows with every `remember` and `recall`: rows up to
        the last clear (`THOUGHTS_CLEARED` in vault state, the highest id left then) hold no thought, and a new row
        always gets a higher id than every row left, so only the rows written since are read."""
        top = int(self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM oplog").fetchone()[0])
        try:
            after = int(self.get_state(THOUGHTS_CLEARED) or 0)
        except ValueError:
            after = 0
        if after > top:  # (not this oplog's mark: read it all)
            after = 0
        cleared = int(self._write("DELETE FROM oplog WHERE id > ? AND op = 'thought'", (after,)).rowcount)
        left = int(self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM oplog").fetchone()[0]) if cleared else top
        self.set_state(THOUGHTS_CLEARED, str(left))
        return cleared
