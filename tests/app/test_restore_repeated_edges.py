"""A backup that holds one edge twice (hand-edited or concatenated) restores whole: the first copy stands."""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app import backup
from mnemon.app.memory import Mnemon


def _doc(repeat_at_end: bool) -> dict[str, Any]:
    ids = [f"00000000-0000-0000-0000-00000000000{k}" for k in range(4)]
    rows = [{"id": i, "content": f"memory {k}", "created_at": f"2026-01-0{k + 1}T00:00:00Z"} for k, i in enumerate(ids)]
    edges = [{"source_id": a, "target_id": b, "edge_type": "semantic", "weight": 0.5, "status": "active",
              "origin": "agent", "created_at": "2026-01-05T00:00:00Z"} for a in ids for b in ids if a != b]
    repeat = dict(edges[0], weight=0.9)
    edges = [*edges, repeat] if repeat_at_end else [edges[0], repeat, *edges[1:]]
    return {"kind": "mnemon-export", "schema_version": "4", "provider": None, "insights": rows, "edges": edges}


@pytest.mark.parametrize("repeat_at_end", [True, False], ids=["batches-apart", "same-batch"])
@pytest.mark.parametrize("streamed", [True, False], ids=["stream", "parsed"])
def test_an_edge_repeated_in_the_file_is_restored_once(make_mem: Callable[..., Mnemon], monkeypatch: Any,
                                                       repeat_at_end: bool, streamed: bool) -> None:
    monkeypatch.setattr(backup, "BATCH", 4)  # the repeat lands batches after its first copy, as past 2,000 edges
    dst = make_mem()
    doc = _doc(repeat_at_end)
    # on SQLite the second copy, a batch later, failed the bulk insert on the edges' unique key: nothing restored
    out = dst.import_json(io.StringIO(json.dumps(doc)) if streamed else doc)
    assert out["imported"] == 4 and out["edges_inserted"] == 12 and out["edges_skipped"] == 1
    assert out["edge_errors"] == 0
    edges = list(dst.rt.store.iter_edges(statuses=("active",)))
    assert len(edges) == 12
    first = doc["edges"][0]
    kept = dst.rt.store.find_edge(first["source_id"], first["target_id"], "semantic")
    assert kept is not None and kept.weight == 0.5  # the first copy, as a repeated insight keeps its first
