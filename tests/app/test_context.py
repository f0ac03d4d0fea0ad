"""Context packs (`retrieve`): truth policies, skipped reasons, killed/candidate edges, budget, replay, preflight."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.context import _best_first, build_context_pack
from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from .vault_graph import build, example_notes

POLICIES = {"source_contained_observation", "active_evidence", "provenance_not_fact", "candidate_only",
            "active_validated_claim", "current_state_assertion", "lapsed_state_assertion", "open_prediction",
            "missed_prediction", "unverifiable_prediction"}
PROMPT = "what is the school confirmation status for the move?"


@pytest.fixture
def graph(mem: Mnemon) -> tuple[Mnemon, dict[str, str]]:
    ids = build(mem, example_notes(), links=[("Projects/move.md", "Projects/school-search.md", "active"),
                                             ("People/alex.md", "Projects/move.md", "candidate")])
    return mem, ids


def _edges(pack: dict) -> list[dict]:
    return [i for i in pack["items"] if i["item_type"] == "edge"]


def test_pack_shape_and_truth_policy_everywhere(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    pack = mem.retrieve(PROMPT, max_items=8)
    for key in ("prompt", "budget", "budget_unit", "used_budget", "max_items", "tokens", "clusters", "brain_labels",
                "retrieval", "items", "skipped", "stats", "empty_reason"):
        assert key in pack
    assert pack["budget_unit"] == "chars" and pack["empty_reason"] is None
    assert "the" not in pack["tokens"] and "what" not in pack["tokens"]  # Mneme matched on "the"
    assert pack["items"][0]["id"] == ids["Waiting for school confirmation before choosing an apartment"]
    for item in pack["items"] + pack["skipped"]:
        assert item["truth_policy"] in POLICIES
    for item in pack["items"]:
        assert item["score_factors"] and item["score"] >= 0
    order = [_best_first(i) for i in pack["items"]]
    assert order == sorted(order)  # best first, whichever packing pass took an item


def test_observation_edges_of_returned_items_are_reported_as_duplicates(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    pack = mem.retrieve(PROMPT)
    dupes = [s for s in pack["skipped"] if s["reason"] == "duplicate_of_item"]
    assert dupes and all(s["kind"] == "edge" for s in dupes)


def test_candidate_edges_are_marked_and_can_be_excluded(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    pack = mem.retrieve("Alex lease renewal garden flat move", max_items=12, budget=10000)
    candidates = [e for e in _edges(pack) if e["status"] == "candidate"]
    assert candidates and all(e["candidate_only"] and e["truth_policy"] == "candidate_only" for e in candidates)
    active = [e for e in _edges(pack) if e["status"] == "active"]
    assert all(not e["candidate_only"] for e in active)
    strict = mem.retrieve("Alex lease renewal garden flat move", max_items=12, budget=10000, include_candidates=False)
    assert all(e["status"] == "active" for e in _edges(strict))
    assert any(s["reason"] == "candidate_edge_excluded" for s in strict["skipped"])


def test_killed_edges_never_appear(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    store = mem.rt.store
    edge = store.find_edge("note:People/alex.md", "note:Projects/move.md", "links_to")
    with store.transaction():
        store.set_edge_status(edge.id, "killed", actor="test", reason="wrong link")
    pack = mem.retrieve("Alex lease renewal garden flat move", max_items=12, budget=10000)
    shown = {i.get("edge_id") for i in pack["items"]} | {s["id"] for s in pack["skipped"]}
    assert edge.id not in shown and f"edge:{edge.id}" not in shown
    assert pack["stats"]["killed_edges_excluded"] >= 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(min_value=1, max_value=600), max_items=st.integers(min_value=1, max_value=10))
def test_budget_and_max_items_are_never_exceeded(graph: tuple[Mnemon, dict[str, str]], budget: int,
                                                 max_items: int) -> None:
    mem, _ = graph
    pack = build_context_pack(mem.rt, PROMPT, budget=budget, max_items=max_items)
    used = sum(len(i["title"]) + len(i["text"] or "") for i in pack["items"])
    assert used == pack["used_budget"] <= budget
    assert len(pack["items"]) <= max_items
    reasons = {s["reason"] for s in pack["skipped"]}
    assert reasons <= {"budget_limit", "max_items", "duplicate_of_item", "candidate_edge_excluded"}


def test_long_item_is_truncated_to_fit_instead_of_breaking_the_budget(mem: Mnemon) -> None:
    mem.remember("school confirmation " + "detail " * 200, category="fact")
    pack = mem.retrieve("school confirmation", budget=300)
    assert pack["used_budget"] <= 300
    assert pack["items"] and pack["items"][0].get("truncated") is True


def test_as_of_replay_hides_later_memories(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    new = mem.remember("The school confirmation email arrived today", category="fact")["id"]
    later = mem.retrieve("school confirmation email")
    earlier = mem.retrieve("school confirmation email", as_of="2026-02-21T00:00:00Z")
    texts = lambda p: {i.get("text") for i in p["items"]}  # noqa: E731
    assert "The school confirmation email arrived today" in texts(later)
    # not an item, nor a skipped entry (its title was one), nor an anchor: a replay names no later row
    assert new not in str(earlier) and "arrived today" not in str(earlier)
    assert earlier["as_of"].startswith("2026-02-21")


def test_stopword_prompt_and_no_match(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    assert mem.retrieve("what should the agent do here?")["empty_reason"] in ("no_prompt_terms", "no_matching_memories",
                                                                              None)
    assert mem.retrieve("what is this?")["empty_reason"] == "no_prompt_terms"
    assert mem.retrieve("zyxwvut quantum")["empty_reason"] == "no_matching_memories"


def test_archive_notes_are_demoted(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    pack = mem.retrieve("garden invoice follow up supplier", verbose=True)
    archived = next(i for i in pack["items"] if i["source_path"].startswith("Archive/"))
    assert archived["score_factors"]["source_authority"] < 1.0
    assert "signals" in archived and "via" in archived


def test_explain_adds_ranking_and_trace(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    pack = mem.retrieve(PROMPT, explain=True)
    assert len(pack["explain"]["ranking"]) == len(pack["items"])
    assert any(stage["stage"] == "anchors" for stage in pack["explain"]["recall_trace"])


def test_retrieve_does_not_touch_access_counts(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    mid = ids["Waiting for school confirmation before choosing an apartment"]
    mem.retrieve(PROMPT)
    assert mem.rt.store.get_node(mid).access_count == 0


@pytest.mark.parametrize("kw", [{"budget": 0}, {"max_items": 0}, {"max_items": 101}, {"budget": True},
                                {"as_of": "yesterday"}])
def test_invalid_arguments(graph: tuple[Mnemon, dict[str, str]], kw: dict) -> None:
    mem, _ = graph
    with pytest.raises(InvalidInput):
        mem.retrieve(PROMPT, **kw)
    with pytest.raises(InvalidInput):
        mem.retrieve("   ")


def test_agent_preflight_uses_this_pack(graph: tuple[Mnemon, dict[str, str]]) -> None:
    from mnemon.app.world import agent_preflight

    mem, _ = graph
    out = agent_preflight(mem.rt, PROMPT)
    assert out["context"]["budget_unit"] == "chars"
    assert out["context"]["items"]
    assert out["route"]["path"] == "retrieval" and out["route"]["cues"] == ["what", "?"]
    corrected = agent_preflight(mem.rt, "Actually the school confirmed the place; what is left for the move?")
    assert corrected["route"]["path"] == "both" and "mnemon remember" in corrected["route"]["next_step"]


def test_a_pack_says_which_items_lie_outside_the_period_the_prompt_names(mem: Mnemon) -> None:
    march = mem.remember("Deployed the billing service to the new cluster", created_at="2025-03-12T10:00:00Z")["id"]
    july = mem.remember("Deployed the billing service to the old cluster again", created_at="2025-07-20T10:00:00Z")["id"]
    pack = mem.retrieve("what did we deploy in March 2025", max_items=20, budget=10000)
    factors = {i["id"]: i["score_factors"] for i in pack["items"] if i["id"] in (march, july)}
    assert factors[july].get("outside_time_window") is True and "outside_time_window" not in factors[march]


def test_as_of_replay_ignores_a_supersedes_made_after_it(mem: Mnemon) -> None:
    # finding #1: at 2026-03-01 the old code was the current fact; the correction and its link came later
    old = mem.remember("The warehouse door code is 1234", created_at="2026-01-10T10:00:00Z", no_diff=True)["id"]
    new = mem.remember("The warehouse door code changed to 9876", created_at="2026-06-10T10:00:00Z",
                       no_diff=True)["id"]
    mem.link(new, old, "supersedes")
    today = {i["id"]: i for i in mem.retrieve("warehouse door code")["items"]}
    assert today[old].get("superseded") is True  # today the correction holds
    then = {i["id"]: i for i in mem.retrieve("warehouse door code", as_of="2026-03-01T00:00:00Z")["items"]}
    assert new not in then and "superseded" not in then[old]
    assert "superseded" not in then[old]["score_factors"]
    assert then[old]["score_factors"]["recall"] > 2 * today[old]["score_factors"]["recall"]


def test_as_of_replay_reads_a_month_without_a_year_against_as_of(mem: Mnemon) -> None:
    # finding #3: "in June" at 2025-08-01 is June 2025, not the June before the wall clock
    june25 = mem.remember("Budget review: rocket budget approved", created_at="2025-06-15T10:00:00Z",
                          no_diff=True)["id"]
    mem.remember("Budget review: rocket budget doubled", created_at="2026-06-20T10:00:00Z", no_diff=True)
    pack = mem.retrieve("rocket budget in June", as_of="2025-08-01T00:00:00Z", explain=True)
    window = next(t["time_window"] for t in pack["explain"]["recall_trace"] if t["stage"] == "rerank")
    assert window is not None and "2025-06" in str(window)
    item = next(i for i in pack["items"] if i["id"] == june25)
    assert "outside_time_window" not in item["score_factors"]


def test_a_bullet_and_its_own_date_edge_are_one_sentence_paid_once(example_vault_mem: Mnemon) -> None:
    # finding #10: the bullet "The pier inspection is due on 2026-05-20" and its mentions_date edge (evidence: the
    # same bullet, with its list marker) were both packed: the budget paid for one sentence twice
    pack = example_vault_mem.retrieve("pier inspection")
    bullet = next(i for i in pack["items"] if i["item_type"] == "memory" and "pier inspection is due" in i["text"])
    repeats = [i for i in pack["items"] if i["item_type"] == "edge" and bullet["id"] in (i["src"]["id"], i["dst"]["id"])
               and bullet["text"] in str(i["text"])]
    assert repeats == []
    dupes = [s for s in pack["skipped"] if s["reason"] == "duplicate_of_item" and s.get("duplicate_of") == bullet["id"]]
    assert dupes and all(s["kind"] == "edge" for s in dupes)


def test_a_replay_before_anything_was_written_says_so(example_vault_mem) -> None:
    """Memories that matched but did not exist yet at --as-of were reported as "no_matching_memories"."""
    out = example_vault_mem.retrieve(prompt="supplier lighthouse", as_of="2001-01-01T00:00:00Z")
    assert out["items"] == [] and out["empty_reason"] == "all_matches_written_after_as_of"
    assert example_vault_mem.retrieve(prompt="zzqx unmatched words")["empty_reason"] == "no_matching_memories"


def test_a_claim_packed_as_a_world_assertion_is_not_packed_again_as_its_edge(example_vault_mem, example_vault) -> None:
    """A confirmed resolve claim is both an active edge and the world model's current assertion: the pack states it
    once, as the assertion (which carries its validity), and says why the edge was left out."""
    claim = {"slug": "ada-site", "title": "Ada site", "date": "2026-11-20", "sources_checked": ["email"],
             "claims": [{"subject": "Ada Quill", "subject_type": "person", "predicate": "located_in",
                         "object": "Harbour Station", "object_type": "place", "confidence": 0.95, "strength": 0.95,
                         "certainty": "confirmed", "source_type": "email", "evidence": "Badge record confirms."}]}
    [edge] = example_vault_mem.resolve(str(example_vault), claim)["edges"]
    pack = example_vault_mem.retrieve("where is Ada Quill located Harbour Station", verbose=True)
    [stated] = [i for i in pack["items"] if i["item_type"] == "world_state"]
    assert stated["title"] == "Ada Quill located_in Harbour Station"
    assert all(i.get("edge_id") != edge["id"] for i in pack["items"])
    [left] = [s for s in pack["skipped"] if s["id"] == f"edge:{edge['id']}"]
    assert (left["reason"], left["duplicate_of"]) == ("deduped_by_world_state_assertion", stated["id"])


def test_an_item_line_with_a_comment_or_block_id_is_one_item_not_an_item_and_its_edge(mem: Mnemon,
                                                                                        tmp_path) -> None:
    """The date edge of `- [ ] pay the invoice by 2026-05-05 ^inv` has the whole line as evidence; the item reads
    without the block id (or a comment), so the pack took the edge as a second item saying the same."""
    vault = tmp_path / "bills"
    vault.mkdir()
    (vault / "bills.md").write_text("# Bills\n\n- [ ] pay the electricity invoice by 2026-05-05 ^inv1\n"
                                    "- [ ] pay the water invoice by 2026-05-07 <!-- ask Ana -->\n"
                                    "- [ ] pay the gas invoice by 2026-05-09\n", encoding="utf-8")
    mem.ingest(str(vault))
    pack = mem.retrieve("pay the invoice", max_items=12, budget=10000)
    assert sorted(i["text"] for i in pack["items"]) == ["pay the electricity invoice by 2026-05-05",
                                                        "pay the gas invoice by 2026-05-09",
                                                        "pay the water invoice by 2026-05-07"]
    assert sum(s["reason"] == "duplicate_of_item" for s in pack["skipped"]) >= 3


@pytest.mark.parametrize("prompt", ["open risks in Projects/", "battery supplier risk", "lighthouse tasks"])
def test_tied_edges_are_taken_and_listed_by_what_they_join_on_every_backend(example_vault_mem: Mnemon,
                                                                             prompt: str) -> None:
    """Edges of one score were taken and listed by id, and SQLite numbers a note's edges to its own items below zero
    while PostgreSQL does not: "open risks in Projects/" packed has_tag edges on one and links_to on the other."""
    pack = example_vault_mem.retrieve(prompt, max_items=12, budget=10000)
    edges = [i for i in pack["items"] if i["item_type"] == "edge"]
    keys = [(-i["score"], i["relation"], i["src"]["id"], i["dst"]["id"]) for i in edges]
    assert keys == sorted(keys)
