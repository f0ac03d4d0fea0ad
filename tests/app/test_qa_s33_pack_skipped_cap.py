"""`retrieve --budget 1` on a store with many matches: the skipped list (at most 50 entries) filled with
`duplicate_of_item` edges first — the edges are weighed before the pack is packed — so the `budget_limit` skips, what
the budget cost, were cut. The list now keeps what the pack's limits cost first, best first, then other reasons,
and repeats of an item last, and `stats.skipped_omitted` counts what was left out by reason."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.context import MAX_SKIPPED_REPORTED
from mnemon.app.memory import Mnemon

NOTES = 30


@pytest.fixture
def orders(mem: Mnemon, tmp_path: Path) -> Mnemon:
    """30 linked notes, each with three dated supplier-invoice bullets: each bullet's observation and date edges
    repeat it (`duplicate_of_item`), the links and tags are edges of their own."""
    vault = tmp_path / "vault" / "Projects"
    vault.mkdir(parents=True)
    for i in range(NOTES):
        day = i % 28 + 1
        (vault / f"order-{i:02d}.md").write_text(
            f"# Order {i}\n\n- Waiting for the supplier invoice {i} due 2026-04-{day:02d}\n"
            f"- Supplier invoice {i} blocked on the signed contract\n"
            f"- Paid the supplier invoice {i} deposit on 2026-03-{day:02d}\n\n"
            f"Related: [[Order {(i + 1) % NOTES}]] and [[Order {(i + 7) % NOTES}]] #supplier #invoice\n",
            encoding="utf-8")
    mem.ingest(str(vault.parent), embed=False)
    return mem


def _reasons(pack: dict) -> list[str]:
    return [s["reason"] for s in pack["skipped"]]


def test_a_capped_list_keeps_what_the_budget_cost(orders: Mnemon) -> None:
    pack = orders.retrieve("supplier invoice", budget=1, max_items=25)
    stats = pack["stats"]
    # (every item left out for the budget: `budget_too_small`, no longer the generic `all_candidates_skipped`)
    assert pack["items"] == [] and pack["empty_reason"] == "budget_too_small" and pack["budget_needed"] > 1
    assert stats["skipped_total"] > MAX_SKIPPED_REPORTED  # the cap is in play
    ranked = stats["candidate_items_considered"]  # every item ranked in, none taken at a budget of 1
    assert ranked > MAX_SKIPPED_REPORTED
    assert _reasons(pack) == ["budget_limit"] * MAX_SKIPPED_REPORTED
    scores = [s["score"] for s in pack["skipped"]]
    assert scores == sorted(scores, reverse=True)  # the best ranked first
    assert stats["skipped_reported"] == MAX_SKIPPED_REPORTED
    # (nothing taken, nothing repeated: an edge repeating a bullet the pack left out competes as any item)
    assert stats["skipped_total"] == ranked
    assert stats["skipped_omitted"] == {"budget_limit": ranked - MAX_SKIPPED_REPORTED}


def test_an_uncapped_list_puts_repeats_last_and_omits_nothing(orders: Mnemon) -> None:
    pack = orders.retrieve("supplier invoice", budget=1)
    stats = pack["stats"]
    reasons = _reasons(pack)
    assert stats["skipped_total"] == stats["skipped_reported"] == len(reasons) <= MAX_SKIPPED_REPORTED
    assert "duplicate_of_item" not in reasons  # (a repeat names an item the pack holds: it holds none)
    budget = reasons.count("budget_limit")
    assert budget == stats["candidate_items_considered"] and reasons[:budget] == ["budget_limit"] * budget
    assert stats["skipped_omitted"] == {}


def test_the_repeats_left_out_are_counted_when_the_pack_is_not_empty(orders: Mnemon) -> None:
    pack = orders.retrieve("supplier invoice", budget=400, max_items=25)
    stats = pack["stats"]
    assert pack["items"] and stats["skipped_total"] > MAX_SKIPPED_REPORTED
    reasons = _reasons(pack)
    first_repeat = reasons.index("duplicate_of_item") if "duplicate_of_item" in reasons else len(reasons)
    assert all(r == "duplicate_of_item" for r in reasons[first_repeat:])
    assert sum(stats["skipped_omitted"].values()) == stats["skipped_total"] - stats["skipped_reported"]
