"""A correction comes before the fact it retires whenever recall returns both: "Mira moved from Lisbon to Porto"
above "Mira lives in Lisbon" for "where does Mira live". The × 0.25 demotion alone was not enough — the old fact says
the query's words, the correction fewer of them, so the old score stayed ahead. The corrector names what it
corrects (`corrects`); a question about what held before or when keeps the plain order."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.app.memory import Mnemon

OLD, NEW = "Mira lives in Lisbon", "Mira moved from Lisbon to Porto"


def _order(out: dict[str, Any]) -> list[str]:
    return [r["insight"]["id"] for r in out["results"]]


def _by_id(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["insight"]["id"]: r for r in out["results"]}


def _assert_correction_first(out: dict[str, Any], old_id: str, new_id: str) -> None:
    order, by_id = _order(out), _by_id(out)
    assert old_id in by_id and new_id in by_id, "both are returned: the old fact is demoted, never hidden"
    assert order.index(new_id) < order.index(old_id), [r["insight"]["content"] for r in out["results"]]
    assert by_id[old_id].get("superseded") is True
    assert by_id[new_id].get("corrects") == [old_id]
    assert "superseded" not in by_id[new_id]


def test_the_reported_case_puts_the_move_above_the_old_city(mem: Mnemon) -> None:
    old_id = mem.remember(OLD)["id"]
    new_id = mem.remember(NEW)["id"]
    out = mem.recall("where does Mira live")
    _assert_correction_first(out, old_id, new_id)
    assert _by_id(out)[old_id]["corrected_by"] == new_id
    # the old fact still scores higher on the query's words: the order, not the score, says which is current
    assert _by_id(out)[old_id]["score"] > _by_id(out)[new_id]["score"]
    brief = mem.recall("where does Mira live", brief=True)["results"]
    assert [r["id"] for r in brief][:2] == [new_id, old_id] and brief[0]["corrects"] == [old_id]


def test_correction_stored_before_the_fact_it_retires(mem: Mnemon) -> None:
    """An import can bring the correction first and the older fact after it, dated by when each was said."""
    new_id = mem.remember(NEW, created_at="2026-11-03T09:00:00Z")["id"]
    old_id = mem.remember(OLD, created_at="2026-11-01T09:00:00Z")["id"]
    _assert_correction_first(mem.recall("where does Mira live"), old_id, new_id)


def test_backdated_correction_still_comes_first(mem: Mnemon) -> None:
    """The correction is written today but dated to the day of the move, weeks ago; the old fact is older still."""
    old_id = mem.remember(OLD, created_at="2026-10-01T09:00:00Z")["id"]
    new_id = mem.remember(NEW, created_at="2026-10-20T09:00:00Z")["id"]
    _assert_correction_first(mem.recall("where does Mira live"), old_id, new_id)


def test_supersedes_link_puts_the_linked_correction_first(mem: Mnemon) -> None:
    old_id = mem.remember(OLD)["id"]
    new_id = mem.remember(NEW)["id"]
    mem.link(new_id, old_id, "supersedes")
    out = mem.recall("where does Mira live")
    _assert_correction_first(out, old_id, new_id)
    assert "corrected_by" not in _by_id(out)[old_id]  # the link says so


def test_a_chain_of_moves_reads_newest_first(mem: Mnemon) -> None:
    first = mem.remember(OLD, created_at="2026-09-01T09:00:00Z")["id"]
    second = mem.remember(NEW, created_at="2026-10-01T09:00:00Z")["id"]
    third = mem.remember("Mira moved from Porto to Faro", created_at="2026-11-01T09:00:00Z")["id"]
    out = mem.recall("where does Mira live")
    assert _order(out)[:3] == [third, second, first]
    assert _by_id(out)[third]["corrects"] == [second] and _by_id(out)[second]["corrects"] == [first]


@pytest.mark.parametrize("history", ["where did Mira live before?", "where did Mira use to live?",
                                     "When did Mira live in Lisbon?"])
def test_questions_about_the_past_keep_the_plain_order(mem: Mnemon, history: str) -> None:
    old_id = mem.remember(OLD, created_at="2026-11-01T09:00:00Z")["id"]
    new_id = mem.remember(NEW, created_at="2026-11-03T09:00:00Z")["id"]
    _assert_correction_first(mem.recall("where does Mira live"), old_id, new_id)
    out = mem.recall(history)  # asked what held before, the retired value may be the answer: nothing is moved
    assert {old_id, new_id} <= set(_order(out))
    assert not any(k in r for r in out["results"] for k in ("superseded", "corrected_by", "corrects"))
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)


def test_a_why_question_orders_the_correction_first_too(mem: Mnemon) -> None:
    """WHY orders its results by cause and effect; the correction is one more 'read this first'."""
    old_id = mem.remember(OLD)["id"]
    new_id = mem.remember(NEW)["id"]
    out = mem.recall("why does Mira live in Lisbon", explain=True)
    assert out["meta"]["intent"] == "WHY"
    _assert_correction_first(out, old_id, new_id)
