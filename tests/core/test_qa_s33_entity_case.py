"""One entity however it is cased: `--entities "Ana,ana,ANA"` stored three entities for one name."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mnemon.core.validation import validate_memory

NAMES = st.sampled_from(["Ana", "ana", "ANA", "Bob", "bob", "Ünal", "ünal", "ÜNAL", "Kyiv"])


def test_differently_cased_entities_are_one_and_keep_the_first_spelling() -> None:
    assert validate_memory("Ana met Bob", entities="Bob,Ana,bob,ANA").entities == ("Bob", "Ana")


@given(st.lists(NAMES, min_size=1, max_size=8))
def test_entities_are_unique_by_case_and_in_first_seen_order(names: list[str]) -> None:
    got = validate_memory("a memory", entities=names).entities
    assert [e.casefold() for e in got] == list(dict.fromkeys(n.casefold() for n in names))
    assert all(e in names for e in got)
