"""Session 38's QA of what recall says about why it returned what it returned: the same store and query give the same
scores and flags whatever `--limit` asks for, so a shorter list is the top of the longer one, not another answer."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.app.memory import Mnemon


def _rows(out: dict[str, Any]) -> list[tuple[str, float, bool]]:
    return [(r["insight"]["id"], r["score"], bool(r.get("superseded"))) for r in out["results"]]


@pytest.mark.parametrize("stale", [1, 3, 6])
def test_a_short_limit_still_reads_the_correction_below_it(mem: Mnemon, stale: int) -> None:
    # `mnemon recall "where does Mira live in Lisbon" --limit 1` answered "Mira lives in Lisbon with her cat" at 0.6157,
    # not superseded, while --limit 2 said the same memory was superseded by "Mira moved from Lisbon to Porto" (0.1539)
    for k in range(stale):
        mem.remember(f"Mira lives in Lisbon, note {k} of the flat near the river", category="fact",
                     created_at=f"2026-11-01T09:{k:02d}:00Z")
    new = mem.remember("Mira moved from Lisbon to Porto", category="fact", created_at="2026-11-03T09:00:00Z")["id"]
    question = "where does Mira live in Lisbon"
    full = _rows(mem.recall(question, limit=20))
    assert full[0][0] == new, full
    for limit in range(1, stale + 2):
        short = _rows(mem.recall(question, limit=limit))
        assert short == full[:limit], (limit, short, full)


def _weights(out: dict[str, Any]) -> dict[str, float]:
    return next(s for s in out["trace"] if s["stage"] == "rerank")["weights"]


@pytest.mark.parametrize("question", ["why did we switch to Postgres?", "who owns billing", "billing"])
def test_a_brief_explanation_still_breaks_each_score_down(mem: Mnemon, question: str) -> None:
    # `mnemon recall billing --brief --explain` printed the rerank weights in its trace but no result's signals: the
    # explanation asked for could not say why a result scored what it did
    mem.remember("We switched from MySQL to Postgres because of JSONB support", category="decision",
                 entities=["Postgres", "MySQL"])
    mem.remember("Alice owns billing and the invoicing service", entities=["Alice", "billing"])
    mem.remember("Postgres migration caused a two hour outage on the billing service", entities=["Postgres", "billing"])
    out = mem.recall(question, brief=True, explain=True)
    full = mem.recall(question, explain=True)
    assert [r["id"] for r in out["results"]] == [r["insight"]["id"] for r in full["results"]]
    weights = _weights(out)
    assert out["results"]
    for row, whole in zip(out["results"], full["results"]):
        assert row["signals"] == whole["signals"] and row["via"] == whole["via"]
        assert abs(sum(weights[k] * v for k, v in row["signals"].items()) - row["score"]) < 1e-3, row
    assert all("signals" not in r for r in mem.recall(question, brief=True)["results"])
