"""The automatic edge rules of remember: temporal, entity, causal, semantic (pure functions)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core import graph_rules as gr
from mnemon.core.model import Memory, iso

T0 = datetime(2026, 1, 10, 12, 0, tzinfo=timezone.utc)
NOW = iso(T0)


def mem(mid: str, content: str = "x", *, hours: float = 0.0, source: str = "user") -> Memory:
    return Memory(id=mid, content=content, source=source, created_at=iso(T0 + timedelta(hours=hours)))


def test_backbone_links_previous_same_source_memory_both_ways() -> None:
    new, prev = mem("new"), mem("prev", hours=-100)
    edges = gr.temporal_edges(new, prev, [], NOW)
    pairs = {(e.src, e.dst, e.sub_type, e.metadata["direction"]) for e in edges}
    assert pairs == {("prev", "new", "backbone", "precedes"), ("new", "prev", "backbone", "succeeds")}
    assert all(e.weight == 1.0 for e in edges)


def test_proximity_weight_is_one_over_one_plus_hours_and_window_is_24h() -> None:
    new = mem("new")
    nearby = [mem("h0", hours=-0.0), mem("h3", hours=-3), mem("h24", hours=-24), mem("h25", hours=-25)]
    edges = gr.temporal_edges(new, None, nearby, NOW)
    by_dst = {e.dst: e for e in edges if e.src == "new"}
    assert set(by_dst) == {"h0", "h3", "h24"}
    assert by_dst["h3"].weight == pytest.approx(1 / (1 + 3))
    assert by_dst["h24"].weight == pytest.approx(1 / 25)
    assert by_dst["h0"].weight == pytest.approx(1.0)
    # symmetric
    assert {(e.src, e.dst) for e in edges if e.dst == "new"} == {(k, "new") for k in by_dst}


def test_proximity_is_capped_at_ten_and_skips_the_backbone_neighbour() -> None:
    new = mem("new")
    prev = mem("p0", hours=-0.1)
    nearby = [prev] + [mem(f"n{i}", hours=-(i + 1) * 0.5) for i in range(15)]
    edges = gr.temporal_edges(new, prev, nearby, NOW)
    proximity_targets = [e.dst for e in edges if e.sub_type == "proximity" and e.src == "new"]
    assert len(proximity_targets) == gr.PROXIMITY_MAX
    assert "p0" not in proximity_targets


def test_proximity_is_measured_from_the_memorys_own_time_for_historical_imports() -> None:
    new = mem("old", hours=-5000)
    edges = gr.temporal_edges(new, None, [mem("neighbour", hours=-5001)], NOW)
    assert any(e.dst == "neighbour" and e.weight == pytest.approx(0.5) for e in edges)


def test_entity_edges_at_most_five_per_entity_and_fifty_per_memory() -> None:
    holders = {f"E{k}": [f"m{k}_{i}" for i in range(8)] for k in range(20)}
    edges = gr.entity_edges("new", holders, NOW)
    assert len(edges) <= gr.ENTITY_LINKS_PER_MEMORY
    out = [e for e in edges if e.src == "new"]
    per_entity: dict[str, int] = {}
    for e in out:
        per_entity[e.metadata["entity"]] = per_entity.get(e.metadata["entity"], 0) + 1
    assert max(per_entity.values()) <= gr.ENTITY_LINKS_PER_ENTITY
    assert len(out) == gr.ENTITY_LINKS_PER_MEMORY // 2
    assert {(e.dst, e.src) for e in edges if e.dst == "new"} == {(e.src, e.dst) for e in out}


def test_entity_edges_link_each_other_memory_once_even_when_sharing_many_entities() -> None:
    edges = gr.entity_edges("new", {"A": ["x", "new"], "B": ["x"]}, NOW)
    assert [(e.src, e.dst) for e in edges] == [("new", "x"), ("x", "new")]


def test_causal_edge_points_from_cause_to_the_memory_with_the_keyword() -> None:
    prev = mem("prev", "The checkout API latency spiked during the sale", hours=-1)
    new = mem("new", "We added a Redis cache because checkout API latency spiked")
    [edge] = gr.causal_edges(new, [prev], NOW)
    assert (edge.src, edge.dst, edge.type, edge.sub_type) == ("prev", "new", "causal", "causes")
    assert edge.weight >= gr.CAUSAL_MIN_OVERLAP


def test_causal_needs_a_cue_and_enough_overlap() -> None:
    prev = mem("prev", "Checkout API latency spiked", hours=-1)
    assert gr.causal_edges(mem("new", "Checkout API latency spiked again today"), [prev], NOW) == []
    unrelated = mem("new", "We adopted tabs because the team voted")
    assert gr.causal_edges(unrelated, [prev], NOW) == []


def test_causal_sub_types_and_chinese_cues() -> None:
    prev = mem("prev", "数据库连接池耗尽", hours=-1)
    [edge] = gr.causal_edges(mem("new", "因为数据库连接池耗尽，服务宕机"), [prev], NOW)
    assert edge.sub_type == "causes" and edge.dst == "new"
    prev2 = mem("p2", "feature flags for checkout", hours=-1)
    [e2] = gr.causal_edges(mem("n2", "feature flags for checkout so that rollbacks are instant"), [prev2], NOW)
    assert e2.sub_type == "enables"


def test_causal_looks_at_no_more_than_ten_recent_memories() -> None:
    recent = [mem(f"p{i}", "the deploy pipeline broke", hours=-i - 1) for i in range(15)]
    edges = gr.causal_edges(mem("new", "the deploy pipeline broke because of a bad config"), recent, NOW)
    assert len(edges) == gr.CAUSAL_LOOKBACK


def test_semantic_takes_the_three_highest_when_given_in_ranked_order() -> None:
    similar = sorted([("a", 0.95), ("b", 0.80), ("d", 0.9), ("e", 0.85)], key=lambda p: -p[1])
    edges = gr.semantic_edges("new", similar + [("new", 1.0), ("c", 0.79)], NOW)
    assert {e.dst for e in edges if e.src == "new"} == {"a", "d", "e"}
    assert {(e.src, e.dst) for e in edges if e.dst == "new"} == {("a", "new"), ("d", "new"), ("e", "new")}
    assert all(e.weight >= gr.SEMANTIC_AUTO_LINK for e in edges)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=-30, max_value=30, allow_nan=False), max_size=30))
def test_temporal_invariants(offsets: list[float]) -> None:
    nearby = [mem(f"m{i}", hours=h) for i, h in enumerate(offsets)]
    edges = gr.temporal_edges(mem("new"), None, nearby, NOW)
    out = [e for e in edges if e.src == "new"]
    assert len(out) <= gr.PROXIMITY_MAX
    for e in out:
        assert 1 / 25 - 1e-9 <= e.weight <= 1.0
    assert len(edges) == 2 * len(out)


@pytest.mark.parametrize("question", ["Which club do you support?", "Which club?  \n", "你支持哪个俱乐部？"])
def test_the_forward_step_out_of_a_question_is_a_reply_step(question: str) -> None:
    prev, new = mem("q", question, hours=-2), mem("a", "Manchester City.")
    edges = {(e.src, e.dst): e for e in gr.temporal_edges(new, prev, [], NOW)}
    assert (edges[("q", "a")].sub_type, edges[("q", "a")].rule) == ("reply", "temporal:reply")
    assert edges[("a", "q")].sub_type == "backbone"  # the way back stays a plain backbone step


@pytest.mark.parametrize("content,hours", [("We chose Manchester City.", -2), ("Which club do you support?", -25),
                                           ("Is it? No: we chose City.", -1)])
def test_a_statement_or_a_question_a_day_old_is_followed_by_a_plain_backbone_step(content: str, hours: float) -> None:
    edges = gr.temporal_edges(mem("a", "City."), mem("q", content, hours=hours), [], NOW)
    assert {e.sub_type for e in edges} == {"backbone"}
