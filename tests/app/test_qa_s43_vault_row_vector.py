"""QA round (session 43, following the README): a vault memory forgotten, then brought back by the next ingest of its
note (`forget ID`, `forget --undo ID`, `ingest`), is recalled by meaning again.

Before, the ingest cleared the row's `deleted_at` but left the vector generation as it was: the vector matrix (in the
process, and the copy saved beside the database for the next one) kept the row dead, so its similarity stayed 0 in
every later recall, recall warned "1 of N memories have no vector … `mnemon embed --all` adds them", and
`embed --all` answered that every memory already had one. Run once per backend (tests/conftest.py)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

QUERY = "battery supplier overdue"
OVERDUE = "Battery supplier still overdue, risk to the June deployment"


def _overdue_row(m: Mnemon) -> dict[str, object]:
    out = m.recall(QUERY, limit=20)
    assert not out.get("warnings"), out.get("warnings")
    return next(r for r in out["results"] if r["insight"]["content"] == OVERDUE)


def test_a_vault_memory_brought_back_by_ingest_keeps_its_similarity(
        make_mem: Callable[..., Mnemon], example_vault: Path, tmp_path: Path) -> None:
    m = make_mem("hash")
    m.ingest(str(example_vault))
    before = _overdue_row(m)
    assert before["signals"]["similarity"] > 0
    vault_id = str(before["insight"]["id"])
    m.forget(vault_id)
    assert m.undo_forget([vault_id])["status"] == "pending_ingest"
    m.ingest(str(example_vault))
    assert _overdue_row(m)["signals"] == before["signals"]  # in the process that ingested
    m.close()
    again = make_mem("hash")  # the next process, reading the matrix saved beside the database
    assert _overdue_row(again)["signals"]["similarity"] == before["signals"]["similarity"]


def test_embed_all_reloads_matrices_that_lost_sight_of_stored_vectors(
        make_mem: Callable[..., Mnemon], tmp_path: Path, facade_backend: str) -> None:
    """A store the bug above left behind (a row revived with no new generation) stays so after the fix: the saved
    matrix still matches the store's token. `embed --all`, which recall's warning names, now sees that the matrices
    hold fewer vectors than the store and has every process reload them."""
    import sqlite3

    if facade_backend == "postgres":
        pytest.skip("the matrix saved beside a SQLite file (a server's vectors are read from it by every process)")
    db = tmp_path / "revived.db"
    m = make_mem("hash", db=db)
    ids = [m.remember(text)["id"] for text in ("Pump seal replaced in March", "Valve seal leaks again",
                                               "Harbour crane inspection booked")]
    m.forget(ids[1])
    m.close()
    with sqlite3.connect(db) as raw:  # what the bug did: the row live again, its kept vector unseen
        raw.execute("UPDATE nodes SET deleted_at = NULL WHERE id = ?", (ids[1],))
    raw.close()
    stale = make_mem("hash", db=db)
    assert any("have no vector" in w for w in stale.recall("seal", limit=5).get("warnings", []))
    out = stale.embed_all()
    assert out["status"] == "complete" and out["index_reloaded"] == 3
    assert not stale.recall("seal", limit=5).get("warnings")
    stale.close()
    assert not make_mem("hash", db=db).recall("seal", limit=5).get("warnings")  # the saved copy too
