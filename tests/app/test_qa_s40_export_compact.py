"""An export's edges leave out every field equal to the value a restore reads in its absence, and nothing changes.

A 50k-memory store exported to ≈ 900 MB of JSON, most of it edges spelling out `"sub_type":""`, `"weight":1.0`,
`"confidence":1.0`, `"status":"active"`, `"evidence":""`, `"source_path":""`, `"metadata":{}` on each of ≈ 22 edges
a memory. Those fields are now left out (the edges of a 1,000-memory store: 28 % smaller), with the defaults every
reader of schema "4" already applies, so the file stays schema "4": an export written before (every field spelled
out) and one written now restore into the same store, exactly, on both backends.

A source store is a SQLite file (`db=`); the stores restored into are of the test's backend (SQLite, PostgreSQL).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.backup_export import edge_json
from mnemon.app.backup_rows import parse_edge
from mnemon.app.memory import Mnemon, open_store
from mnemon.core.model import EDGE_STATUSES, Edge

from conftest import FakeClock

# what a restore reads for an edge field the row leaves out (`backup_rows.parse_edge`, schema "1" to "4")
READ_WHEN_ABSENT = {"sub_type": "", "weight": 1.0, "confidence": 1.0, "status": "active", "origin": "import",
                    "evidence": "", "rule": "", "source_path": "", "metadata": {}}
# the order today's writer spelled every field in
FULL_ORDER = ("source_id", "target_id", "edge_type", "sub_type", "weight", "confidence", "status", "origin",
              "evidence", "rule", "source_path", "metadata", "created_at")
PAYLOAD = {"source_path": "mneme://agent", "nodes": [{"ref": "mira", "name": "Mira"},
                                                     {"ref": "lis", "name": "Lisbon", "summary": "a city"}],
           "edges": [{"src": "mira", "dst": "lis", "relation": "lives_in", "status": "active", "validated": True,
                      "evidence": "she said so"},
                     {"src": "lis", "dst": "mira", "relation": "relates_to", "status": "killed"}],
           "observations": [{"node": "mira", "text": "Mira lives in Lisbon"}]}


def _source(make_mem: Callable[..., Mnemon], tmp_path: Path) -> Mnemon:
    """A store with edges of every writer: a day's memories (temporal, entity, semantic, causal), a payload scope
    (evidence, source path, a validated claim and a killed one), a link of a person's with its own weight and
    metadata, and a world assertion."""
    clock = FakeClock()
    src = make_mem("hash", db=tmp_path / "src.db", clock=clock)
    ids = []
    for i, text in enumerate(["Mira moved the battery supplier meeting to Friday",
                              "the battery supplier invoice is late because the meeting moved",
                              "Tom reviewed the Kubernetes deploy with Mira",
                              "Lisbon office budget review with Tom and Mira"]):
        ids.append(src.remember(text, entities=["Mira", "Tom"][: 1 + i % 2])["id"])
        clock.advance(hours=3)
    src.remember_payload(json.dumps(PAYLOAD))
    src.link(ids[0], ids[3], "semantic", sub_type="person", weight=0.3, meta={"why": "same review"})
    src.state_assert(json.dumps({"subject": "Mira", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.9,
                                 "certainty": "confirmed", "source_path": "mneme://r/mira"}))
    return src


def _spelled_out(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as the export written before this change had it: every edge field spelled out."""
    def full(row: dict[str, Any]) -> dict[str, Any]:
        filled = {**READ_WHEN_ABSENT, **row}
        return {**{k: filled[k] for k in FULL_ORDER}, **{k: v for k, v in row.items() if k not in FULL_ORDER}}

    return {**doc, "edges": [full(e) for e in doc["edges"]], "vault_edges": [full(e) for e in doc["vault_edges"]]}


def _edges(m: Mnemon) -> list[tuple[Any, ...]]:
    """Every edge as stored, each value exactly (no rounding), with its decisions' events."""
    store = m.rt.store
    out = []
    for e in store.iter_edges(statuses=("active", "candidate", "killed", "retired")):
        events = [(ev["event"], ev["actor"], ev["detail"], ev["created_at"])
                  for ev in store.edge_events(int(e.id or 0)) if ev["event"] in ("killed", "validated", "weakened")]
        out.append((e.src, e.dst, e.type, e.sub_type, repr(e.weight), repr(e.confidence), e.status, e.origin,
                    e.evidence, e.rule, e.source_path, json.dumps(e.metadata, sort_keys=True), e.created_at,
                    e.updated_at, json.dumps(events, sort_keys=True)))
    return sorted(out)


def _nodes(m: Mnemon) -> dict[str, Any]:
    return {n.id: n.to_dict() | {"inserted_at": n.inserted_at, "deleted_at": n.deleted_at}
            for n in m.rt.store.iter_nodes(kind=None, include_deleted=True)}


def _without_time(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "exported_at"}


@pytest.fixture
def second_target(make_mem: Callable[..., Mnemon], facade_backend: str, request: pytest.FixtureRequest,
                  tmp_path: Path) -> Iterator[Callable[[], Mnemon]]:
    """Another empty store of the test's backend (`make_mem()` opens one PostgreSQL schema per test)."""
    opened: list[Any] = []

    def factory() -> Mnemon:
        if facade_backend == "sqlite":
            return make_mem("hash", db=tmp_path / "second.db")
        spare = open_store(request.getfixturevalue("pg_url"))
        spare.reset_for_tests()  # type: ignore[attr-defined]
        opened.append(spare)
        return make_mem("hash", db=spare.path)

    yield factory
    for spare in opened:
        spare.close()


def test_an_export_leaves_out_the_edge_fields_a_restore_reads_anyway(make_mem: Callable[..., Mnemon],
                                                                     tmp_path: Path) -> None:
    doc = _source(make_mem, tmp_path).export_json()
    assert doc["schema_version"] == "4"  # every reader of "4" reads the file as written
    assert doc["edges"]
    for row in doc["edges"] + doc["vault_edges"]:
        spelled = {k: v for k, v in row.items() if k in READ_WHEN_ABSENT and v == READ_WHEN_ABSENT[k]}
        assert not spelled, row
    # what is not a default is there: the link's own weight, sub type and metadata, the payload's evidence
    assert any(e.get("weight") == 0.3 and e.get("sub_type") == "person"
               and e.get("metadata", {}).get("why") == "same review" for e in doc["edges"])
    assert any(e.get("evidence") == "she said so" and e.get("source_path") == "mneme://agent" for e in doc["edges"])


def test_an_export_written_before_and_one_written_now_restore_the_same_store(
        make_mem: Callable[..., Mnemon], second_target: Callable[[], Mnemon], tmp_path: Path) -> None:
    src = _source(make_mem, tmp_path)
    now = src.export_json()
    before = _spelled_out(now)
    assert json.dumps(now) != json.dumps(before)  # (the test compares two different files)
    old, new = make_mem(), second_target()
    for target, doc in ((old, before), (new, now)):
        out = target.import_json(json.dumps(doc))
        assert (out["errors"], out["edge_errors"], out["edges_dangling"]) == (0, 0, 0)
    assert _nodes(new) == _nodes(old)
    assert _edges(new) == _edges(old)
    # export → import → export: the restored store writes the file it was restored from
    again_old, again_new = old.export_json(), new.export_json()
    assert _without_time(again_new) == _without_time(again_old) == _without_time(now)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8)


@settings(max_examples=300, deadline=None)
@given(sub_type=st.sampled_from(["", "proximity", "backbone"]) | _TEXT,
       weight=st.sampled_from([0.0, 1.0, 0.5]) | st.floats(0, 1), confidence=st.floats(0, 1) | st.just(1.0),
       status=st.sampled_from(EDGE_STATUSES), origin=st.sampled_from(["import", "auto", "user", ""]) | _TEXT,
       evidence=_TEXT, rule=_TEXT, source_path=st.sampled_from(["", "mneme://x"]),
       metadata=st.dictionaries(_TEXT, st.integers() | _TEXT, max_size=2),
       updated=st.sampled_from(["", "2026-03-01T12:00:00.000000Z", "2026-03-02T00:00:00.000000Z"]))
def test_every_edge_reads_back_as_it_was_written(sub_type: str, weight: float, confidence: float, status: str,
                                                 origin: str, evidence: str, rule: str, source_path: str,
                                                 metadata: dict[str, Any], updated: str) -> None:
    edge = Edge("a", "b", "semantic", sub_type, weight, confidence, status, evidence, origin, rule, source_path,
                metadata, created_at="2026-03-01T12:00:00.000000Z", updated_at=updated)
    back = parse_edge(json.loads(edge_json(edge)), 0, "2030-01-01T00:00:00.000000Z")
    assert back == Edge(**{**{f: getattr(edge, f) for f in edge.__slots__},  # type: ignore[attr-defined]
                           "updated_at": updated or edge.created_at})
    assert repr(back.weight) == repr(weight) and repr(back.confidence) == repr(confidence)


def test_decisions_waiting_for_their_notes_wait_once_whichever_form_brought_them(
        make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    """A vault's decisions restored before the notes are ingested wait for them, each once however often a backup
    brings it (`restored_decisions`). The same decision in the spelled-out form of an export written before and in
    today's waited twice, was written twice into the next export, and counted twice on each restore of that."""
    from .test_restore_edge_history import _decide

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "A.md").write_text("# A\nSee [[B]] and [[C]] #topic\n- Risk: the vendor may slip\n", encoding="utf-8")
    (vault / "B.md").write_text("# B\nx\n", encoding="utf-8")
    (vault / "C.md").write_text("# C\ny\n", encoding="utf-8")
    src = make_mem("hash", db=tmp_path / "src.db")
    _decide(src, vault)
    now = src.export_json()
    waiting = len(now["vault_edges"])
    assert waiting >= 3
    dst = make_mem()
    assert dst.import_json(json.dumps(_spelled_out(now)))["decisions_waiting_for_ingest"] == waiting
    dst.import_json(json.dumps(now))
    assert len(dst.export_json()["vault_edges"]) == waiting
