"""Ingesting a vault that holds an evidence pack into a fresh database re-creates the pack's claim edges, but did not
re-create the world-model beliefs `resolve` made of them: `state list` was empty and nothing said so. The ingest
reply then said how many replayed claim edges had no belief and the command that derives them (`mnemon state
backfill`); since the forty-second session the ingest re-creates the beliefs itself (`pack_world`), so the reply has
nothing to say of them and `state backfill` nothing to do."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.app.vault.claim_beliefs import missing_beliefs

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
CLAIM = {"subject": "Acme", "predicate": "acquired", "object": "Globex", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "web", "evidence": "press release"}


def test_a_fresh_ingest_leaves_no_belief_missing(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Acme.md").write_text("# Acme\nSupplier.\n")
    first = make_mem("hash", db=tmp_path / "one.db", clock=FakeClock(T0))
    first.ingest(str(vault))
    assert first.resolve(str(vault), {"title": "Acquisitions", "claims": [CLAIM]})["assertions"][0]["written"]
    assert "beliefs_missing" not in first.ingest(str(vault))  # the store that resolved it holds them

    fresh = make_mem("hash", db=tmp_path / "two.db", clock=FakeClock(T0))
    out = fresh.ingest(str(vault))
    assert "beliefs_missing" not in out
    [edge] = [e for e in fresh.rt.store.vault.edges_touching(["note:Acme.md"]) if e.type == "acquired"]
    assert missing_beliefs(fresh.rt, [int(edge.id or 0)]) is None
    assert fresh.state_backfill()["created_or_updated"] == 0
