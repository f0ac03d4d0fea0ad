"""`remember` as a user sees it (seed §5.1): validation, exact-repeat skip, advisory diff, the four graphs,
effective importance, auto-prune, atomicity, and the invariant that nothing disappears without an oplog row."""
from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput, MnemonError, ReadOnly
from mnemon.core.importance import effective_importance
from mnemon.core.model import iso

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)

SEED_FIELDS = {"id", "action", "diff_suggestion", "edges_created", "semantic_candidates", "causal_candidates",
               "embedded", "effective_importance", "auto_pruned", "auto_pruned_ids"}
ADDED_FIELDS = SEED_FIELDS | {"diff_matches"}  # the seed's reply, and the memories its diff is about


def _node_rows(m: Mnemon) -> int:
    return int(m.rt.store.conn.execute("SELECT COUNT(*) FROM nodes").fetchone()[0])  # type: ignore[attr-defined]


# ── output shape and validation ──────────────────────────────────────────────
def test_added_output_has_exactly_the_seed_fields_and_the_diff_matches(mem: Mnemon) -> None:
    out = mem.remember("Chose Qdrant as the vector database", category="decision", importance=5,
                       entities="Qdrant,Milvus")
    assert set(out) - {"warnings"} == ADDED_FIELDS and out["diff_matches"] == []
    assert out["action"] == "added" and out["diff_suggestion"] == "ADD" and out["embedded"] is True
    assert set(out["edges_created"]) == {"temporal", "entity", "causal", "semantic"}
    shown = mem.show(out["id"])
    assert shown["entities"][:2] == ["Qdrant", "Milvus"] and shown["category"] == "decision"


@pytest.mark.parametrize("kwargs, fragment", [
    ({"category": "opinion"}, "category"),
    ({"importance": 0}, "importance"),
    ({"importance": 6}, "importance"),
    ({"importance": "high"}, "importance"),
    ({"importance": True}, "importance"),
    ({"tags": ",".join(f"t{i}" for i in range(21))}, "tags"),
    ({"tags": ["x" * 101]}, "tag"),
    ({"entities": ",".join(f"E{i}" for i in range(51))}, "entities"),
    ({"entities": 7}, "list"),
    ({"source": ""}, "source"),
    ({"entity_mode": "magic"}, "entity mode"),
    ({"created_at": "yesterday"}, "created_at"),
])
def test_each_validation_rule_is_an_invalid_input_error(mem: Mnemon, kwargs: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        mem.remember("a valid memory", **kwargs)
    assert fragment in caught.value.message
    assert mem.rt.store.count_active() == 0


@pytest.mark.parametrize("content", ["", "   \n", None, 42, "x" * 8001, "nul\x00byte", "bad \ud800 surrogate"])
def test_bad_content_is_refused(mem: Mnemon, content: Any) -> None:
    with pytest.raises(InvalidInput):
        mem.remember(content)


def test_limits_are_inclusive_and_counted_in_characters(mem: Mnemon) -> None:
    assert mem.remember("x" * 8000)["action"] == "added"
    assert mem.remember("记" * 8000)["action"] == "added"  # 24,000 bytes, 8,000 characters
    assert mem.remember("twenty tags", tags=[f"t{i}" for i in range(20)])["action"] == "added"
    assert mem.remember("fifty entities", entities=[f"E{i}" for i in range(50)], entity_mode="provided")["action"] \
        == "added"


# ── timestamps at the calendar's edges ───────────────────────────────────────
@pytest.mark.parametrize("created_at", ["0001-01-01T00:00:00Z", "0001-12-31T23:59:59Z", "0002-01-01T00:30:00+01:00",
                                        "9999-12-31T12:00:00Z", "9999-01-01T00:00:00Z", "9998-12-31T23:30:00-01:00"])
def test_a_time_at_the_calendars_edge_is_invalid_input(mem: Mnemon, created_at: str) -> None:
    # windows around a memory's time (±24 h proximity, a named period's slack) would leave datetime's range
    with pytest.raises(InvalidInput) as caught:
        mem.remember("ancient or far-future thing", created_at=created_at)
    assert "created_at" in caught.value.message and "0002" in caught.value.message
    assert mem.rt.store.count_active() == 0


def test_the_earliest_and_latest_accepted_times_can_be_written_and_recalled(make_mem: Any, clock: Any) -> None:
    mem = make_mem("hash", clock=clock)
    early = mem.remember("billing ledger opened", created_at="0002-01-01T00:00:00Z")
    clock.now = datetime(9998, 12, 31, tzinfo=timezone.utc)  # a later date than the clock is refused
    late = mem.remember("billing ledger closed", created_at="9998-12-31T23:59:59Z")
    assert early["action"] == late["action"] == "added"
    for query in ("billing ledger", "billing ledger before June", "billing ledger since March",
                  "billing ledger on 9 February 2023"):
        found = {r["insight"]["id"] for r in mem.recall(query, limit=5)["results"]}
        assert found == {early["id"], late["id"]}, query


def test_the_cli_refuses_an_edge_time_as_invalid_input(cli_run: Callable[..., tuple[int, Any]]) -> None:
    for created_at in ("0001-01-01T00:00:00Z", "9999-12-31T12:00:00Z"):
        code, out = cli_run(["remember", "far away thing", "--created-at", created_at])
        assert code != 0 and out["ok"] is False and out["error"]["code"] == "invalid_input", out


def test_a_draft_import_reports_an_edge_time_per_item_and_keeps_the_rest(mem: Mnemon) -> None:
    out = mem.import_json([{"content": "good one"}, {"content": "bad one", "created_at": "9999-12-31T12:00:00Z"},
                           {"content": "old one", "created_at": "0001-01-01T00:00:00Z"}])
    assert (out["imported"], out["errors"]) == (1, 2)
    assert [r["action"] for r in out["results"]] == ["added", "error", "error"]
    assert {r["error"]["code"] for r in out["results"][1:]} == {"invalid_input"}
    assert [n.content for n in mem.rt.store.iter_nodes()] == ["good one"]


# ── exact repeats and the advisory diff ──────────────────────────────────────
def test_byte_identical_repeat_is_skipped_and_changes_nothing(mem: Mnemon) -> None:
    first = mem.remember("We deploy on Tuesdays", tags="ops")
    before = mem.show(first["id"])
    edges_before = mem.rt.store.stats()["edge_count"]
    again = mem.remember("We deploy on Tuesdays", category="fact", importance=5)
    assert again["action"] == "skipped" and again["diff_suggestion"] == "DUPLICATE"
    assert again["existing_id"] == again["replaced_id"] == again["id"] == first["id"]
    assert again["edges_created"] == {"temporal": 0, "entity": 0, "causal": 0, "semantic": 0}
    assert mem.rt.store.count_active() == 1 and mem.rt.store.stats()["edge_count"] == edges_before
    after = mem.show(first["id"])
    assert (after["category"], after["importance"], after["tags"]) == (before["category"], before["importance"],
                                                                      before["tags"])


def test_exact_lookup_does_not_depend_on_the_candidate_limit(mem: Mnemon) -> None:
    target = "deploy pipeline note number zero about the staging cluster"
    first = mem.remember(target)
    for i in range(1, 40):  # many closer keyword matches crowd the diff's top-5
        mem.remember(f"deploy pipeline note number {i} about the staging cluster staging cluster deploy")
    again = mem.remember(target)
    assert again["action"] == "skipped" and again["existing_id"] == first["id"]


def test_only_byte_identical_is_skipped(mem: Mnemon) -> None:
    mem.remember("The cache TTL is 300 seconds")
    for variant in ("The cache TTL is 300 seconds ", "the cache TTL is 300 seconds", "The cache TTL is 300 seconds."):
        out = mem.remember(variant)
        assert out["action"] == "added", variant
        assert out["diff_suggestion"] in ("DUPLICATE", "UPDATE")
    assert mem.rt.store.count_active() == 4


def test_conflicting_restatement_is_added_with_a_conflict_suggestion(mem_none: Mnemon) -> None:
    mem_none.remember("The team uses Redis for the session cache in production")
    out = mem_none.remember("The team no longer uses Redis for the session cache in production")
    assert out["action"] == "added" and out["diff_suggestion"] == "CONFLICT"
    assert mem_none.rt.store.count_active() == 2  # advisory only: nothing replaced


def test_the_diff_names_the_memories_its_verdict_is_about(mem: Mnemon) -> None:
    old = mem.remember("We use Postgres for the billing service")
    assert old["diff_matches"] == []
    dup = mem.remember("We use Postgres for the billing service.")
    assert dup["diff_suggestion"] == "DUPLICATE"
    assert dup["diff_matches"] == [{"id": old["id"], "similarity": 1.0, "suggestion": "DUPLICATE"}]
    new = mem.remember("We no longer use Postgres for the billing service")
    assert new["diff_suggestion"] == "CONFLICT"
    assert {m["id"] for m in new["diff_matches"]} == {old["id"], dup["id"]}
    for m in new["diff_matches"]:
        assert m["suggestion"] == "CONFLICT" and 0.7 <= m["similarity"] <= 1.0
    # what the reply is for: the agent links the correction to what it corrects
    mem.link(new["id"], old["id"], "supersedes")
    assert mem.remember("The office cat is called Tom")["diff_matches"] == []


def test_diff_matches_list_only_the_memories_the_verdict_counts(mem_none: Mnemon) -> None:
    close = mem_none.remember("The cache TTL is 300 seconds in production")
    far = mem_none.remember("The cache lives in Redis")
    out = mem_none.remember("The cache TTL is 600 seconds in production")
    assert out["diff_suggestion"] == "UPDATE"
    matched = {m["id"]: m for m in out["diff_matches"]}
    assert close["id"] in matched and matched[close["id"]]["suggestion"] == "UPDATE"
    assert far["id"] not in matched  # compared, but an ADD: not what the verdict is about
    sims = [m["similarity"] for m in out["diff_matches"]]
    assert sims == sorted(sims, reverse=True)
    assert mem_none.remember("The cache TTL is 900 seconds in production", no_diff=True)["diff_matches"] == []


def test_a_skipped_repeat_names_the_existing_memory_and_what_it_did_not_apply(mem: Mnemon) -> None:
    first = mem.remember("Deploys are frozen on Fridays", importance=1, entities="Deploys")
    again = mem.remember("Deploys are frozen on Fridays", category="decision", importance=5, tags="policy",
                         source="team-lead", entities="Deploys,Release Train",
                         created_at="2025-01-02T03:04:05Z")
    assert again["action"] == "skipped" and again["existing_id"] == first["id"]
    assert again["diff_matches"] == [{"id": first["id"], "similarity": 1.0, "suggestion": "DUPLICATE"}]
    assert again["ignored"] == {"category": "decision", "importance": 5, "tags": ["policy"], "source": "team-lead",
                                "entities": ["Release Train"], "created_at": "2025-01-02T03:04:05.000000Z"}
    assert f"mnemon forget {first['id']}" in again["hint"]
    shown = mem.show(first["id"])
    assert (shown["category"], shown["importance"], shown["tags"], shown["source"]) == ("general", 1, [], "user")
    # the way the hint names works: the memory comes back with the values
    mem.forget(first["id"])
    redone = mem.remember("Deploys are frozen on Fridays", category="decision", importance=5, tags="policy",
                          source="team-lead", created_at=shown["created_at"])
    assert redone["action"] == "added"
    assert mem.show(redone["id"])["importance"] == 5 and mem.show(redone["id"])["created_at"] == shown["created_at"]


def test_a_repeat_with_the_same_values_ignores_nothing(mem: Mnemon) -> None:
    kw: dict[str, Any] = {"category": "decision", "importance": 4, "tags": "ops,policy", "source": "agent",
                          "entities": "Kubernetes", "created_at": "2025-05-01T10:00:00+02:00"}
    first = mem.remember("We run everything on Kubernetes", **kw)
    again = mem.remember("We run everything on Kubernetes", **{**kw, "tags": "policy",
                                                               "created_at": "2025-05-01T08:00:00Z"})
    assert again["action"] == "skipped" and again["existing_id"] == first["id"]
    assert again["ignored"] == {} and "hint" not in again
    # entities given in mode auto are never stored, so a repeat did not drop them
    assert mem.remember("We run everything on Kubernetes", entity_mode="auto", entities="Nomad",
                        **{k: v for k, v in kw.items() if k != "entities"})["ignored"] == {}


def test_repeat_of_a_forgotten_memory_is_added_again(mem: Mnemon) -> None:
    first = mem.remember("temporary fact")
    mem.forget(first["id"])
    again = mem.remember("temporary fact")
    assert again["action"] == "added" and again["id"] != first["id"]


def test_no_diff_inserts_even_exact_repeats(mem: Mnemon) -> None:
    a = mem.remember("same words", no_diff=True)
    b = mem.remember("same words", no_diff=True)
    assert a["id"] != b["id"] and b["action"] == "added" and b["diff_suggestion"] == "ADD"
    assert mem.rt.store.count_active() == 2


# ── the four graphs ──────────────────────────────────────────────────────────
def test_temporal_backbone_links_same_source_only(mem: Mnemon) -> None:
    a = mem.remember("first note from the agent", source="agent")
    mem.remember("unrelated user note", source="user")
    b = mem.remember("second note from the agent", source="agent")
    backbone = [e for e in mem.show(b["id"])["edges"] if e["sub_type"] == "backbone"]
    assert {(e["source_id"], e["target_id"]) for e in backbone} == {(a["id"], b["id"]), (b["id"], a["id"])}


def test_proximity_edges_within_24_hours_of_the_memorys_own_time(mem: Mnemon) -> None:
    a = mem.remember("alpha event", created_at="2025-05-01T10:00:00Z", source="s1")
    far = mem.remember("far event", created_at="2025-05-03T10:00:00Z", source="s2")
    b = mem.remember("beta event", created_at="2025-05-01T13:00:00Z", source="s3")
    prox = {e["target_id"]: e for e in mem.show(b["id"])["edges"]
            if e["sub_type"] == "proximity" and e["source_id"] == b["id"]}
    assert set(prox) == {a["id"]} and far["id"] not in prox
    assert prox[a["id"]]["weight"] == pytest.approx(1 / (1 + 3), abs=1e-6)


def test_shared_entities_link_memories(mem: Mnemon) -> None:
    a = mem.remember("We run everything on Kubernetes now")
    b = mem.remember("Kubernetes upgrades happen monthly", source="other")
    assert b["edges_created"]["entity"] == 1
    related = mem.related(b["id"], depth=1, edge_type="entity")["related"]
    assert [r["id"] for r in related] == [a["id"]]


def test_a_backdated_memory_links_to_its_contemporaries_not_the_newest_holders(mem: Mnemon) -> None:
    old = [mem.remember(f"Kubernetes note {k} from spring", created_at=f"2025-03-0{k}T10:00:00Z")["id"]
           for k in range(1, 6)]
    new = [mem.remember(f"Kubernetes note {k} from autumn", created_at=f"2025-10-0{k}T10:00:00Z")["id"]
           for k in range(1, 6)]
    late = mem.remember("Kubernetes quota raised in spring", created_at="2025-03-09T10:00:00Z")
    linked = {r["id"] for r in mem.related(late["id"], depth=1, edge_type="entity")["related"]}
    # the five newest holders *as of its own date* are the spring notes; the autumn ones do not become hubs
    assert linked == set(old) and not linked & set(new)


def test_a_backdated_memory_with_no_earlier_holder_links_to_the_first_later_ones(mem: Mnemon) -> None:
    """Importing old history into a store that already knows the entity: the later memories were written before
    it existed, so only its own write can join them (it joined nothing, and nothing ever did)."""
    later = [mem.remember(f"Qdrant index rebuilt, run {k}", entities=["Qdrant"], created_at=f"2026-0{k}-01T10:00:00Z")
             ["id"] for k in range(1, 8)]
    early = mem.remember("We picked Qdrant for vector search", entities=["Qdrant"], created_at="2025-02-01T10:00:00Z")
    assert early["edges_created"]["entity"] == 5
    linked = {r["id"] for r in mem.related(early["id"], depth=1, edge_type="entity")["related"]}
    assert linked == set(later[:5])  # its nearest contemporaries: the first five after it
    mid = mem.remember("Qdrant upgrade planned", entities=["Qdrant"], created_at="2026-01-15T10:00:00Z")
    linked = {r["id"] for r in mem.related(mid["id"], depth=1, edge_type="entity")["related"]}
    assert linked == {early["id"], later[0], *later[1:4]}  # two before it, then the first three after


def test_embed_all_gives_memories_written_without_vectors_their_semantic_edges(make_mem: Callable[..., Mnemon],
                                                                               tmp_path: Path) -> None:
    """A memory stored while no embedder ran gets the semantic edges a write would have made once `embed --all`
    adds its vector; vault rows never get them, and a second backfill adds none twice."""
    db = tmp_path / "later.db"
    off = make_mem("none", db=db)
    a = off.remember("postgres replication lag alert fired on the primary database cluster tonight")["id"]
    b = off.remember("postgres replication lag alert fired on the primary database cluster today", source="o")["id"]
    off.close()
    on = make_mem("hash", db=db)
    assert on.embed_all()["semantic_edges_added"] == 2
    sem = {(e.src, e.dst) for e in on.rt.store.edges_of([a, b], direction="both") if e.type == "semantic"}
    assert sem == {(a, b), (b, a)}
    c = on.remember("postgres replication lag alert fired on the primary database cluster at noon")
    assert c["edges_created"]["semantic"] >= 1  # the same rule a write runs
    assert on.embed_all()["status"] == "complete"


def test_causal_edge_from_cause_to_explained_effect(mem: Mnemon) -> None:
    cause = mem.remember("The checkout API latency spiked during the sale")
    effect = mem.remember("We added a cache because the checkout API latency spiked")
    assert effect["edges_created"]["causal"] == 1
    causal = [e for e in mem.show(effect["id"])["edges"] if e["edge_type"] == "causal"]
    assert [(e["source_id"], e["target_id"], e["sub_type"]) for e in causal] == [(cause["id"], effect["id"], "causes")]


def test_causal_edges_only_within_the_same_source(mem: Mnemon) -> None:
    mem.remember("The checkout API latency spiked during the sale", source="a")
    effect = mem.remember("We added a cache because the checkout API latency spiked", source="b")
    assert effect["edges_created"]["causal"] == 0


def test_near_identical_text_gets_a_semantic_edge(mem: Mnemon) -> None:
    a = mem.remember("postgres replication lag alert fired on the primary database cluster tonight")
    b = mem.remember("postgres replication lag alert fired on the primary database cluster today")
    assert b["edges_created"]["semantic"] == 1
    sem = [e for e in mem.show(b["id"])["edges"] if e["edge_type"] == "semantic" and e["source_id"] == b["id"]]
    assert sem[0]["target_id"] == a["id"] and sem[0]["weight"] >= 0.80


def test_semantic_candidates_fall_in_the_advisory_band(mem_none: Mnemon) -> None:
    a = mem_none.remember("grafana dashboards show memory pressure on workers")
    out = mem_none.remember("memory pressure on the build workers causes slow CI runs overall")
    assert out["embedded"] is False
    assert [c["id"] for c in out["semantic_candidates"]] == [a["id"]]
    for c in out["semantic_candidates"]:
        assert 0.10 <= c["cosine"] < 0.80 and c["content"] and c["auto_linked"] is False


def test_causal_candidates_come_from_the_two_hop_neighbourhood(mem: Mnemon) -> None:
    a = mem.remember("Team Falcon owns the billing service", source="s1", entities="Falcon",
                     created_at="2025-01-01T00:00:00Z")
    b = mem.remember("billing service moved to a new region", source="s1", created_at="2025-03-01T00:00:00Z")
    far = mem.remember("an unrelated lunch menu", source="s9", created_at="2024-01-01T00:00:00Z")
    out = mem.remember("Falcon paused releases because the migration was risky", source="s2",
                       entities="Falcon", created_at="2025-06-01T00:00:00Z")
    hops = {c["id"]: c["hop"] for c in out["causal_candidates"]}
    assert hops.get(a["id"]) == 1 and hops.get(b["id"]) == 2  # entity edge, then a's backbone
    assert far["id"] not in hops
    for c in out["causal_candidates"]:
        assert c["hop"] in (1, 2) and c["suggested_sub_type"] in ("causes", "enables", "prevents")
    assert len(out["causal_candidates"]) <= 10


def test_effective_importance_follows_the_formula_for_a_fresh_memory(mem: Mnemon, clock: FakeClock) -> None:
    mem.rt.clock = clock
    out = mem.remember("lonely fact with no neighbours", importance=4)
    edges = mem.rt.store.edge_counts([out["id"]])[out["id"]]
    assert out["effective_importance"] == pytest.approx(
        effective_importance(4, 0, clock().isoformat(), edges, clock()), abs=1e-4)


# ── atomicity ────────────────────────────────────────────────────────────────
def test_a_failure_in_the_graph_engine_rolls_back_everything(mem: Mnemon, monkeypatch: pytest.MonkeyPatch) -> None:
    mem.remember("Kubernetes cluster one")
    before = (_node_rows(mem), mem.rt.store.stats()["edge_count"], mem.rt.store.stats()["oplog_count"])
    def flaky(edges: Any, **kw: Any) -> None:  # the node, FTS row and vector are already written when this fails
        raise sqlite3.OperationalError("disk I/O error (simulated)")

    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(mem.rt.store, "insert_edges", flaky)
        with pytest.raises(sqlite3.OperationalError):
            mem.remember("Kubernetes cluster two")
    st = mem.rt.store.stats()
    assert (_node_rows(mem), st["edge_count"], st["oplog_count"]) == before
    assert mem.rt.store.vector_coverage(mem.rt.provider.identity()) == (1, 1)
    assert mem.remember("Kubernetes cluster two")["action"] == "added"  # the store is still healthy


def test_readonly_refuses_remember_even_for_an_exact_repeat(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    db = tmp_path / "ro.db"
    rw = make_mem(db=db)
    rw.remember("kept")
    rw.close()
    ro = make_mem(db=db, readonly=True)
    for content in ("new", "kept"):
        with pytest.raises(ReadOnly):
            ro.remember(content)


# ── auto-prune ───────────────────────────────────────────────────────────────
def _fill(m: Mnemon, n: int, prefix: str = "filler", **kw: Any) -> list[str]:
    return [m.remember(f"{prefix} memory number {i} zq{i}x", source=f"s{i}", **kw)["id"] for i in range(n)]


def test_auto_prune_takes_the_weakest_over_the_cap_after_the_grace_period(make_mem: Callable[..., Mnemon],
                                                                        clock: FakeClock) -> None:
    m = make_mem(max_insights=5, clock=clock)
    ids = _fill(m, 5)
    weakest = m.remember("weak one", importance=1, source="w")["id"]  # 6th: inside the grace period, kept
    assert m.rt.store.count_active() == 6
    clock.advance(hours=25)
    out = m.remember("fresh after a day", source="fresh")
    assert out["auto_pruned"] == 2 and weakest in out["auto_pruned_ids"]
    assert out["id"] not in out["auto_pruned_ids"]
    assert m.rt.store.count_active() == 5
    prune_rows = m.rt.store.oplog(100, op="prune")
    assert sorted(r.node_id for r in prune_rows) == sorted(out["auto_pruned_ids"])
    for pid in out["auto_pruned_ids"]:
        assert m.rt.store.get_node(pid) is None and m.rt.store.get_node(pid, include_deleted=True) is not None
    assert set(ids) | {weakest} >= set(out["auto_pruned_ids"])


def test_grace_period_counts_from_insertion_not_historical_created_at(make_mem: Callable[..., Mnemon],
                                                                     clock: FakeClock) -> None:
    m = make_mem(max_insights=3, clock=clock)
    _fill(m, 5, created_at="2020-01-01T00:00:00Z", importance=1)  # ancient timestamps, inserted just now
    out = m.remember("one more today")
    assert out["auto_pruned"] == 0 and m.rt.store.count_active() == 6


def test_immune_memories_are_never_pruned(make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(max_insights=2, clock=clock)
    important = _fill(m, 3, prefix="important", importance=4)
    accessed = m.remember("accessed often", source="acc")["id"]
    m.gc(keep=accessed)  # access +3 → immune
    clock.advance(days=400)
    out = m.remember("trigger", source="t")
    assert out["auto_pruned"] == 0
    assert all(m.rt.store.get_node(i) is not None for i in [*important, accessed])


def test_prune_batch_is_at_most_ten_per_write(make_mem: Callable[..., Mnemon], clock: FakeClock,
                                              tmp_path: Path) -> None:
    db = tmp_path / "batch.db"
    m = make_mem(db=db, max_insights=0, clock=clock)  # 0 disables auto-prune while filling
    _fill(m, 30)
    m.close()
    clock.advance(hours=48)
    m = make_mem(db=db, max_insights=5, clock=clock)
    first = m.remember("over the cap by 26", source="x")
    assert first["auto_pruned"] == 10
    second = m.remember("still over the cap", source="y")
    assert second["auto_pruned"] == 10
    assert len(m.rt.store.oplog(100, op="prune")) == 20
    assert len({r.node_id for r in m.rt.store.oplog(100, op="prune")}) == 20


def test_the_memory_just_written_is_never_pruned_even_with_zero_grace(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem(max_insights=1, prune_min_age="0")
    for i in range(5):
        out = m.remember(f"note {i} qq{i}", importance=1, source=f"s{i}")
        assert out["id"] not in out["auto_pruned_ids"]
        assert m.rt.store.get_node(out["id"]) is not None
    assert m.rt.store.count_active() == 1


def test_pruned_memorys_edges_are_retired(make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(max_insights=1, clock=clock)
    a = m.remember("Kubernetes is our platform", importance=1)["id"]
    clock.advance(hours=30)
    out = m.remember("Kubernetes nodes are autoscaled", importance=4)
    assert out["auto_pruned_ids"] == [a]
    assert all(e.status == "retired" for e in m.rt.store.edges_of([a], statuses=("active", "candidate", "retired"),
                                                                  direction="both"))
    assert m.rt.store.edges_of([out["id"]], direction="both") == []


def test_auto_prune_spares_the_memory_being_read_over_an_unread_one(make_mem: Callable[..., Mnemon],
                                                                     clock: FakeClock) -> None:
    """Reads raise a memory's effective importance; the pick used the value stored when it was written."""
    m = make_mem(max_insights=3, prune_min_age="0", clock=clock)
    read = m.remember("alpha apples orchard", source="s1")["id"]
    clock.advance(minutes=1)
    unread = {m.remember("bravo bicycles garage", source="s2")["id"], m.remember("charlie carrots", source="s3")["id"]}
    m.show(read)
    m.show(read)
    out = m.remember("delta dolphins harbour", source="s4")
    (pruned,) = out["auto_pruned_ids"]
    assert pruned in unread  # the pick by the value stored at write time took `read` (no edges then: the lowest)
    (row,) = m.rt.store.oplog(10, op="prune")
    gone = m.rt.store.get_node(pruned, include_deleted=True)
    assert gone is not None and row.detail["effective_importance"] == round(gone.effective_importance, 4)
    kept = m.rt.store.get_node(read)
    assert kept is not None and kept.access_count == 2


def test_auto_prune_takes_the_decayed_memory_not_yesterdays(make_mem: Callable[..., Mnemon],
                                                            clock: FakeClock) -> None:
    """A year of decay (30-day half-life) outweighs a higher importance; the stored value knew no decay."""
    m = make_mem(max_insights=2, clock=clock)
    old = m.remember("old note nobody ever reads again", importance=3, source="a")["id"]
    clock.advance(days=365)
    yesterday = m.remember("fresh note written yesterday", importance=2, source="b")["id"]
    clock.advance(days=1)
    out = m.remember("another fresh note today", importance=2, source="c")
    assert out["auto_pruned_ids"] == [old]
    assert m.rt.store.get_node(yesterday) is not None
    assert m.rt.store.get_node(old, include_deleted=True).effective_importance < 0.001  # type: ignore[union-attr]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(st.integers(1, 3), st.integers(0, 2), st.integers(0, 400), st.integers(0, 7)),
                     min_size=1, max_size=80),
       limit=st.integers(1, 12))
def test_the_pick_is_the_lowest_effective_importance_now(make_mem: Callable[..., Mnemon],
                                                         rows: list[tuple[int, int, int, int]], limit: int) -> None:
    """`lowest_importance` counts edges of a few memories only; it must pick what counting every memory's would."""
    from mnemon.app.remember import lowest_importance

    m = make_mem(max_insights=0, clock=FakeClock())
    now = m.rt.now()
    pool = [(f"m{i:03d}", imp, access, iso(now - timedelta(days=days)), iso(now - timedelta(days=days)))
            for i, (imp, access, days, _edges) in enumerate(rows)]
    edges = {mid: e for (mid, *_rest), (*_, e) in zip(pool, rows)}
    m.rt.store.edge_counts = lambda ids: {i: edges[i] for i in ids}  # type: ignore[method-assign]
    want = sorted((effective_importance(imp, access, touched, edges[mid], now), created, mid)
                  for mid, imp, access, touched, created in pool)[:limit]
    assert lowest_importance(m.rt, pool, limit) == [(mid, ei) for ei, _created, mid in want]


# ── properties ───────────────────────────────────────────────────────────────
_any_value = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.floats(allow_nan=True),
                       st.text(max_size=30), st.lists(st.text(max_size=10), max_size=25),
                       st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


def _fresh(provider: str = "none") -> tuple[Mnemon, tempfile.TemporaryDirectory[str]]:
    tmp = tempfile.TemporaryDirectory()
    cfg = load_config({"MNEMON_HOME": tmp.name, "MNEMON_EMBED_PROVIDER": provider,
                       "XDG_CONFIG_HOME": tmp.name})
    return Mnemon.open(cfg), tmp


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.text(max_size=300), _any_value), category=st.one_of(
    st.sampled_from(["preference", "decision", "fact", "insight", "context", "general"]), _any_value),
    importance=st.one_of(st.integers(0, 6), _any_value), tags=_any_value, entities=_any_value,
    source=st.one_of(st.just("user"), _any_value), created_at=st.one_of(st.none(), st.text(max_size=30)))
def test_any_input_is_a_result_or_a_typed_error(mem_none: Mnemon, content: Any, category: Any, importance: Any,
                                                tags: Any, entities: Any, source: Any, created_at: Any) -> None:
    try:
        out = mem_none.remember(content, category=category, importance=importance, tags=tags, entities=entities,
                                source=source, created_at=created_at)
    except MnemonError as exc:
        assert exc.code == "invalid_input" and exc.message
        return
    assert out["action"] in ("added", "skipped")
    assert mem_none.rt.store.get_node(out["id"]) is not None


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1,
                        max_size=80).filter(lambda s: s.strip()), min_size=1, max_size=12))
def test_repeats_are_always_skipped_and_distinct_contents_never_lost(contents: list[str]) -> None:
    m, tmp = _fresh("hash")
    try:
        ids: dict[str, str] = {}
        for c in contents + contents[::-1]:
            out = m.remember(c)
            if c in ids:
                assert out["action"] == "skipped" and out["existing_id"] == ids[c] and out["ignored"] == {}
            else:
                assert out["action"] == "added"
                ids[c] = out["id"]
        stored = {n.content: n.id for n in m.rt.store.iter_nodes()}
        assert stored == ids
    finally:
        m.close()
        tmp.cleanup()


_ops = st.lists(st.tuples(st.sampled_from(["remember", "forget", "link", "gc", "show", "related", "advance"]),
                          st.integers(0, 50)), min_size=5, max_size=30)


@settings(max_examples=20, deadline=None)
@given(_ops)
def test_nothing_is_deleted_except_by_forget_or_prune_and_every_deletion_is_logged(ops: list[tuple[str, int]]
                                                                                   ) -> None:
    tmp = tempfile.TemporaryDirectory()
    clock = FakeClock()
    cfg = load_config({"MNEMON_HOME": tmp.name, "MNEMON_EMBED_PROVIDER": "hash", "MNEMON_MAX_INSIGHTS": "4",
                       "XDG_CONFIG_HOME": tmp.name})
    m = Mnemon.open(cfg)
    m.rt.clock = clock
    try:
        written: list[str] = []
        for op, k in ops:
            live = [i for i in written if m.rt.store.get_node(i) is not None]
            try:
                if op == "remember":
                    written.append(m.remember(f"event {k} about Kubernetes because deploys", importance=1 + k % 5,
                                              source=f"s{k % 3}")["id"])
                elif op == "advance":
                    clock.advance(hours=k)
                elif live and op == "forget":
                    m.forget(live[k % len(live)])
                elif len(live) > 1 and op == "link":
                    m.link(live[k % len(live)], live[(k + 1) % len(live)], "causal")
                elif op == "gc":
                    m.gc()
                elif live and op == "show":
                    m.show(live[k % len(live)])
                elif live and op == "related":
                    m.related(live[k % len(live)])
            except InvalidInput:
                pass  # e.g. linking a memory to itself
            # rows are never hard-deleted
            assert _node_rows(m) == len(set(written))
        deleted = {n.id for n in m.rt.store.iter_nodes(include_deleted=True) if n.deleted_at}
        log = [(e.op, e.node_id) for e in m.rt.store.oplog(100_000) if e.op in ("forget", "prune")]
        assert sorted(i for _, i in log) == sorted(deleted), "each deletion has exactly one forget/prune row"
    finally:
        m.close()
        tmp.cleanup()


def test_a_memory_written_between_a_question_and_its_reply_takes_over_the_reply_step(mem: Mnemon) -> None:
    q = mem.remember("Which database should the billing service use?", source="chat",
                     created_at="2025-05-01T10:00:00Z")["id"]
    late = mem.remember("Postgres, the team knows it best.", source="chat", created_at="2025-05-01T12:00:00Z")["id"]
    store = mem.rt.store
    assert store.find_edge(q, late, "temporal").sub_type == "reply"  # type: ignore[union-attr]
    between = mem.remember("SQLite would not take the write load.", source="chat",
                           created_at="2025-05-01T11:00:00Z")["id"]
    assert store.find_edge(q, late, "temporal").status == "retired"  # type: ignore[union-attr]
    assert store.find_edge(q, between, "temporal").sub_type == "reply"  # type: ignore[union-attr]
    assert store.find_edge(between, late, "temporal").sub_type == "backbone"  # type: ignore[union-attr]


def test_a_plain_repeat_ignores_nothing_it_was_not_given(mem) -> None:
    """Options left out are not values the caller chose: a bare repeat of a filed decision reports nothing ignored."""
    first = mem.remember("Billing moved to Postgres", category="decision", importance=5, source="team-lead")
    again = mem.remember("Billing moved to Postgres")
    assert again["action"] == "skipped" and again["existing_id"] == first["id"]
    assert again["ignored"] == {} and "hint" not in again
    assert mem.remember("Billing moved to Postgres", importance=2)["ignored"] == {"importance": 2}


def test_saying_a_superseded_fact_again_says_it_stays_superseded(mem: Mnemon) -> None:
    """An agent re-asserting a fact a correction retired heard only "skipped"; recall kept demoting it."""
    old = mem.remember("The billing service runs on Postgres")
    new = mem.remember("The billing service moved from Postgres to MySQL")
    mem.link(new["id"], old["id"], "supersedes")
    again = mem.remember("The billing service runs on Postgres")
    assert again["action"] == "skipped" and again["superseded_by"] == [new["id"]]
    assert f"mnemon forget {new['id']}" in again["hint"]
    plain = mem.remember("The billing service moved from Postgres to MySQL")
    assert plain["action"] == "skipped" and "superseded_by" not in plain and "hint" not in plain
