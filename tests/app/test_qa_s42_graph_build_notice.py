"""Session 42: `Runtime.on_slow_step` is told before a full build of a large store's recall graph, and only then: not
for a small store, not when a recall extends the snapshot by a few writes or loads the saved one
(tests/cli/test_qa_s42_graph_build_notice.py has the terminal side)."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.ports import graph_index


def test_told_once_before_the_full_build_and_not_for_an_extension(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"MNEMON_HOME": str(tmp_path / "home"), "MNEMON_EMBED_PROVIDER": "hash", "HOME": str(tmp_path)}
    told: list[str] = []
    with Mnemon.open(load_config(env, db=str(tmp_path / "m.db"))) as mem:
        for text in ("The pilot starts in June", "The pilot team meets on Mondays", "The budget review is in May"):
            mem.remember(text)
        mem.rt.on_slow_step = told.append
        monkeypatch.setattr(graph_index, "SLOW_BUILD_NODES", 3)
        mem.recall("pilot")
        assert told == []  # three memories: not over the threshold
        mem.rt._graph = None  # a fresh process's view (no snapshot held), the saved file moved away
        (tmp_path / "m.db-graph").unlink()
        monkeypatch.setattr(graph_index, "SLOW_BUILD_NODES", 2)
        mem.recall("pilot")
        assert told == ["building the recall graph for 3 memories (once; saved beside the database)…"]
        mem.remember("The pilot ends in August")
        mem.recall("pilot")  # the snapshot extended by one write: no build, nothing said
        assert len(told) == 1
        mem.rt._graph = None  # the next process: it loads the snapshot saved beside the database, nothing said
        mem.recall("pilot")
        assert len(told) == 1
