"""A fact said again after a newer memory contradicted it: "Zhang Wei owns the payment service", then "Zhang Wei no
longer owns the payment service", then "Zhang Wei owns the payment service." gave the verdict DUPLICATE (of the
first memory), the CONFLICT with the newer correction only among the matches: an agent reading the verdict took the
fact as already known and current. The verdict is CONFLICT, and the duplicate's reason names the newer memory that
contradicts it; with no newer contradiction a duplicate stays the verdict."""
from __future__ import annotations

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

FACT = "Zhang Wei owns the payment service"
CORRECTION = "Zhang Wei no longer owns the payment service"


def test_restating_a_corrected_fact_is_a_conflict_with_the_newer_correction(mem: Mnemon) -> None:
    old = mem.remember(FACT, created_at="2026-01-05T09:00:00Z")
    new = mem.remember(CORRECTION, created_at="2026-02-05T09:00:00Z")
    again = mem.remember(FACT + ".")
    assert again["action"] == "added" and again["diff_suggestion"] == "CONFLICT"
    by_id = {m["id"]: m for m in again["diff_matches"]}
    assert by_id[new["id"]]["suggestion"] == "CONFLICT"
    assert by_id[old["id"]]["suggestion"] == "DUPLICATE" and new["id"] in by_id[old["id"]]["reason"]


def test_a_fact_restated_after_it_was_restored_stays_a_duplicate(mem: Mnemon) -> None:
    # the correction is older than the fact said again since: the fact is current, the repeat a duplicate
    mem.remember(FACT, created_at="2026-01-05T09:00:00Z")
    mem.remember(CORRECTION, created_at="2026-02-05T09:00:00Z")
    restored = mem.remember("Zhang Wei owns the payment service again", created_at="2026-03-05T09:00:00Z")
    again = mem.remember("Zhang Wei owns the payment service again.")
    assert again["diff_suggestion"] == "DUPLICATE"
    assert {m["id"]: m for m in again["diff_matches"]}[restored["id"]]["suggestion"] == "DUPLICATE"


def test_without_times_a_duplicate_still_wins() -> None:
    verdict, _ = diff_suggestion(FACT + ".", [("a", FACT, None), ("b", CORRECTION, None)])
    assert verdict == "DUPLICATE"
    verdict, matches = diff_suggestion(FACT + ".", [("a", FACT, None), ("b", CORRECTION, None)],
                                       created={"a": "2026-01-05T09:00:00Z", "b": "2026-02-05T09:00:00Z"})
    assert verdict == "CONFLICT" and "b" in {m.id: m for m in matches}["a"].reason
