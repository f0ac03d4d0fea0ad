"""Keyword search finds the same memories on both backends. SQLite's FTS5 index (tokenizer `unicode61`) splits each
column into words at any character that is not a letter or digit and stems nothing; our tokens are stemmed but may
hold an apostrophe. So a query word reaches a tag or an entity as written there (`search` searches each word so
too, beside its stem), and a word joined by an apostrophe ("o'brien") is two words ("o", "brien") that a search finds
apart and as a phrase. PostgreSQL's tsvector once held the tokens whole and stemmed tags and entities: it found
memories SQLite does not and missed others."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def _found(mem: Mnemon, query: str) -> set[str]:
    return {r["content"] for r in mem.search(query)["results"]}


def test_each_part_of_a_word_joined_by_an_apostrophe_is_found(mem: Mnemon) -> None:
    mem.remember("Met O'Brien at the harbour office", no_diff=True)
    mem.remember("Brien is a village near the coast", no_diff=True)
    assert _found(mem, "Brien") == {"Met O'Brien at the harbour office", "Brien is a village near the coast"}
    assert _found(mem, "O'Brien") == {"Met O'Brien at the harbour office"}  # the phrase: "o" then "brien"


def test_a_query_word_reaches_a_tag_or_entity_as_written(mem: Mnemon) -> None:
    mem.remember("The cache sits in front of the API", entities=["Redis", "O'Neil"], tags=["Grouping"],
                 entity_mode="provided", no_diff=True)
    mem.remember("Redis stays the cache of the team", no_diff=True)
    # "redis" is searched as its stem "redi" in the text and as written, "redis", in the tags and entities
    assert _found(mem, "redis") == {"Redis stays the cache of the team", "The cache sits in front of the API"}
    assert _found(mem, "grouping") == {"The cache sits in front of the API"}  # the tag "grouping", not the stem
    assert _found(mem, "group") == set()  # the stem "group" is in no text, and no tag is "group"
    assert _found(mem, "neil") == {"The cache sits in front of the API"}  # the entity's words: "o", "neil"
    assert _found(mem, "front") == {"The cache sits in front of the API"}
