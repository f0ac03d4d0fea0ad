"""A read's bookkeeping: the hits of `recall`, `search` and `show` count as accessed (which raises a memory's
effective importance and keeps it from auto-pruning) and the read is logged."""
from __future__ import annotations

from contextlib import suppress
from typing import Any

from ..ports.store.base import WriterBusy, disk_full
from .runtime import Runtime


def record_access(rt: Runtime, ids: list[str], op: str, detail: dict[str, Any], *,
                  node_id: str | None = None) -> None:
    """Count `ids` as accessed and log the read — unless another writer holds the store (an ingest of a large vault,
    a team mate's import): the read then answers without its bookkeeping instead of waiting behind the writer (on
    PostgreSQL for as long as it wrote; on SQLite until the busy timeout failed the read); and on a full disk, where
    the bookkeeping's write failed every read. A read-only store keeps nothing, nor does a read made under
    `Mnemon.unrecorded`."""
    if rt.store.readonly or not rt.record_reads:
        return
    try:
        with suppress(WriterBusy), rt.store.transaction(wait=False):
            rt.store.touch(ids, rt.now_iso())
            rt.store.log(op, node_id, detail, rt.now_iso())
    except Exception as exc:
        if not disk_full(exc):
            raise
