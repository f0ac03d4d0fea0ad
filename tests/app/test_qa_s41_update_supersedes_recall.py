"""End to end through the facade (hash embedder): after an older fact, a newer memory that says the fact changed
("is now 250", "was upgraded to Kubernetes 1.29", "handed the CI pipeline to Aiko", …) is named by `remember` with
its reason, and `recall` flags the older one superseded by it and ranks the newer first. A newer memory about
another subject leaves the older one current."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.app.memory import Mnemon

CASES = [
    ("Our API rate limit is 100 requests per minute", "The API rate limit is now 250 requests per minute",
     "what is the rate limit?"),
    ("Our API rate limit is 100 requests per minute", "The API rate limit was increased from 100 to 250",
     "what is the rate limit?"),
    ("The staging cluster runs Kubernetes 1.27", "The staging cluster was upgraded to Kubernetes 1.29",
     "which Kubernetes version does the staging cluster run?"),
    ("We use Elasticsearch 7", "The upgrade of Elasticsearch to version 8 finished",
     "which Elasticsearch version do we use?"),
    ("Feature flag new-checkout is enabled for 10% of users", "Feature flag new-checkout was rolled out to 100%",
     "how many users get the new-checkout feature flag?"),
    ("Kenji maintains the CI pipeline", "Kenji handed the CI pipeline to Aiko", "who maintains the CI pipeline?"),
    ("Alice owns the billing service", "Ownership of the billing service moved from Alice to Bob",
     "who owns the billing service?"),
    ("We use Python 3.11", "We use Python 3.12 now", "which Python version do we use?"),
    ("We use Slack for team chat", "We now use Zulip for team chat", "what do we use for team chat?"),
]


def _pair(mem: Mnemon, old: str, new: str) -> tuple[str, dict[str, Any]]:
    old_id = mem.remember(old, category="fact", created_at="2026-11-01T09:00:00Z")["id"]
    mem.remember("filler note: the weekly review went fine", created_at="2026-11-01T10:00:00Z")
    return old_id, mem.remember(new, category="fact", created_at="2026-11-03T09:00:00Z")


@pytest.mark.parametrize(("old", "new", "question"), CASES, ids=[c[1] for c in CASES])
def test_the_newer_update_is_named_and_ranked_first(mem: Mnemon, old: str, new: str, question: str) -> None:
    old_id, out = _pair(mem, old, new)
    assert out["diff_suggestion"] in ("UPDATE", "CONFLICT"), out
    match = next(m for m in out["diff_matches"] if m["id"] == old_id)
    assert match["suggestion"] in ("UPDATE", "CONFLICT") and match["reason"], match
    results = mem.recall(question, limit=5)["results"]
    order = [r["insight"]["id"] for r in results]
    assert out["id"] in order and old_id in order, "a superseded memory is demoted, never hidden"
    assert order.index(out["id"]) < order.index(old_id)
    stale = results[order.index(old_id)]
    assert stale.get("superseded") is True and stale.get("corrected_by") == out["id"]


def test_an_upgrade_of_other_things_leaves_the_cluster_current(mem: Mnemon) -> None:
    old_id, out = _pair(mem, "The staging cluster runs Ubuntu 22.04", "We upgraded our laptops to Ubuntu 24.04")
    results = mem.recall("which Ubuntu version does the staging cluster run?", limit=5)["results"]
    stale = next(r for r in results if r["insight"]["id"] == old_id)
    assert "superseded" not in stale and "corrected_by" not in stale
