"""Recall says when the similarity signal is silent for part of the store (session 34 QA).

`--embed none` over a store whose memories have another provider's vectors recalled by keywords alone without a word,
and memories lacking this provider's vector (fewer than half of them: the low-coverage warning stays quiet) scored
similarity 0 unannounced. A store that is simply all-keyword stays without warnings.
"""
from __future__ import annotations

from collections.abc import Callable

from mnemon.app.memory import Mnemon

FACTS = ["The token cache expires after ten minutes", "Mira owns the billing service",
         "Deploys happen on Tuesdays", "The staging database lives in Frankfurt"]


def _vector_warnings(out: dict) -> list[str]:
    return [w for w in out.get("warnings", []) if "vector" in w]


def test_embed_none_over_a_store_with_vectors_says_recall_is_by_keywords(make_mem: Callable[..., Mnemon]) -> None:
    hashed = make_mem("hash")
    for fact in FACTS:
        hashed.remember(fact)
    out = make_mem("none").recall("token cache")
    assert out["results"], "keyword recall still answers"
    [warning] = _vector_warnings(out)
    assert "hash:" in warning and "4 memories" in warning and "keywords and the graph" in warning


def test_all_keyword_store_recalls_without_warnings(mem_none: Mnemon) -> None:
    for fact in FACTS:
        mem_none.remember(fact)
    out = mem_none.recall("token cache")
    assert out["results"] and not out.get("warnings")


def test_memories_without_this_providers_vector_are_named(make_mem: Callable[..., Mnemon]) -> None:
    hashed = make_mem("hash")
    for fact in FACTS[:3]:
        hashed.remember(fact)
    make_mem("none").remember("The login bug came from a stale cookie")
    out = hashed.recall("login cookie")
    [warning] = _vector_warnings(out)
    assert "1 of 4 memories" in warning and "embed --all" in warning
    hashed.embed_all()
    assert not _vector_warnings(hashed.recall("login cookie"))


def test_fully_embedded_store_recalls_without_warnings(mem: Mnemon) -> None:
    for fact in FACTS:
        mem.remember(fact)
    assert not mem.recall("token cache").get("warnings")


def test_most_memories_without_this_providers_vector_is_said_once(make_mem: Callable[..., Mnemon]) -> None:
    keyword_only = make_mem("none")
    for fact in FACTS[1:]:
        keyword_only.remember(fact)
    hashed = make_mem("hash")
    hashed.remember(FACTS[0])
    [warning] = _vector_warnings(hashed.recall("token cache"))
    assert warning.startswith("only 1 of 4 memories have a vector") and "embed --all" in warning
