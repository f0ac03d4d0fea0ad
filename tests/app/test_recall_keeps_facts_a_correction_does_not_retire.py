"""Recall demotes an older memory as superseded only when a newer correction retires what it states: a fact that
merely names the old value in a past event ("Alice was born in Lisbon") or an attitude stays where its relevance
puts it, unflagged, after "Alice moved from Lisbon to Porto"."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.app.memory import Mnemon

CASES = [
    ("Alice was born in Lisbon", "Alice moved from Lisbon to Porto", "where was Alice born"),
    ("We built a Slack bot for deploy alerts", "We switched from Slack to Zulip for chat", "Slack bot deploy alerts"),
    ("Alice loves the food in Lisbon", "Alice moved from Lisbon to Porto", "what food does Alice love"),
]


def _by_id(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["insight"]["id"]: r for r in out["results"]}


@pytest.mark.parametrize(("old", "new", "question"), CASES, ids=[c[0] for c in CASES])
def test_a_fact_the_correction_does_not_retire_is_neither_flagged_nor_demoted(mem: Mnemon, old: str, new: str,
                                                                              question: str) -> None:
    old_id = mem.remember(old, category="fact", created_at="2026-11-01T09:00:00Z")["id"]
    mem.remember("filler note: the weekly review went fine", created_at="2026-11-01T10:00:00Z")
    written = mem.remember(new, category="fact", created_at="2026-11-03T09:00:00Z")
    assert written["diff_suggestion"] != "CONFLICT"  # nothing for the agent to retire
    out = mem.recall(question, limit=5)
    by_id = _by_id(out)
    assert "superseded" not in by_id[old_id] and "corrected_by" not in by_id[old_id]
    assert out["results"][0]["insight"]["id"] == old_id  # the memory the question is about comes first


def test_the_fact_the_correction_retires_is_still_demoted(mem: Mnemon) -> None:
    old_id = mem.remember("Alice lives in Lisbon", category="fact", created_at="2026-11-01T09:00:00Z")["id"]
    new_id = mem.remember("Alice moved from Lisbon to Porto", category="fact", created_at="2026-11-03T09:00:00Z")["id"]
    by_id = _by_id(mem.recall("where does Alice live", limit=5))
    assert by_id[old_id].get("corrected_by") == new_id and by_id[old_id].get("superseded") is True
