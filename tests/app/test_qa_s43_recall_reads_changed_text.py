"""Recall keeps what it read of a memory's text (its words, cues, corrections, measures, hand-overs) for the recalls
after it: a memory whose text changed is read again, so a correction written into it retires the older fact at
once, and one taken out of it no longer does."""
from __future__ import annotations

from dataclasses import replace

import pytest

from mnemon.app.memory import Mnemon


def _rewrite(mem: Mnemon, memory_id: str, content: str) -> None:
    store = mem.rt.store
    node = store.get_node(memory_id)
    assert node is not None
    store.update_node(replace(node, content=content))


def _corrected_by(mem: Mnemon, query: str) -> dict[str, str | None]:
    return {r["insight"]["id"]: r.get("corrected_by") for r in mem.recall(query)["results"]}


@pytest.mark.parametrize(("older", "newer", "query", "rewritten"), [
    ("Mira lives in Lisbon", "Mira moved from Lisbon to Porto", "where does Mira live",
     "Mira moved the standup from Monday to Friday"),  # a correction
    ("The API rate limit is 100 requests per minute", "The API rate limit is now 250 requests per minute",
     "API rate limit", "The API rate limit is now also shown per minute"),  # a change said
    ("Bob Chen owns the deployment pipeline", "Ana Ruiz now owns the deployment pipeline",
     "who owns the deployment pipeline", "Ana Ruiz now also reviews the deployment pipeline"),  # a hand-over
])
def test_what_a_rewritten_memory_says_is_read_by_the_next_recall(mem: Mnemon, older: str, newer: str, query: str,
                                                                  rewritten: str) -> None:
    old_id, new_id = mem.remember(older)["id"], mem.remember(newer)["id"]
    assert _corrected_by(mem, query)[old_id] == new_id
    _rewrite(mem, new_id, rewritten)
    assert _corrected_by(mem, query) == {old_id: None, new_id: None}
    _rewrite(mem, new_id, newer)
    assert _corrected_by(mem, query)[old_id] == new_id
