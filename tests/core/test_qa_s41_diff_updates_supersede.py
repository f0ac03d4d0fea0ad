"""An update said as a change supersedes what it changes. "The API rate limit is now 250 requests per minute", "…
was increased from 100 to 250", "The staging cluster was upgraded to Kubernetes 1.29", "The upgrade of Elasticsearch
to version 8 finished", "Feature flag new-checkout was rolled out to 100%" and "We use Python 3.12 now" each left the
older value current: an UPDATE with no claim that it replaced anything, or an ADD with nothing matched, and recall
ranked "Our API rate limit is 100 …" first. A new value of the same measure, or another version of the same named
product with every other word of the older memory said again, that the new memory says changed ("now", "raised",
"upgraded", "rolled out" …) is an UPDATE naming both values, and recall reads it as it reads a correction. A number
right after a name stays part of it ("Sprint 12", "Python 3") unless the memory says it is a version ("to version 8",
"upgraded to Postgres 16") or it is one ("3.11", "1.29"); another subject, thing or product is no update."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion
from mnemon.core.diff_updates import superseding_update
from mnemon.core.recall.rerank import corrected_by

SUPERSEDING = [
    ("Our API rate limit is 100 requests per minute", "The API rate limit is now 250 requests per minute", "250"),
    ("Our API rate limit is 100 requests per minute", "The API rate limit was increased from 100 to 250", "250"),
    ("Our API rate limit is 100 requests per minute", "The API rate limit was raised to 250", "250"),
    ("The staging cluster runs Kubernetes 1.27", "The staging cluster was upgraded to Kubernetes 1.29", "1.29"),
    ("We use Elasticsearch 7", "The upgrade of Elasticsearch to version 8 finished", "8"),
    ("Feature flag new-checkout is enabled for 10% of users", "Feature flag new-checkout was rolled out to 100%",
     "100%"),
    ("We use Python 3.11", "We use Python 3.12 now", "3.12"),
    ("We run Postgres 15 in production", "We upgraded to Postgres 16 in production", "16"),
    ("Checkout latency p99 is 420 ms", "Checkout latency p99 dropped to 180 ms", "180"),
    ("The weekly sync is on Tuesday", "The weekly sync moved to Thursday", "Thursday"),
    ("The iPhone 14 is our test device", "We upgraded the test device to iPhone 15", "15"),
]


@pytest.mark.parametrize(("old", "new", "value"), SUPERSEDING, ids=[s[1] for s in SUPERSEDING])
def test_a_change_said_supersedes_the_older_value(old: str, new: str, value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict in ("UPDATE", "CONFLICT"), matches
    assert value in matches[0].reason and "supersedes" in matches[0].reason, matches[0].reason
    assert corrected_by([("a", old, "2026-11-01"), ("b", new, "2026-11-02")]) == {"a": "b"}
    # (the older memory, written later, supersedes nothing)
    assert corrected_by([("a", old, "2026-11-03"), ("b", new, "2026-11-02")]) == {}


NOT_SUPERSEDING = [
    ("Our API rate limit is 100 requests per minute", "Mira raised a ticket about the API rate limit"),
    ("The staging cluster runs Ubuntu 22.04", "We upgraded our laptops to Ubuntu 24.04"),
    ("The production cluster runs Kubernetes 1.27", "The staging cluster was upgraded to Kubernetes 1.29"),
    ("The staging cluster runs Kubernetes 1.27", "The staging cluster was upgraded to Postgres 16"),
    ("Sprint 11 ends on Friday", "Sprint 12 now ends on Friday"),
    ("We use Python 2 for the legacy scripts", "We use Python 3 now for the new services"),
    ("The EU rate limit is 100 requests per minute", "The US rate limit is now 250 requests per minute"),
    ("Our API rate limit is 100 requests per minute", "Our API rate limit is 100 requests per minute now"),
    ("We use Python 3.11", "We use Python 3.12"),  # (no change said: two projects may use both)
    ("Feature flag new-checkout is enabled for 10% of users", "Feature flag dark-mode was rolled out to 100%"),
    ("Traffic increased 10% last week", "Traffic increased 20% this week"),  # (a change by an amount, no level)
    ("Our API rate limit is 100 requests per minute", "The API rate limit was raised by 50"),
    ("Invoice INV 2041 is paid", "Invoice INV 2042 is now paid"),
    ("Chapter 3 is done", "Chapter 4 is now done"),
    ("Bob Chen owns the deployment pipeline", "Bob Chen now also reviews the deployment pipeline"),
    ("Bob Chen owns the deployment pipeline", "Bob Chen now reviews the deployment pipeline"),
    ("We use Slack for team chat", "We now use Zulip for team chat too"),
    ("The staging cluster runs Kubernetes 1.27", "The staging cluster now also runs Kubernetes 1.29 for canaries"),
    # (another numbered thing, each moved in its own week: found by the suite's vector-index test, where "tank 2"
    # demoted "tank 1" as a new value of the same measure)
    ("Zebrafish tank 1 moved to the quokka lab in week 1", "Zebrafish tank 2 moved to the quokka lab in week 2"),
    ("Room 4 moved to the second floor in May", "Room 5 moved to the third floor in June"),
]


@pytest.mark.parametrize(("old", "new"), NOT_SUPERSEDING, ids=[n[1] for n in NOT_SUPERSEDING])
def test_no_change_of_the_same_thing_supersedes_nothing(old: str, new: str) -> None:
    assert superseding_update(new, old) == ""
    assert corrected_by([("a", old, "2026-11-01"), ("b", new, "2026-11-02")]) == {}


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(0, 40), st.integers(0, 40))
def test_a_minor_version_changed_now_supersedes_only_another_version(major: int, minor: int, other: int) -> None:
    old = f"We use Python {major}.{minor}"
    new = f"We use Python {major}.{other} now"
    assert bool(superseding_update(new, old)) == (minor != other)
