"""`resolve` reads its claims' edges and the person decisions about them once per run, not per claim, and still
keeps every decision: a real run, a dry run, and the demotion of claims a re-resolved pack withdrew."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

CLAIM = {"subject": "Ada", "predicate": "attends_activity", "confidence": 0.94, "certainty": "confirmed",
         "source_type": "payment", "evidence": "Receipt (fictional)."}
PAYLOAD = {"slug": "clubs", "title": "Clubs", "date": "2026-04-26",
           "claims": [dict(CLAIM, object=f"Club {i}") for i in range(6)]}


def _count(store: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls: dict[str, int] = {}
    for name in ("edge_events", "find_edge", "latest_edge_events"):
        def counted(*args: Any, _name: str = name, _real: Any = getattr(store, name), **kw: Any) -> Any:
            calls[_name] = calls.get(_name, 0) + 1
            return _real(*args, **kw)
        monkeypatch.setattr(store, name, counted)
    return calls


def test_a_replay_reads_the_decisions_once_and_keeps_them(mem: Mnemon, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    edges = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert [e["status"] for e in edges] == ["active"] * 6
    mem.weaken_edge(edges[0]["id"], factor=0.9)
    mem.kill_edge(edges[1]["id"])
    mem.weaken_edge(edges[5]["id"], factor=0.9)  # withdrawn below: a person's edge is not demoted
    calls = _count(mem.rt.store, monkeypatch)
    dry = mem.resolve(str(vault), PAYLOAD, dry_run=True)["claims"]
    assert dry[0]["reasons"] == ["person_decision_kept:weakened"] and dry[1]["status"] == "killed"
    assert calls.get("edge_events", 0) == calls.get("find_edge", 0) == 0 and calls["latest_edge_events"] <= 2
    calls.clear()
    withdrawn = copy.deepcopy(PAYLOAD)
    del withdrawn["claims"][4:]
    out = mem.resolve(str(vault), withdrawn)
    assert out["edges"][0]["reasons"] == ["person_decision_kept:weakened"] and out["edges"][1]["status"] == "killed"
    assert out["dropped_edges"] == [edges[4]["id"]]  # Club 5's edge was weakened by a person: it stays
    assert calls.get("edge_events", 0) == calls.get("find_edge", 0) == 0 and calls["latest_edge_events"] <= 2
