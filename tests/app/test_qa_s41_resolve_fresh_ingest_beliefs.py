"""Ingesting a vault that holds an evidence pack into a fresh database re-creates the pack's claim edges, but not the
world-model beliefs `resolve` made of them: `state list` was empty and nothing said so. The ingest reply now says how
many replayed claim edges have no belief and the command that derives them (`mnemon state backfill`); once run,
the reply says nothing more of it."""
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


def test_a_fresh_ingest_says_the_beliefs_are_missing_and_how_to_derive_them(make_mem: Callable[..., Mnemon],
                                                                              tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Acme.md").write_text("# Acme\nSupplier.\n")
    first = make_mem("hash", db=tmp_path / "one.db", clock=FakeClock(T0))
    first.ingest(str(vault))
    assert first.resolve(str(vault), {"title": "Acquisitions", "claims": [CLAIM]})["assertions"][0]["written"]
    assert "beliefs_missing" not in first.ingest(str(vault))  # the store that resolved it holds them

    fresh = make_mem("hash", db=tmp_path / "two.db", clock=FakeClock(T0))
    out = fresh.ingest(str(vault))
    assert out["beliefs_missing"]["claim_edges"] == 1
    assert "mnemon state backfill" in out["beliefs_missing"]["hint"]
    fresh.state_backfill()
    assert missing_beliefs(fresh.rt, out["beliefs_missing"]["edge_ids"]) is None  # the hint's command derives them
