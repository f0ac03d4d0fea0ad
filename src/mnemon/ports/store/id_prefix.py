"""Which stored ids begin with a text: what a refusal of an unknown id offers when an agent gave a shortened one.

A function over a `Store`, as `history_reads` is: the qmark SQL runs through the store's vault connection on either
backend. The range is read on the id's unique index (SQLite's BINARY and the PostgreSQL column's "C" collation both
order by bytes, and U+10FFFF is the largest character UTF-8 writes), so a store of any size answers at once.
"""
from __future__ import annotations

from typing import Any

from .base import Store

_LAST = "\U0010ffff"


def ids_starting_with(store: Store, prefix: str, *, include_deleted: bool = False, limit: int = 2) -> list[str]:
    """Up to `limit` ids of nodes (active ones unless `include_deleted`) that begin with `prefix`, in id order."""
    conn: Any = store.vault.conn  # type: ignore[attr-defined]
    alive = "" if include_deleted else " AND deleted_at IS NULL"
    rows = conn.execute(f"SELECT id FROM nodes WHERE id >= ? AND id < ?{alive} ORDER BY id LIMIT ?",
                        (prefix, prefix + _LAST, limit)).fetchall()
    return [r[0] for r in rows if r[0].startswith(prefix)]
