"""Store contract: every backend (SQLite and PostgreSQL) must pass this suite through the `Store` protocol.

Only protocol methods are used (plus `path`/`readonly`), so the `store` fixture in conftest can hand in any backend.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.core.errors import ReadOnly
from mnemon.core.model import Edge, Memory, content_hash, iso
from mnemon.ports.store.base import MemoryFilter, Store
from mnemon.ports.store.sqlite import SQLiteStore

T0 = datetime(2026, 2, 1, tzinfo=timezone.utc)


def at(hours: float) -> str:
    return iso(T0 + timedelta(hours=hours))


def put(store: Store, mid: str, content: str | None = None, *, hours: float = 0, source: str = "user",
        category: str = "general", importance: int = 3, access: int = 0, entities: tuple[str, ...] = (),
        inserted: float | None = None, kind: str = "memory") -> Memory:
    m = Memory(id=mid, content=content or f"memory {mid}", category=category, importance=importance,
               source=source, created_at=at(hours), updated_at=at(hours), access_count=access,
               entities=entities, inserted_at=at(hours if inserted is None else inserted), kind=kind)
    with store.transaction():
        store.insert_node(m)
        if entities:
            store.index_entities(mid, entities, m.created_at)
    return m


def edge(src: str, dst: str, type_: str = "semantic", **kw: object) -> Edge:
    return Edge(src, dst, type_, created_at=at(0), **kw)  # type: ignore[arg-type]


# ── nodes ────────────────────────────────────────────────────────────────────
def test_insert_get_roundtrip_keeps_every_field(store: Store) -> None:
    m = Memory(id="a", content="Ünïcode 内容 ✓", category="decision", importance=5, tags=("t1", "t2"),
               entities=("Redis",), source="agent", created_at=at(0), updated_at=at(1), inserted_at=at(2),
               metadata={"k": [1, 2]}, title="T")
    with store.transaction():
        store.insert_node(m)
    got = store.get_node("a")
    assert got is not None
    assert (got.content, got.category, got.importance, got.tags, got.entities, got.source, got.created_at,
            got.updated_at, got.inserted_at, got.metadata, got.title) == \
        (m.content, "decision", 5, ("t1", "t2"), ("Redis",), "agent", at(0), at(1), at(2), {"k": [1, 2]}, "T")
    assert store.get_node("missing") is None
    assert set(store.get_nodes(["a", "missing", "a"])) == {"a"}


def test_duplicate_id_is_refused_and_rolls_back(store: Store) -> None:
    put(store, "a")
    with pytest.raises(Exception):
        put(store, "a", "other")
    assert store.get_node("a").content == "memory a"  # type: ignore[union-attr]
    assert store.count_active() == 1


def test_update_node_changes_content_and_keyword_index(store: Store) -> None:
    m = put(store, "a", "alpha words")
    with store.transaction():
        store.update_node(Memory(**{**m.__dict__, "content": "beta words", "updated_at": at(5)}))
    assert store.get_node("a").content == "beta words"  # type: ignore[union-attr]
    assert [i for i, _ in store.keyword_search(["beta"], 5)] == ["a"]
    assert store.keyword_search(["alpha"], 5) == []


def test_hash_lookup_finds_only_active_exact_content(store: Store) -> None:
    put(store, "a", "exact text")
    assert store.find_active_by_hash(content_hash("exact text")) == "a"
    assert store.find_active_by_hash(content_hash("exact text ")) is None
    with store.transaction():
        store.soft_delete(["a"], at(1))
    assert store.find_active_by_hash(content_hash("exact text")) is None


def test_hash_lookup_in_bulk_answers_as_one_lookup_per_digest(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.ports.store import text_index_sqlite

    monkeypatch.setattr(text_index_sqlite, "_CHUNK", 2)  # an import asks for thousands: a few statements each
    texts = ["one", "two", "three", "four", "five"]
    for k, text in enumerate(texts):
        put(store, f"m{k}", text)
    put(store, "m9", "two")  # a second active copy (stored with --no-diff): the first one answers
    with store.transaction():
        store.soft_delete(["m2"], at(1))
    digests = [content_hash(t) for t in [*texts, "six", "two"]]
    found = store.find_active_by_hashes(digests)
    assert found == {d: i for d in digests if (i := store.find_active_by_hash(d)) is not None}
    assert found == {content_hash("one"): "m0", content_hash("two"): "m1", content_hash("four"): "m3",
                     content_hash("five"): "m4"}
    assert store.find_active_by_hashes([]) == {}


def test_soft_delete_hides_but_keeps_the_row_and_counts(store: Store) -> None:
    for i in range(3):
        put(store, f"m{i}", entities=("E",))
    assert store.count_active() == 3
    with store.transaction():
        assert store.soft_delete(["m1", "m1", "nope"], at(9)) == 1
        assert store.soft_delete(["m1"], at(10)) == 0  # already deleted: not counted twice
    assert store.count_active() == 2
    assert store.get_node("m1") is None
    gone = store.get_node("m1", include_deleted=True)
    assert gone is not None and gone.deleted_at == at(9)
    assert [m.id for m in store.iter_nodes()] == ["m0", "m2"]
    assert [m.id for m in store.iter_nodes(include_deleted=True)] == ["m0", "m1", "m2"]
    assert "m1" not in store.entity_holders("E", 10)
    assert store.keyword_search(["memori"], 10) and "m1" not in dict(store.keyword_search(["memori"], 10))  # stemmed as the index is


def test_undelete_brings_a_forgotten_memory_back_as_it_was(store: Store) -> None:
    put(store, "m0", "alpha words", entities=("E",))
    put(store, "m1", "beta words", entities=("E",))
    put(store, "v1", "gamma words", source="vault:notes/a.md")
    vec = np.ones(4, dtype=np.float32) / 2
    with store.transaction():
        store.put_vector("m1", "p", vec, content_hash("beta words"), at(1))
        store.soft_delete(["m1", "v1"], at(9))
    generation = store.vector_generation()
    with store.transaction():
        # a vault row is its note's to bring back; a live or unknown id is no forgotten memory
        assert store.undelete(["m1", "m1", "v1", "m0", "nope"], at(10)) == ["m1"]
        assert store.undelete(["m1"], at(11)) == []
    assert store.vector_generation() != generation
    back = store.get_node("m1")
    assert back is not None and (back.content, back.entities, back.created_at, back.updated_at) == \
        ("beta words", ("E",), at(0), at(10))
    assert store.get_node("v1") is None and store.count_active() == 2
    assert [i for i, _ in store.keyword_search(["beta"], 5)] == ["m1"]
    assert "m1" in store.entity_holders("E", 10)
    ids, mat = store.load_vectors("p")
    assert ids == ["m1"] and np.allclose(mat[0], vec)


def test_recent_memories_order_window_source_and_filters(store: Store) -> None:
    put(store, "old", hours=0, source="a")
    put(store, "mid", hours=5, source="b", category="fact")
    put(store, "new", hours=10, source="a")
    put(store, "note", hours=11, kind="note")
    assert [m.id for m in store.recent_memories(10)] == ["new", "mid", "old"]
    assert [m.id for m in store.recent_memories(2)] == ["new", "mid"]
    assert [m.id for m in store.recent_memories(10, source="a")] == ["new", "old"]
    assert [m.id for m in store.recent_memories(10, since=at(1), until=at(9))] == ["mid"]
    assert [m.id for m in store.recent_memories(10, exclude=["new"])] == ["mid", "old"]
    assert [m.id for m in store.recent_memories(10, flt=MemoryFilter(category="fact"))] == ["mid"]
    assert store.memory_ids() and set(store.memory_ids()) == {"old", "mid", "new"}


def test_a_filter_can_ask_for_a_period(store: Store) -> None:
    put(store, "old", "deploy notes", hours=0)
    put(store, "mid", "deploy notes again", hours=5)
    put(store, "new", "deploy notes once more", hours=10)
    period = MemoryFilter(created_from=at(1), created_to=at(10))
    assert set(store.memory_ids(period)) == {"mid", "new"}
    assert [m.id for m in store.recent_memories(10, flt=MemoryFilter(created_to=at(5)))] == ["mid", "old"]
    assert {i for i, _ in store.keyword_search(["deploy"], 10, period)} == {"mid", "new"}


def test_latest_by_source_respects_exclude_and_before(store: Store) -> None:
    put(store, "a1", hours=0, source="a")
    put(store, "a2", hours=2, source="a")
    put(store, "b1", hours=3, source="b")
    assert store.latest_by_source("a").id == "a2"  # type: ignore[union-attr]
    assert store.latest_by_source("a", exclude="a2").id == "a1"  # type: ignore[union-attr]
    assert store.latest_by_source("a", before=at(1)).id == "a1"  # type: ignore[union-attr]
    assert store.latest_by_source("zzz") is None


def test_the_prune_pool_leaves_out_immune_young_protected_and_vault_rows(store: Store) -> None:
    put(store, "imp4", importance=4, inserted=0)
    put(store, "accessed", access=3, inserted=0)
    put(store, "young", inserted=100)
    put(store, "protected", inserted=0)
    put(store, "weak", importance=1, inserted=0, hours=2)
    put(store, "plain", inserted=0)
    put(store, "bullet", source="vault:n.md", inserted=0)
    with store.transaction():
        store.touch(["plain"], at(3))
    got = sorted(store.prune_pool(at(50), ["protected"]))
    assert got == [("plain", 3, 1, at(3), at(0)), ("weak", 1, 0, at(2), at(2))]
    assert "protected" in {r[0] for r in store.prune_pool(at(50), [])}
    assert store.prune_pool(at(-1), []) == []


def test_touch_counts_access(store: Store) -> None:
    put(store, "a")
    with store.transaction():
        store.touch(["a"], at(3))
        store.touch(["a"], at(4), amount=3)
    got = store.get_node("a")
    assert got is not None and got.access_count == 4 and got.last_accessed_at == at(4)


# ── entities and keywords ────────────────────────────────────────────────────
def test_entity_holders_newest_first_with_limit_and_exclude(store: Store) -> None:
    for i in range(8):
        put(store, f"m{i}", hours=i, entities=("Redis", "Kafka") if i % 2 else ("Redis",))
    assert store.entity_holders("Redis", 3) == ["m7", "m6", "m5"]
    assert store.entity_holders("Redis", 3, exclude=["m7"]) == ["m6", "m5", "m4"]
    assert store.entity_holders("Nope", 3) == []
    assert store.known_entities({"Redis", "Kafka", "Nope"}) == {"Redis", "Kafka"}
    assert dict(store.top_entities(5)) == {"Redis": 8, "Kafka": 4}
    hits = store.memories_with_entities(["Redis", "Kafka"], 3)
    assert [c for _, c in hits] == [2, 2, 2]


def test_memories_with_entities_ranks_by_shared_entities_then_newest_then_id(store: Store) -> None:
    # a common entity held by many, ties on created_at, holders of several entities deep in the past, a filter
    import random
    rng = random.Random(3)
    held: dict[str, tuple[set[str], str, str]] = {}
    for k in range(120):
        ents = {e for e in ("Redis", "Kafka", "Mongo") if rng.random() < (0.9 if e == "Redis" else 0.15)}
        category = "fact" if k % 3 else "general"
        m = put(store, f"m{k:03d}", hours=rng.randrange(40), entities=tuple(sorted(ents)), category=category)
        held[m.id] = (ents, m.created_at, category)

    def expected(query: list[str], limit: int, category: str | None = None) -> list[tuple[str, int]]:
        rows = [(i, len(ents & set(query)), t) for i, (ents, t, c) in held.items()
                if ents & set(query) and category in (None, c)]
        rows.sort(key=lambda r: r[0])
        rows.sort(key=lambda r: (r[1], r[2]), reverse=True)
        return [(i, c) for i, c, _ in rows[:limit]]

    for query in (["Redis"], ["Kafka"], ["Redis", "Kafka"], ["Redis", "Kafka", "Mongo"], ["Mongo", "Nope"],
                  ["Nope", "Mongo", "Kafka", "Redis"], ["Redis", "Nope", "Kafka", "Other", "Mongo"]):  # 5: grouped
        for limit in (1, 5, 20, 200):
            assert store.memories_with_entities(query, limit) == expected(query, limit), (query, limit)
        assert store.memories_with_entities(query, 7, MemoryFilter(category="general")) == \
            expected(query, 7, "general"), query


def test_recent_memory_ids_are_the_ids_of_recent_memories(store: Store) -> None:
    for k in range(9):
        put(store, f"r{k}", hours=k % 4, category="fact" if k % 2 else "general", source="a" if k < 5 else "b")
    for flt in (None, MemoryFilter(category="fact"), MemoryFilter(source="b", created_to=at(2))):
        for limit in (1, 4, 20):
            assert store.recent_memory_ids(limit, flt) == [m.id for m in store.recent_memories(limit, flt=flt)]


# Memories are indexed by their stemmed tokens (core.text): these tests use words that are their own stem.
def test_document_counts_follow_writes(store: Store) -> None:
    put(store, "a", "nginx mysql")
    assert store.token_doc_freq(["nginx", "kafka"]) == {"nginx": 1, "kafka": 0}
    put(store, "b", "nginx kafka")
    assert store.token_doc_freq(["nginx", "kafka"]) == {"nginx": 2, "kafka": 1}
    with store.transaction():
        store.soft_delete(["a"], at(5))
    assert store.token_doc_freq(["kafka", "nginx"]) == {"kafka": 1, "nginx": 1}


def test_keyword_search_ranks_and_survives_hostile_tokens(store: Store) -> None:
    put(store, "a", "nginx mysql mysql mysql")
    put(store, "b", "nginx queue")
    put(store, "c", "zebra")
    ids = [i for i, _ in store.keyword_search(["mysql", "nginx"], 10)]
    assert ids[0] == "a" and set(ids) == {"a", "b"}
    for hostile in (['"', "OR", "NEAR(", "*", "a\"b", "-x", ":"], ["NOT"], [""]):
        store.keyword_search(hostile, 5)  # never a syntax error
    assert store.token_doc_freq(["nginx", "zebra", "zzz"]) == {"nginx": 2, "zebra": 1, "zzz": 0}


def test_a_posting_budget_searches_by_the_rarest_words_first(store: Store) -> None:
    for k in range(6):
        put(store, f"c{k}", f"deploy pipeline note {k}")
    put(store, "r", "deploy pipeline zebra")
    everything = {i for i, _ in store.keyword_search(["deploy", "zebra"], 10)}
    assert everything == {"r", *(f"c{k}" for k in range(6))}
    # within a budget of 3 postings only the rarest word is searched; the caller's counts are used as given
    assert [i for i, _ in store.keyword_search(["deploy", "zebra"], 10, max_postings=3)] == ["r"]
    counts = {"deploy": 1, "zebra": 7}
    assert {i for i, _ in store.keyword_search(["deploy", "zebra"], 10, max_postings=3, doc_freq=counts)} == \
        {"r", *(f"c{k}" for k in range(6))}


def test_like_search_escapes_wildcards(store: Store) -> None:
    put(store, "a", "100% sure")
    put(store, "b", "1000 sure")
    assert [m.id for m in store.like_search("100%", 10)] == ["a"]
    assert [m.id for m in store.like_search("_", 10)] == []


# ── vectors ──────────────────────────────────────────────────────────────────
def test_vectors_are_per_provider_and_invalidated_by_content_change(store: Store) -> None:
    a, b = put(store, "a", "one"), put(store, "b", "two")
    gen0 = store.vector_generation()
    with store.transaction():
        store.put_vector("a", "p1", np.array([1, 0, 0], dtype=np.float32), a.content_hash, at(0))
        store.put_vector("b", "p1", np.array([0, 1, 0], dtype=np.float32), "stale-hash", at(0))
    assert store.vector_generation() > gen0
    ids, mat = store.load_vectors("p1")
    assert ids == ["a"] and mat.dtype == np.float32 and mat.shape == (1, 3)
    assert store.load_vectors("p2")[0] == []
    assert store.vector_coverage("p1") == (1, 2)
    with store.transaction():
        store.put_vector("b", "p2", np.array([0, 0, 1], dtype=np.float32), b.content_hash, at(0))
    providers = store.vector_providers()
    assert providers["p2"] == 1 and providers["p1"] >= 1
    assert store.load_vectors("p2")[0] == ["b"]  # never mixed into another provider's matrix


def test_nodes_missing_vectors_lists_memories_without_a_current_vector(store: Store) -> None:
    a, _ = put(store, "a", "one"), put(store, "b", "two")
    with store.transaction():
        store.put_vector("a", "p1", np.array([1, 0, 0], dtype=np.float32), a.content_hash, at(0))
    assert [m.id for m in store.nodes_missing_vectors("p1")] == ["b"]


def test_vector_float32_roundtrip_is_exact(store: Store) -> None:
    a = put(store, "a")
    v = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    with store.transaction():
        store.put_vector("a", "p", v, a.content_hash, at(0))
    assert np.array_equal(store.load_vectors("p")[1][0], v)


# ── edges ────────────────────────────────────────────────────────────────────
def test_upsert_edge_creates_then_updates_the_same_row_with_events(store: Store) -> None:
    put(store, "a")
    put(store, "b")
    with store.transaction():
        eid = store.upsert_edge(edge("a", "b", weight=0.3), actor="t")
        eid2 = store.upsert_edge(edge("a", "b", weight=0.9, sub_type="x"), actor="t")
    assert eid == eid2
    got = store.get_edge(eid)
    assert got is not None and got.weight == 0.9 and got.sub_type == "x"
    assert store.find_edge("a", "b", "semantic").id == eid  # type: ignore[union-attr]
    assert store.find_edge("b", "a", "semantic") is None
    assert [e["event"] for e in store.edge_events(eid)] == ["created", "updated"]


def test_edges_of_directions_status_and_type(store: Store) -> None:
    for n in "abc":
        put(store, n)
    with store.transaction():
        store.upsert_edge(edge("a", "b"))
        store.upsert_edge(edge("c", "a", "causal"))
        store.upsert_edge(edge("a", "c", "entity", status="candidate"))
    assert {(e.src, e.dst) for e in store.edges_of(["a"])} == {("a", "b")}
    assert {(e.src, e.dst) for e in store.edges_of(["a"], direction="in")} == {("c", "a")}
    assert {(e.src, e.dst) for e in store.edges_of(["a"], direction="both")} == {("a", "b"), ("c", "a")}
    assert {e.dst for e in store.edges_of(["a"], statuses=("active", "candidate"))} == {"b", "c"}
    assert {e.type for e in store.edges_of(["a"], direction="both", types=["causal"])} == {"causal"}
    adj = store.adjacency(["a", "c"])
    assert [l.dst for l in adj["a"]] == ["b"] and [l.dst for l in adj["c"]] == ["a"]
    assert store.edge_counts(["a", "b", "c"]) == {"a": 2, "b": 1, "c": 1}


def test_a_bulk_edge_insert_keeps_one_row_per_edge_the_later_values_winning(store: Store) -> None:
    for n in "ab":
        put(store, n)
    with store.transaction():
        store.insert_edges([edge("a", "b", weight=0.25), edge("b", "a", weight=0.5)])
    with store.transaction():
        store.insert_edges([edge("a", "b", "entity", weight=0.25), edge("a", "b", "entity", weight=0.75,
                                                                        sub_type="again")])
    got = sorted((e.src, e.dst, e.type, e.weight, e.sub_type) for e in store.edges_of(["a", "b"]))
    assert got == [("a", "b", "entity", 0.75, "again"), ("a", "b", "semantic", 0.25, ""),
                   ("b", "a", "semantic", 0.5, "")]


def test_a_bulk_edge_insert_refuses_an_unknown_status_and_leaves_the_check_on(store: Store) -> None:
    for n in "abc":
        put(store, n)
    with pytest.raises(Exception, match="status|check|constraint"):
        with store.transaction():
            store.insert_edges([edge("a", "b"), edge("b", "c", status="maybe")])
    assert store.edges_of(["a", "b"]) == []  # the whole statement was refused, not just the bad row
    with pytest.raises(Exception, match="(?i)check"):
        with store.transaction():  # the status CHECK still guards every other write
            store.upsert_edge(edge("a", "c", status="maybe"))
    assert store.edges_of(["a"]) == []


def test_a_snapshot_path_is_offered_only_inside_a_write_transaction_that_has_not_written(store: Store) -> None:
    put(store, "a")
    assert store.snapshot_path() is None  # outside a transaction anyone may commit next
    with store.transaction():
        path = store.snapshot_path()
        if "Postgres" in type(store).__name__:
            assert path is None  # no file: a bulk import keeps its rules in one process
            return
        assert path is not None and Path(path).exists()
        put(store, "b")
        assert store.snapshot_path() is None  # a second process would not see "b"


def test_status_changes_and_retire_are_audited(store: Store) -> None:
    for n in "abc":
        put(store, n)
    with store.transaction():
        e1 = store.upsert_edge(edge("a", "b"))
        store.upsert_edge(edge("c", "a"))
        store.upsert_edge(edge("b", "c"))
        store.set_edge_status(e1, "killed", actor="me", reason="wrong", confidence=0.1)
    killed = store.get_edge(e1)
    assert killed is not None and killed.status == "killed" and killed.confidence == 0.1
    assert store.edge_events(e1)[-1]["detail"]["reason"] == "wrong"
    with store.transaction():
        assert store.retire_edges_of("a", reason="forget") == 1  # the killed one stays killed
    assert {e.status for e in store.iter_edges()} == {"killed", "retired", "active"}
    assert [(e.src, e.dst) for e in store.iter_edges(statuses=["active"])] == [("b", "c")]


# ── transactions, audit, read-only ───────────────────────────────────────────
def test_a_failed_transaction_leaves_nothing_behind(store: Store) -> None:
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.insert_node(Memory(id="x", content="x", created_at=at(0)))
            store.log("remember", "x", {}, at(0))
            raise RuntimeError("boom")
    assert store.get_node("x") is None and store.count_active() == 0 and store.oplog(10) == []


def test_nested_failure_rolls_back_only_the_inner_part(store: Store) -> None:
    with store.transaction():
        store.insert_node(Memory(id="outer", content="o", created_at=at(0)))
        with pytest.raises(ValueError):
            with store.transaction():
                store.insert_node(Memory(id="inner", content="i", created_at=at(0)))
                raise ValueError
    assert store.get_node("outer") is not None and store.get_node("inner") is None
    assert store.count_active() == 1


def test_oplog_is_newest_first_and_filterable(store: Store) -> None:
    with store.transaction():
        store.log("remember", "a", {"n": 1}, at(0))
        store.log("forget", "a", {"n": 2}, at(1))
        store.log("remember", "b", {"n": 3}, at(2))
    assert [e.detail["n"] for e in store.oplog(10)] == [3, 2, 1]
    assert [e.node_id for e in store.oplog(10, op="remember")] == ["b", "a"]
    assert [e.op for e in store.oplog(10, node_id="a")] == ["forget", "remember"]
    assert len(store.oplog(1)) == 1


def test_stats_report_counts(store: Store) -> None:
    put(store, "a", category="fact")
    put(store, "b")
    with store.transaction():
        store.upsert_edge(edge("a", "b", "entity"))
        store.soft_delete(["b"], at(1))
    st = store.stats()
    assert st["total_insights"] == 1 and st["deleted_insights"] == 1
    assert st["by_category"] == {"fact": 1} and st["edges_by_type"] == {"entity": 1}
    assert st["db_size_bytes"] > 0
    assert st["nodes_by_kind"] == {"memory": 1}
    with store.transaction():
        store.insert_node(Memory(id="note:x.md", kind="note", content="", created_at=at(2), updated_at=at(2)))
        store.insert_node(Memory(id="tag:x", kind="tag", content="", created_at=at(2), updated_at=at(2)))
        store.soft_delete(["a"], at(3))
    st = store.stats()
    assert st["nodes_by_kind"] == {"note": 1, "tag": 1} and st["total_insights"] == 0 and st["deleted_insights"] == 2
    if isinstance(store, SQLiteStore):  # deleted memories are counted through their own index, not every row
        sql = "SELECT COUNT(*) FROM nodes WHERE deleted_at IS NOT NULL AND kind = 'memory'"
        plan = [r[3] for r in store.conn.execute("EXPLAIN QUERY PLAN " + sql)]
        assert plan == ["SEARCH nodes USING INDEX nodes_deleted (kind=?)"], plan


def test_readonly_store_reads_and_refuses_writes(store: Store) -> None:
    put(store, "a", "kept")
    from mnemon.app.memory import open_store

    ro = open_store(store.path, readonly=True)
    try:
        assert ro.readonly and ro.get_node("a") is not None
        with pytest.raises(ReadOnly):
            with ro.transaction():
                ro.insert_node(Memory(id="z", content="z", created_at=at(0)))
    finally:
        ro.close()
    assert store.get_node("z") is None


def test_whole_table_walks_cross_pages_without_losing_or_repeating_a_row(store: Store,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.ports.store import postgres, postgres_edges, sqlite

    for module in (sqlite, postgres, postgres_edges):
        monkeypatch.setattr(module, "PAGE_ROWS", 2)  # an export walks every node and edge a page at a time
    for n in "abcde":
        put(store, n)
    with store.transaction():
        store.insert_edges([edge("a", "b"), edge("b", "c"), edge("c", "d", status="candidate"), edge("d", "e"),
                            edge("e", "a")])
    assert [m.id for m in store.iter_nodes()] == list("abcde")
    assert [(e.src, e.dst) for e in store.iter_edges()] == [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"),
                                                            ("e", "a")]
    assert [e.src for e in store.iter_edges(statuses=("active",))] == list("abde")


def test_edge_counts_are_the_same_node_by_node_or_over_the_whole_graph(store: Store,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.ports.store import edges_sqlite

    for n in "abcdef":
        put(store, n)
    with store.transaction():
        store.insert_edges([edge("a", "b"), edge("b", "a"), edge("a", "c", "entity"), edge("c", "d", status="candidate"),
                            edge("d", "a", "causal"), edge("e", "a", status="retired")])
    ids = ["a", "b", "c", "d", "e", "f", "unknown"]
    by_node = store.edge_counts(ids)
    monkeypatch.setattr(edges_sqlite, "WHOLE_GRAPH_COUNTS", 1)  # `gc` over a large store counts in one pass
    assert store.edge_counts(ids) == by_node == {"a": 4, "b": 2, "c": 1, "d": 1, "e": 0, "f": 0, "unknown": 0}


@given(st.dictionaries(st.text(max_size=12), st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(),
                                                        st.booleans(), st.text(max_size=12), st.none(),
                                                        st.lists(st.integers(), max_size=3)), max_size=3))
def test_edge_metadata_is_stored_as_json_would_spell_it(meta: dict[str, object]) -> None:
    import json

    from mnemon.ports.store.edge_rows import edge_value_rows

    again = dict(meta)  # an equal dict, another object: the per-value cache must give the same text
    rows = edge_value_rows([Edge("a", "b", "semantic", metadata=meta), Edge("b", "a", "semantic", metadata=again),
                            Edge("a", "c", "entity", metadata={"entity": 1}), Edge("c", "a", "entity",
                                                                                  metadata={"entity": True})])
    expected = json.dumps(meta, ensure_ascii=False) if meta else "{}"
    assert rows[0][11] == rows[1][11] == expected
    assert (rows[2][11], rows[3][11]) == ('{"entity": 1}', '{"entity": true}')  # 1 and True are equal keys


def test_an_error_after_which_sqlite_rolled_back_by_itself_is_the_error_raised(tmp_path) -> None:
    """A full disk or an I/O error makes SQLite roll back on its own; the store's ROLLBACK then failed with "no
    transaction is active", which replaced the error that said what went wrong."""
    import sqlite3

    from mnemon.app.memory import open_store

    store = open_store(tmp_path / "m.db")
    store.conn.execute("CREATE TEMP TRIGGER gone BEFORE INSERT ON meta WHEN NEW.key = 'x'"
                       " BEGIN SELECT RAISE(ROLLBACK, 'disk gone'); END")
    for nested in (False, True):
        with pytest.raises(sqlite3.IntegrityError, match="disk gone"):
            with store.transaction():
                if nested:
                    with store.transaction():
                        store.conn.execute("INSERT INTO meta(key, value) VALUES ('x', '1')")
                else:
                    store.conn.execute("INSERT INTO meta(key, value) VALUES ('x', '1')")
        with store.transaction():  # and the store goes on
            store.conn.execute("INSERT INTO meta(key, value) VALUES ('y', '1')")
        assert store.conn.execute("SELECT value FROM meta WHERE key = 'y'").fetchone() == ("1",)
        store.conn.execute("DELETE FROM meta WHERE key = 'y'")
    store.close()


def test_database_refusals_are_store_errors_and_bugs_stay_internal() -> None:
    import sqlite3

    from mnemon.interfaces.payloads import from_exception

    for message in ("database or disk is full", "attempt to write a readonly database"):
        assert from_exception(sqlite3.OperationalError(message))[0]["error"]["code"] == "store_error"
    # another writer past the wait: its own, retryable code (tests/interfaces/test_qa_s35_store_busy.py)
    assert from_exception(sqlite3.OperationalError("database is locked"))[0]["error"]["code"] == "store_busy"
    assert from_exception(sqlite3.OperationalError("no such column: x"))[0]["error"]["code"] == "internal"
    assert from_exception(KeyError("x"))[0]["error"]["code"] == "internal"


def test_one_provider_identity_keeps_one_vector_width(store: Store, tmp_path) -> None:
    """An embedding server that changed its width under the same model name added rows of the new width beside the
    old; the matrix of mixed rows could not be built and every recall and remember failed."""
    from mnemon.app.memory import open_store
    from mnemon.core.errors import ProviderMismatch

    a, b = put(store, "a"), put(store, "b")
    with store.transaction():
        store.put_vector("a", "srv:model:native", np.array([1, 0, 0], dtype=np.float32), a.content_hash, at(0))
    with pytest.raises(ProviderMismatch, match="3-d"):
        with store.transaction():
            store.put_vector("b", "srv:model:native", np.array([0, 1, 0, 0], dtype=np.float32), b.content_hash,
                             at(0))
    with store.transaction():  # another identity has its own width
        store.put_vector("b", "other:model:native", np.array([0, 1, 0, 0], dtype=np.float32), b.content_hash, at(0))
    ids, matrix = store.load_vectors("srv:model:native")
    assert ids == ["a"] and matrix.shape == (1, 3)
    if getattr(store, "derives_edges", False):  # SQLite: rows a version before this check could leave behind
        put(store, "d")
        store.conn.execute("INSERT INTO vectors(node_seq, provider, dim, content_hash, vec, created_at) SELECT seq,"
                           " 'srv:model:native', 4, content_hash, ?, '' FROM nodes WHERE id = 'd'",
                           (np.zeros(4, dtype="<f4").tobytes(),))
        c = put(store, "c")
        store.conn.execute("INSERT INTO vectors(node_seq, provider, dim, content_hash, vec, created_at) SELECT seq,"
                           " 'srv:model:native', 3, content_hash, ?, '' FROM nodes WHERE id = 'c'",
                           (np.ones(3, dtype="<f4").tobytes(),))
        ids, matrix = store.load_vectors("srv:model:native")
        assert ids == ["a", "c"] and matrix.shape == (2, 3) and c.id == "c"


def test_readonly_opens_a_store_on_media_it_cannot_write(tmp_path, monkeypatch) -> None:
    """On a read-only mount SQLite could not make the WAL's -shm file, so even `--readonly` failed to open."""
    import os as os_module

    from mnemon.app.memory import open_store

    store = open_store(tmp_path / "m.db")
    put(store, "a", "kept on a backup mount")
    store.close()
    real_access = os_module.access
    monkeypatch.setattr(os_module, "access", lambda p, mode: False if str(p) == str(tmp_path) else
                        real_access(p, mode))
    for leftover in ("m.db-wal", "m.db-shm"):
        assert not (tmp_path / leftover).exists()
    reader = open_store(tmp_path / "m.db", readonly=True)
    try:
        assert reader.get_node("a").content == "kept on a backup mount"
        assert not (tmp_path / "m.db-shm").exists()  # nothing made beside it: opened as immutable
    finally:
        reader.close()


def _copy_while_open(tmp_path: Path, names: tuple[str, ...]) -> Path:
    """A store's files copied while its writer still holds them (as a crash or a live backup leaves them): the last
    write is committed in the write-ahead log, not yet in the database file."""
    import shutil

    from mnemon.app.memory import open_store

    writer = open_store(tmp_path / "m.db")
    try:
        put(writer, "a", "in the database file")
        writer.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        put(writer, "b", "committed, still in the log")
        assert (tmp_path / "m.db-wal").stat().st_size > 0
        media = tmp_path / "media"
        media.mkdir()
        for name in names:
            shutil.copy(tmp_path / name, media / name)
    finally:
        writer.close()
    return media


def _unwritable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    import os as os_module

    real_access = os_module.access
    monkeypatch.setattr(os_module, "access", lambda p, mode: False if str(p) == str(folder) else real_access(p, mode))


def test_readonly_on_media_it_cannot_write_reads_what_the_log_holds(tmp_path, monkeypatch) -> None:
    """Opened as immutable, SQLite ignored the -wal file: the last writes were silently missing from a read-only
    mount (or `mnemon serve`'s read-only open of it)."""
    from mnemon.app.memory import open_store

    media = _copy_while_open(tmp_path, ("m.db", "m.db-wal", "m.db-shm"))
    _unwritable(monkeypatch, media)
    reader = open_store(media / "m.db", readonly=True)
    try:
        assert reader.get_node("a") is not None
        node = reader.get_node("b")
        assert node is not None and node.content == "committed, still in the log"
    finally:
        reader.close()


def test_readonly_on_media_it_cannot_write_refuses_a_log_it_cannot_read(tmp_path, monkeypatch) -> None:
    """Without its -shm file SQLite cannot read a log on media it cannot write: a clear refusal naming the log, never
    the store as it was before the log's writes."""
    from mnemon.app.memory import open_store
    from mnemon.core.errors import StoreError

    media = _copy_while_open(tmp_path, ("m.db", "m.db-wal"))
    _unwritable(monkeypatch, media)
    with pytest.raises(StoreError) as caught:
        open_store(media / "m.db", readonly=True)
    assert "m.db-wal" in caught.value.message and "cannot be written" in caught.value.message
    assert sorted(p.name for p in media.iterdir()) == ["m.db", "m.db-wal"]  # nothing made, nothing folded in
