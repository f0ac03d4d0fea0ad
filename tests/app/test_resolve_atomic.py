"""`resolve` is all or nothing: its claim edges, beliefs and predictions are stored in one transaction and its
evidence pack is written at the end of it, so a failure part-way leaves the store and the vault as they were.

They used to be written one after the other (pack, then edges, then each belief and prediction on its own), and an
error after the pack left the pack and some rows behind. Runs on SQLite and PostgreSQL (`make_mem`).
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

import mnemon.app.world.predict as predict_mod
import mnemon.app.world.state as state_mod
from mnemon.app import notes
from mnemon.app.memory import Mnemon

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
CLAIM = {"subject": "Example Child", "subject_type": "person", "predicate": "attends_activity",
         "object": "Handwriting Club", "object_type": "activity", "confidence": 0.94, "certainty": "confirmed",
         "source_type": "payment", "evidence": "Payment receipt and brochure confirm the club (fictional)."}
PREDICTION = {"title": "Club schedule should arrive",
              "match_json": {"sense_type": "gws", "observation_terms_all": ["handwriting"]},
              "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}
PAYLOAD: dict[str, Any] = {"slug": "school-clubs", "title": "School clubs resolved", "date": "2026-04-26",
                           "claims": [CLAIM], "predictions": [PREDICTION]}
PACK = "Sources/2026-04-26-school-clubs.md"


class Boom(RuntimeError):
    pass


def boom(*_args: Any, **_kwargs: Any) -> Any:
    raise Boom("injected failure")


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    target.mkdir()
    return target


def changed() -> dict[str, Any]:
    """The same research, corrected: another club, so every row it writes differs from the first run's."""
    out = copy.deepcopy(PAYLOAD)
    out["claims"][0]["object"] = "Chess Club"
    out["predictions"][0]["title"] = "Chess schedule should arrive"
    return out


def state(mem: Mnemon, vault: Path) -> dict[str, Any]:
    """Everything a resolve writes: edges (with their status and event log), nodes, beliefs, predictions, the
    world audit trail, the oplog, and the vault's files with their bytes."""
    store = mem.rt.store
    world = store.world  # type: ignore[attr-defined]
    edges = sorted((e.id, e.src, e.dst, e.type, e.status, e.weight, e.source_path) for e in store.iter_edges())
    return {
        "edges": edges,
        "edge_events": {e[0]: len(store.edge_events(int(e[0] or 0))) for e in edges},
        "nodes": sorted(n.id for n in store.iter_nodes(kind=None)),
        "assertions": sorted((a["id"], a["status"]) for a in world.assertions()),
        "predictions": sorted(p["id"] for p in world.predictions()),
        "world_events": world.last_event_id(),
        "oplog": [(o.op, o.detail) for o in store.oplog(50)],
        "files": {str(p.relative_to(vault)): p.read_bytes() for p in sorted(vault.rglob("*")) if p.is_file()},
    }


def test_a_failing_prediction_leaves_no_pack_edges_or_beliefs(mem: Mnemon, vault: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    before = state(mem, vault)
    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(predict_mod, "add_prediction", boom)  # the last step: after the edges and the belief
        with pytest.raises(Boom):
            mem.resolve(str(vault), copy.deepcopy(PAYLOAD))
    assert not (vault / PACK).exists()
    assert state(mem, vault) == before
    out = mem.resolve(str(vault), copy.deepcopy(PAYLOAD))  # nothing half-written is in the way of a retry
    assert out["written"] and out["predictions_written"] == 1 and out["edges"][0]["status"] == "active"
    assert (vault / PACK).exists()


def test_a_belief_that_fails_leaves_the_earlier_edges_out_too(mem: Mnemon, vault: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    before = state(mem, vault)
    monkeypatch.setattr(state_mod, "propose_assertion", boom)
    monkeypatch.delattr("mnemon.app.world.propose_assertion", raising=False)  # the package caches what it loaded
    with pytest.raises(Boom):
        mem.resolve(str(vault), copy.deepcopy(PAYLOAD))
    assert state(mem, vault) == before


def test_a_failed_rerun_keeps_the_first_runs_rows_and_pack(mem: Mnemon, vault: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    mem.resolve(str(vault), copy.deepcopy(PAYLOAD))
    before = state(mem, vault)
    monkeypatch.setattr(predict_mod, "add_prediction", boom)
    with pytest.raises(Boom):
        mem.resolve(str(vault), changed())  # would demote the first claim and write another
    after = state(mem, vault)
    assert after == before  # the first pack's bytes, no backup of it, the first claim still active
    assert not (vault / notes.BACKUP_DIR).exists()


def test_a_pack_that_cannot_be_written_rolls_the_rows_back(mem: Mnemon, vault: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    before = state(mem, vault)
    monkeypatch.setattr(notes, "atomic_write_bytes", boom)
    with pytest.raises(Boom):
        mem.resolve(str(vault), copy.deepcopy(PAYLOAD))
    assert state(mem, vault) == before


@pytest.mark.parametrize("first_run", [False, True], ids=["new_pack", "replaced_pack"])
def test_a_failure_after_the_pack_is_written_takes_it_back(mem: Mnemon, vault: Path, monkeypatch: pytest.MonkeyPatch,
                                                           first_run: bool) -> None:
    """The pack is written last inside the transaction; should the commit fail, the pack goes (or the earlier one
    is put back, and the backup made of it goes)."""
    if first_run:
        mem.resolve(str(vault), copy.deepcopy(PAYLOAD))
    before = state(mem, vault)
    store = mem.rt.store
    real = store.transaction
    depth = [0]

    @contextmanager
    def commit_fails() -> Iterator[None]:
        """The store's transaction, failing where the outermost one would commit (the pack is written by then)."""
        with real():
            depth[0] += 1
            try:
                yield
            finally:
                depth[0] -= 1
            if depth[0] == 0 and (vault / PACK).exists() and b"Chess" in (vault / PACK).read_bytes():
                raise Boom("the commit failed")

    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(store, "transaction", commit_fails)
        with pytest.raises(Boom):
            mem.resolve(str(vault), changed())
    assert state(mem, vault) == before
