"""Several processes (here: connections) on one store, as a team sharing a PostgreSQL server meets them, on both
backends: an ingest started while another runs waits for it and then skips every note it wrote, instead of
re-reading and re-writing the whole vault; a read-only reader goes on meanwhile; a refused ingest releases the
lock."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import Conflict

WAIT_S = 1.5  # how long the first ingest gives the second one to read the store before it commits


def test_a_second_ingest_waits_for_the_first_and_reads_no_note_it_wrote(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    first, second = make_mem("hash"), make_mem("hash")
    first.remember("the battery supplier is late", source="agent")
    # read-only: a recall that may write records its hits, and that write waits for the ingest's transaction
    reader = make_mem("hash", readonly=True)
    first_inside, second_read = threading.Event(), threading.Event()
    vault = second.rt.store.vault  # type: ignore[attr-defined]
    files = vault.files

    def files_seen() -> Any:
        out = files()
        second_read.set()
        return out

    vault.files = files_seen
    results: dict[str, Any] = {}

    def progress(done: int, total: int) -> None:
        if not first_inside.is_set():
            first_inside.set()  # inside the first ingest's write transaction, nothing committed yet
            second_read.wait(WAIT_S)  # (without a lock between them the second reads the empty store now)

    def run_first() -> None:
        results["first"] = first.ingest(str(example_vault), progress=progress)

    def run_second() -> None:
        first_inside.wait(30)
        results["second"] = second.ingest(str(example_vault))

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for t in threads:
        t.start()
    assert first_inside.wait(30)
    began = time.perf_counter()
    recalled = reader.recall("battery supplier", limit=3)  # a reader goes on while both ingests run
    read_s = time.perf_counter() - began
    for t in threads:
        t.join(120)
    assert results["first"]["notes_read"] == 13
    assert results["second"]["notes_read"] == 0 and results["second"]["notes_unchanged"] == 13
    assert results["second"]["edges_added"] == 0
    assert recalled["results"] and read_s < WAIT_S
    ingests = first.rt.store.oplog(10, op="ingest")
    assert [e.detail["changed"] for e in ingests] == [13]  # one ingest wrote; the other had nothing to write


def test_an_ingest_that_fails_lets_the_next_one_run(make_mem: Callable[..., Mnemon], example_vault: Path,
                                                   tmp_path: Path) -> None:
    first, second = make_mem("hash"), make_mem("hash")
    first.ingest(str(example_vault))
    empty = tmp_path / "unmounted"
    empty.mkdir()
    with pytest.raises(Conflict):  # refused inside the ingest: a folder without notes would remove every note
        first.ingest(str(empty))
    results: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: results.update(out=second.ingest(str(example_vault))), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the refused ingest kept the store's ingest lock"
    assert results["out"]["notes_unchanged"] == 13
