""""Stopped doing X" retires "does X" as "no longer does X" does: "Mira stopped using Slack for team chat" after
"Mira uses Slack for team chat" was an UPDATE (0.83), "We stopped deploying on Fridays" an UPDATE of "We deploy on
Fridays": an agent kept the habit as current. Each is a CONFLICT whose reason names the correction, and recall's
corrected_by retires the old fact as it does for "no longer"; "never stopped using" and "stopped by" retire
nothing."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import corrections, diff_suggestion

STOPPED = [
    ("Mira uses Slack for team chat", "Mira stopped using Slack for team chat"),
    ("We deploy on Fridays", "We stopped deploying on Fridays"),
    ("The billing team publishes a weekly changelog", "The billing team quit publishing a weekly changelog"),
    ("Ops runs the nightly VACUUM job", "Ops ceased running the nightly VACUUM job last month"),
]


@pytest.mark.parametrize(("old", "new"), STOPPED, ids=[p[1] for p in STOPPED])
def test_stopping_a_habit_conflicts_with_the_habit(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT" and "stopped" in matches[0].reason


NOT_STOPPED = [
    ("Mira uses Slack for team chat", "Mira never stopped using Slack for team chat"),
    ("Mira uses Slack for team chat", "Mira hasn't stopped using Slack for team chat"),
    ("Mira visits the Lisbon office", "Mira stopped by the Lisbon office"),
]


@pytest.mark.parametrize(("old", "new"), NOT_STOPPED, ids=[p[1] for p in NOT_STOPPED])
def test_no_habit_stopped_no_correction(old: str, new: str) -> None:
    assert [c for c in corrections(new) if c.cue == "stopped"] == []


def test_recall_ranks_the_stopped_habit_as_corrected(mem: Mnemon) -> None:
    old = mem.remember("Mira uses Slack for team chat", created_at="2026-01-01T09:00:00Z")
    new = mem.remember("Mira stopped using Slack for team chat", created_at="2026-02-01T09:00:00Z")
    assert new["diff_suggestion"] == "CONFLICT"
    [row] = [r for r in mem.recall("Mira Slack team chat")["results"] if r["insight"]["id"] == old["id"]]
    assert row.get("corrected_by") == new["id"]
