"""A cold bulk load (`SQLiteVault.bulk_load`) writes the whole vault in one transaction: with SQLite's default 2 MB
page cache the dirty pages spilled into the write-ahead log and were read back again and again (≈ 10 % of the
writer's SQLite CPU for the 2,000-note benchmark vault). The load raises the connection's cache for its duration
only: afterwards — committed or rolled back — the connection has the cache it had, and the store is the same."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.core.model import Memory
from mnemon.ports.store.sqlite import SQLiteStore


def _cache_bytes(store: SQLiteStore) -> int:
    size = int(store.conn.execute("PRAGMA cache_size").fetchone()[0])
    return -size * 1024 if size < 0 else size * int(store.conn.execute("PRAGMA page_size").fetchone()[0])


def _node(i: int) -> Memory:
    return Memory(id=f"heading:a.md#{i}", kind="heading", title=f"h{i}", content="", source="vault:a.md",
                  created_at="2026-01-01T00:00:00Z")


@pytest.mark.parametrize("cache_size", [-2000, 500, -200_000])
def test_a_bulk_load_writes_with_a_large_page_cache_and_gives_it_back(tmp_path: Path, cache_size: int) -> None:
    store = SQLiteStore(str(tmp_path / "bulk.db"))
    store.conn.execute(f"PRAGMA cache_size = {cache_size}")
    before = _cache_bytes(store)
    with store.transaction(), store.vault.bulk_load():
        during = _cache_bytes(store)
        store.vault.insert_nodes([_node(i) for i in range(3)])
    assert during >= max(before, 64 * 2**20)  # never lowered: a larger cache set by hand stays
    assert int(store.conn.execute("PRAGMA cache_size").fetchone()[0]) == cache_size
    assert store.conn.execute("SELECT COUNT(*) FROM nodes WHERE kind = 'heading'").fetchone()[0] == 3


def test_a_failed_bulk_load_gives_the_cache_back_and_keeps_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "bulk.db"))
    cache = int(store.conn.execute("PRAGMA cache_size").fetchone()[0])
    indexes = store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").fetchall()
    with pytest.raises(RuntimeError), store.transaction(), store.vault.bulk_load():
        store.vault.insert_nodes([_node(1)])
        raise RuntimeError("disk on fire")
    assert int(store.conn.execute("PRAGMA cache_size").fetchone()[0]) == cache
    assert store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").fetchall() == indexes
    assert store.conn.execute("SELECT COUNT(*) FROM nodes WHERE kind = 'heading'").fetchone()[0] == 0
