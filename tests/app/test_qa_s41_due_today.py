"""A deadline on today's date is the most pressing of all, not a past one: the scorer compared its midnight with the
current time, so from 00:00:01 on the day it was due it scored as 'dated, long past' freshness and ranked below an
item due in three weeks."""
from __future__ import annotations

from datetime import datetime, timezone

from mnemon.app.thought_scores import score_observation
from mnemon.core.model import Memory


def _risk(text: str) -> Memory:
    return Memory(id=text, content=text, created_at="2026-01-01T00:00:00Z",
                  metadata={"observation_kind": "risk", "score": 1.0})


def test_an_item_due_today_scores_as_upcoming_all_day() -> None:
    for hour in (0, 9, 23):
        now = datetime(2026, 6, 10, hour, 30, tzinfo=timezone.utc)
        today = score_observation(_risk("Contract renewal due 2026-06-10"), hints=(), now=now, recent_seeds=set())
        later = score_observation(_risk("Contract renewal due 2026-06-30"), hints=(), now=now, recent_seeds=set())
        assert today[1]["freshness"] == 0.8 and "dated 2026-06-10, within 30 days" in today[2]
        assert today[0] >= later[0]


def test_yesterday_is_past() -> None:
    now = datetime(2026, 6, 10, 9, tzinfo=timezone.utc)
    _, parts, reasons = score_observation(_risk("Contract renewal due 2026-06-09"), hints=(), now=now,
                                          recent_seeds=set())
    assert parts["freshness"] == 0.6 and not any("within 30 days" in r for r in reasons)
