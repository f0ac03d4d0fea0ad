"""Restoring a `mnemon export`: whatever export writes comes back exactly (payload scopes, long vault-like texts),
a restore into a live store replaces nothing, forgotten memories are reported and revived on request, vectors are
embedded again when the file has none usable, and hostile rows are refused by their index.

A source store is a SQLite file (`db=`); the store restored into is `make_mem()`, so each restore runs once per
backend (SQLite, PostgreSQL)."""
from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

PAYLOAD = {"source_path": "mneme://agent", "nodes": [{"ref": "mira", "name": "Mira"},
                                                     {"ref": "lis", "name": "Lisbon", "summary": "a city"}],
           "edges": [{"src": "mira", "dst": "lis", "relation": "lives_in", "status": "active", "validated": True,
                      "evidence": "she said so"},
                     {"src": "lis", "dst": "mira", "relation": "relates_to", "status": "killed"}],
           "observations": [{"node": "mira", "text": "Mira lives in Lisbon"}]}


def _all_nodes(m: Mnemon) -> dict[str, dict[str, Any]]:
    return {n.id: n.to_dict() | {"inserted_at": n.inserted_at} for n in m.rt.store.iter_nodes(kind=None)}


def _all_edges(m: Mnemon) -> set[tuple[Any, ...]]:
    return {(e.src, e.dst, e.type, e.sub_type, round(e.weight, 6), round(e.confidence, 6), e.status, e.origin,
             e.evidence, e.rule, e.source_path, json.dumps(e.metadata, sort_keys=True), e.created_at)
            for e in m.rt.store.iter_edges(statuses=("active", "candidate", "killed"))}


def _export(doc_rows: list[dict[str, Any]], edges: list[dict[str, Any]] | None = None,
            provider: str | None = None) -> dict[str, Any]:
    return {"kind": "mnemon-export", "schema_version": "2", "provider": provider, "insights": doc_rows,
            "edges": edges or []}


def _vector(values: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


# ── F5: payload scopes and F2: rows `remember` would refuse ───────────────────
def test_a_payload_scope_comes_back_exactly(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    src = make_mem(db=tmp_path / "src.db")
    src.remember_payload(json.dumps(PAYLOAD))
    src.remember("an ordinary memory about Lisbon trips")
    doc = src.export_json()
    assert doc["schema_version"] == "4"
    assert {i.get("kind", "memory") for i in doc["insights"]} == {"memory", "entity"}
    dst = make_mem()
    out = dst.import_json(json.dumps(doc))
    assert (out["imported"], out["errors"], out["edge_errors"]) == (len(doc["insights"]), 0, 0)
    assert _all_nodes(dst) == _all_nodes(src)  # the observation keeps its title and metadata too
    assert _all_edges(dst) == _all_edges(src)  # source paths and the killed tombstone included
    before, after = src.status(), dst.status()
    assert after["nodes_by_kind"] == before["nodes_by_kind"] == {"entity": 2, "memory": 2}
    assert after["edges_by_type"] == before["edges_by_type"]
    # the restored scope is a scope again: it goes as a unit
    assert dst.forget_source("mneme://agent")["removed"] == src.forget_source("mneme://agent")["removed"]


def test_a_backup_holding_rows_remember_would_refuse_restores(make_mem: Callable[..., Mnemon],
                                                              tmp_path: Path) -> None:
    src = make_mem(db=tmp_path / "src.db")
    scope = "mneme://agent/" + "s" * 250  # longer than remember's 200-character source
    src.remember_payload(json.dumps({"source_path": scope, "nodes": [{"ref": "n"}], "observations": [
        {"node": "n", "text": "a long observation " + "word " * 3000}]}))  # 15,000+ characters
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "big.md").write_text("# Big\n\n## Section\n\n" + "word " * 1700 + "\n", encoding="utf-8")
    src.ingest(str(vault))
    src.remember("an ordinary memory I care about")
    doc = src.export_json()
    assert max(len(i["content"]) for i in doc["insights"]) > 8000
    dst = make_mem()
    out = dst.import_json(json.dumps(doc))
    assert out["errors"] == 0 and out["imported"] == len(doc["insights"])
    assert {i: n for i, n in _all_nodes(dst).items()} == {i: n for i, n in _all_nodes(src).items()
                                                          if i in {r["id"] for r in doc["insights"]}}


def test_an_export_of_schema_1_still_restores(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    old = {"kind": "mnemon-export", "schema_version": "1", "provider": None, "insights": [
        {"id": "m1", "content": "Billing runs on Postgres", "category": "fact", "importance": 4, "tags": ["db"],
         "entities": ["Postgres"], "source": "user", "access_count": 2, "effective_importance": 0.7,
         "created_at": "2025-01-01T00:00:00.000000Z", "updated_at": "2025-01-01T00:00:00.000000Z",
         "last_accessed_at": None, "inserted_at": "2025-01-02T00:00:00.000000Z"},
        {"id": "m2", "content": "Invoices go out monthly", "created_at": "2025-01-03T00:00:00Z"}],
        "edges": [{"source_id": "m1", "target_id": "m2", "edge_type": "causal", "sub_type": "enables",
                   "weight": 0.4, "created_at": "2025-01-03T00:00:00Z"}]}
    dst = make_mem()
    out = dst.import_json(json.dumps(old))
    assert (out["imported"], out["edges_inserted"], out["errors"]) == (2, 1, 0)
    node = dst.rt.store.get_node("m1")
    assert node is not None and node.access_count == 2 and node.entities == ("Postgres",)
    assert dst.rt.store.find_edge("m1", "m2", "causal").sub_type == "enables"  # type: ignore[union-attr]
    with pytest.raises(InvalidInput, match="schema_version '5'"):  # a file of a later mnemon
        dst.import_json(json.dumps({**old, "schema_version": "5"}))
    with pytest.raises(InvalidInput, match="schema_version '2'"):  # a draft is schema 1 only
        dst.import_json(json.dumps({"schema_version": "2", "insights": [{"content": "x"}]}))


def test_bad_rows_are_reported_by_their_index_and_the_rest_restored(make_mem: Callable[..., Mnemon]) -> None:
    rows = [{"id": "ok1", "content": "a good memory"},
            {"id": "x", "content": "a", "access_count": "many"},
            {"id": "  ", "content": "blank id"},
            {"id": "a\u0000b", "content": "nul id"},
            {"id": 42, "content": "numeric id"},
            5,
            {"id": "n1", "kind": "note", "content": "a vault note row", "source": "vault:x.md"},
            {"id": "e1", "kind": "entity", "content": "", "source": "user"},
            {"id": "x2", "content": "bad \ud800 text"},
            {"id": "x3", "content": "x", "created_at": "not a date"},
            {"id": "x4", "content": "x", "effective_importance": float("inf")},
            {"id": "ok2", "content": "another good one", "kind": "entity", "source": "mneme://s"}]
    dst = make_mem()
    out = dst.import_json(json.dumps(_export(rows)))
    errors = {r["index"]: r["error"] for r in out["results"] if r["action"] == "error"}
    assert sorted(errors) == list(range(1, 11)) and out["errors"] == 10 and out["imported"] == 2
    for idx, error in errors.items():
        assert error["code"] == "invalid_input" and error["message"].startswith(f"export insight {idx}: ")
        assert error["details"]["index"] == idx
    assert set(_all_nodes(dst)) == {"ok1", "ok2"}


# ── F3: nothing stored is replaced ────────────────────────────────────────────
def test_restoring_into_a_live_store_keeps_later_edge_edits_and_kills(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem()
    a = mem.remember("We use Postgres for billing")["id"]
    b = mem.remember("Billing invoices go out monthly")["id"]
    mem.link(a, b, "causal", sub_type="enables", weight=0.3)
    backup = json.dumps(mem.export_json())
    mem.link(a, b, "causal", sub_type="prevents", weight=0.9, meta='{"note": "corrected"}')
    temporal = next(e for e in mem.rt.store.edges_of([a], direction="both") if e.type == "temporal")
    mem.kill_edge(temporal.id, reason="wrong")
    before = _all_edges(mem)
    out = mem.import_json(backup)
    assert (out["imported"], out["skipped"], out["edges_inserted"]) == (0, 2, 0)
    assert out["edges_skipped"] == len(json.loads(backup)["edges"]) > 0
    assert _all_edges(mem) == before
    assert mem.rt.store.get_edge(int(temporal.id or 0)).status == "killed"  # type: ignore[union-attr]
    causal = mem.rt.store.find_edge(a, b, "causal")
    assert causal is not None and (causal.sub_type, causal.weight) == ("prevents", 0.9)
    assert {r["reason"] for r in out["results"]} == {"exists"}


# ── F4: forgotten memories ────────────────────────────────────────────────────
def test_a_forgotten_memory_is_reported_and_revived_on_request(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem()
    a = mem.remember("The on-call rotation starts on Mondays")["id"]
    b = mem.remember("The rotation hands over at noon")["id"]
    mem.link(a, b, "causal", sub_type="causes", weight=0.6)
    edges_before, node_before = _all_edges(mem), mem.rt.store.get_node(a)
    backup = json.dumps(mem.export_json())
    mem.forget(a)

    out = mem.import_json(backup)
    entry = next(r for r in out["results"] if r["id"] == a)
    assert (entry["action"], entry["reason"]) == ("skipped", "forgotten") and "--revive-forgotten" in entry["hint"]
    assert mem.rt.store.get_node(a) is None

    planned = mem.import_json(backup, dry_run=True, revive_forgotten=True)
    assert planned["would_revive"] == 1 and planned["edges_planned"] > 0 and mem.rt.store.get_node(a) is None

    out = mem.import_json(backup, revive_forgotten=True)
    entry = next(r for r in out["results"] if r["id"] == a)
    assert entry["action"] == "revived" and out["revived"] == 1 and out["imported"] == 0
    revived = mem.rt.store.get_node(a)
    assert revived is not None and revived.content == node_before.content  # type: ignore[union-attr]
    assert revived.created_at == node_before.created_at  # type: ignore[union-attr]
    assert out["edges_revived"] > 0 and _all_edges(mem) == edges_before  # its edges are back as they were
    assert mem.rt.store.count_active() == 2
    assert mem.rt.store.vector_coverage(mem.rt.provider.identity()) == (2, 2)  # its own vector, not a new one
    assert out["embedded"] == 0
    assert [r["id"] for r in mem.search("rotation Mondays")["results"]][:1] == [a]  # keyword index
    assert a in {r["insight"]["id"] for r in mem.recall("when does the on-call rotation start")["results"]}
    assert mem.show(a)["id"] == a
    assert mem.rt.store.oplog(5, op="revive")[0].node_id == a
    again = mem.import_json(backup, revive_forgotten=True)
    assert again["revived"] == 0 and {r["reason"] for r in again["results"]} == {"exists"}


def test_a_vault_store_restores_without_errors_and_a_forgotten_vault_row_is_left_to_its_note(
        example_vault_mem: Mnemon, make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = example_vault_mem
    doc = mem.export_json()
    fresh = make_mem(db=tmp_path / "fresh.db").import_json(json.dumps(doc))
    assert (fresh["errors"], fresh["edge_errors"], fresh["imported"]) == (0, 0, len(doc["insights"]))
    row = next(n for n in mem.rt.store.iter_nodes() if n.source.startswith("vault:"))
    mem.forget(row.id)
    out = mem.import_json(json.dumps(doc), revive_forgotten=True)
    entry = next(r for r in out["results"] if r["id"] == row.id)
    assert (entry["action"], entry["reason"]) == ("skipped", "forgotten") and "ingest" in entry["hint"]
    assert out["revived"] == 0 and mem.rt.store.get_node(row.id) is None


def test_revive_forgotten_is_refused_for_a_draft(mem: Mnemon) -> None:
    with pytest.raises(InvalidInput, match="revive-forgotten"):
        mem.import_json({"insights": [{"content": "x"}]}, revive_forgotten=True)
    assert mem.rt.store.count_active() == 0


# ── F8: vectors that are missing or from another provider ────────────────────
def test_a_restore_without_usable_vectors_embeds_what_it_restored(make_mem: Callable[..., Mnemon],
                                                                  tmp_path: Path) -> None:
    src = make_mem(db=tmp_path / "src.db")
    for text in ("Billing runs on Postgres", "The cat is called Tom", "Lunch is at noon"):
        src.remember(text)
    bare = src.export_json(include_vectors=False)
    assert bare["provider"] is None and not any("vector" in i for i in bare["insights"])
    dst = make_mem()
    out = dst.import_json(json.dumps(bare))
    assert out["imported"] == 3 and out["embedded"] == 3 and "warnings" not in out
    assert dst.rt.store.vector_coverage(dst.rt.provider.identity()) == (3, 3)
    # vectors of another provider are not this store's: embedded anew, the same way
    other = src.export_json()
    other["provider"] = "other:some-model:256"
    dst2 = make_mem(db=tmp_path / "dst2.db")
    assert dst2.import_json(json.dumps(other))["embedded"] == 3
    assert dst2.rt.store.vector_coverage(dst2.rt.provider.identity()) == (3, 3)


def test_a_restore_with_embedding_off_says_how_to_finish(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    src = make_mem(db=tmp_path / "src.db")
    src.remember("Billing runs on Postgres")
    dst = make_mem("none")
    out = dst.import_json(json.dumps(src.export_json(include_vectors=False)))
    assert out["imported"] == 1 and out["embedded"] == 0
    assert any("mnemon embed --all" in w for w in out["warnings"])


# ── F14: vectors recall cannot use ────────────────────────────────────────────
def test_vectors_of_the_wrong_width_or_not_finite_are_refused_by_index(mem: Mnemon) -> None:
    mem.remember("alpha memory about cats")
    identity = mem.rt.provider.identity()
    width = int(identity.rsplit(":", 1)[1])
    rows = [{"id": "v0", "content": "vec thing about cats", "vector": "AAAAAAAAAAA="},  # 2 floats
            {"id": "v1", "content": "nan thing about cats", "vector": _vector([float("nan")] * width)},
            {"id": "v2", "content": "inf thing about cats", "vector": _vector([float("inf")] + [0.0] * (width - 1))},
            {"id": "v3", "content": "good thing about cats", "vector": _vector([1.0] + [0.0] * (width - 1))}]
    out = mem.import_json(json.dumps(_export(rows, provider=identity)))
    errors = {r["index"]: r["error"]["message"] for r in out["results"] if r["action"] == "error"}
    assert sorted(errors) == [0, 1, 2] and out["imported"] == 1
    assert errors[0] == f"export insight 0: vector has 2 values; the export's provider makes {width}"
    assert "NaN or infinite" in errors[1] and "NaN or infinite" in errors[2]
    result = mem.recall("cats")  # the store is usable: no vector matrix of mixed widths, no NaN score
    assert json.loads(json.dumps(result, allow_nan=False))["results"]
    assert mem.remember("a new memory after the restore")["action"] == "added"


# ── F20: hostile edges ────────────────────────────────────────────────────────
def test_hostile_edges_are_refused_by_their_index(mem: Mnemon) -> None:
    a = mem.remember("We use Postgres for billing")["id"]
    rows = [{"id": "n1", "content": "a restored memory"}]
    edges = [{"source_id": "  ", "target_id": a, "edge_type": "semantic"},
             {"source_id": "n1", "target_id": a, "edge_type": "bogus"},
             {"source_id": "a\u0000b", "target_id": a, "edge_type": "semantic"},
             {"source_id": "n1", "target_id": a, "edge_type": "semantic", "created_at": "not a date"},
             {"source_id": "n1", "target_id": a, "edge_type": "semantic", "weight": 7},
             {"source_id": "n1", "target_id": a, "edge_type": "causal", "created_at": "2025-01-01T00:00:00+02:00"},
             {"source_id": a, "target_id": "n1", "edge_type": "lives_in", "source_path": "mneme://agent"},
             {"source_id": "n1", "target_id": "nowhere", "edge_type": "semantic"}]
    out = mem.import_json(json.dumps(_export(rows, edges)))
    errors = {r["index"]: r["error"]["message"] for r in out["edge_results"]}
    assert sorted(errors) == [0, 1, 2, 3, 4] and out["edge_errors"] == 5
    assert all(m.startswith(f"export edge {k}: ") for k, m in errors.items())
    assert (out["edges_inserted"], out["edges_dangling"]) == (2, 1)
    assert "bogus" not in mem.status()["edges_by_type"]
    causal = mem.rt.store.find_edge("n1", a, "causal")
    assert causal is not None and causal.created_at == "2024-12-31T22:00:00.000000Z"  # parsed like an insight's


# ── the CLI ───────────────────────────────────────────────────────────────────
def test_the_cli_revives_forgotten_memories_and_documents_no_vectors(
        cli_run: Callable[..., tuple[int, Any]], cli_raw: Callable[..., tuple[int, str, str]], tmp_path: Path) -> None:
    db, backup = tmp_path / "a.db", tmp_path / "backup.json"
    code, made = cli_run(["--db", db, "remember", "The on-call rotation starts on Mondays"])
    assert code == 0
    assert cli_run(["--db", db, "export", "--out", backup])[0] == 0
    assert cli_run(["--db", db, "forget", made["id"]])[0] == 0
    code, out = cli_run(["--db", db, "import", backup])
    assert code == 0 and out["results"][0]["reason"] == "forgotten"
    code, out = cli_run(["--db", db, "import", backup, "--revive-forgotten"])
    assert code == 0 and out["revived"] == 1
    assert cli_run(["--db", db, "show", made["id"]])[0] == 0
    code, help_text, _ = cli_raw(["export", "--help"])
    assert code == 0 and "import re-embeds" not in help_text and "embed --all" in " ".join(help_text.split())


# ── decisions about a vault's edges ──────────────────────────────────────────
def _decide(m: Mnemon) -> dict[str, int]:
    """Kill a link and an observation edge (a derived one: negative id) and validate another link, as a person."""
    edges = {(e.src, e.dst, e.type): int(e.id or 0) for e in m.rt.store.iter_edges(statuses=("candidate", "active"))}
    ada, bram, cleo = "note:People/ada-quill.md", "note:People/bram-okafor.md", "note:People/cleo-marsh.md"
    link = edges[(ada, bram, "links_to")]
    blocked = next(i for (s, d, t), i in edges.items() if s == ada and t == "has_blocked")
    other = next(i for (s, d, t), i in edges.items() if s == cleo and t == "links_to")
    m.kill_edge(link, reason="not a real tie")
    m.kill_edge(blocked, reason="not an open loop any more")
    assert m.validate_edge(other)["validated"]
    return {"link": link, "blocked": blocked, "validated": other}


def _status(m: Mnemon, decided: Mnemon, edge_id: int) -> tuple[str, bool]:
    """The status (and validation) in `m` of the edge that has `edge_id` in `decided`, found by its ends."""
    (e,) = decided.rt.store.get_edges([edge_id])
    now = m.rt.store.find_edge(e.src, e.dst, e.type)
    assert now is not None
    return now.status, bool(now.metadata.get("validated"))


def test_a_restore_brings_back_the_kills_and_validations_of_vault_edges(make_mem: Callable[..., Mnemon],
                                                                       example_vault: Path, tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    src.ingest(str(example_vault))
    decided = _decide(src)
    doc = src.export_json()
    assert doc["schema_version"] == "4" and len(doc["vault_edges"]) == 3
    dst = make_mem("hash", db=tmp_path / "b.db")
    out = dst.import_json(json.dumps(doc))
    assert (out["decisions_restored"], out["decisions_waiting_for_ingest"]) == (0, 3)  # no notes yet
    assert dst.ingest(str(example_vault))["decisions_restored"] == 3
    assert _status(dst, src, decided["link"]) == ("killed", False)
    assert _status(dst, src, decided["blocked"]) == ("killed", False)
    assert _status(dst, src, decided["validated"]) == ("active", True)
    texts = [c["observation"]["text"] for c in dst.candidates(limit=20)["candidates"]]
    assert not any(t.startswith("Waiting on") and "Bram" in t for t in texts)  # the killed open loop stays gone
    # decisions are applied once: a second ingest has none left
    (example_vault / "People" / "ada-quill.md").write_text(
        (example_vault / "People" / "ada-quill.md").read_text(encoding="utf-8") + "\n- one more line\n",
        encoding="utf-8")
    assert "decisions_restored" not in dst.ingest(str(example_vault))
    assert _status(dst, src, decided["link"]) == ("killed", False)


def test_restoring_into_a_store_with_the_vault_applies_decisions_at_once_but_keeps_its_own(
        make_mem: Callable[..., Mnemon], example_vault: Path, tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    src.ingest(str(example_vault))
    decided = _decide(src)
    doc = src.export_json()
    dst = make_mem("hash", db=tmp_path / "b.db")
    dst.ingest(str(example_vault))
    (e,) = src.rt.store.get_edges([decided["validated"]])
    own = dst.rt.store.find_edge(e.src, e.dst, e.type)
    assert own is not None
    dst.kill_edge(int(own.id or 0), reason="this store's own decision")
    out = dst.import_json(json.dumps(doc))
    assert (out["decisions_restored"], out["decisions_waiting_for_ingest"]) == (2, 0)
    assert _status(dst, src, decided["link"]) == ("killed", False)
    assert _status(dst, src, decided["validated"]) == ("killed", False)  # its own kill stays: not validated back


def test_a_revived_memory_gets_the_prune_grace_period_again(make_mem: Callable[..., Mnemon]) -> None:
    """Brought back on purpose, it was the first to go at the next write over the cap: its grace period counted
    from when it was first stored."""
    from datetime import timedelta

    from conftest import FakeClock

    clock = FakeClock()
    mem = make_mem(max_insights=2, prune_min_age="1h", clock=clock)
    kept = mem.remember("The on-call rotation starts on Mondays", importance=2)["id"]
    backup = mem.export_json()
    mem.forget(kept)
    clock.now += timedelta(hours=2)
    older = mem.remember("The cat is called Tom", importance=2)["id"]
    clock.now += timedelta(hours=2)
    assert mem.import_json(json.dumps(backup), revive_forgotten=True)["revived"] == 1
    clock.now += timedelta(minutes=10)
    out = mem.remember("Lunch is at noon", importance=2)
    assert kept not in out["auto_pruned_ids"] and mem.rt.store.get_node(kept) is not None
    assert out["auto_pruned_ids"] == [older]
