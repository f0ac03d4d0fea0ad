"""Smart recall end to end on small stores: what an agent sees."""
from __future__ import annotations

import pytest

from mnemon.core.errors import InvalidInput


def ids(payload):
    return [r["insight"]["id"] for r in payload["results"]]


def test_recall_returns_seed_result_objects_with_signals(mem):
    a = mem.remember("Chose Qdrant as the vector database", category="decision", importance=5)["id"]
    mem.remember("Lunch on Friday is pizza", category="context")
    out = mem.recall("which vector database did we choose")
    first = out["results"][0]
    assert first["insight"]["id"] == a
    assert set(first) >= {"insight", "score", "intent", "via", "signals"}
    assert set(first["signals"]) == {"keyword", "entity", "similarity", "graph"}
    assert first["intent"] == "GENERAL"


def test_no_filler_unrelated_memories_are_not_returned(mem):
    mem.remember("Chose Qdrant as the vector database")
    for k in range(15):
        mem.remember(f"Grocery list item number {k}: apples and bread")
    out = mem.recall("Qdrant")
    assert all("Qdrant" in r["insight"]["content"] for r in out["results"])
    assert out.get("hint") == "sparse_results"


def test_empty_store_is_sparse_not_an_error(mem):
    out = mem.recall("anything at all")
    assert out["results"] == [] and out["hint"] == "sparse_results"


@pytest.mark.parametrize("query,intent", [
    ("why did we pick Qdrant", "WHY"), ("when did we pick Qdrant", "WHEN"), ("what is Qdrant", "ENTITY"),
    ("为什么选择 Qdrant", "WHY"), ("¿por qué elegimos Qdrant?", "WHY"), ("Wann haben wir Qdrant gewählt?", "WHEN"),
    ("Qdrant", "GENERAL"),
])
def test_intent_is_detected_and_reported_in_verbose_meta(mem, query, intent):
    mem.remember("Chose Qdrant as the vector database")
    out = mem.recall(query, verbose=True)
    assert out["meta"]["intent"] == intent
    assert out["meta"]["intent_source"] == "auto"


def test_intent_override_wins_and_is_reported(mem):
    mem.remember("Chose Qdrant as the vector database")
    out = mem.recall("Qdrant", intent="why", verbose=True)
    assert out["meta"] == {**out["meta"], "intent": "WHY", "intent_source": "override"}
    with pytest.raises(InvalidInput):
        mem.recall("Qdrant", intent="HOW")


def test_superseded_memory_is_demoted_and_flagged(mem):
    old = mem.remember("The API rate limit is 100 requests per minute")["id"]
    new = mem.remember("The API rate limit is 500 requests per minute since March")["id"]
    mem.link(new, old, "supersedes", weight=1.0)
    out = mem.recall("API rate limit requests per minute")
    by_id = {r["insight"]["id"]: r for r in out["results"]}
    assert by_id[old].get("superseded") is True
    assert "superseded" not in by_id[new]
    assert ids(out).index(new) < ids(out).index(old)


def test_a_named_month_demotes_memories_written_far_from_it(mem):
    march = mem.remember("Deployed the billing service to the new cluster", created_at="2025-03-12T10:00:00Z")["id"]
    july = mem.remember("Deployed the billing service to the old cluster again", created_at="2025-07-20T10:00:00Z")["id"]
    out = mem.recall("what did we deploy in March 2025", limit=5, explain=True)
    by_id = {r["insight"]["id"]: r for r in out["results"]}
    assert ids(out).index(march) < ids(out).index(july)
    assert by_id[july].get("outside_time_window") is True and "outside_time_window" not in by_id[march]
    rerank = next(s for s in out["trace"] if s["stage"] == "rerank")
    assert rerank["time_window"]["expression"] == "March 2025" and rerank["outside_time_window"] == 1
    # without a named period nothing is flagged
    assert not any(r.get("outside_time_window") for r in mem.recall("what did we deploy", limit=5)["results"])


def test_why_results_put_causes_before_effects(mem):
    cause = mem.remember("The nightly build kept failing on the old runner", source="ops")["id"]
    effect = mem.remember("We moved CI to a new runner because the nightly build kept failing", source="ops")["id"]
    mem.link(cause, effect, "causal", sub_type="causes", weight=0.9)
    out = mem.recall("why did we move the CI runner", limit=5)
    order = ids(out)
    assert cause in order and effect in order
    assert order.index(cause) < order.index(effect)


def test_category_and_source_filters_apply_before_ranking(mem):
    mem.remember("Deploys use blue green switching", category="decision", source="ops")
    mem.remember("Deploys are on Tuesdays", category="fact", source="calendar")
    out = mem.recall("deploys", category="fact")
    assert [r["insight"]["category"] for r in out["results"]] == ["fact"]
    out = mem.recall("deploys", source="ops")
    assert [r["insight"]["source"] for r in out["results"]] == ["ops"]


def test_brief_gives_excerpts_and_points_to_show(mem):
    mem.remember("Qdrant " + "is a very long explanation " * 40)
    out = mem.recall("Qdrant", brief=True, excerpt_chars=50)
    r = out["results"][0]
    assert set(r) >= {"id", "excerpt", "category", "score", "confidence"} and len(r["excerpt"]) <= 50
    assert out["detail_command"] == "mnemon show <id>"
    with pytest.raises(InvalidInput):
        mem.recall("Qdrant", brief=True, verbose=True)


def test_explain_returns_the_stage_trace(mem):
    mem.remember("Chose Qdrant as the vector database")
    out = mem.recall("Qdrant", explain=True)
    stages = [t["stage"] for t in out["trace"]]
    assert stages[:4] == ["intent", "anchors", "beam", "rerank"] and stages[-1] == "done"
    assert out["trace"][1]["rrf_k"] == 60


def test_recall_bumps_access_counts_of_returned_memories_only(mem):
    a = mem.remember("Chose Qdrant as the vector database")["id"]
    b = mem.remember("Lunch on Friday is pizza")["id"]
    mem.recall("Qdrant")
    rows = mem.rt.store.get_nodes([a, b])
    assert rows[a].access_count == 1 and rows[b].access_count == 0
    assert mem.log(limit=1)["entries"][0]["op"] == "recall"


def test_basic_mode_is_substring_match(mem):
    mem.remember("Chose Qdrant as the vector database", importance=5)
    mem.remember("qdrant cluster has 3 nodes", importance=2)
    mem.remember("Lunch on Friday is pizza", importance=5)
    out = mem.recall("Qdrant", basic=True)
    assert isinstance(out, list) and [r["importance"] for r in out] == [5, 2]  # ASCII case-insensitive, by importance


def test_recall_without_vectors_uses_keyword_and_graph(mem_none):
    a = mem_none.remember("Chose Qdrant as the vector database")["id"]
    out = mem_none.recall("vector database", verbose=True)
    assert ids(out) == [a]
    assert out["meta"]["embedded_query"] is False
    assert out["results"][0]["signals"]["similarity"] == 0.0


def test_chinese_memories_are_found_by_chinese_queries(mem_none):
    a = mem_none.remember("选择 Qdrant 作为向量数据库")["id"]
    mem_none.remember("周五午餐吃披萨")
    assert ids(mem_none.recall("向量数据库")) == [a]


def test_bad_input_is_a_clear_error(mem):
    with pytest.raises(InvalidInput):
        mem.recall("   ")
    with pytest.raises(InvalidInput):
        mem.recall("x", limit=0)


def test_search_is_keyword_only(mem):
    a = mem.remember("Chose Qdrant as the vector database")["id"]
    out = mem.search("qdrant")
    assert [r["id"] for r in out["results"]] == [a]


def test_the_reply_to_a_matching_question_is_recalled_with_it_above_memories_that_only_share_its_words(mem):
    """A chat imported as memories: the answer shares no word with the question asked later; the question's
    relevance carries over the reply step to what its source wrote next, which is read together with it."""
    day = "2025-05-02T18:00:00Z"
    question = mem.remember("Which football club do you support these days?", source="chat", created_at=day)["id"]
    answer = mem.remember("Manchester City, ever since I was a kid.", source="chat", created_at=day)["id"]
    noise = [mem.remember(text, source="notes", created_at=f"2025-0{k + 6}-10T09:00:00Z")["id"] for k, text in
             enumerate(["The football pitch behind the club house is closed in June",
                        "Support tickets about the club booking form doubled this week",
                        "Football club membership fees are due in September"])]
    out = mem.recall("which football club does she support", limit=5)
    assert ids(out)[:2] == [question, answer] and set(ids(out)[2:]) <= set(noise)
    by_id = {r["insight"]["id"]: r for r in out["results"]}
    # the answer's own words match nothing: it has its question's relevance as its graph signal, half of the
    # question's keyword evidence, and says whose reply it is
    assert by_id[answer]["signals"]["graph"] == 1.0
    assert by_id[answer]["signals"]["keyword"] == pytest.approx(by_id[question]["signals"]["keyword"] / 2, abs=1e-4)
    assert by_id[answer]["reply_to"] == question and "reply_to" not in by_id[question]


def test_a_word_no_memory_holds_never_hides_the_others(mem_none, monkeypatch):
    """Keyword search goes by a query's rarest words within a posting budget; a word found nowhere (a typo, a name
    never written down) is the rarest of all and must not use up the search on its own."""
    import mnemon.app.recall as recall_module

    monkeypatch.setattr(recall_module, "ANCHOR_POSTING_BUDGET", 1)  # so a common word alone exceeds the budget
    mem_none.remember("Lunch with the team")
    battery = [mem_none.remember(text)["id"] for text in ("Battery cells for the pilot", "Battery shipment delayed")]
    out = mem_none.recall("battery xyzzy", explain=True)
    anchors = next(t for t in out["trace"] if t["stage"] == "anchors")["signals"]
    assert set(battery) <= set(anchors["keyword"])  # not left to the recency anchor of a small store
    assert all("battery" in r["insight"]["content"].lower() for r in out["results"])


def test_a_word_no_memory_holds_never_stands_for_the_query_when_the_others_are_common(mem_none):
    """Words in more than a quarter of all memories are searched by only when nothing rarer is left; a word found
    nowhere is not "rarer"."""
    mem_none.remember("Lunch with the team")
    battery = [mem_none.remember(f"Battery check number {i} passed")["id"] for i in range(60)]  # > max(50, n/4)
    out = mem_none.recall("battery xyzzy", explain=True, limit=5)
    anchors = next(t for t in out["trace"] if t["stage"] == "anchors")["signals"]
    assert anchors["keyword"] and set(anchors["keyword"]) <= set(battery)


def test_a_vault_row_is_not_flagged_outside_a_period_for_when_it_was_ingested(mem, example_vault) -> None:
    """A vault row's time is its ingest: the April meeting's bullet was flagged and halved as "outside April"."""
    mem.ingest(str(example_vault), embed=False)
    timed = mem.remember("Battery supplier call moved", created_at="2025-01-10T09:00:00Z")["id"]
    out = mem.recall("battery supplier in April 2026", limit=10, explain=True)
    vault_hits = [r for r in out["results"] if r["insight"]["source"].startswith("vault:")]
    assert vault_hits and not any(r.get("outside_time_window") for r in vault_hits)
    assert [r.get("outside_time_window") for r in out["results"] if r["insight"]["id"] == timed] in ([True], [])


def test_a_known_entity_typed_in_lower_case_is_still_the_entity(mem) -> None:
    """`who is mira` lost the entity signal (0.84 → 0.44) that `who is Mira` had."""
    mem.remember("Mira leads the Globex integration", entities="Mira,Globex")
    mem.remember("The weekly sync is on Tuesdays")
    upper, lower = (mem.recall(q, limit=3, verbose=True) for q in ("who is Mira", "who is mira"))
    assert upper["results"][0]["signals"]["entity"] == lower["results"][0]["signals"]["entity"] > 0
    assert lower["results"][0]["insight"]["content"].startswith("Mira")


def test_recall_says_when_most_memories_have_no_vector_from_its_provider(mem, example_vault) -> None:
    """After `ingest --no-embed` (or a provider switch) the similarity signal was silently off for most memories."""
    mem.ingest(str(example_vault), embed=False)
    warned = mem.recall("battery supplier", limit=3)
    assert any("embed --all" in w for w in warned.get("warnings", []))
    mem.embed_all()
    assert not any("embed --all" in w for w in mem.recall("battery supplier", limit=3).get("warnings", []))


def test_a_persons_causal_link_orders_a_why_answer_over_a_cue_words_guess(mem) -> None:
    """"because" in the older memory made the newer one its cause (an automatic edge); a person linking them the other
    way made a cycle, and the effect came before its cause."""
    cause = mem.remember("The outage happened because the database crashed")["id"]
    effect = mem.remember("Customers complained about the outage")["id"]
    mem.link(cause, effect, "causal", sub_type="causes", weight=0.9)
    ids = [r["insight"]["id"] for r in mem.recall("why was there an outage", intent="WHY", limit=5)["results"]]
    assert ids.index(cause) < ids.index(effect)
