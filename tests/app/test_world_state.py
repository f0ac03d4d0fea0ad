"""State assertions through the store: the gate, cardinality, supersession, read-time validity, backfill, radar,
aliases, durability across vault rebuilds, the scoped forget, `state list --subject` matching and beliefs whose
resolved edge is demoted or killed."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.world import forget_world_scope, propose_assertion
from mnemon.core.errors import InvalidInput
from mnemon.core.model import Edge, Memory, iso

from conftest import FakeClock

from .conftest import WORLD_T0

T0 = WORLD_T0  # where the `world` fixture's clock starts


def claim(**over: Any) -> dict[str, Any]:
    base = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95,
            "certainty": "confirmed", "evidence": "lease signed (fictional)", "source_path": "mneme://r/ana"}
    return {**base, **over}


def current_objects(mem: Mnemon, predicate: str) -> list[str]:
    return sorted(a["object"] for a in mem.state_list(status="current", predicate=predicate)["assertions"])


@pytest.mark.parametrize("over, code", [
    ({"confidence": 0.85}, "low_confidence"),
    ({"certainty": "likely"}, "not_confirmed"),
    ({"evidence": ""}, "missing_evidence"),
    ({"source_type": "vault"}, "needs_validation"),
])
def test_gate_refuses_weak_claims_and_stores_nothing(world: tuple[Mnemon, FakeClock], over: dict[str, Any],
                                                      code: str) -> None:
    mem, _ = world
    out = propose_assertion(mem.rt, claim(**over))
    assert out["written"] is False and out["status"] == "refused"
    assert code in [r["code"] for r in out["gate"]["reasons"]]
    assert mem.state_list()["count"] == 0


def test_single_valued_predicate_supersedes_and_multi_valued_keeps_all(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    first = propose_assertion(mem.rt, claim())
    clock.advance(days=1)
    second = propose_assertion(mem.rt, claim(object="Porto", source_path="mneme://r/ana2"))
    assert second["superseded_ids"] == [first["id"]]
    assert current_objects(mem, "lives_in") == ["Porto"]
    for club in ("Chess Club", "Choir"):
        propose_assertion(mem.rt, claim(predicate="member_of", object=club, source_path=f"mneme://r/{club}"))
    assert current_objects(mem, "member_of") == ["Chess Club", "Choir"]  # Mneme would keep only one
    explained = mem.state_explain(second["id"])
    assert [c["object"] for c in explained["supersedes_chain"]] == ["Lisbon"]
    assert mem.contract_check()["ok"] is True


def test_backdated_claim_is_history_not_the_present(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    propose_assertion(mem.rt, claim(valid_from="2026-05-01"))
    old = propose_assertion(mem.rt, claim(object="Faro", valid_from="2025-01-01", source_path="mneme://r/old"))
    assert old["status"] == "superseded"
    assert current_objects(mem, "lives_in") == ["Lisbon"]


def test_replayed_claim_is_idempotent_and_retracted_claim_is_blocked(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    first = propose_assertion(mem.rt, claim())
    again = propose_assertion(mem.rt, claim())
    assert again["idempotent"] is True and mem.state_list()["count"] == 1
    mem.state_retract(first["id"], reason="never lived there")
    blocked = propose_assertion(mem.rt, claim())
    assert blocked["status"] == "blocked_recreation" and current_objects(mem, "lives_in") == []


def test_lapsed_at_read_time_without_mutating_the_row(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    out = propose_assertion(mem.rt, claim(predicate="status", object="awaiting reply", state_type="open_loop",
                                          valid_until="2026-06-03T00:00:00Z"))
    clock.advance(days=5)
    listed = mem.state_list()["assertions"][0]
    assert listed["status"] == "current" and listed["validity"] == "lapsed"
    assert listed["truth_policy"] == "lapsed_state_assertion"
    assert mem.state_list(status="current")["count"] == 0
    assert mem.state_list(status="current", as_of="2026-06-02T00:00:00Z")["count"] == 1
    tick = mem.world_tick(dry_run=True)
    assert [loop["id"] for loop in tick["lapsed_open_loops"]] == [out["id"]]
    assert mem.rt.store.world.get_assertion(out["id"])["status"] == "current"  # type: ignore[attr-defined]


def _entity(mem: Mnemon, node_id: str, name: str) -> None:
    now = iso(mem.rt.now())
    mem.rt.store.insert_node(Memory(id=node_id, kind="entity", title=name, content=name, created_at=now,
                                    updated_at=now))


def test_backfill_from_resolved_edges_dry_run_then_real(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    _entity(mem, "e-ana", "Ana")
    _entity(mem, "e-braga", "Braga")
    _entity(mem, "e-x", "Xavier")
    with mem.rt.store.transaction():
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-braga", type="lives_in", confidence=0.95,
                                      evidence="resolved: moved to Braga", origin="resolve",
                                      source_path="Sources/ana.md", metadata={"validated": True},
                                      created_at=iso(T0)))
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-x", type="knows", confidence=0.5, origin="resolve",
                                      evidence="maybe", source_path="Sources/ana.md", created_at=iso(T0)))
    dry = mem.state_backfill(dry_run=True)
    assert dry["scanned"] == 2 and dry["created_or_updated"] == 1 and len(dry["refused"]) == 1
    assert mem.state_list()["count"] == 0
    real = mem.state_backfill()
    assert real["created_or_updated"] == 1 and current_objects(mem, "lives_in") == ["Braga"]
    assert mem.state_backfill()["created_or_updated"] == 0  # idempotent


def test_backfill_finds_writebacks_by_origin_or_by_their_metadata_and_no_ingested_edge(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    for node_id, name in (("e-ana", "Ana"), ("e-braga", "Braga"), ("e-porto", "Porto"), ("e-lisbon", "Lisbon")):
        _entity(mem, node_id, name)
    with mem.rt.store.transaction():
        # a writeback restored from an older store: another origin, the resolution named in its metadata
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-braga", type="lives_in", confidence=0.95, origin="user",
                                      evidence="resolved: moved to Braga", source_path="Sources/ana.md",
                                      metadata={"source": "resolve"}, created_at=iso(T0)))
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-porto", type="works_in", confidence=0.95, origin="user",
                                      evidence="resolved: works in Porto", source_path="Sources/ana.md",
                                      metadata={"research_resolution": "ana"}, created_at=iso(T0)))
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-lisbon", type="visited", confidence=0.95, origin="ingest",
                                      evidence="Ana visited Lisbon", source_path="People/ana.md", created_at=iso(T0)))
    dry = mem.state_backfill(dry_run=True)
    assert dry["scanned"] == 2 and dry["created_or_updated"] == 2
    assert mem.state_list()["count"] == 0
    mem.state_backfill()
    assert current_objects(mem, "lives_in") == ["Braga"] and current_objects(mem, "works_in") == ["Porto"]
    assert current_objects(mem, "visited") == []


def test_radar_reports_exclusive_challengers_only(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    propose_assertion(mem.rt, claim(metadata={"conflict_policy": "exclusive"}))
    propose_assertion(mem.rt, claim(predicate="member_of", object="Choir", source_path="mneme://r/c"))
    for node_id, name in (("e-ana", "Ana"), ("e-porto", "Porto"), ("e-band", "Band")):
        _entity(mem, node_id, name)
    with mem.rt.store.transaction():
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-porto", type="lives_in", status="active",
                                      confidence=0.95, origin="user", evidence="said so", created_at=iso(T0)))
        mem.rt.store.upsert_edge(Edge(src="e-ana", dst="e-band", type="member_of", status="candidate",
                                      confidence=0.6, origin="ingest", evidence="joined?", created_at=iso(T0)))
    conflicts = mem.state_conflicts()["conflicts"]
    assert [(c["kind"], c["severity"], c["challenger"]["object"]) for c in conflicts] == [
        ("evidence_conflict", "high", "Porto")]
    assert current_objects(mem, "lives_in") == ["Lisbon"]  # reported, never overwritten


def test_alias_merge_dry_run_then_real_keeps_memberships_plural(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    propose_assertion(mem.rt, claim(subject="the landlord", predicate="member_of", object="Guild A",
                                    source_path="mneme://r/1"))
    clock.advance(hours=1)
    propose_assertion(mem.rt, claim(subject="St James", predicate="member_of", object="Guild B",
                                    source_path="mneme://r/2"))
    dry = mem.alias_merge("the landlord", "St James", dry_run=True)
    assert dry["assertions_rewritten"] == 1 and mem.alias_ls()["count"] == 0
    mem.alias_merge("the landlord", "St James")
    assert mem.alias_ls()["aliases"] == [{"alias": "the landlord", "canonical": "St James", "source": "manual",
                                          "confidence": 1.0}]
    rows = mem.state_list(status="current", subject="St James")["assertions"]
    assert sorted(r["object"] for r in rows) == ["Guild A", "Guild B"]
    later = propose_assertion(mem.rt, claim(subject="The Landlord", predicate="lives_in", object="Lisbon"))
    assert later["subject"] == "St James"  # aliases canonicalise future writes


def test_world_rows_survive_node_rebuilds_and_only_scoped_forget_deletes(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    kept = propose_assertion(mem.rt, claim(source_path="vault:notes/ana.md"))
    scoped = propose_assertion(mem.rt, claim(predicate="member_of", object="Choir",
                                             source_path="mneme://agent/session-1/claims"))
    pred = mem.predict_add({"title": "Choir rota email", "subject_assertion_id": scoped["id"],
                            "match_json": {"sense_type": "gws", "title_terms_any": ["rota"]},
                            "check_after": "2026-06-02", "expires_at": "2026-06-09"})
    _entity(mem, "e-ana", "Ana")
    with mem.rt.store.transaction():
        mem.rt.store.hard_delete(["e-ana"])  # what a vault rebuild does to derived rows
    assert mem.state_list()["count"] == 2
    with pytest.raises(InvalidInput):
        forget_world_scope(mem.rt, "vault:notes/ana.md")
    counts = forget_world_scope(mem.rt, "mneme://agent/session-1")
    assert counts["assertions"] == 1 and counts["predictions"] == 1
    assert [a["id"] for a in mem.state_list()["assertions"]] == [kept["id"]]
    assert mem.predict_due(before="30d")["count"] == 0 and pred["created"]


def test_forget_source_reports_world_rows_on_a_dry_run_and_removes_them_with_the_graph_rows_or_not_at_all(
        world: tuple[Mnemon, FakeClock], monkeypatch: pytest.MonkeyPatch) -> None:
    mem, _ = world
    scope = "mneme://agent/session-2"
    mem.remember_payload({"source_path": scope, "nodes": [{"ref": "c", "type": "group", "name": "Choir"}],
                          "observations": [{"node": "c", "kind": "fact", "text": "Ana sings in the choir"}]})
    scoped = propose_assertion(mem.rt, claim(predicate="member_of", object="Choir", source_path=f"{scope}/claims"))
    mem.predict_add({"title": "Choir rota email", "subject_assertion_id": scoped["id"],
                     "match_json": {"sense_type": "gws", "title_terms_any": ["rota"]},
                     "check_after": "2026-06-02", "expires_at": "2026-06-09"})
    dry = mem.forget_source(scope, dry_run=True)
    assert dry["world_removed"]["assertions"] == 1 and dry["world_removed"]["predictions"] == 1
    assert mem.state_list()["count"] == 1  # a dry run deletes nothing

    from mnemon.ports.store.world_sqlite import SQLiteWorld

    def broken(*_args: Any, **_kw: Any) -> dict[str, int]:
        raise OSError("disk full")
    with monkeypatch.context() as patch:
        patch.setattr(SQLiteWorld, "forget_scope", broken)
        with pytest.raises(OSError):
            mem.forget_source(scope)
    assert mem.state_list()["count"] == 1  # the world rows stayed, and so did the graph rows
    assert any(n.source == scope for n in mem.rt.store.iter_nodes(kind="memory"))

    done = mem.forget_source(scope)
    assert done["world_removed"] == done["world_model_removed"] == {**dry["world_removed"]}
    assert mem.state_list()["count"] == 0
    assert not any(n.source == scope for n in mem.rt.store.iter_nodes(kind="memory"))


def test_state_list_subject_matches_any_part_of_the_subject_ignoring_case(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    propose_assertion(mem.rt, claim(subject="Example Child", source_path="mneme://r/child"))
    propose_assertion(mem.rt, claim(subject="Net_Zero Board", source_path="mneme://r/board"))

    def subjects(text: str) -> list[str]:
        return [a["subject_name"] for a in mem.state_list(subject=text)["assertions"]]
    assert subjects("Example") == subjects("child") == subjects("  example   CHILD ") == ["Example Child"]
    assert subjects("t_z") == ["Net_Zero Board"]
    assert subjects("e_c") == subjects("%") == []  # the user's `_` and `%` are characters, not LIKE wildcards


RESOLUTION = {"slug": "school-clubs", "title": "School clubs resolved", "date": "2026-04-26",
              "claims": [{"subject": "Example Child", "subject_type": "person", "predicate": "attends_activity",
                          "object": "Handwriting Club", "object_type": "activity", "confidence": 0.94,
                          "certainty": "confirmed", "source_type": "payment",
                          "evidence": "Payment receipt and school brochure confirm the club timing (fictional)."}]}
PROMPT = "Which activity does Example Child attend?"


def test_a_belief_whose_resolved_edge_is_demoted_or_killed_is_not_read_as_current(
        world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, clock = world
    vault = tmp_path / "vault"
    vault.mkdir()
    [edge] = mem.resolve(str(vault), RESOLUTION)["edges"]
    aid = edge["assertion_id"]
    assert edge["status"] == "active" and aid
    assert [i["id"] for i in mem.agent_preflight(PROMPT)["context"]["items"] if i["id"] == aid] == [aid]

    clock.advance(days=1)
    [replayed] = mem.resolve(str(vault), RESOLUTION, active_threshold=0.95)["edges"]
    assert replayed["status"] == "candidate"
    assert mem.state_list(status="current")["count"] == 0
    row = mem.state_list()["assertions"][0]
    assert (row["status"], row["validity"], row["truth_policy"], row["source_edge_status"]) == (
        "current", "unbacked", "unbacked_state_assertion", "candidate")  # the stored row is untouched
    assert mem.state_list(status="unbacked")["count"] == 1
    assert mem.state_list(status="current", as_of=iso(T0 + timedelta(hours=1)))["count"] == 1  # as it was then
    hints = mem.state_explain(aid)["hints"]
    assert (hints["source_edge_alive"], hints["source_edge_status"]) == (False, "candidate")
    report = mem.contract_check()
    assert report["ok"] is True and report["status"] == "warn"
    assert [(w["rule"], w["id"]) for w in report["warnings"]] == [("unbacked_current_assertion", aid)]
    pre = mem.agent_preflight(PROMPT)
    assert pre["world"]["current_assertions"] == []
    assert [a["id"] for a in pre["world"]["unbacked_assertions"]] == [aid]
    assert not [i for i in pre["context"]["items"] if i["id"] == aid]
    assert not [i for i in mem.retrieve(PROMPT)["items"] if i["id"] == aid]
    assert any("no longer active" in w for w in pre["warnings"])

    mem.validate_edge(edge["id"], reason="checked the receipt")  # the edge backs it again: so does the state
    assert [a["id"] for a in mem.state_list(status="current")["assertions"]] == [aid]
    assert mem.contract_check()["status"] == "pass"

    mem.kill_edge(edge["id"], reason="wrong child")  # a killed source edge is handled the same way
    killed = mem.state_list()["assertions"][0]
    assert (killed["validity"], killed["source_edge_status"]) == ("unbacked", "killed")
    assert mem.state_explain(aid)["hints"]["source_edge_alive"] is False
    assert [w["rule"] for w in mem.contract_check()["warnings"]] == ["unbacked_current_assertion"]
