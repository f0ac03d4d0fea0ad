"""A team on one store (a shared PostgreSQL server, or one SQLite file several processes open), on both backends:
what one teammate's process does while another's holds the store."""
from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import StoreBusy


def test_an_ingest_waits_for_another_ingest_at_most_busy_wait_then_is_store_busy(
        make_mem: Callable[..., Mnemon], example_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A teammate's ingest stuck inside the store's ingest lock (a laptop suspended mid-run keeps its PostgreSQL
    session, and the lock with it) made every other `mnemon ingest` wait without end and without a word, though
    `busy_wait` bounds every other wait for another process's write. Now it waits `busy_wait`, then fails
    `store_busy` (retryable), nothing written; once the lock is free the same ingest runs."""
    monkeypatch.setenv("MNEMON_BUSY_WAIT", "1")
    stuck, teammate = make_mem("hash"), make_mem("hash")
    outcome: dict[str, Any] = {}

    def ingest() -> None:
        try:
            outcome["out"] = teammate.ingest(str(example_vault))
        except BaseException as exc:  # reported to the test, never left in the thread
            outcome["error"] = exc

    with stuck.rt.store.vault.ingest_lock():  # type: ignore[attr-defined]
        worker = threading.Thread(target=ingest, daemon=True)
        worker.start()
        worker.join(30)
        assert not worker.is_alive(), "the ingest waited for the other one without end"
    assert isinstance(outcome.get("error"), StoreBusy), outcome
    assert outcome["error"].code == "store_busy" and outcome["error"].details["retryable"] is True
    assert "busy_wait" in str(outcome["error"])
    assert teammate.status()["nodes_by_kind"] == {}  # nothing of the refused ingest was written
    assert teammate.ingest(str(example_vault))["notes_read"] == 13  # the lock, once free, is taken
