"""Each smart-recall stage on small hand-built graphs."""
from __future__ import annotations


import pytest

from mnemon.core.graph import topo_order
from mnemon.core.intent import Intent
from mnemon.core.model import Link
from mnemon.core.recall.beam import beam_search
from mnemon.core.recall.fusion import rrf, via_of
from mnemon.core.recall.params import BEAM, EDGE_WEIGHTS, RERANK, RERANK_NO_EMBEDDING, BeamParams, confidence_label
from mnemon.core.recall.rerank import Signals, combine, entity_signal, is_supported, keyword_signal, minmax


def graph(edges: list[tuple[str, str, str, float]]):
    adj: dict[str, list[tuple[str, Link]]] = {}
    for k, (a, b, t, w) in enumerate(edges):
        adj.setdefault(a, []).append((b, Link(a, b, t, "", w, k + 1)))
    return lambda ids: {i: adj.get(i, []) for i in ids}


def no_sim(ids):
    return {}


# ── RRF ──────────────────────────────────────────────────────────────────────
def test_rrf_sums_reciprocal_ranks_with_k_60_and_normalises_by_max():
    scores = rrf({"keyword": ["a", "b", "c"], "vector": ["c", "a"]})
    raw_a = 1 / 61 + 1 / 62
    raw_c = 1 / 63 + 1 / 61
    raw_b = 1 / 62
    top = max(raw_a, raw_c)
    assert scores["a"] == pytest.approx(raw_a / top)
    assert scores["c"] == pytest.approx(raw_c / top)
    assert scores["b"] == pytest.approx(raw_b / top)
    assert max(scores.values()) == pytest.approx(1.0)


def test_via_names_the_signal_or_hybrid():
    rankings = {"keyword": ["a", "b"], "vector": ["b"], "recency": ["c"]}
    assert via_of("a", rankings) == "keyword"
    assert via_of("b", rankings) == "hybrid"
    assert via_of("c", rankings) == "time"


# ── beam search ──────────────────────────────────────────────────────────────
def test_neighbour_never_outscores_its_anchor_and_decays_along_the_path():
    nb = graph([("a", "b", "causal", 1.0), ("b", "c", "causal", 1.0)])
    r = beam_search({"a": 1.0}, nb, BeamParams(5, 5, 50), EDGE_WEIGHTS[Intent.WHY], lambda e: e.type, no_sim)
    assert r.scores["a"] == 1.0
    assert 0 < r.scores["c"] < r.scores["b"] < r.scores["a"]
    # structural part only: φ_causal(WHY)=0.7, λ1=1, λ2=0.4 → 0.7/1.4 per hop
    assert r.scores["b"] == pytest.approx(0.5)
    assert r.via["b"] == "causal" and r.parent["c"] == "b"


def test_intent_edge_weights_change_which_neighbour_wins():
    nb = graph([("a", "t", "temporal", 1.0), ("a", "c", "causal", 1.0)])
    why = beam_search({"a": 1.0}, nb, BeamParams(5, 2, 50), EDGE_WEIGHTS[Intent.WHY], lambda e: e.type, no_sim)
    when = beam_search({"a": 1.0}, nb, BeamParams(5, 2, 50), EDGE_WEIGHTS[Intent.WHEN], lambda e: e.type, no_sim)
    assert why.scores["c"] > why.scores["t"]
    assert when.scores["t"] > when.scores["c"]


def test_supersedes_edges_are_not_traversed():
    nb = graph([("a", "old", "supersedes", 1.0)])
    r = beam_search({"a": 1.0}, nb, BeamParams(5, 2, 50), EDGE_WEIGHTS[Intent.GENERAL], lambda e: None if e.type == "supersedes" else e.type, no_sim)
    assert "old" not in r.scores


def test_beam_width_depth_and_visit_budget_are_honoured():
    star = graph([("a", f"n{i}", "entity", 1.0) for i in range(30)] + [("n0", "deep1", "entity", 1.0),
                                                                        ("deep1", "deep2", "entity", 1.0)])
    narrow = beam_search({"a": 1.0}, star, BeamParams(3, 1, 100), EDGE_WEIGHTS[Intent.ENTITY], lambda e: e.type, no_sim)
    assert narrow.visited == 3 and len(narrow.scores) == 4  # anchor + width
    assert narrow.dropped_by_budget == 27
    shallow = beam_search({"a": 1.0}, star, BeamParams(40, 2, 100), EDGE_WEIGHTS[Intent.ENTITY], lambda e: e.type, no_sim)
    assert "deep1" in shallow.scores and "deep2" not in shallow.scores
    capped = beam_search({"a": 1.0}, star, BeamParams(40, 5, 7), EDGE_WEIGHTS[Intent.ENTITY], lambda e: e.type, no_sim)
    assert capped.visited == 7


def test_beam_is_deterministic_under_ties():
    edges = [("a", x, "semantic", 0.5) for x in "zyxwv"]
    runs = {tuple(sorted(beam_search({"a": 1.0}, graph(edges), BeamParams(2, 1, 10), EDGE_WEIGHTS[Intent.GENERAL],
                                     lambda e: e.type, no_sim).scores)) for _ in range(5)}
    assert runs == {("a", "v", "w")}  # equal scores: lowest ids win the beam


def test_semantic_term_rewards_neighbours_close_to_the_query():
    nb = graph([("a", "near", "entity", 1.0), ("a", "far", "entity", 1.0)])
    r = beam_search({"a": 1.0}, nb, BeamParams(5, 1, 10), EDGE_WEIGHTS[Intent.GENERAL], lambda e: e.type,
                    lambda ids: {"near": 0.9, "far": 0.0})
    assert r.scores["near"] > r.scores["far"]


def test_beam_parameter_table_matches_the_seed():
    assert (BEAM[Intent.WHY].width, BEAM[Intent.WHY].depth, BEAM[Intent.WHY].max_visited) == (15, 5, 500)
    assert (BEAM[Intent.WHEN].width, BEAM[Intent.WHEN].depth, BEAM[Intent.WHEN].max_visited) == (10, 5, 400)
    assert (BEAM[Intent.ENTITY].width, BEAM[Intent.ENTITY].depth, BEAM[Intent.ENTITY].max_visited) == (10, 4, 400)
    assert (BEAM[Intent.GENERAL].width, BEAM[Intent.GENERAL].depth, BEAM[Intent.GENERAL].max_visited) == (10, 4, 500)


# ── re-rank ──────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("intent,expected", [
    (Intent.WHY, (0.10, 0.10, 0.30, 0.50)), (Intent.WHEN, (0.15, 0.15, 0.30, 0.40)),
    (Intent.ENTITY, (0.20, 0.40, 0.20, 0.20)), (Intent.GENERAL, (0.25, 0.25, 0.25, 0.25)),
])
def test_rerank_weights_per_intent_are_the_seeds(intent, expected):
    w = RERANK[intent]
    assert (w.keyword, w.entity, w.similarity, w.graph) == expected
    assert sum(expected) == pytest.approx(1.0)
    assert RERANK_NO_EMBEDDING[intent].similarity == 0.0
    assert sum(vars(RERANK_NO_EMBEDDING[intent]).values()) == pytest.approx(1.0)


def test_combine_is_the_weighted_sum_and_supersedes_multiplies_by_a_quarter():
    s = Signals(keyword=0.8, entity=0.5, similarity=0.4, graph=1.0)
    w = RERANK[Intent.ENTITY]
    plain = combine(s, w, superseded=False)
    assert plain == pytest.approx(0.2 * 0.8 + 0.4 * 0.5 + 0.2 * 0.4 + 0.2 * 1.0)
    assert combine(s, w, superseded=True) == pytest.approx(plain * 0.25)


def test_keyword_signal_is_weighted_share_of_query_terms():
    assert keyword_signal({"qdrant": 1.0, "vector": 1.0}, frozenset({"qdrant"})) == 0.5
    assert keyword_signal({"qdrant": 3.0, "vector": 1.0}, frozenset({"qdrant"})) == 0.75
    assert keyword_signal({}, frozenset({"x"})) == 0.0


def test_entity_signal_counts_matched_query_entities():
    assert entity_signal(frozenset({"qdrant", "milvus"}), frozenset({"qdrant"})) == 0.5
    assert entity_signal(frozenset(), frozenset({"qdrant"})) == 0.0


def test_unsupported_candidates_are_not_filler():
    assert not is_supported(Signals(0.0, 0.0, 0.1, 1.0))  # graph alone is no evidence
    assert is_supported(Signals(0.2, 0.0, 0.0, 0.0))
    assert is_supported(Signals(0.0, 0.0, 0.3, 0.0))


def test_minmax_and_confidence_labels():
    assert minmax({"a": 2.0, "b": 4.0}) == {"a": 0.0, "b": 1.0}
    assert minmax({"a": 3.0}) == {"a": 1.0}
    assert [confidence_label(x) for x in (0.1, 0.3, 0.7)] == ["low", "medium", "high"]


# ── WHY ordering ─────────────────────────────────────────────────────────────
def test_kahn_puts_causes_before_effects_and_the_way_to_the_best_result_first():
    ids = ["effect", "cause", "other"]
    order = topo_order(ids, [("cause", "effect")], {"effect": 0.9, "cause": 0.2, "other": 0.5})
    assert order.index("cause") < order.index("effect")
    # ready nodes by the best result each leads to: cause (→ effect 0.9) before other (0.5), though 0.2 < 0.5
    assert order == ["cause", "effect", "other"]
    # without the effect to lead to, by score
    assert topo_order(["cause", "other"], [], {"cause": 0.2, "other": 0.5}) == ["other", "cause"]


def test_kahn_appends_cycle_members_instead_of_losing_them():
    order = topo_order(["a", "b", "c"], [("a", "b"), ("b", "a")], {"a": 0.1, "b": 0.2, "c": 0.3})
    assert sorted(order) == ["a", "b", "c"] and order[0] == "c"


def test_kahn_keeps_the_callers_order_among_equal_scores():
    """With no causal edge the WHY ordering must change nothing: equal scores kept the ids' (random) order."""
    ids = ["z-important", "a-newer", "m-older"]  # recall's ranking: importance, then recency
    assert topo_order(ids, [], dict.fromkeys(ids, 0.5)) == ids
    assert topo_order(ids, [("m-older", "z-important")], dict.fromkeys(ids, 0.5)) == ["a-newer", "m-older",
                                                                                      "z-important"]
