"""A large import leaves the recall graph built and saved beside the database: the first recall after restoring a
big backup found no snapshot and stalled on building one (a minute at 100k on a busy machine)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from mnemon.app import memory
from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.ports.graph_index import GraphSnapshot


def _open(home: Path) -> Mnemon:
    return Mnemon.open(load_config({"HOME": str(home)}, db=str(home / "m.db")))


def _draft(n: int) -> dict[str, object]:
    return {"insights": [{"content": f"Deploy note {k}: the canary of service {k % 7} ran clean",
                          "created_at": f"2025-01-{1 + k % 28:02d}T10:00:00Z"} for k in range(n)]}


def test_a_large_import_saves_a_current_recall_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "WARM_GRAPH_AFTER", 20)
    m = _open(tmp_path)
    assert m.import_json(_draft(30))["imported"] == 30
    path = m.rt.graph.path
    assert path and os.path.exists(path)
    saved = GraphSnapshot.load(path)
    assert saved is not None and saved.generation == m.rt.store.graph_generation()
    assert len(saved) >= 30
    m.close()


def test_a_small_import_or_a_dry_run_leaves_it_to_recall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "WARM_GRAPH_AFTER", 20)
    m = _open(tmp_path)
    m.import_json(_draft(30), dry_run=True)
    m.import_json(_draft(10))
    assert not os.path.exists(m.rt.graph.path or "")
    m.close()
