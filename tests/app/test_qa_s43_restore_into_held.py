"""Restoring an export into a store that already holds some or all of it — a restore over the store it came from, a
teammate's export merged in, an import run again after it was stopped — ends where restoring it once ends: nothing
lost, nothing twice, every edge with its status, evidence and events, the counts, vectors and recall the same.

It asked the store about each edge between two memories it already held, one statement per edge (354k for a 10k
export restored over itself); now a batch of edges is looked up at once.

The store restored into is `make_mem()`, so each test runs once per backend (SQLite, PostgreSQL)."""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app import backup
from mnemon.app.backup_world import WORLD_MEMBERS
from mnemon.app.memory import Mnemon
from mnemon.core.model import EDGE_STATUSES
from mnemon.ports.store.history_reads import vectors_of

from .test_qa_s42_restore_edge_reads import _reads  # (restores, counting the SELECTs it ran)

_TEXTS = ("The staging database moved to Frankfurt in March", "Deploys take 20 minutes since the database move",
          "Ana prefers morning standups over afternoon ones", "The billing service retries failed charges twice",
          "Ana owns the billing service and its on-call rota", "Frankfurt latency doubled after the database move")


def _source_export(make_mem: Callable[..., Mnemon], tmp_path: Path) -> str:
    """An export with automatic edges, a person's kill, weakening and validation, and a sense event."""
    src = make_mem("hash", db=tmp_path / "source.db")
    ids = [src.remember(text)["id"] for text in _TEXTS]
    src.link(ids[0], ids[3], "causal", weight=0.7)
    src.link(ids[1], ids[4], "semantic", weight=0.6)
    edges = sorted(src.rt.store.edges_of(ids, statuses=EDGE_STATUSES, direction="both"), key=lambda e: e.id or 0)
    src.kill_edge(edges[0].id, reason="not related")
    src.weaken_edge(edges[1].id, factor=0.5, reason="only once")
    src.validate_edge(edges[2].id, reason="I wrote it")
    src.sense_add({"sense_type": "manual", "source_id": "p-1", "observed_at": "2026-01-02T10:00:00Z",
                   "title": "parcel", "text": "The parcel arrived"})
    return "".join(src.export_stream())


def _state(mem: Mnemon) -> dict[str, Any]:
    """What a user can read back of a store, without its internal row ids."""
    store = mem.rt.store
    nodes = sorted(store.iter_nodes(kind=None, include_deleted=True), key=lambda m: m.id)
    edges = {}
    for e in store.iter_edges():
        events = [(ev["event"], ev["actor"], ev["detail"], ev["created_at"])
                  for ev in store.edge_events(int(e.id or 0))]
        edges[(e.src, e.dst, e.type)] = (e.sub_type, e.weight, e.confidence, e.status, e.evidence, e.origin, e.rule,
                                         e.source_path, e.metadata, e.created_at, e.updated_at, events)
    identity = mem.rt.provider.identity()
    vectors = {i: v.tobytes() for i, v in vectors_of(store, [m.id for m in nodes], identity).items()} \
        if mem.rt.vectors_enabled else {}
    status = mem.status()
    return {"nodes": [(m.id, m.kind, m.content, m.category, m.importance, m.tags, m.entities, m.source,
                       m.created_at, m.updated_at, m.deleted_at) for m in nodes],
            "edges": edges, "vectors": vectors,
            "counts": (status["total_insights"], status["edge_count"]),
            "recall": [(r["insight"]["id"], r["score"])
                       for r in mem.recall("database move Frankfurt", limit=5)["results"]],
            "world": {k: v for k, v in mem.export_json(include_vectors=False).items() if k in WORLD_MEMBERS}}


def _restore(mem: Mnemon, text: str) -> dict[str, Any]:
    return mem.import_json(io.StringIO(text))


def test_restoring_twice_ends_as_restoring_once(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    text = _source_export(make_mem, tmp_path)
    once, twice = make_mem(), make_mem("hash", db=tmp_path / "twice.db")
    first = _restore(once, text)
    _restore(twice, text)
    again = _restore(twice, text)
    assert first["imported"] == len(_TEXTS) and again["imported"] == 0 and again["skipped"] == len(_TEXTS)
    assert again["edges_inserted"] == 0 and again["edges_skipped"] == first["edges_inserted"]
    assert _state(twice) == _state(once)


def test_a_store_holding_part_of_the_file_gets_the_rest(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    text = _source_export(make_mem, tmp_path)
    doc = json.loads(text)
    kept = {row["id"] for row in doc["insights"][::2]}
    part = {**doc, "insights": [row for row in doc["insights"] if row["id"] in kept],
            "edges": [e for e in doc["edges"] if e["source_id"] in kept and e["target_id"] in kept][::2]}
    once, merged = make_mem(), make_mem("hash", db=tmp_path / "merged.db")
    _restore(once, text)
    _restore(merged, json.dumps(part))
    out = _restore(merged, text)
    assert out["imported"] == len(_TEXTS) - len(kept)
    assert out["edges_inserted"] + out["edges_skipped"] == len(doc["edges"])
    once_state, merged_state = _state(once), _state(merged)
    assert merged_state["nodes"] == once_state["nodes"] and merged_state["counts"] == once_state["counts"]
    assert merged_state["vectors"] == once_state["vectors"] and merged_state["recall"] == once_state["recall"]
    # the same edges with the same values; one written between two memories the store held says it was restored
    assert {k: v[:-1] for k, v in merged_state["edges"].items()} == {k: v[:-1] for k, v in once_state["edges"].items()}
    _restore(merged, text)
    assert _state(merged) == merged_state  # and a further restore changes nothing


def test_a_restore_stopped_midway_runs_again_to_the_end(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                         monkeypatch: Any) -> None:
    text = _source_export(make_mem, tmp_path)
    once, stopped = make_mem(), make_mem("hash", db=tmp_path / "stopped.db")
    _restore(once, text)
    monkeypatch.setattr(backup, "BATCH", 3)
    placed = backup._place_edges
    calls = []

    def fail_on_the_second_batch(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk I/O error")
        placed(*args)

    monkeypatch.setattr(backup, "_place_edges", fail_on_the_second_batch)
    with pytest.raises(OSError):
        _restore(stopped, text)
    monkeypatch.setattr(backup, "_place_edges", placed)
    _restore(stopped, text)
    assert _state(stopped) == _state(once)


def test_a_row_the_store_holds_with_other_text_keeps_the_stores(make_mem: Callable[..., Mnemon],
                                                                 tmp_path: Path) -> None:
    text = _source_export(make_mem, tmp_path)
    doc = json.loads(text)
    mem = make_mem()
    _restore(mem, text)
    changed = doc["insights"][0]
    doc["insights"][0] = {**changed, "content": "A different text under the same id", "vector": None}
    doc["edges"].append({"source_id": changed["id"], "target_id": doc["insights"][1]["id"], "edge_type": "supersedes",
                         "created_at": "2026-02-01T00:00:00.000000Z"})
    out = _restore(mem, json.dumps(doc))
    row = next(r for r in out["results"] if r["id"] == changed["id"])
    assert row["action"] == "skipped" and row["other_text"] is True
    assert mem.rt.store.get_node(changed["id"]).content == changed["content"]
    assert out["edges_inserted"] == 1  # the file's new edge between two memories the store holds is written
    assert mem.rt.store.find_edge(changed["id"], doc["insights"][1]["id"], "supersedes") is not None


def _ids(n: int) -> list[str]:
    return [f"00000000-0000-0000-0000-{k:012d}" for k in range(n)]


def _edge_doc(n_edges: int) -> dict[str, Any]:
    ids = _ids(12)
    rows = [{"id": i, "content": f"memory number {k} about topic {k * 7}",
             "created_at": f"2026-01-{k + 1:02d}T00:00:00Z"} for k, i in enumerate(ids)]
    pairs = [(a, b, t) for t in ("semantic", "causal", "entity") for a in ids for b in ids if a != b]
    return {"kind": "mnemon-export", "schema_version": "4", "provider": None, "insights": rows,
            "edges": [{"source_id": a, "target_id": b, "edge_type": t, "weight": 0.5,
                       "created_at": "2026-02-01T00:00:00.000000Z"} for a, b, t in pairs[:n_edges]]}


def test_edges_the_store_holds_are_looked_up_by_batch(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                      facade_backend: str) -> None:
    if facade_backend != "sqlite":
        pytest.skip("counts SQLite statements")
    small, large = make_mem(db=tmp_path / "small.db"), make_mem(db=tmp_path / "large.db")
    _restore(small, json.dumps(_edge_doc(180)))
    _restore(large, json.dumps(_edge_doc(360)))
    small_out, small_reads = _reads(small, _edge_doc(180))
    large_out, large_reads = _reads(large, _edge_doc(360))
    assert small_out["edges_skipped"] == 180 and large_out["edges_skipped"] == 360
    assert large_out["edges_inserted"] == 0
    # 180 more edges between the same 12 memories: a read per edge made it 180 more
    assert large_reads - small_reads <= 12, (small_reads, large_reads)


_EDGES = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(("semantic", "causal")),
                            st.sampled_from(EDGE_STATUSES), st.sampled_from((0.25, 0.5, 1.0))), max_size=20)


def test_merging_any_export_loses_nothing_and_doubles_nothing(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                              facade_backend: str) -> None:
    if facade_backend != "sqlite":
        pytest.skip("a fresh store per example: SQLite files (the tests above restore into PostgreSQL)")
    ids = _ids(6)
    rows = [{"id": i, "content": f"note {k} on the {('red', 'blue', 'green')[k % 3]} project",
             "created_at": f"2026-01-{k + 1:02d}T00:00:00Z"} for k, i in enumerate(ids)]
    stores = iter(range(10 ** 6))

    @settings(max_examples=25)
    @given(edges=_EDGES, held=st.sets(st.integers(0, 5)), held_edges=st.integers(0, 3), batch=st.integers(1, 4))
    def merge(edges: list[tuple[int, int, str, str, float]], held: set[int], held_edges: int, batch: int) -> None:
        file_edges = {(ids[a], ids[b], t): {"source_id": ids[a], "target_id": ids[b], "edge_type": t, "status": s,
                                            "weight": w, "created_at": "2026-02-01T00:00:00.000000Z"}
                      for a, b, t, s, w in edges if a != b}
        doc = {"kind": "mnemon-export", "schema_version": "4", "provider": None, "insights": rows,
               "edges": list(file_edges.values())}
        part = {**doc, "insights": [rows[k] for k in sorted(held)],
                "edges": [e for e in doc["edges"] if {e["source_id"], e["target_id"]} <= {ids[k] for k in held}]
                [::held_edges + 1]}
        run = next(stores)
        fresh, merged = make_mem("none", db=tmp_path / f"f{run}.db"), make_mem("none", db=tmp_path / f"m{run}.db")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(backup, "BATCH", batch)
            _restore(fresh, json.dumps(doc))
            if part["insights"]:
                _restore(merged, json.dumps(part))
            _restore(merged, json.dumps(doc))
            after = _state(merged)
            _restore(merged, json.dumps(doc))
        assert _state(merged) == after  # a further restore changes nothing
        want = _state(fresh)
        assert after["nodes"] == want["nodes"] and after["counts"] == want["counts"]
        assert {k: v[:-1] for k, v in after["edges"].items()} == {k: v[:-1] for k, v in want["edges"].items()}
        assert set(after["edges"]) == set(file_edges)

    merge()
