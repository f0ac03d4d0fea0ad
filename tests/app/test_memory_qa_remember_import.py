"""QA round of `remember`, auto-prune and draft `import` as an agent uses them, on both backends: the diff tells a
changed small word from a repeat, auto-prune never takes the correction that keeps a stale fact demoted, and a
draft's optional fields, bad edges and dry run read the way its real import does."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)


# ── the advisory diff, end to end ────────────────────────────────────────────
@pytest.mark.parametrize(("old", "new", "verdict"), [
    ("The payment server is up", "The payment server is down", "CONFLICT"),  # opposite words, as a negation
    ("The nightly backup job is passing", "The nightly backup job is not passing", "CONFLICT"),
])
def test_a_flipped_small_word_is_not_reported_as_a_duplicate(mem: Mnemon, old: str, new: str,
                                                             verdict: str) -> None:
    first = mem.remember(old)["id"]
    out = mem.remember(new)
    assert out["action"] == "added" and out["diff_suggestion"] == verdict
    match = next(d for d in out["diff_matches"] if d["id"] == first)
    assert match["suggestion"] == verdict
    if new.endswith("down"):  # the agent is told what differs, not only that something does
        assert "down" in match["reason"] and "up" in match["reason"]
    assert mem.rt.store.get_node(first) is not None  # advice only: the old memory is untouched


# ── auto-prune and corrections ───────────────────────────────────────────────
def _correction(m: Mnemon) -> tuple[str, str]:
    old = m.remember("Mira lives in Lisbon", importance=4, entities="Mira", source="chat")["id"]
    new = m.remember("Mira moved to Porto last spring", importance=1, entities="Mira", source="chat")["id"]
    m.link(new, old, "supersedes")
    return old, new


def _fill(m: Mnemon, n: int) -> list[str]:
    return [m.remember(f"gardening note {i} about tomatoes zq{i}x", importance=2, source=f"g{i}")["id"]
            for i in range(n)]


def test_auto_prune_passes_over_a_correction_and_recall_keeps_the_old_fact_demoted(
        make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(max_insights=4, prune_min_age="0", clock=clock)
    old, new = _correction(m)
    fillers = _fill(m, 2)
    clock.advance(days=90)  # the correction (importance 1, old) is now the weakest memory of the store
    pruned = [pid for _ in range(3) for pid in m.remember(f"later note {_} zz{_}y", source="later")["auto_pruned_ids"]]
    assert set(fillers) <= set(pruned) and new not in pruned
    assert m.rt.store.get_node(new) is not None
    results = m.recall("where does Mira live", verbose=True)["results"]
    by_id = {r["insight"]["id"]: r for r in results}
    assert by_id[old].get("superseded") is True and by_id[new]["score"] > by_id[old]["score"]


def test_a_correction_of_a_forgotten_fact_is_prunable_again(make_mem: Callable[..., Mnemon],
                                                            clock: FakeClock) -> None:
    m = make_mem(max_insights=1, prune_min_age="0", clock=clock)
    old, new = _correction(m)
    m.forget(old)  # nothing left for it to keep demoted
    clock.advance(days=90)
    pruned = m.remember("later note zz0y", source="later")["auto_pruned_ids"]
    assert new in pruned


def test_when_only_corrections_are_left_nothing_is_pruned(make_mem: Callable[..., Mnemon],
                                                          clock: FakeClock) -> None:
    m = make_mem(max_insights=1, prune_min_age="0", clock=clock)
    old, new = _correction(m)
    clock.advance(days=90)
    out = m.remember("later note zz0y", importance=4, source="later")
    assert out["auto_pruned_ids"] == [] and m.rt.store.get_node(new) is not None


# ── draft import ─────────────────────────────────────────────────────────────
def test_null_optional_fields_of_a_draft_item_read_as_their_defaults(mem: Mnemon) -> None:
    out = mem.import_json({"insights": [{"content": "written by a tool that nulls unset fields", "category": None,
                                         "importance": None, "entity_mode": None, "tags": None, "source": None,
                                         "created_at": None}],
                           "edges": None})
    assert out["errors"] == 0 and out["imported"] == 1
    node = mem.show(out["results"][0]["id"])
    assert (node["category"], node["importance"], node["source"]) == ("general", 3, "import")


@pytest.mark.parametrize(("edge", "fragment"), [
    ({"edge_type": "bogus"}, "edge type"),
    ({"edge_type": "causal", "weight": 7}, "weight"),
])
def test_a_bad_edge_refuses_the_draft_and_names_its_index(mem: Mnemon, edge: dict[str, Any], fragment: str) -> None:
    good = {"source_index": 0, "target_index": 1, "edge_type": "semantic"}
    with pytest.raises(InvalidInput) as caught:
        mem.import_json({"insights": [{"content": "one"}, {"content": "two"}],
                         "edges": [good, {"source_index": 1, "target_index": 0, **edge}]})
    assert caught.value.message.startswith("edge 1: ") and fragment in caught.value.message
    assert caught.value.details == {"index": 1}
    assert mem.rt.store.count_active() == 0


CONTENTS = ["stored already", "alpha fact", "beta fact", "alpha fact", ""]
EDGE = st.fixed_dictionaries({"source_index": st.integers(0, len(CONTENTS) - 1),
                              "target_index": st.integers(0, len(CONTENTS) - 1),
                              "edge_type": st.sampled_from(["semantic", "supersedes", "causal"])}).filter(
    lambda e: e["source_index"] != e["target_index"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(EDGE, max_size=6))
def test_a_dry_run_names_the_edges_the_import_skips(make_mem: Callable[..., Mnemon],
                                                    edges: list[dict[str, Any]]) -> None:
    m = make_mem()  # (the store is the test's, kept from one example to the next: the parity holds for any state)
    try:
        _dry_run_parity(m, edges)
    finally:
        m.close()  # one connection at a time, however many examples


def _dry_run_parity(m: Mnemon, edges: list[dict[str, Any]]) -> None:
    held = m.remember("stored already")["id"]
    other = m.remember("held before too")["id"]
    m.link(held, other, "semantic")
    doc = {"insights": [{"content": c} for c in CONTENTS] + [{"content": "held before too"}],
           "edges": [*edges, {"source_index": 0, "target_index": 5, "edge_type": "semantic"}]}
    plan = m.import_json(doc, dry_run=True)
    done = m.import_json(doc)
    shape = {"edges_skipped", "edge_results", "auto_pruned", "auto_pruned_ids", "errors", "skipped", "results"}
    assert shape <= set(plan) and shape <= set(done)
    assert [(r["index"], r["reason"]) for r in plan["edge_results"]] == [
        (r["index"], r["reason"]) for r in done["edge_results"]]
    assert plan["edges_planned"] == len(doc["edges"]) - len(done["edge_results"])
