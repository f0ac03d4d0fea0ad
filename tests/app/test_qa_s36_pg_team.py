"""A team on one store (a shared PostgreSQL server, or one SQLite file several processes open), on both backends:
what one teammate's process does while another's holds the store."""
from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import StoreBusy, StoreError


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


def _upgrade_by_a_newer_mnemon(db: str, *, undo: bool = False) -> None:
    """What a newer mnemon's first writable open does to the store: a migration step this one does not know
    (`undo`: taken out again, for the PostgreSQL schema a later test is handed with its migrations kept)."""
    sql = ("DELETE FROM migrations WHERE name = 'm999_from_the_future'" if undo else
           "INSERT INTO migrations(name, applied_at) VALUES ('m999_from_the_future', 'x')")
    if db.startswith("postgresql"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]
    else:
        import sqlite3

        with sqlite3.connect(db) as conn:
            conn.execute(sql)


def test_a_server_running_when_a_newer_mnemon_upgrades_the_store_stops_writing_to_it(
        make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    """A teammate's `mcp serve` or `serve` of this version, running while another teammate's newer mnemon upgraded
    the shared store, went on writing rows in the old layout the newer one misreads (only an open checked the
    steps: the same older mnemon started anew was refused). Now each write checks under the write lock: the write
    is refused, `store_error` naming the steps it does not know, nothing written; reads go on."""
    mem = make_mem("hash")
    kept = mem.remember("the harbour crane is inspected on Mondays", source="agent")["id"]
    db = str(mem.rt.store.path)
    _upgrade_by_a_newer_mnemon(db)
    try:
        with pytest.raises(StoreError, match="m999_from_the_future") as refused:
            mem.remember("the lighthouse lamp was replaced", source="agent")
        assert refused.value.code == "store_error"
        assert refused.value.details["unknown_steps"] == ["m999_from_the_future"]
        with pytest.raises(StoreError, match="newer mnemon"):
            mem.forget(kept)
        assert [r["insight"]["id"] for r in mem.recall("harbour crane")["results"]] == [kept]
        assert mem.status()["total_insights"] == 1
    finally:
        _upgrade_by_a_newer_mnemon(db, undo=True)


def test_a_tool_adds_a_bullet_to_its_own_teammates_checkout_not_the_last_ingesters(
        make_mem: Callable[..., Mnemon], example_vault: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two checkouts of one vault on one store: the MCP and HTTP tool `note_add_bullet` (what a thought card
    suggests) wrote into the folder the store was last ingested from — a teammate's checkout (or, on another
    machine, a path that is not there) — whatever the calling process's own vault. Now the vault configured for
    the process (`vault`, MNEMON_VAULT), as `mnemon note add-bullet` uses, comes first; the store's is the fallback."""
    import shutil

    ana_vault, bob_vault = example_vault, tmp_path / "bob-checkout"
    shutil.copytree(example_vault, bob_vault)
    monkeypatch.setenv("MNEMON_VAULT", str(ana_vault))
    ana = make_mem("hash")
    monkeypatch.setenv("MNEMON_VAULT", str(bob_vault))
    bob = make_mem("hash")
    bob.ingest(str(bob_vault))  # the last ingest: the store's recorded vault is bob's checkout
    before = (bob_vault / "Projects" / "lighthouse.md").read_bytes()
    out = ana.note_add_bullet(None, "Projects/lighthouse.md", "Next Actions", "Ana checks the lamp")
    assert out["changed"] is True
    assert "- Ana checks the lamp" in (ana_vault / "Projects" / "lighthouse.md").read_text(encoding="utf-8")
    assert (bob_vault / "Projects" / "lighthouse.md").read_bytes() == before
    monkeypatch.delenv("MNEMON_VAULT")
    carol = make_mem("hash")  # no vault of its own: the one the store was ingested from, as before
    carol.note_add_bullet(None, "Projects/lighthouse.md", "Next Actions", "Carol orders a spare")
    assert "- Carol orders a spare" in (bob_vault / "Projects" / "lighthouse.md").read_text(encoding="utf-8")
