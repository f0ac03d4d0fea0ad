"""Reads of what the store kept of its past, for a replay at an earlier instant (`retrieve --as-of`): the events
of some edges, the oplog's decisions about them, the rows forgotten since, and the vectors of such rows.

Functions over a `Store` rather than methods on it: the backends' shared SQL is spelled once in qmark form and run
through the store's vault connection (`SQLiteVault.conn` is the store's own, `PostgresVault.conn` rewrites `?` to
`%s`), so these reads need nothing of either backend's classes. Only the vectors differ by backend (a float32 blob
on SQLite, a pgvector value on PostgreSQL).
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .base import Store

if TYPE_CHECKING:
    import numpy as np

_CHUNK = 500


class StoredEvent(NamedTuple):
    """One row of `edge_events` or one oplog decision about an edge (`id` orders rows of one table)."""
    edge_id: int
    id: int
    event: str
    actor: str
    detail: dict[str, Any]
    created_at: str


def _chunks(seq: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for i in range(0, len(seq), _CHUNK):
        yield seq[i:i + _CHUNK]


def _conn(store: Store) -> Any:
    return store.vault.conn  # type: ignore[attr-defined]


def _detail(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def edge_events_of(store: Store, edge_ids: Sequence[int]) -> dict[int, list[StoredEvent]]:
    """The stored events of these edges, oldest first per edge (the creation an edge row implies is not one)."""
    out: dict[int, list[StoredEvent]] = {}
    conn = _conn(store)
    for chunk in _chunks(sorted(set(edge_ids))):
        marks = ",".join("?" * len(chunk))
        for r in conn.execute(f"SELECT edge_id, id, event, actor, detail, created_at FROM edge_events"
                              f" WHERE edge_id IN ({marks})", list(chunk)).fetchall():
            out.setdefault(int(r[0]), []).append(StoredEvent(int(r[0]), int(r[1]), r[2], r[3] or "",
                                                             _detail(r[4]), r[5]))
    for rows in out.values():
        rows.sort(key=lambda e: e.id)
    return out


def edge_decisions_of(store: Store, src_ids: Sequence[str], ops: Sequence[str]) -> dict[int, list[StoredEvent]]:
    """The oplog rows of `ops` (decisions about one edge each, keyed by the edge's source node, their detail naming
    the edge) about edges leaving `src_ids`, oldest first per edge; `actor` is empty, `event` the op."""
    out: dict[int, list[StoredEvent]] = {}
    if not ops:
        return out
    conn = _conn(store)
    omarks = ",".join("?" * len(ops))
    for chunk in _chunks(sorted(set(src_ids))):
        marks = ",".join("?" * len(chunk))
        for r in conn.execute(f"SELECT id, op, detail, created_at FROM oplog WHERE node_id IN ({marks})"
                              f" AND op IN ({omarks})", [*chunk, *ops]).fetchall():
            detail = _detail(r[2])
            try:
                edge_id = int(detail.get("edge_id"))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                continue
            out.setdefault(edge_id, []).append(StoredEvent(edge_id, int(r[0]), r[1], "", detail, r[3]))
    for rows in out.values():
        rows.sort(key=lambda e: e.id)
    return out


def forgotten_after(store: Store, bound: str) -> dict[str, str]:
    """Node id → `deleted_at` of the rows created by `bound` and soft-deleted after it (any kind): they were there
    at `bound`. Compared as text, as every query of the store compares its instants."""
    rows = _conn(store).execute("SELECT id, deleted_at FROM nodes WHERE deleted_at IS NOT NULL AND deleted_at > ?"
                                " AND created_at <= ?", [bound, bound]).fetchall()
    return {r[0]: r[1] for r in rows}


def revived_after(store: Store, bound: str) -> set[str]:
    """Ids of the rows a `revive` after `bound` brought back from a removal made by then (its detail's
    `deleted_at`): absent at `bound`, though live today (or forgotten again since)."""
    rows = _conn(store).execute("SELECT node_id, detail FROM oplog WHERE op = 'revive' AND created_at > ?",
                                [bound]).fetchall()
    return {r[0] for r in rows
            if r[0] and isinstance(gone := _detail(r[1]).get("deleted_at"), str) and gone <= bound}


def deleted_at_of(store: Store, node_ids: Sequence[str]) -> dict[str, str]:
    """Node id → `deleted_at` of those of `node_ids` that are soft-deleted."""
    out: dict[str, str] = {}
    conn = _conn(store)
    for chunk in _chunks(sorted(set(node_ids))):
        marks = ",".join("?" * len(chunk))
        out.update((r[0], r[1]) for r in conn.execute(
            f"SELECT id, deleted_at FROM nodes WHERE id IN ({marks}) AND deleted_at IS NOT NULL", list(chunk)))
    return out


def vectors_of(store: Store, node_ids: Sequence[str], provider: str) -> dict[str, np.ndarray]:
    """The current vectors (made from the row's text) of these nodes from `provider`, deleted rows included: the
    vector index holds live rows only, and a forgotten row keeps its vectors."""
    import numpy as np

    from .sqlite import SQLiteStore

    out: dict[str, np.ndarray] = {}
    ids = sorted(set(node_ids))
    if not ids:
        return out
    if isinstance(store, SQLiteStore):
        from .vault_texts_sqlite import vector_is_current

        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            for node_id, blob, _dim in store.conn.execute(
                    f"SELECT n.id, v.vec, v.dim FROM vectors v JOIN nodes n ON n.seq = v.node_seq WHERE v.provider = ?"
                    f" AND n.id IN ({marks}) AND {vector_is_current('n', 'v')}", [provider, *chunk]):
                out[node_id] = np.frombuffer(blob, dtype="<f4").astype(np.float32)
        return out
    conn = store.conn  # type: ignore[attr-defined]
    for chunk in _chunks(ids):
        with conn.cursor(binary=True) as cur:  # as PostgresStore.load_vectors reads them: float4 bytes
            rows = cur.execute("SELECT n.id, v.vec FROM vectors v JOIN nodes n ON n.seq = v.node_seq"
                               " WHERE v.provider = %s AND n.id = ANY(%s) AND v.content_hash = n.content_hash",
                               (provider, list(chunk))).fetchall()
        for node_id, vec in rows:
            out[node_id] = np.asarray(vec.to_numpy() if hasattr(vec, "to_numpy") else vec, dtype=np.float32)
    return out
