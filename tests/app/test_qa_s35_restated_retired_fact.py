"""A fact said again after a newer memory retired or changed it, in the stored memory's words rather than the new
one's: "Mira lives in Lisbon again" after "Mira moved from Lisbon to Porto", "We deploy on Fridays." after "We
stopped deploying on Fridays", "Checkout latency p99 is 420 ms." after "… is 180 ms after raising Redis maxmemory"
were a DUPLICATE (of the stale memory) and the newer one was no CONFLICT, or only an UPDATE down the list: an agent
took the stale fact for known and current. A stored correction that retires what the new memory states is a
CONFLICT with it, and a newer conflict or changed value than every duplicate decides the verdict."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

RETIRED = [
    ("Mira lives in Lisbon", "Mira moved from Lisbon to Porto", "Mira lives in Lisbon again"),
    ("We deploy on Fridays", "We stopped deploying on Fridays", "We deploy on Fridays."),
    ("The team uses Jenkins for CI", "The team replaced Jenkins with GitHub Actions", "The team uses Jenkins for CI."),
]


@pytest.mark.parametrize(("fact", "correction", "again"), RETIRED, ids=[r[2] for r in RETIRED])
def test_restating_what_a_newer_correction_retired_is_a_conflict(mem: Mnemon, fact: str, correction: str,
                                                                 again: str) -> None:
    old = mem.remember(fact, created_at="2026-01-05T09:00:00Z")
    new = mem.remember(correction, created_at="2026-02-05T09:00:00Z")
    out = mem.remember(again)
    assert out["diff_suggestion"] == "CONFLICT"
    by_id = {m["id"]: m for m in out["diff_matches"]}
    assert by_id[new["id"]]["suggestion"] == "CONFLICT" and "retires" in by_id[new["id"]]["reason"]
    assert new["id"] in by_id[old["id"]]["reason"]


def test_a_stored_correction_conflicts_with_the_fact_it_retired_without_times() -> None:
    verdict, matches = diff_suggestion("Mira lives in Lisbon", [("c", "Mira moved from Lisbon to Porto", None)])
    assert verdict == "CONFLICT" and "the new memory states" in matches[0].reason


def test_restating_a_value_a_newer_memory_changed_is_an_update_of_it(mem: Mnemon) -> None:
    old = mem.remember("Checkout latency p99 is 420 ms", created_at="2026-01-05T09:00:00Z")
    new = mem.remember("Checkout latency p99 is 180 ms after raising Redis maxmemory",
                       created_at="2026-02-05T09:00:00Z")
    out = mem.remember("Checkout latency p99 is 420 ms.")
    assert out["diff_suggestion"] == "UPDATE"
    by_id = {m["id"]: m for m in out["diff_matches"]}
    assert by_id[new["id"]]["suggestion"] == "UPDATE" and new["id"] in by_id[old["id"]]["reason"]


def test_a_newer_memory_that_only_adds_words_leaves_the_duplicate(mem: Mnemon) -> None:
    mem.remember("Mira lives in Lisbon", created_at="2026-01-05T09:00:00Z")
    mem.remember("Mira lives in Lisbon with her two cats and a dog", created_at="2026-02-05T09:00:00Z")
    assert mem.remember("Mira lives in Lisbon.")["diff_suggestion"] == "DUPLICATE"


def test_restating_the_correction_itself_is_no_conflict_with_it() -> None:
    verdict, _ = diff_suggestion("Mira moved from Lisbon to Porto last year",
                                 [("c", "Mira moved from Lisbon to Porto", None)])
    assert verdict != "CONFLICT"
