"""The same words with two of them in each other's place are another fact: "Bob reports to Alice" after "Alice
reports to Bob", "Production deploys before staging" after "Staging deploys before production" were a DUPLICATE at
1.0, and an agent told the new memory was already known dropped the reversal. They are an UPDATE whose reason names
the two; names joined by "and"/"or" ("Alice and Bob own billing" / "Bob and Alice …") are the same fact."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion

SWAPPED = [
    ("Alice reports to Bob", "Bob reports to Alice", "Alice", "Bob"),
    ("Staging deploys before production", "Production deploys before staging", "staging", "production"),
    ("Mira earns more than Ana", "Ana earns more than Mira", "Mira", "Ana"),
    ("Alice Chen reports to Bob", "Bob reports to Alice Chen", "Alice Chen", "Bob"),
    ("The web tier calls the billing service", "The billing service calls the web tier", "web tier",
     "billing service"),
]


@pytest.mark.parametrize(("old", "new", "one", "other"), SWAPPED, ids=[p[1] for p in SWAPPED])
@pytest.mark.parametrize("cosine", [None, 0.97])
def test_two_words_in_each_others_place_are_no_duplicate(old: str, new: str, one: str, other: str,
                                                         cosine: float | None) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, cosine)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE"
    assert one.lower() in matches[0].reason.lower() and other.lower() in matches[0].reason.lower()


SAME = [
    ("Alice and Bob own billing", "Bob and Alice own billing"),
    ("Use Redis or Memcached for the cache", "Use Memcached or Redis for the cache"),
    ("The server is up", "Server is up"),
]


@pytest.mark.parametrize(("old", "new"), SAME, ids=[p[1] for p in SAME])
def test_the_same_fact_in_another_order_stays_a_duplicate(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "DUPLICATE" and matches[0].reason == ""
