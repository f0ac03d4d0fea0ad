"""`search` finds a memory by one of its tags or entities as the tag is written: the keyword index holds tags and
entities unstemmed ("plumbing"), and a query word is searched both by its stem in the text and, as written (folded
as `core.keywords.keyword_words` folds a tag), in the tags and entities. Runs on SQLite and PostgreSQL."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.text import tokens

from .test_qa_s43_emoji_search import _searched as _found

VALVE = "Valve replaced on Tuesday"
CACHE = "The cache sits in front of the API"
ROLLOUT = "Rolled the new build out to the canary hosts"
BAKERY = "Bought bread at the corner shop"
LAUNCH = "The countdown started at nine"
KICKOFF = "First meeting with the client went well"


@pytest.fixture
def tagged(mem: Mnemon) -> Mnemon:
    mem.remember(VALVE, tags=["opsy", "plumbing"], no_diff=True)
    mem.remember(CACHE, tags=["Grouping"], entities=["Redis"], entity_mode="provided", no_diff=True)
    mem.remember(ROLLOUT, tags=["deploys"], no_diff=True)
    mem.remember(BAKERY, tags=["café"], no_diff=True)
    mem.remember(LAUNCH, tags=["🚀"], no_diff=True)
    mem.remember(KICKOFF, tags=["project-x"], no_diff=True)
    return mem


@pytest.mark.parametrize(("query", "expected"), [
    ("plumbing", VALVE), ("opsy", VALVE), ("deploys", ROLLOUT), ("grouping", CACHE), ("Grouping", CACHE),
    ("redis", CACHE), ("café", BAKERY), ("cafe", BAKERY), ("project-x", KICKOFF), ("🚀", LAUNCH),
])
def test_a_memory_is_found_by_its_tag_or_entity_as_written(tagged: Mnemon, query: str, expected: str) -> None:
    assert _found(tagged, query) == [expected]


def test_a_tag_word_among_other_words_still_finds_its_memory(tagged: Mnemon) -> None:
    assert _found(tagged, "leaking plumbing") == [VALVE]


def test_a_word_in_no_tag_finds_what_it_found_before(tagged: Mnemon) -> None:
    tagged.remember("The plumber replaced a valve in the basement", no_diff=True)
    assert set(_found(tagged, "valve")) == {VALVE, "The plumber replaced a valve in the basement"}
    assert _found(tagged, "canary") == [ROLLOUT]
    assert _found(tagged, "submarine") == []


_entries = itertools.count()


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(word=st.text(st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=12))
def test_any_one_word_tag_is_found_by_that_word(mem: Mnemon, word: str) -> None:
    assume(tokens(word))  # a stopword is searched nowhere
    node_id = mem.remember(f"Entry {next(_entries)}", tags=[word], no_diff=True)["id"]
    assert node_id in {r["id"] for r in mem.search(word, limit=100)["results"]}
