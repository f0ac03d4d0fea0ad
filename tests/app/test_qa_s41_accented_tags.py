"""A query word reaches a tag or an entity as written there (tests/app/test_keyword_words_parity.py) — but query
words lose their accents ("Zoë" is searched as "zoe") and tags and entities kept theirs, so a memory tagged "café"
or naming "Zoë" was never found by its tag or entity, even spelled exactly. Tags and entities are indexed with their
accents, niqqud and harakat folded as query words are (still unstemmed), on both backends."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon


@pytest.mark.parametrize("query", ["Zoë", "zoe", "café", "Cafe", "İzmir", "izmir", "Jörg", "شَمْس", "شمس"])
def test_a_tag_or_entity_with_accents_is_found(mem: Mnemon, query: str) -> None:
    tagged = mem.remember("weekly sync notes", tags=["café", "İzmir", "شَمْس"], entities=["Zoë", "Jörg"],
                          entity_mode="provided", no_diff=True)["id"]
    mem.remember("an unrelated memory about the garden", no_diff=True)
    assert [hit["id"] for hit in mem.search(query)["results"]] == [tagged]


def test_an_ascii_tag_is_found_as_written_not_by_its_stem(mem: Mnemon) -> None:
    tagged = mem.remember("The cache sits in front of the API", tags=["Grouping"], no_diff=True)["id"]
    assert [hit["id"] for hit in mem.search("grouping")["results"]] == [tagged]  # the word as the tag holds it
    assert mem.search("group")["results"] == []  # the tag is not stemmed
