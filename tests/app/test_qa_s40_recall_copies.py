"""A store past the approximate index's threshold holding one text many times over (a template section every note
repeats): a fresh CLI process answers a recall by the exact scan, a long-running one (MCP, HTTP) from its second
search on by the index; both keep the same copies, the first by id, where each used to keep its own handful (and a
`remember` of the text once more named another copy as the one it duplicates)."""
from __future__ import annotations

import pytest

from mnemon.ports import vector_ann

pytest.importorskip("usearch.index")

TEMPLATE = "Weekly review template: wins, blockers, next steps"
TOPICS = ["the billing service", "the Kubernetes upgrade", "the onboarding emails", "the search ranking",
          "the rate limiter", "the nightly batch job", "the mobile release", "the data export"]
PEOPLE = ["Alice", "Bob", "Priya", "Marta", "Diego", "Yuki"]
QUERIES = ["weekly review template", "wins blockers next steps", "review the blockers of the billing service"]


def _text(k: int) -> str:
    return f"{PEOPLE[k % 6]} reviewed {TOPICS[(k // 6) % 8]} in week {k % 52} after note {k}"


def test_a_fresh_and_a_warm_process_recall_the_same_copies(make_mem, cli_proc, tmp_path, monkeypatch):
    db = tmp_path / "copies.db"
    monkeypatch.setenv("MNEMON_ANN", "off")  # built below, in the foreground
    monkeypatch.setenv("MNEMON_ANN_MIN_ROWS", str(10**9))
    m = make_mem("hash", db=db)
    rows = [{"content": TEMPLATE if k % 3 == 0 else _text(k)} for k in range(420)]
    assert m.import_json({"schema_version": "1", "insights": rows}, no_diff=True)["imported"] == 420
    m.close()
    assert vector_ann.build(f"{db}-vectors", min_rows=300)["built"] is True
    monkeypatch.setenv("MNEMON_ANN_MIN_ROWS", "300")  # a store of 420 counts as large

    fresh = {}
    for q in QUERIES:
        code, out = cli_proc(["--db", db, "recall", q, "--limit", "10"])
        assert code == 0, out
        fresh[q] = [r["insight"]["id"] for r in out["results"]]
    assert all(len(ids) == 10 for ids in fresh.values())
    code, again = cli_proc(["--db", db, "remember", TEMPLATE])  # a copy more: which one does it name?
    assert code == 0 and again["action"] == "skipped", again

    warm = make_mem("hash", db=db)
    warm.recall(QUERIES[-1], limit=3)  # a server's first call: it loads the index for the next ones
    for q in QUERIES:
        assert [r["insight"]["id"] for r in warm.recall(q, limit=10)["results"]] == fresh[q], q
    assert warm.rt.index._ann_view is not None, "the warm process used the index"
    assert warm.remember(TEMPLATE)["existing_id"] == again["existing_id"]
