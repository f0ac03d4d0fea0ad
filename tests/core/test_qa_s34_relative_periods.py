"""Relative periods in a recall query ("yesterday", "last week", "3 days ago", "last Monday", "昨天", "上周") and days
named without a year ("on December 3"), read against the clock in the user's own calendar."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, strategies as st

from mnemon.core.recall.timeframe import time_window

NOW = datetime(2026, 12, 6, 15, 0, tzinfo=timezone.utc)  # a Sunday afternoon


@pytest.fixture(autouse=True)
def _utc(local_tz: Callable[[str], None]) -> None:
    """The process's local time zone is UTC unless a test sets another (`local_tz`)."""


def day(text: str) -> datetime:
    """Midnight UTC starting the day `text` (YYYY-MM-DD)."""
    return datetime.fromisoformat(f"{text}T00:00:00+00:00")


@pytest.mark.parametrize("query, start, end", [
    ("what did I do yesterday", "2026-12-05", "2026-12-06"),
    ("what happened yesterday afternoon", "2026-12-05", "2026-12-06"),
    ("what did I do this morning", "2026-12-06", "2026-12-07"),
    ("anything new today?", "2026-12-06", "2026-12-07"),
    ("what did we do the day before yesterday", "2026-12-04", "2026-12-05"),
    ("what did I do 3 days ago", "2026-12-03", "2026-12-04"),
    ("what did I fix three days ago", "2026-12-03", "2026-12-04"),
    ("what happened last week", "2026-11-23", "2026-11-30"),       # the calendar week before this one
    ("what happened this week", "2026-11-30", "2026-12-07"),
    ("what did we do two weeks ago", "2026-11-16", "2026-11-23"),
    ("what did we do last Monday", "2026-11-30", "2026-12-01"),    # the latest Monday before today
    ("the review on Friday", "2026-12-04", "2026-12-05"),
    ("what did we do last month", "2026-11-01", "2026-12-01"),
    ("what happened in the past 10 days", "2026-11-26", "2026-12-07"),
    ("on December 3", "2026-12-03", "2026-12-04"),                 # a day without a year: its latest occurrence
    ("what happened on 3 December", "2026-12-03", "2026-12-04"),
    ("the outage on December 10", "2025-12-10", "2025-12-11"),     # December 10 is still ahead this year
    ("the 2nd of March", "2026-03-02", "2026-03-03"),
    ("昨天做了什么", "2026-12-05", "2026-12-06"),
    ("前天的会议", "2026-12-04", "2026-12-05"),
    ("今天发生了什么", "2026-12-06", "2026-12-07"),
    ("上周发生了什么", "2026-11-23", "2026-11-30"),
    ("3天前的部署", "2026-12-03", "2026-12-04"),
    ("上周一的会议", "2026-11-23", "2026-11-24"),
    ("12月10日的会议", "2025-12-10", "2025-12-11"),                 # not a day still ahead this year
    ("十五天前的事故", "2026-11-21", "2026-11-22"),                   # fifteen days, not five
    ("二十天前", "2026-11-16", "2026-11-17"),
    ("what did I do a couple days ago", "2026-12-03", "2026-12-05"),
    ("what did I do over the weekend", "2026-12-05", "2026-12-07"),  # the one under way on a Sunday
])
def test_relative_periods_are_read_against_the_clock(query: str, start: str, end: str) -> None:
    w = time_window(query, NOW)
    assert w is not None, query
    assert (w.start, w.end) == (day(start), day(end)) and w.relative
    assert w.as_dict()["relative"] is True


@pytest.mark.parametrize("query, start, end", [
    ("what changed since yesterday", "2026-12-05", None),
    ("the plan as of last week", None, "2026-11-30"),
    ("what was decided by December 3", None, "2026-12-04"),
])
def test_relative_periods_open_as_absolute_ones_do(query: str, start: str | None, end: str | None) -> None:
    w = time_window(query, NOW)
    assert w is not None and w.relative
    assert w.start == (day(start) if start else datetime(1, 1, 1, tzinfo=timezone.utc))
    assert w.end == (day(end) if end else datetime(9999, 1, 1, tzinfo=timezone.utc))


@pytest.mark.parametrize("query", [
    "what did we decide recently", "the camping trip last year", "we may 2x the budget", "an hour ago",
    "Monday standup notes", "what is the weekly plan",
])
def test_no_relative_period(query: str) -> None:
    assert time_window(query, NOW) is None


def test_absolute_periods_are_not_relative() -> None:
    for query in ("what happened on 20 November 2026", "When did Melanie go camping in June?",
                  "Where was John between August 11 and August 15 2023?"):
        w = time_window(query, NOW)
        assert w is not None and not w.relative and "relative" not in w.as_dict(), query
    ranged = time_window("Where was John between August 11 and August 15 2023?", NOW)
    assert ranged is not None and (ranged.start, ranged.end) == (day("2023-08-11"), day("2023-08-16"))


def test_yesterday_is_the_users_calendar_day(local_tz: Callable[[str], None]) -> None:
    """At 20:00 UTC it is already 04:00 the next day in UTC+8: "yesterday" there is the UTC+8 day before."""
    local_tz("CST-8")
    w = time_window("what did I do yesterday", datetime(2026, 12, 6, 20, 0, tzinfo=timezone.utc))
    assert w is not None
    assert (w.start, w.end) == (datetime(2026, 12, 5, 16, tzinfo=timezone.utc),
                                datetime(2026, 12, 6, 16, tzinfo=timezone.utc))


@given(st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2090, 1, 1)), st.integers(1, 40))
def test_n_days_ago_is_that_one_day(now: datetime, n: int) -> None:
    now = now.replace(tzinfo=timezone.utc)
    w = time_window(f"what did I do {n} days ago", now)
    assert w is not None and w.end - w.start == timedelta(days=1)
    assert w.start.date() == now.date() - timedelta(days=n) and w.start.hour == 0


@given(st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2090, 1, 1)),
       st.sampled_from(["last week", "last month", "yesterday", "last Tuesday", "December 3", "上周", "昨天"]))
def test_a_relative_period_ends_by_today(now: datetime, expression: str) -> None:
    """What a relative expression names lies before the end of today, never ahead."""
    now = now.replace(tzinfo=timezone.utc)
    w = time_window(f"what happened on {expression}", now)
    assert w is not None and w.relative and w.start < w.end
    assert w.end <= datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), timezone.utc)


def test_a_weekday_that_may_be_ahead_names_no_period() -> None:
    """"this Friday" and "这周五" (asked on a Wednesday) are as often the one ahead: no window is guessed."""
    wednesday = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
    assert time_window("the release this Friday", wednesday) is None
    assert time_window("这周五的发布", wednesday) is None
    w = time_window("这周一的会议", wednesday)
    assert w is not None and (w.start, w.end) == (day("2026-11-30"), day("2026-12-01"))


def _chinese(n: int) -> str:
    digits = "零一二三四五六七八九"
    tens, ones = divmod(n, 10)
    return (("" if tens < 2 else digits[tens]) + "十" if tens else "") + (digits[ones] if ones else "")


@given(st.integers(1, 99))
def test_n_days_ago_in_chinese_numerals(n: int) -> None:
    w = time_window(f"{_chinese(n)}天前做了什么", NOW)
    assert w is not None and w.start == day("2026-12-06") - timedelta(days=n), _chinese(n)


@pytest.mark.parametrize("query", ["the forest picture shared on December 1,2023", "what happened on 1 December,2023"])
def test_a_date_whose_year_follows_a_comma_without_a_space(query: str) -> None:
    w = time_window(query, NOW)
    assert w is not None and (w.start, w.end) == (day("2023-12-01"), day("2023-12-02")) and not w.relative
