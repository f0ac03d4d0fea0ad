"""Recall on a store large enough for the approximate vector index gives what the exact scan gives."""
from __future__ import annotations

import pytest

from mnemon.ports import vector_ann

pytest.importorskip("usearch.index")

TOPICS = ["the billing service", "the Kubernetes upgrade", "the onboarding emails", "the search ranking",
          "the rate limiter", "the nightly batch job", "the mobile release", "the data export"]
VERBS = ["reviewed", "rewrote", "load tested", "rolled back", "documented", "monitored"]
PEOPLE = ["Alice", "Bob", "Priya", "Marta", "Diego", "Yuki"]


def _text(k: int) -> str:
    return (f"{PEOPLE[k % 6]} {VERBS[(k // 6) % 6]} {TOPICS[(k // 36) % 8]} in week {k % 52}"
            f" after note {k}")


def test_recall_with_the_approximate_index_returns_what_the_exact_scan_returns(make_mem, tmp_path, monkeypatch):
    db = tmp_path / "ann.db"
    monkeypatch.setenv("MNEMON_ANN", "off")  # built below, in the foreground
    monkeypatch.setenv("MNEMON_ANN_MIN_ROWS", str(10**9))
    m = make_mem("hash", db=db)
    m.import_json({"schema_version": "1", "insights": [{"content": _text(k)} for k in range(400)]})
    queries = ["who rolled back the rate limiter", "Kubernetes upgrade load test", "billing service review week 3",
               "mobile release documentation", "what happened to the data export"]
    exact = [[r["insight"]["id"] for r in m.recall(q, limit=10)["results"]] for q in queries]
    m.close()
    assert vector_ann.build(f"{db}-vectors", min_rows=300)["built"] is True
    monkeypatch.setenv("MNEMON_ANN_MIN_ROWS", "300")  # the configuration a store of 400 counts as large under
    again = make_mem("hash", db=db)
    approx = [[r["insight"]["id"] for r in again.recall(q, limit=10)["results"]] for q in queries]
    assert again.rt.index._ann_view is not None, "the index was used"
    assert approx == exact
