"""Where the caches saved beside a database live (no numpy here: `status` asks without loading it)."""
from __future__ import annotations

import os


def beside(store: object, name: str) -> str | None:
    """`<database file>-<name>`; None for a store that is not one file (a server's database, postgresql://…, has no
    "beside"; nor has an in-memory one)."""
    path = getattr(store, "path", "") or ""
    return f"{path}-{name}" if path and path != ":memory:" and "://" not in path else None


def size_of(path: str | None) -> int:
    """Bytes of a cache file; 0 when there is none (yet)."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def cache_bytes(store: object, name: str) -> int:
    """Bytes one cache takes beside the database: its file and the ids file the vector matrix keeps with it."""
    path = beside(store, name)
    return size_of(path) + size_of(ids_path(path)) if path else 0


def ids_path(path: str) -> str:
    return f"{path}.ids"
