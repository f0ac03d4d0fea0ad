"""Where the caches saved beside a database live (no numpy here: `status` asks without loading it)."""
from __future__ import annotations

import hashlib
import os


def beside(store: object, name: str) -> str | None:
    """`<database file>-<name>`; None for a store that is not one file (a server's database, postgresql://…, has no
    "beside"; nor has an in-memory one)."""
    path = getattr(store, "path", "") or ""
    return f"{path}-{name}" if path and path != ":memory:" and "://" not in path else None


def in_user_cache(store: object, name: str, cache_dir: str | None) -> str | None:
    """A server store's cache in this user's own cache folder (`<home>/cache/<digest of the URL>-<name>`): beside a
    SQLite file every process shares the recall graph one of them saved, but a server's database has no "beside",
    and every fresh process — a prompt hook, a command — read the whole graph from the server again (1.3 s at 4,000
    memories). The URL is the redacted one (no password), schema options included; only its digest names the file."""
    path = getattr(store, "path", "") or ""
    if not cache_dir or "://" not in path:
        return None
    return os.path.join(cache_dir, hashlib.sha256(path.encode("utf-8")).hexdigest()[:24] + "-" + name)


def size_of(path: str | None) -> int:
    """Bytes of a cache file; 0 when there is none (yet)."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def cache_bytes(store: object, name: str, cache_dir: str | None = None) -> int:
    """Bytes one cache takes beside the database (a server store's: in `cache_dir`, where its recall graph is
    saved): its file and the ids file the vector matrix keeps with it."""
    path = beside(store, name) or in_user_cache(store, name, cache_dir)
    return size_of(path) + size_of(ids_path(path)) if path else 0


def ids_path(path: str) -> str:
    return f"{path}.ids"
