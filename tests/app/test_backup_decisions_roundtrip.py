"""A backup carries every decision about a vault's edges through any number of export → import hops: a weakened
edge keeps its strength, a restored store exported before its next ingest still carries the decisions waiting for
it, and an assertion `resolve` made points, after the restore, at its own edge in the new store (edge ids are not
kept by a restore) — never at an unrelated one.

The store restored into is `make_mem()`, so each test runs once per backend (SQLite, PostgreSQL); the other stores
are SQLite files."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

A, B = "note:A.md", "note:B.md"
MIRA, VENDOR = "note:People/Mira.md", "note:Vendor.md"
RESOLUTION = {"slug": "pilot", "title": "Pilot resolved", "date": "2026-04-26",
              "claims": [{"subject": "Mira", "predicate": "belongs_to", "object": "Vendor", "confidence": 0.94,
                          "strength": 0.93, "certainty": "confirmed", "source_type": "contract",
                          "evidence": "Signed contract."}]}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "People").mkdir(parents=True)
    (root / "A.md").write_text("# A\nSee [[B]] #t\n- Risk: appeal deadline 2026-01-01\n", encoding="utf-8")
    (root / "B.md").write_text("# B\nx\n", encoding="utf-8")
    (root / "People" / "Mira.md").write_text("# Mira\nMira works here.\n", encoding="utf-8")
    (root / "Vendor.md").write_text("# Vendor\nThe vendor.\n", encoding="utf-8")
    for i in range(1, 7):  # edges enough that an edge id of one store names another edge in the next
        (root / f"Note{i}.md").write_text(f"# Note {i}\nSee [[Mira]] and [[Vendor]] #tag{i}\n"
                                          f"- Risk: deadline 2026-0{i}-01\n", encoding="utf-8")
    return root


def _edge(m: Mnemon, src: str, relation: str) -> Any:
    (edge,) = [e for e in m.rt.store.iter_edges(statuses=("active", "candidate", "killed"))
               if e.src == src and e.type == relation]
    return edge


def _decide(m: Mnemon) -> None:
    """As a person: validate A's link, kill its tag, weaken its risk far enough to demote it."""
    m.validate_edge(int(_edge(m, A, "links_to").id))
    m.kill_edge(int(_edge(m, A, "has_tag").id), reason="not a topic")
    assert m.weaken_edge(int(_edge(m, A, "has_risk").id), factor=0.05)["strength"] == pytest.approx(0.05)


def _decisions(m: Mnemon) -> dict[str, tuple[str, float, bool]]:
    return {rel: (e.status, round(e.weight, 6), bool(e.metadata.get("validated")))
            for rel in ("links_to", "has_tag", "has_risk") for e in [_edge(m, A, rel)]}


def _hop(src: Mnemon, dst: Mnemon) -> dict[str, Any]:
    doc = src.export_json()
    dst.import_json(json.dumps(doc))
    return doc


def test_a_weakened_vault_edge_comes_back_with_its_strength(make_mem: Callable[..., Mnemon], vault: Path,
                                                            tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    src.ingest(str(vault))
    _decide(src)
    decided = _decisions(src)
    assert decided["has_risk"] == ("candidate", 0.05, False)
    doc = src.export_json()
    assert sorted(e["edge_type"] for e in doc["vault_edges"]) == ["has_risk", "has_tag", "links_to"]
    dst = make_mem()
    dst.import_json(json.dumps(doc))
    assert dst.ingest(str(vault))["decisions_restored"] == 3
    assert _decisions(dst) == decided
    # the note read again keeps the restored strength, as it keeps one weakened in this store
    (vault / "A.md").write_text((vault / "A.md").read_text(encoding="utf-8") + "more\n", encoding="utf-8")
    dst.ingest(str(vault))
    assert _decisions(dst) == decided


def test_a_restored_store_exported_before_its_ingest_carries_the_waiting_decisions(
        make_mem: Callable[..., Mnemon], vault: Path, tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    src.ingest(str(vault))
    _decide(src)
    decided = _decisions(src)
    first = src.export_json()
    mid = make_mem()
    mid.import_json(json.dumps(first))
    mid.import_json(json.dumps(first))  # the same backup twice: each decision still waits once
    second = _hop(mid, last := make_mem("hash", db=tmp_path / "c.db"))
    assert sorted(second["vault_edges"], key=json.dumps) == sorted(first["vault_edges"], key=json.dumps)
    assert last.ingest(str(vault))["decisions_restored"] == 3
    assert _decisions(last) == decided
    # once the ingest applied them, an export carries each decision once: from the store, none still waiting
    assert mid.ingest(str(vault))["decisions_restored"] == 3
    third = mid.export_json()
    assert sorted(e["edge_type"] for e in third["vault_edges"]) == ["has_risk", "has_tag", "links_to"]


def _assertion(m: Mnemon) -> dict[str, Any]:
    (row,) = m.state_list()["assertions"]
    return dict(row)


def _resolved_store(m: Mnemon, vault: Path) -> dict[str, Any]:
    m.ingest(str(vault))
    m.resolve(str(vault), RESOLUTION)
    row = _assertion(m)
    (edge,) = m.rt.store.get_edges([int(row["source_edge_id"])])
    assert (edge.src, edge.dst, edge.type, row["source_edge_status"]) == (MIRA, VENDOR, "belongs_to", "active")
    return row


def _points_at_its_edge(m: Mnemon) -> None:
    row = _assertion(m)
    edge = m.rt.store.find_edge(MIRA, VENDOR, "belongs_to")
    assert edge is not None and row["source_edge_id"] == str(edge.id) and row["source_edge_status"] == "active"
    assert m.contract_check()["status"] == "pass"


@pytest.mark.parametrize("into", ["this backend", "sqlite"])
def test_a_resolved_assertion_points_at_its_own_edge_after_a_restore(
        make_mem: Callable[..., Mnemon], vault: Path, tmp_path: Path, into: str) -> None:
    # from a SQLite file into this test's backend, and from this backend into a SQLite file
    src = make_mem("hash", db=tmp_path / "a.db") if into == "this backend" else make_mem()
    _resolved_store(src, vault)
    dst = make_mem() if into == "this backend" else make_mem("hash", db=tmp_path / "b.db")
    doc = _hop(src, dst)
    (exported,) = doc["world_assertions"]
    assert exported["source_edge"] == {"source_id": MIRA, "target_id": VENDOR, "edge_type": "belongs_to"}
    # its edge waits for the notes' ingest: until then the row names no edge, not the source store's number
    assert _assertion(dst)["source_edge_id"] is None
    # a backup of the restored store still says which edge it waits for
    again = make_mem("hash", db=tmp_path / "c.db")
    assert _hop(dst, again)["world_assertions"][0]["source_edge"] == exported["source_edge"]
    for store in (dst, again):
        store.ingest(str(vault))
        _points_at_its_edge(store)


def test_a_restore_into_a_store_holding_the_edge_points_at_it_at_once(
        make_mem: Callable[..., Mnemon], vault: Path, tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    _resolved_store(src, vault)
    doc = src.export_json()
    dst = make_mem()
    for i in range(7, 30):  # this store numbers its edges differently from the source store
        (vault / f"Extra{i}.md").write_text(f"# Extra {i}\n#x{i} [[B]]\n", encoding="utf-8")
    dst.ingest(str(vault))
    dst.import_json(json.dumps(doc))
    _points_at_its_edge(dst)


PAYLOAD = {"source_path": "mneme://agent/decided", "nodes": [{"ref": "a"}, {"ref": "b"}],
           "edges": [{"src": "a", "dst": "b", "relation": "relates_to", "confidence": 0.8, "evidence": "seen"},
                     {"src": "b", "dst": "a", "relation": "relates_to", "confidence": 0.8, "evidence": "seen"}]}


def _decided_edges(m: Mnemon) -> list[tuple[str, str, str, float]]:
    return sorted((e.type, e.src, e.status, round(e.weight, 6))
                  for e in m.rt.store.iter_edges(statuses=("active", "candidate"))
                  if e.origin in ("resolve", "scoped"))


def test_weakenings_and_validations_of_claims_and_payload_edges_survive_a_restore(
        make_mem: Callable[..., Mnemon], vault: Path, tmp_path: Path) -> None:
    """They live in the edges' event logs, which an export did not carry: restored, the edge read as undecided, and
    the next re-send of the payload or ingest of the evidence pack put its own values back."""
    src = make_mem("hash", db=tmp_path / "a.db")
    src.ingest(str(vault))
    [claim] = src.resolve(str(vault), RESOLUTION)["edges"]
    weakened, validated = src.remember_payload(PAYLOAD)["edges"]
    src.weaken_edge(claim["id"], factor=0.5)
    src.weaken_edge(weakened["id"], factor=0.5)
    src.validate_edge(validated["id"], reason="I checked")
    decided = _decided_edges(src)
    doc = src.export_json()
    assert sorted(e.get("decision") for e in [*doc["edges"], *doc["vault_edges"]] if e.get("decision")) == [
        "validated", "weakened", "weakened"]
    dst = make_mem()
    dst.import_json(json.dumps(doc))
    dst.ingest(str(vault))  # replays the evidence pack's claim
    again = dst.remember_payload(PAYLOAD)
    assert sorted(e["reasons"][0] for e in again["edges"]) == ["person_decision_kept:validated",
                                                               "person_decision_kept:weakened"]
    assert _decided_edges(dst) == decided
    # a second hop carries them on
    third = make_mem("hash", db=tmp_path / "c.db")
    _hop(dst, third)
    third.ingest(str(vault))
    third.remember_payload(PAYLOAD)
    assert _decided_edges(third) == decided


def test_a_bad_decision_on_an_exported_edge_is_that_row_s_error(make_mem: Callable[..., Mnemon],
                                                                tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    [edge, _other] = src.remember_payload(PAYLOAD)["edges"]
    src.weaken_edge(edge["id"])
    doc = src.export_json()
    [row] = [e for e in doc["edges"] if e.get("decision")]
    row["decision"] = ["weakened"]
    out = make_mem().import_json(json.dumps(doc))
    assert [r["index"] for r in out["edge_results"] if r["action"] == "error"] == [doc["edges"].index(row)]
    assert out["edges_inserted"] == 1


def test_a_restored_decision_keeps_its_edge_s_creation_and_decision_times(make_mem: Callable[..., Mnemon],
                                                                          vault: Path, tmp_path: Path) -> None:
    """The kill, validation or weakening of a vault edge happened when it happened, after the edge was made: a
    restore applied to the edge a later ingest re-creates must not date the decision before the edge's creation."""
    src = make_mem("hash", db=tmp_path / "a.db")
    src.ingest(str(vault))
    _decide(src)
    times = {rel: (e.created_at, e.updated_at)
             for rel in ("links_to", "has_tag", "has_risk") for e in [_edge(src, A, rel)]}
    assert all(created < updated for created, updated in times.values())
    dst = make_mem()
    dst.import_json(json.dumps(src.export_json()))
    assert dst.ingest(str(vault))["decisions_restored"] == 3
    assert {rel: (e.created_at, e.updated_at) for rel in times for e in [_edge(dst, A, rel)]} == times
