"""QA round (session 38): `forget --undo ID [ID ...]` brings back what `forget ID` or auto-prune removed.

Before it, nothing did: `show ID` said the memory was removed and by what, and the only way back was an export made
before the removal (`import FILE --revive-forgotten`). The row, its vector and its retired edges never left the
database. These run once per backend (SQLite, and PostgreSQL under the `postgres` marker: tests/conftest.py)."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import Conflict, InvalidInput, MnemonError, NotFound


def _edge_states(m: Mnemon, node_id: str) -> dict[int, str]:
    shown = m.show(node_id)
    return {int(e["id"]): e["status"] for e in shown["edges"]}


def test_a_forgotten_memory_comes_back_with_its_edges_and_is_recalled(mem: Mnemon) -> None:
    a = mem.remember("Chose Qdrant as the vector database for Acme", entities=["Qdrant", "Acme"])["id"]
    b = mem.remember("Acme's Qdrant cluster runs in eu-west-1", entities=["Qdrant", "Acme"])["id"]
    before = _edge_states(mem, b)
    assert before and set(before.values()) == {"active"}
    assert [r["insight"]["id"] for r in mem.recall("eu-west-1")["results"]] == [b]  # (the graph cache is warm)
    assert mem.forget(b)["edges_retired"] == len(before)
    assert mem.recall("eu-west-1")["results"] == []

    out = mem.undo_forget([b])
    assert out["status"] == "revived" and [r["id"] for r in out["revived"]] == [b]
    assert out["revived"][0]["removed_by"] == "forget"
    assert sorted(out["revived"][0]["edges_revived"]) == sorted(before)
    assert {e["id"] for e in out["edges_revived"]} == set(before)
    assert _edge_states(mem, b) == before  # every edge as it was, and the memory reads as live
    # keyword, vector and graph: found again at once, in the same process (no stale cache)
    hits = mem.recall("eu-west-1", verbose=True)["results"]
    assert [r["insight"]["id"] for r in hits] == [b]
    assert hits[0]["signals"]["keyword"] > 0 and hits[0]["signals"]["similarity"] > 0, hits
    assert [r["id"] for r in mem.search("eu-west-1")["results"]][:1] == [b]
    assert a in {r["id"] for r in mem.related(b)["related"]}
    entry = mem.log(limit=5, op="revive")["entries"][0]
    assert entry["insight_id"] == b and entry["detail"]["by"] == "forget --undo"
    assert entry["detail"]["removed_by"] == "forget" and sorted(entry["detail"]["edges_revived"]) == sorted(before)


def test_an_auto_pruned_memory_comes_back_and_the_cap_is_named(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem(max_insights=1, prune_min_age="0")
    first = m.remember("the first memory about lanterns", importance=1)["id"]
    assert m.remember("the second memory about kettles", importance=2)["auto_pruned_ids"] == [first]
    out = m.undo_forget([first])
    assert out["revived"][0]["removed_by"] == "prune"
    assert m.show(first)["id"] == first
    assert any("cap of 1" in w and "gc --keep" in w for w in out["warnings"]), out


def test_only_the_edges_the_removal_retired_come_back(mem: Mnemon) -> None:
    """An edge killed before the forget stays killed; a weakened one (a candidate) comes back a candidate, not
    promoted; an edge a person killed while the memory was gone stays killed."""
    a = mem.remember("Lena leads the Orion launch", entities=["Lena", "Orion"])["id"]
    b = mem.remember("Orion ships in May with Lena as owner", entities=["Lena", "Orion"])["id"]
    c = mem.remember("Orion's budget is Lena's call", entities=["Lena", "Orion"])["id"]
    entity = {frozenset((e["source_id"], e["target_id"])): e["id"] for e in mem.show(b)["edges"]
              if e["edge_type"] == "entity"}
    entity_ab, entity_bc = entity[frozenset((a, b))], entity[frozenset((b, c))]
    mem.kill_edge(entity_ab, reason="not related")
    mem.weaken_edge(entity_bc, factor=0.01)
    assert _edge_states(mem, b)[entity_bc] == "candidate"
    mem.forget(b)
    out = mem.undo_forget([b])
    states = {e["id"]: e["status"] for e in out["edges_revived"]}
    assert entity_ab not in states and states[entity_bc] == "candidate"
    assert mem.explain_edge(entity_ab)["edge"]["status"] == "killed"
    assert mem.explain_edge(entity_bc)["edge"]["status"] == "candidate"


def test_an_edge_to_a_memory_still_forgotten_waits_for_it(mem: Mnemon) -> None:
    a = mem.remember("the kiln fires at 1200 degrees", entities=["Kiln"])["id"]
    b = mem.remember("the kiln needs new shelves", entities=["Kiln"])["id"]
    mem.forget(a)
    mem.forget(b)
    first = mem.undo_forget([a])
    assert first["edges_revived"] == [] and {e["id"] for e in first["edges_waiting"]}
    assert all(e["waiting_for"] == [b] for e in first["edges_waiting"])
    second = mem.undo_forget([b])
    assert {e["id"] for e in second["edges_revived"]} == {e["id"] for e in first["edges_waiting"]}
    assert set(_edge_states(mem, a).values()) == {"active"}


def test_the_chain_rejoined_around_a_forgotten_memory_is_split_again(mem: Mnemon) -> None:
    ids = [mem.remember(f"step {n} of the migration runbook: {w}")["id"]
           for n, w in enumerate(("freeze writes", "copy tables", "switch traffic"))]
    mem.forget(ids[1])
    joined = {e["target_id"] for e in mem.show(ids[0])["edges"]
              if e["edge_type"] == "temporal" and e["sub_type"] == "backbone"}
    assert ids[2] in joined  # forget joined its neighbours
    out = mem.undo_forget([ids[1]])
    assert out["revived"][0]["backbone_resplit"] > 0
    steps = {e["target_id"] for e in mem.show(ids[0])["edges"]
             if e["edge_type"] == "temporal" and e["sub_type"] == "backbone" and e["source_id"] == ids[0]}
    assert steps == {ids[1]}


def test_a_dry_run_says_what_it_would_do_and_changes_nothing(mem: Mnemon) -> None:
    b = mem.remember("the harbour opens at six")["id"]
    mem.forget(b)
    log_before = mem.log(limit=50)["entries"]
    out = mem.undo_forget([b], dry_run=True)
    assert out["status"] == "would_revive" and out["dry_run"] is True and out["revived"][0]["id"] == b
    with pytest.raises(NotFound):
        mem.show(b)
    assert mem.log(limit=50)["entries"] == log_before


@pytest.mark.parametrize("case", ["active", "unknown", "duplicate"])
def test_an_id_that_cannot_come_back_is_refused_and_nothing_is_half_done(mem: Mnemon, case: str) -> None:
    good = mem.remember("the ferry leaves at nine")["id"]
    mem.forget(good)
    bad = mem.remember("the pier is closed on Sundays")["id"]
    want: type[MnemonError] = Conflict
    if case == "unknown":
        bad, want = "no-such-memory", NotFound
    elif case == "duplicate":
        mem.forget(bad)
        again = mem.remember("the pier is closed on Sundays")
        assert again["action"] == "added"
    with pytest.raises(want) as err:
        mem.undo_forget([good, bad])
    refused = err.value.details["refused"]
    reason = {"active": "active", "unknown": "unknown", "duplicate": "duplicate"}[case]
    assert [(r["id"], r["reason"]) for r in refused] == [(bad, reason)] and "nothing was revived" in err.value.message
    if case == "duplicate":
        assert refused[0]["existing_id"] == again["id"]
    with pytest.raises(NotFound):  # all or nothing: the good one stays forgotten
        mem.show(good)
    assert mem.log(limit=5, op="revive")["entries"] == []


def test_a_payload_row_is_refused_with_the_way_back_and_a_vault_row_waits_for_its_note(
        make_mem: Callable[..., Mnemon], example_vault: Any) -> None:
    m = make_mem()
    out = m.remember_payload(json.dumps({"source_path": "mneme://qa/ferry", "nodes": [
        {"ref": "f", "type": "task", "name": "Ferry"}], "observations": [
        {"node": "f", "kind": "fact", "text": "The ferry leaves at nine.", "score": 1}]}))
    obs = out["observations"][0]["id"]
    m.forget_source("mneme://qa/ferry")
    with pytest.raises(InvalidInput) as err:
        m.undo_forget([obs])
    assert err.value.details["reason"] == "payload" and "payload" in err.value.message
    m.ingest(str(example_vault))
    vault_id = _a_vault_memory(m)
    m.forget(vault_id)
    out = m.undo_forget([vault_id])  # (session 41: its note is read again by the next ingest, which brings it back)
    assert out["status"] == "pending_ingest" and "ingest" in out["message"]


def _a_vault_memory(m: Mnemon) -> str:
    hits = [r["insight"]["id"] for r in m.recall("supplier battery", limit=20)["results"]]
    return next(i for i in hits if i.startswith("vault:"))


@pytest.mark.parametrize("ids", [[], [""], ["  "], "abc"])
def test_no_ids_or_blank_ids_are_invalid_input(mem: Mnemon, ids: Any) -> None:
    with pytest.raises(InvalidInput):
        mem.undo_forget(ids)


def test_recall_after_the_undo_is_recall_before_the_forget(mem: Mnemon) -> None:
    """Keyword, entity, vector and graph signals alike, in the same process: a stale recall graph would leave the
    revived memory's edges out (the graph signal of a memory reached through it stayed 0)."""
    mem.remember("Chose Qdrant as the vector database for Acme", entities=["Qdrant", "Acme"])
    b = mem.remember("the cluster runs in eu-west-1", entities=["Qdrant", "Acme"])["id"]
    mem.remember("why did Acme pick a managed cluster? cost", entities=["Acme"])
    queries = ("Qdrant", "why Acme cluster", "what did Acme choose")

    def seen() -> list[list[tuple[str, dict[str, float]]]]:
        return [[(r["insight"]["id"], r["signals"]) for r in mem.recall(q, verbose=True)["results"]] for q in queries]
    before = seen()
    assert any(sig["graph"] > 0 and i != b for rows in before for i, sig in rows)
    mem.forget(b)
    assert seen() != before
    mem.undo_forget([b])
    assert seen() == before
