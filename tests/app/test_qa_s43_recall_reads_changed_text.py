"""Recall keeps what it read of a memory's text (its words, cues, corrections, measures, hand-overs) for the recalls
after it: a memory whose text changed is read again, so a correction written into it retires the older fact at
once, and one taken out of it no longer does."""
from __future__ import annotations

from dataclasses import replace

from mnemon.app.memory import Mnemon


def _rewrite(mem: Mnemon, memory_id: str, content: str) -> None:
    store = mem.rt.store
    node = store.get_node(memory_id)
    assert node is not None
    store.update_node(replace(node, content=content))


def _corrected_by(mem: Mnemon, query: str) -> dict[str, str | None]:
    return {r["insight"]["id"]: r.get("corrected_by") for r in mem.recall(query)["results"]}


def test_a_correction_taken_out_of_a_memory_or_written_back_is_read_by_the_next_recall(mem: Mnemon) -> None:
    home = mem.remember("Mira lives in Lisbon")["id"]
    moved = mem.remember("Mira moved from Lisbon to Porto")["id"]
    assert _corrected_by(mem, "where does Mira live")[home] == moved
    _rewrite(mem, moved, "Mira moved the standup from Monday to Friday")
    assert _corrected_by(mem, "where does Mira live") == {home: None, moved: None}
    _rewrite(mem, moved, "Mira moved from Lisbon to Porto")
    assert _corrected_by(mem, "where does Mira live")[home] == moved


def test_a_change_rewritten_is_read_by_the_next_recall(mem: Mnemon) -> None:
    limit = mem.remember("The API rate limit is 100 requests per minute")["id"]
    news = mem.remember("The API rate limit is now 250 requests per minute")["id"]
    assert _corrected_by(mem, "API rate limit")[limit] == news
    _rewrite(mem, news, "The API rate limit is now also shown per minute")
    assert _corrected_by(mem, "API rate limit") == {limit: None, news: None}


def test_a_hand_over_rewritten_is_read_by_the_next_recall(mem: Mnemon) -> None:
    owner = mem.remember("Bob Chen owns the deployment pipeline")["id"]
    news = mem.remember("Ana Ruiz now owns the deployment pipeline")["id"]
    assert _corrected_by(mem, "who owns the deployment pipeline")[owner] == news
    _rewrite(mem, news, "Ana Ruiz now also reviews the deployment pipeline")
    assert _corrected_by(mem, "who owns the deployment pipeline") == {owner: None, news: None}
