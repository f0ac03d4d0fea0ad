"""A read (`recall`, `search`, `show`) never waits behind another writer to count its hits as accessed: while an
ingest of a large vault or a team mate's import holds the store, it answers without that bookkeeping. It used to
queue for the write lock: on PostgreSQL for as long as the writer wrote, on SQLite until its busy timeout failed
the read. Both backends."""
from __future__ import annotations

import threading
from collections.abc import Callable

from mnemon.app.memory import Mnemon

HOLD_S = 30.0  # the writer lets go by itself after this: a read that waited for it makes `released` False


def test_reads_answer_while_another_writer_holds_the_store(make_mem: Callable[..., Mnemon]) -> None:
    writer, reader = make_mem("hash"), make_mem("hash")
    mid = writer.remember("The battery supplier is late again")["id"]
    held, release = threading.Event(), threading.Event()
    released: list[bool] = []

    def hold() -> None:
        with writer.rt.store.transaction():
            held.set()
            released.append(release.wait(HOLD_S))

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    try:
        recalled = reader.recall("battery supplier", limit=3)
        searched = reader.search("battery", limit=3)
        shown = reader.show(mid)
    finally:
        release.set()
        holder.join()
    assert released == [True], "a read waited for the writer to let go"
    assert recalled["results"][0]["insight"]["id"] == mid and searched["results"][0]["id"] == mid
    assert shown["access_count"] == 0  # counted nothing: the store was busy
    reader.recall("battery supplier", limit=3)  # the writer is gone: counted again
    assert reader.show(mid)["access_count"] == 2
