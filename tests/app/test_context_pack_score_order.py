"""A context pack's items are in score order (ties by id), whichever packing pass took them.

The packer takes at most two items per note first (so one long note cannot fill the pack), then fills; the items
used to keep that order, so a third item of a note, taken by the fill, came after a weaker item of another note. The
selection is the same as before — only the order of what was selected changed.
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

from mnemon.app.context import _best_first
from mnemon.app.context_budget import MIN_TRUNCATED_TEXT, PER_SOURCE_FIRST_PASS, pack as _pack
from mnemon.app.memory import Mnemon


def item(item_id: str, score: float, source: str, text: str = "x" * 20, item_type: str = "memory") -> dict[str, Any]:
    return {"id": item_id, "kind": "memory", "item_type": item_type, "title": item_id, "text": text,
            "source_path": source, "truth_policy": "active_evidence", "score": score}


def ranked(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=_best_first)  # as build_context_pack sorts them


def test_a_fill_pass_item_takes_its_place_by_score() -> None:
    assert PER_SOURCE_FIRST_PASS == 2  # the example below is built around two per note in the first pass
    candidates = ranked([item("a1", 0.9, "A.md"), item("a2", 0.8, "A.md"), item("a3", 0.7, "A.md"),
                         item("b1", 0.6, "B.md"), item("c1", 0.5, "C.md")])
    skipped: list[dict[str, Any]] = []
    chosen, used = _pack(candidates, budget=10_000, max_items=4, skipped=skipped)
    # the selection is unchanged: the first pass takes a1, a2, b1, c1 and leaves no room for a3
    assert [i["id"] for i in chosen] == ["a1", "a2", "b1", "c1"]
    assert [s["id"] for s in skipped] == ["a3"] and skipped[0]["reason"] == "max_items"
    chosen, _used = _pack(candidates, budget=10_000, max_items=5, skipped=[])
    # a3 came in with the fill pass: it used to be listed last, under b1 and c1
    assert [i["id"] for i in chosen] == ["a1", "a2", "a3", "b1", "c1"]


def test_ties_keep_the_id_order_and_a_truncated_item_keeps_its_place() -> None:
    candidates = ranked([item("a1", 0.9, "A.md"), item("a2", 0.9, "A.md"), item("a3", 0.9, "A.md", text="y" * 200),
                         item("b2", 0.5, "B.md"), item("b1", 0.5, "B.md")])
    budget = 4 * 22 + MIN_TRUNCATED_TEXT + 10  # four whole items of 22 characters, and a3 shortened
    chosen, used = _pack(candidates, budget=budget, max_items=10, skipped=[])
    assert [i["id"] for i in chosen] == ["a1", "a2", "a3", "b1", "b2"]
    assert chosen[2].get("truncated") is True and used <= budget


@given(st.lists(st.tuples(st.integers(0, 20), st.sampled_from(["A.md", "B.md", "C.md", ""]), st.integers(0, 60)),
                max_size=14),
       st.integers(1, 400), st.integers(1, 8))
def test_the_items_are_the_ranked_candidates_in_their_order(rows: list[tuple[int, str, int]], budget: int,
                                                            max_items: int) -> None:
    candidates = ranked([item(f"n{n}", score / 20, source, "z" * size) for n, (score, source, size) in enumerate(rows)])
    skipped: list[dict[str, Any]] = []
    chosen, used = _pack(candidates, budget, max_items, skipped)
    order = [i["id"] for i in candidates]
    assert [i["id"] for i in chosen] == [i for i in order if i in {c["id"] for c in chosen}]
    assert used == sum(len(i["title"]) + len(i["text"]) for i in chosen) <= budget
    assert len(chosen) <= max_items and len(chosen) + len(skipped) == len(candidates)


@pytest.mark.parametrize("prompt", ["school confirmation apartment", "battery supplier overdue"])
def test_retrieve_lists_items_best_first(example_vault_mem: Mnemon, prompt: str) -> None:
    pack = example_vault_mem.retrieve(prompt, max_items=12, budget=6_000, explain=True)
    keys = [_best_first(i) for i in pack["items"]]  # best first; a tie by a key the same on every backend
    assert keys == sorted(keys)
    assert [row.split(".")[0].strip() for row in pack["explain"]["ranking"]] == [
        str(n) for n in range(1, len(pack["items"]) + 1)]
