"""A vault's store restored from its export, then ingested from the same (unchanged) notes, is the store it was.

The first ingest after a restore reads every note (the export carries no note hashes), and it stamped every vault
row's `updated_at` with its own time though no line of any note had changed: the restored rows lack what ingest
derives (containment codes, the proactive score) and hold metadata in other JSON spacing, and any difference made a
row "updated". A row's `updated_at` moves only when what it holds does."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import FakeClock
from mnemon.app.memory import Mnemon


def _rows(m: Mnemon) -> dict[str, dict[str, Any]]:
    return {r["id"]: {k: v for k, v in r.items() if k != "vector"} for r in m.export_json()["insights"]}


def _decisions(m: Mnemon) -> list[tuple[Any, ...]]:
    return sorted((r["source_id"], r["target_id"], r["edge_type"], r["status"])
                  for r in m.export_json()["vault_edges"])


def test_restore_then_ingest_keeps_every_vault_row_as_it_was(make_mem: Callable[..., Mnemon], example_vault: Path,
                                                             tmp_path: Path) -> None:
    clock = FakeClock()
    src = make_mem("hash", clock=clock)
    src.ingest(str(example_vault), embed=False)
    killed = next(e for e in src.rt.store.iter_edges(statuses=("candidate",)))
    src.kill_edge(int(killed.id or 0), reason="not so")
    before, decided = _rows(src), _decisions(src)
    doc = json.dumps(src.export_json())
    clock.advance(days=3)
    here = make_mem("hash", db=tmp_path / "restored.db", clock=clock)
    here.import_json(doc)
    here.ingest(str(example_vault), embed=False)
    after = _rows(here)
    assert set(after) == set(before)  # nothing lost, nothing twice
    moved = {i: (before[i]["updated_at"], after[i]["updated_at"]) for i in before
             if before[i]["updated_at"] != after[i]["updated_at"]}
    assert not moved, f"{len(moved)} of {len(before)} rows dated anew by an ingest of unchanged notes"
    assert {i: r["content"] for i, r in after.items()} == {i: r["content"] for i, r in before.items()}
    assert _decisions(here) == decided
    # a line that does change is still dated by the ingest that read it
    note = example_vault / "Projects" / "harbour-station.md"
    note.write_text(note.read_text(encoding="utf-8").replace("two weeks ahead", "three weeks ahead"),
                    encoding="utf-8")
    clock.advance(days=1)
    here.ingest(str(example_vault), embed=False)
    changed = [r for r in _rows(here).values() if "three weeks ahead" in r["content"]]
    assert changed and all(r["updated_at"].startswith(clock.now.strftime("%Y-%m-%d")) for r in changed)
