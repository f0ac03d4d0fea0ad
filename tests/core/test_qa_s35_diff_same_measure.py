"""A new value of the same measured quantity is an UPDATE even when the rest of the sentence changed: "Checkout
latency p99 is 180 ms after raising Redis maxmemory" after "Checkout latency p99 is 420 ms after the cache change"
shared too few words (0.36) and was an ADD, so an agent kept 420 ms as current beside 180 ms. The number rule for
closer pairs (s32) already calls another number an UPDATE; its reason names the measure and both values. A date,
a time or a day of the week is a value too ("The launch moved to March 10" after "The launch is on March 3"). Two
quantities that only share a word or a unit ("Server A has 16 GB", "Server B has 32 GB") are not one measure."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

SAME_MEASURE = [
    ("Checkout latency p99 is 420 ms after the cache change",
     "Checkout latency p99 is 180 ms after raising Redis maxmemory", "180", "420"),
    ("The nightly backup window is 4 hours since the move to S3",
     "The nightly backup window is 90 minutes with incremental snapshots enabled", "90", "4"),
    ("Search index size is 12 GB on the old cluster", "Search index size is 7.5 GB after pruning stale documents",
     "7 5", "12"),
    ("Checkout latency p99 dropped to 420 ms", "Checkout latency p99 dropped to 180 ms after raising Redis maxmemory",
     "180", "420"),
    # a date, a time, a day of the week, named by one word or more, the verb of the change left out
    ("The launch is on March 3", "The launch moved to March 10 after the security review", "March 10", "March 3"),
    ("The launch is on 2026-03-03", "The launch is now on 2026-03-10 because QA found a regression", "2026-03-10",
     "2026-03-03"),
    ("Mira's flight lands at 14:05", "Mira's flight now lands at 16:40 after the delay", "16:40", "14:05"),
    ("The quarterly planning is on Monday", "The quarterly planning moved to Wednesday", "Wednesday", "Monday"),
]


@pytest.mark.parametrize(("old", "new", "value", "old_value"), SAME_MEASURE, ids=[p[1] for p in SAME_MEASURE])
def test_a_new_value_of_the_same_measure_is_an_update(old: str, new: str, value: str, old_value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE"
    assert value.split()[0] in matches[0].reason and old_value in matches[0].reason and "measure" in matches[0].reason


def test_remember_calls_the_new_latency_an_update_of_the_old(mem: Mnemon) -> None:
    old = mem.remember(SAME_MEASURE[0][0])
    out = mem.remember(SAME_MEASURE[0][1])
    assert out["diff_suggestion"] == "UPDATE"
    assert [m["id"] for m in out["diff_matches"]] == [old["id"]] and "latency" in out["diff_matches"][0]["reason"]


def test_the_update_wins_over_a_closer_add() -> None:
    verdict, _ = diff_suggestion(SAME_MEASURE[0][1], [("near", "Redis maxmemory raising notes for checkout", None),
                                                      ("old", SAME_MEASURE[0][0], None)])
    assert verdict == "UPDATE"


NOT_ONE_MEASURE = [
    ("Server A has 16 GB of RAM and runs the web tier", "Server B has 32 GB of RAM and runs the database"),
    ("The staging cluster runs 3 replicas of the API", "The production cluster runs 5 replicas of the API gateway"),
    ("Release 2.3 shipped on 2026-03-01 with dark mode", "Release 2.4 shipped on 2026-04-01 with SSO"),
    ("Mira's laptop has 16 GB of memory", "Ana's laptop has 32 GB of memory for the ML work"),
    ("Checkout latency p99 is 420 ms after the cache change", "Checkout error rate is 2 percent after the deploy"),
    ("Checkout latency p99 is 420 ms after the cache change", "Checkout latency p99 is 420 ms in the EU region"),
    # a number right after a name is part of it: another invoice, another build agent
    ("Invoice INV 2041 was paid by Acme Corp", "Invoice INV 2042 was paid by Globex in March"),
    ("Build agent 7 is offline for maintenance", "Build agent 9 is offline after the kernel update"),
    # one word naming two values of other units, or two measures of other things on other days
    ("Mira has 3 cats", "Mira has 2 kids"),
    ("Alice joined on March 3", "Alice left on March 10"),
    ("Mira is on call on Monday", "Mira is on vacation on Friday"),
    ("Mira works from home on Mondays", "Ana works from home on Fridays"),
]


@pytest.mark.parametrize(("old", "new"), NOT_ONE_MEASURE, ids=[p[1] for p in NOT_ONE_MEASURE])
def test_numbers_of_different_things_stay_apart(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert all("measure" not in m.reason for m in matches), matches


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["API latency p95", "Build queue length", "Disk usage on db-1"]),
       st.integers(1, 999), st.integers(1, 999), st.sampled_from(["ms", "jobs", "percent"]),
       st.sampled_from(["after the deploy", "during the incident", "since Monday"]),
       st.sampled_from(["with the new indexes", "once traffic dropped", "after we doubled the workers"]))
def test_another_value_of_a_measure_is_never_an_add(measure: str, a: int, b: int, unit: str, why: str,
                                                     other: str) -> None:
    old, new = f"{measure} is {a} {unit} {why}", f"{measure} is {b} {unit} {other}"
    verdict, _ = diff_suggestion(new, [("old", old, None)])
    assert verdict != "ADD"
