"""Resolving the same research twice is resolving it once: the replay wrote every claim's edge again, so each
`explain-edge` timeline gained another identical `research_writeback` event per run (and per ingest that re-read the
pack), and the graph generation moved though nothing had changed. An unchanged claim is now left as it is; a changed
one is still written, with its event."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def payload(confidence: float = 0.95) -> dict[str, object]:
    return {"title": "Acme supplier check", "date": "2026-05-30", "claims": [
        {"subject": "Bob Smith", "predicate": "works_at", "object": "Acme", "confidence": confidence,
         "certainty": "confirmed", "source_type": "web", "evidence": "profile page"},
        {"subject": "Acme", "predicate": "located_in", "object": "Lisbon", "confidence": 0.97,
         "certainty": "confirmed", "evidence": "hearsay"}]}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


def timelines(mem: Mnemon, ids: list[int]) -> list[list[tuple[str, str]]]:
    return [[(e["event"], e["actor"]) for e in mem.rt.store.edge_events(i)] for i in ids]


def test_a_replayed_resolution_leaves_its_edges_and_their_timelines_as_they_were(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Acme.md").write_text("# Acme\nSupplier of widgets.\n")
    mem.ingest(str(vault))
    first = mem.resolve(str(vault), payload())
    ids = [e["id"] for e in first["edges"]]
    before = timelines(mem, ids)
    generation = mem.rt.store.graph_generation()
    again = mem.resolve(str(vault), payload())
    assert [e["status"] for e in again["edges"]] == [e["status"] for e in first["edges"]] == ["active", "candidate"]
    assert mem.rt.store.graph_generation() == generation
    mem.ingest(str(vault))  # the pack read back into the store it came from
    assert timelines(mem, ids) == before


def test_a_changed_claim_is_still_written_with_its_event(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    first = mem.resolve(str(vault), payload())
    ids = [e["id"] for e in first["edges"]]
    before = timelines(mem, ids)
    changed = mem.resolve(str(vault), payload(confidence=0.8))
    assert changed["edges"][0]["status"] == "candidate"
    assert mem.rt.store.get_edge(ids[0]).status == "candidate"
    after = timelines(mem, ids)
    assert after[0] == [*before[0], ("research_writeback", "resolve")] and after[1] == before[1]
