"""A fact said again after a newer memory's wording retired it ("The team no longer prefers PostgreSQL") is skipped as
an exact repeat, and recall keeps demoting it under that correction: the skip must say so, as it does when a
`supersedes` link retired the fact (it said only "skipped", and the agent believed the fact stood again)."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon

CASES = [
    ("The team prefers PostgreSQL for relational data", "The team no longer prefers PostgreSQL for relational data"),
    ("Mira lives in Lisbon", "Mira moved from Lisbon to Porto"),
]


@pytest.mark.parametrize(("fact", "correction"), CASES)
def test_repeating_a_fact_a_newer_wording_retired_says_what_retired_it(mem: Mnemon, fact: str,
                                                                        correction: str) -> None:
    old = mem.remember(fact, created_at="2026-01-01T09:00:00Z")
    new = mem.remember(correction, created_at="2026-02-01T09:00:00Z")
    again = mem.remember(fact)
    assert again["action"] == "skipped" and again["existing_id"] == old["id"]
    assert again["superseded_by"] == [new["id"]]
    assert f"mnemon forget {new['id']}" in again["hint"]
    # what the skip says is what recall does with the fact
    [row] = [r for r in mem.recall(fact)["results"] if r["insight"]["id"] == old["id"]]
    assert row.get("corrected_by") == new["id"]


def test_a_repeat_that_no_newer_memory_retires_gets_no_such_word(mem: Mnemon) -> None:
    # an older correction of another value, and a newer memory retiring another subject's value, retire nothing here
    mem.remember("Mira moved from Lisbon to Porto", created_at="2026-01-01T09:00:00Z")
    mem.remember("Mira lives in Porto", created_at="2026-02-01T09:00:00Z")
    mem.remember("Ana moved from Porto to Faro", created_at="2026-03-01T09:00:00Z")
    again = mem.remember("Mira lives in Porto")
    assert again["action"] == "skipped" and "superseded_by" not in again and "hint" not in again
