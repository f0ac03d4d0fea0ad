"""Recall reads a newer correction ("Mira moved from Lisbon to Porto") as retiring what an older memory states
("Mira lives in Lisbon") when no agent linked them with `supersedes`: the older one is demoted and flagged, never
hidden, unless the query asks about what held before."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.recall import run_recall

QA_PAIRS = [
    ("Mira lives in Lisbon", "Mira moved from Lisbon to Porto", "Where does Mira live now?"),
    ("Jonas lives in Berlin", "Jonas moved from Berlin to Hamburg", "Which city is Jonas living in?"),
    ("Ana lives in Madrid", "Ana relocated from Madrid to Valencia", "Where does Ana live?"),
    ("Sven works at Tyrell", "Sven now works at Wayne instead of Tyrell", "Where does Sven work?"),
    ("Team chat runs on Slack", "The team switched from Slack to Zulip for chat", "What chat tool does the team use?"),
]


def _store_pair(mem: Mnemon, old: str, new: str) -> tuple[str, str]:
    old_id = mem.remember(old, category="fact", created_at="2026-11-01T09:00:00Z")["id"]
    mem.remember("filler note: the weekly review went fine", created_at="2026-11-01T10:00:00Z")
    new_id = mem.remember(new, category="fact", created_at="2026-11-03T09:00:00Z")["id"]
    return old_id, new_id


def _by_id(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["insight"]["id"]: r for r in out["results"]}


def _rank(out: dict[str, Any], memory_id: str) -> int:
    return [r["insight"]["id"] for r in out["results"]].index(memory_id)


@pytest.mark.parametrize(("old", "new", "question"), QA_PAIRS, ids=[p[0] for p in QA_PAIRS])
def test_newer_correction_outranks_the_value_it_retires(mem: Mnemon, old: str, new: str, question: str) -> None:
    old_id, new_id = _store_pair(mem, old, new)
    out = mem.recall(question, limit=5)
    by_id = _by_id(out)
    assert old_id in by_id, "a corrected memory is demoted, never hidden"
    assert by_id[old_id].get("superseded") is True
    assert by_id[old_id].get("corrected_by") == new_id
    assert "superseded" not in by_id[new_id] and "corrected_by" not in by_id[new_id]
    assert _rank(out, new_id) < _rank(out, old_id)
    brief = {r["id"]: r for r in mem.recall(question, limit=5, brief=True)["results"]}
    assert brief[old_id].get("corrected_by") == new_id


def test_correction_about_another_subject_changes_nothing(mem: Mnemon) -> None:
    ana = mem.remember("Ana lives in Lisbon", category="fact", created_at="2026-11-01T09:00:00Z")["id"]
    mira = mem.remember("Mira moved from Lisbon to Porto", category="fact", created_at="2026-11-03T09:00:00Z")["id"]
    out = mem.recall("Who lives in Lisbon?", limit=5, explain=True)
    by_id = _by_id(out)
    assert ana in by_id and mira in by_id
    assert not any("superseded" in r or "corrected_by" in r for r in out["results"])
    assert next(s for s in out["trace"] if s["stage"] == "rerank")["corrected"] == {}


@pytest.mark.parametrize("question", ["Where did Mira live before?", "Where did Mira use to live?",
                                      "When did Mira live in Lisbon?"])
def test_question_about_the_past_keeps_the_retired_value(mem: Mnemon, question: str) -> None:
    old_id, new_id = _store_pair(mem, *QA_PAIRS[0][:2])
    by_id = _by_id(mem.recall(question, limit=5))
    assert old_id in by_id and new_id in by_id
    assert "superseded" not in by_id[old_id] and "corrected_by" not in by_id[old_id]


def test_as_of_before_the_correction_keeps_the_older_value(mem: Mnemon) -> None:
    old_id, new_id = _store_pair(mem, *QA_PAIRS[0][:2])
    then = run_recall(mem.rt, "Where does Mira live now?", limit=5, touch=False,
                      as_of=datetime(2026, 11, 2, tzinfo=timezone.utc))
    assert [(s.id, s.superseded, s.corrected_by) for s in then.results if s.id == old_id] == [(old_id, False, None)]
    later = run_recall(mem.rt, "Where does Mira live now?", limit=5, touch=False,
                       as_of=datetime(2026, 11, 4, tzinfo=timezone.utc))
    assert [(s.superseded, s.corrected_by) for s in later.results if s.id == old_id] == [(True, new_id)]


def test_linked_supersedes_is_not_demoted_twice(mem: Mnemon) -> None:
    old_id, new_id = _store_pair(mem, *QA_PAIRS[0][:2])
    linked_before = _by_id(mem.recall("Where does Mira live now?", limit=5))[old_id]["score"]
    mem.link(new_id, old_id, "supersedes", weight=1.0)
    row = _by_id(mem.recall("Where does Mira live now?", limit=5))[old_id]
    assert row.get("superseded") is True and "corrected_by" not in row  # the link says so; no guess needed
    assert row["score"] == pytest.approx(linked_before, abs=0.02)
