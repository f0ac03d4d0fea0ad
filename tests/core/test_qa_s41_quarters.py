"""A quarter named no period: "what did we decide in Q3 2026", "incidents during Q2" and "what shipped last quarter"
were read with no time at all, so memories of any month ranked alike, while "in July 2026" or "last month" gave the
period. A quarter with its year, one after a word of time ("in/during/since/before Q3": its latest start up to now),
and the relative "last/this quarter" are periods now; "the Q3 goal" names a topic, as "the 2024 budget" does."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given, strategies as st

from mnemon.core.recall.timeframe import time_window

NOW = datetime(2026, 12, 7, 19, tzinfo=timezone.utc)


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


@pytest.mark.parametrize(("query", "start", "end"), [
    ("what did we decide in Q3 2026", "2026-07-01", "2026-10-01"),
    ("WHAT HAPPENED IN Q3 2026?", "2026-07-01", "2026-10-01"),
    ("incidents in Q4 2025", "2025-10-01", "2026-01-01"),
    ("roadmap for 2025 Q1", "2025-01-01", "2025-04-01"),
    ("2025-Q2 planning notes", "2025-04-01", "2025-07-01"),
    ("incidents during Q2", "2026-04-01", "2026-07-01"),
    ("what did we decide in q3?", "2026-07-01", "2026-10-01"),
    ("what did we ship in the third quarter of 2025", "2025-07-01", "2025-10-01"),
    ("2026年第三季度的决定", "2026-07-01", "2026-10-01"),
])
def test_a_quarter_names_its_three_months(query: str, start: str, end: str) -> None:
    w = time_window(query, NOW)
    assert w is not None and (w.start, w.end) == (day(start), day(end)) and not w.relative


def test_a_quarter_without_a_year_is_the_latest_one_begun() -> None:
    march = datetime(2026, 3, 10, tzinfo=timezone.utc)
    w = time_window("what shipped in Q4", march)  # Q4 of 2026 has not begun in March: the one of 2025
    assert w is not None and (w.start, w.end) == (day("2025-10-01"), day("2026-01-01"))


@pytest.mark.parametrize(("query", "start", "end"), [
    ("what shipped last quarter", "2026-07-01", "2026-10-01"),
    ("decisions this quarter", "2026-10-01", "2027-01-01"),
    ("上个季度的事故", "2026-07-01", "2026-10-01"),
    ("本季度的目标", "2026-10-01", "2027-01-01"),
])
def test_last_and_this_quarter_are_relative_periods(query: str, start: str, end: str) -> None:
    w = time_window(query, NOW)
    assert w is not None and w.relative and (w.start.date(), w.end.date()) == (day(start).date(), day(end).date())


def test_since_and_before_a_quarter_open_one_side() -> None:
    since = time_window("what changed since Q2 2026", NOW)
    before = time_window("what was decided before Q3 2026", NOW)
    assert since is not None and since.start == day("2026-04-01") and since.end.year == 9999
    assert before is not None and before.start.year == 1 and before.end == day("2026-07-01")


@pytest.mark.parametrize("query", [
    "what was the Q3 goal", "Q3 goal: cut p99 latency", "the Q3 OKRs", "Q5 2026 plan", "FAQ3 2026", "Q3-2026x",
])
def test_a_quarter_as_a_topic_names_no_period(query: str) -> None:
    assert time_window(query, NOW) is None


@given(st.integers(1, 4), st.integers(2000, 2030))
def test_every_quarter_with_its_year(quarter: int, year: int) -> None:
    w = time_window(f"what happened in Q{quarter} {year}", NOW)
    assert w is not None
    assert (w.start.year, w.start.month, w.start.day) == (year, 3 * quarter - 2, 1)
    assert (w.end.year, w.end.month) == ((year + 1, 1) if quarter == 4 else (year, 3 * quarter + 1))
