"""Float32 vectors on SQLite: one row per node and provider identity, stamped with the content hash it was made from,
so a vector of changed text is never read as current and one of another model never mixed in. A store keeps the
vectors of every provider it was embedded with: switching providers and back costs no second embedding."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.errors import ProviderMismatch
from ...core.surface import typed
from .vault_texts_sqlite import RECOMPUTED_HASH, RECOMPUTED_HASH_AND_TITLE, hash_of, vector_is_current

if TYPE_CHECKING:
    import numpy as np


# Every change that can change what `load_vectors` returns draws a new random token (not a count: a count comes back
# to an old value after a rollback or on a restored copy, and a saved matrix must never be taken for another state)
BUMP_VECTOR_GENERATION = "UPDATE meta SET value = abs(random()) WHERE key = 'vector_generation'"

# A vector per (node, provider identity). Keyed by the node alone, a vector of one provider replaced another's: a
# `mnemon embed --all` after switching providers overwrote every memory's vector of the provider before, so
# switching back embedded the whole store again (with a remote provider: paid for twice). The table is copied once:
# 3.7 s for 100k vectors of 384-d, then 2.8 s of compaction (REWRITING_MIGRATIONS). The provider index is
# (provider, node_seq), what the old one was in effect (its rowid was the node), so a provider's vectors are read in
# node order without a sort; the key's own index serves lookups by node (a note's refresh, a node's cascade).
VECTORS_PER_PROVIDER_MIGRATION = (
    "m061_vectors_per_provider",
    """
    CREATE TABLE vectors_per_provider (
        node_seq INTEGER NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
        provider TEXT NOT NULL,
        dim INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        vec BLOB NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (node_seq, provider)
    );
    INSERT INTO vectors_per_provider(node_seq, provider, dim, content_hash, vec, created_at)
        SELECT node_seq, provider, dim, content_hash, vec, created_at FROM vectors ORDER BY provider, node_seq;
    DROP TABLE vectors;
    ALTER TABLE vectors_per_provider RENAME TO vectors;
    CREATE INDEX vectors_provider ON vectors(provider, node_seq);
    """,
)
# PostgreSQL changes the key in place (postgres_index.py writes with `ON CONFLICT (node_seq, provider)`)
POSTGRES_VECTORS_PER_PROVIDER_MIGRATION = (
    VECTORS_PER_PROVIDER_MIGRATION[0],
    """
    ALTER TABLE vectors DROP CONSTRAINT vectors_pkey;
    ALTER TABLE vectors ADD PRIMARY KEY (node_seq, provider);
    DROP INDEX vectors_provider;
    CREATE INDEX vectors_provider ON vectors(provider, node_seq);
    """,
)


def refuse_other_width(store: Any, provider: str, width: int, stored_width: Callable[[str], int | None]) -> None:
    """One width per provider identity: an embedding server that changed its vectors' width under the same model
    name must not add rows of the new width beside the old (the matrix of mixed rows could not be built, and every
    recall and remember failed). The width stored first is remembered per store object."""
    widths: dict[str, int] = store.__dict__.setdefault("_vector_widths", {})
    known = widths.get(provider)
    if known is None:
        known = stored_width(provider)
        if known is None:
            return
        widths[provider] = known
    if width != known:
        raise ProviderMismatch(f"the store holds {known}-d vectors from {provider}; this one has {width}: the model "
                               "behind this name changed; to embed the store anew, give it another identity "
                               "(another model name, or MNEMON_EMBED_DIMENSIONS), then run "
                               + typed("`mnemon embed --all`"),
                               provider=provider, expected=known, got=width)


def dominant_width(dims: list[int]) -> int:
    """The width most rows have (the first seen on a tie): rows of another, written before widths were checked, are
    left out of the matrix instead of failing it."""
    counts: dict[int, int] = {}
    for dim in dims:
        counts[dim] = counts.get(dim, 0) + 1
    return max(counts, key=lambda d: counts[d])


class SQLiteVectors:
    """Mixed into `SQLiteStore` (as `graph_sqlite` is); uses its connection, `_write` and `count_active`."""

    conn: sqlite3.Connection
    _write: Callable[..., Any]
    count_active: Callable[[], int]

    def put_vector(self, node_id: str, provider: str, vector: np.ndarray, digest: str, when: str) -> None:
        import numpy as np
        seq, marker = self.conn.execute("SELECT seq, content_hash FROM nodes WHERE id = ?", (node_id,)).fetchone()
        if marker in (RECOMPUTED_HASH, RECOMPUTED_HASH_AND_TITLE) and self.conn.execute(
                f"SELECT {hash_of('n')} FROM nodes n WHERE n.seq = ?", (seq,)).fetchone()[0] != digest:
            return  # made from a text the packed row no longer holds: never stored as its current vector
        refuse_other_width(self, provider, int(vector.shape[0]), self.vector_width)
        blob = np.ascontiguousarray(vector, dtype="<f4").tobytes()
        # replaces this provider's vector of the node only (m061): another provider's stays
        self._write("INSERT OR REPLACE INTO vectors(node_seq, provider, dim, content_hash, vec, created_at)"
                    " VALUES (?,?,?,?,?,?)", (seq, provider, int(vector.shape[0]), digest, blob, when))
        self._write(BUMP_VECTOR_GENERATION)

    def load_vectors(self, provider: str) -> tuple[list[str], np.ndarray]:
        import numpy as np
        # node order asked as `v.node_seq`, the provider index's own order: asked as `n.seq` (the same order) SQLite
        # sorted every row with its blob again (100k rows of 384-d, best of 4 on a busy machine: 1.14 s → 0.37 s)
        rows = self.conn.execute(
            "SELECT n.id, v.vec, v.dim FROM vectors v JOIN nodes n ON n.seq = v.node_seq"
            f" WHERE v.provider = ? AND n.deleted_at IS NULL AND {vector_is_current('n', 'v')} ORDER BY v.node_seq",
            (provider,)).fetchall()
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        dim = rows[0][2]
        if any(r[2] != dim for r in rows):
            dim = dominant_width([r[2] for r in rows])
            rows = [r for r in rows if r[2] == dim]
        ids = [r[0] for r in rows]
        mat = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), dim)
        return ids, mat

    def vector_width(self, provider: str) -> int | None:
        """The width of this provider's stored vectors (None: it has none)."""
        row = self.conn.execute("SELECT dim FROM vectors WHERE provider = ? LIMIT 1", (provider,)).fetchone()
        return None if row is None else int(row[0])

    def vector_generation(self) -> int:
        return int(self.conn.execute("SELECT value FROM meta WHERE key = 'vector_generation'").fetchone()[0])

    def renew_vector_generation(self) -> None:
        self._write(BUMP_VECTOR_GENERATION)

    def vector_state(self) -> str | None:
        """A token for the committed state `load_vectors` reads (every change to it draws a new vector generation),
        for a copy saved beside the database; None inside a write transaction, whose state may never be committed."""
        if self.conn.in_transaction:
            return None
        return f"v{self.vector_generation()}"

    def vector_coverage(self, provider: str) -> tuple[int, int]:
        total = self.count_active()
        embedded = self.conn.execute(
            "SELECT COUNT(*) FROM vectors v JOIN nodes n ON n.seq = v.node_seq WHERE v.provider = ?"
            f" AND n.deleted_at IS NULL AND n.kind = 'memory' AND {vector_is_current('n', 'v')}",
            (provider,)).fetchone()[0]
        return int(embedded), total

    def vector_providers(self) -> dict[str, int]:
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT v.provider, COUNT(*) FROM vectors v JOIN nodes n ON n.seq = v.node_seq"
            " WHERE n.deleted_at IS NULL GROUP BY v.provider")}
