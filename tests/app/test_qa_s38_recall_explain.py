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
