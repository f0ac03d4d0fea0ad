"""A memory is found by an emoji only its tags or entities hold: `remember "…" --tags "🔥,urgent"` then
`recall "🔥"` found nothing (the tags column kept "🔥", which the keyword index drops as a separator), though the
same emoji in the text was found. Runs on SQLite and PostgreSQL (words: tests/core/test_qa_s43_emoji_tag_words.py)."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon

from .test_qa_s43_emoji_search import _recalled, _searched

OUTAGE = "The staging database is down again"
REVIEW = "Ana approved the billing migration"
LAUNCH = "The mobile app went live on Tuesday"
PLAIN = "Notes from the weekly sync"


@pytest.fixture
def tagged_mem(mem: Mnemon) -> Mnemon:
    mem.remember(OUTAGE, tags=["🔥", "urgent"], no_diff=True)
    mem.remember(REVIEW, tags=["👍🏽"], no_diff=True)
    mem.remember(LAUNCH, entities=["Team 🚀", "👩‍💻"], entity_mode="provided", no_diff=True)
    mem.remember(PLAIN, tags=["weekly"], no_diff=True)
    return mem


@pytest.mark.parametrize(("query", "expected"), [
    ("🔥", [OUTAGE]), ("urgent", [OUTAGE]), ("👍", [REVIEW]), ("👍🏿", [REVIEW]), ("🚀", [LAUNCH]),
    ("💻", [LAUNCH]), ("👩‍💻", [LAUNCH]), ("🎉", []),
])
def test_a_memory_is_found_by_an_emoji_its_tags_or_entities_hold(tagged_mem: Mnemon, query: str,
                                                                   expected: list[str]) -> None:
    assert _searched(tagged_mem, query) == expected
    assert _recalled(tagged_mem, query) == expected


def test_a_forgotten_memory_leaves_its_emoji_tag_behind(tagged_mem: Mnemon) -> None:
    (hit,) = tagged_mem.search("🔥")["results"]
    tagged_mem.forget(hit["id"])  # (the index holds what removal recomputes from the row)
    assert (_searched(tagged_mem, "🔥"), _searched(tagged_mem, "urgent")) == ([], [])
    assert _searched(tagged_mem, "👍") == [REVIEW]

