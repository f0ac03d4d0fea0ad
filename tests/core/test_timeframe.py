"""The period a recall query names: which calendar expressions give a window, and which do not."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import pytest
from hypothesis import given, strategies as st

from mnemon.core.lazy_regex import LazyRegex
from mnemon.core.recall import timeframe
from mnemon.core.recall.timeframe import TimeWindow, time_window

NOW = datetime(2023, 8, 15, 12, tzinfo=timezone.utc)


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


@pytest.mark.parametrize("query, start, end", [
    ("What did Jolene do on 9 February, 2023?", "2023-02-09", "2023-02-10"),
    ("what happened on February 9th, 2023", "2023-02-09", "2023-02-10"),
    ("the outage on 2023-02-09", "2023-02-09", "2023-02-10"),
    ("releases in 2023-03", "2023-03-01", "2023-04-01"),
    ("What did Maria donate in December 2022?", "2022-12-01", "2023-01-01"),
    ("anything from Sept 2022", "2022-09-01", "2022-10-01"),
    ("When did Melanie go camping in June?", "2023-06-01", "2023-07-01"),        # latest June up to now
    ("what did we ship in October?", "2022-10-01", "2022-11-01"),                # October is still ahead in 2023
    ("2023年5月做了什么决定", "2023-05-01", "2023-06-01"),
    ("2023年5月4日的会议", "2023-05-04", "2023-05-05"),
    ("3月的预算", "2023-03-01", "2023-04-01"),
])
def test_calendar_expressions_name_a_period(query: str, start: str, end: str) -> None:
    w = time_window(query, NOW)
    assert w is not None and (w.start, w.end) == (day(start), day(end))


def test_as_of_and_since_open_one_side() -> None:
    as_of = time_window("How many pets did Andrew have, as of September 2023?", NOW)
    since = time_window("what changed since March 2023", NOW)
    assert as_of is not None and as_of.start.year == 1 and as_of.end == day("2023-10-01")
    assert since is not None and since.start == day("2023-03-01") and since.end.year == 9999


@pytest.mark.parametrize("query", [
    "What state did Joanna visit in 2021?", "the 2024 budget review", "upgrade to Windows Server 2019", "2023年的计划",
    "what did we decide recently", "may I ask why the build broke", "why did we pick Redis",
    "the 31 February 2023 incident", "ticket 12345 and port 8080", "",
])
def test_no_calendar_period_no_window(query: str) -> None:
    assert time_window(query, NOW) is None


def test_memories_told_shortly_after_the_period_still_count() -> None:
    w = TimeWindow(day("2023-06-01"), day("2023-07-01"), "June")
    assert w.contains(day("2023-06-15")) and w.contains(day("2023-07-10"))  # "last week we went camping"
    assert w.contains(day("2023-05-30"))
    assert not w.contains(day("2023-08-01")) and not w.contains(day("2023-05-01"))


@given(st.text(max_size=200))
def test_any_text_gives_a_well_formed_window_or_none(query: str) -> None:
    w = time_window(query, NOW)
    assert w is None or (w.start < w.end and w.text)


_MONTHISH = st.sampled_from([" June", " jun", " SEPT", " in may", " during March?", " of dec.", "x_june", "junee",
                             " in ſept", " in Auguſt", " 2023", "9", "年", "5月", "?", ","])


@given(st.lists(st.one_of(st.text(alphabet="abcdefghijklmnopqrstuvwxyzDJMS _.,?-'\n", max_size=12), _MONTHISH),
                max_size=8).map("".join) | st.text(max_size=60))
def test_queries_skipped_without_the_full_pattern_could_never_match_it(query: str) -> None:
    # the cheap check before the date patterns compile may only skip what they would not match anyway
    if not timeframe._may_name_a_period(query):
        assert timeframe._EXPR.search(query) is None


def test_a_query_naming_no_date_leaves_the_date_patterns_uncompiled() -> None:
    fresh = LazyRegex(timeframe._EXPR._pattern, timeframe._EXPR._flags)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(timeframe, "_EXPR", fresh)
        assert time_window("why did Alice move the session cache to Redis", NOW) is None
        assert fresh._compiled is None
        assert time_window("what did Alice move in June", NOW) is not None
        assert fresh._compiled is not None


# ── open-ended periods: "as of / before / until / by" open the start, "since / after" the end ────────────────────
OPEN_START_LEADS = ("as of", "until", "till", "by", "up to")  # the month itself included
ENDS_BEFORE_LEADS = ("before", "prior to")                      # up to where the month starts
OPEN_END_LEADS = ("since",)
STARTS_AFTER_LEADS = ("after",)                                 # from where the month ends
CLOSED_LEADS = ("in", "during")
_EPOCH, _NEVER = datetime(1, 1, 1, tzinfo=timezone.utc), datetime(9999, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("query, start, end", [
    ("billing database as of March", None, "2023-04-01"),
    ("billing database before June", None, "2023-06-01"),      # June itself is not before June
    ("who owned billing until October?", None, "2022-11-01"),          # October is still ahead in 2023
    ("the plan up to May", None, "2023-06-01"),
    ("what was decided by late July", None, "2023-08-01"),
    ("billing database since February", "2023-02-01", None),
    ("what changed after Sept", "2022-10-01", None),
    ("what changed since last March", "2023-03-01", None),
    ("billing database in March", "2023-03-01", "2023-04-01"),
    ("billing database during March", "2023-03-01", "2023-04-01"),
    ("the 2nd of March", "2023-03-02", "2023-03-03"),                 # "of" alone is no "as of"; a day
    ("截至3月的预算", None, "2023-04-01"),
    ("3月之前的预算", None, "2023-03-01"),
    ("2023年3月之前的预算", None, "2023-03-01"),
    ("5月以来的变化", "2023-05-01", None),
    ("2023年5月以来的变化", "2023-05-01", None),
    ("自从5月", "2023-05-01", None),
    ("3月までの予算", None, "2023-04-01"),
    ("4月から変わったこと", "2023-04-01", None),
    ("来自3月的报告", "2023-03-01", "2023-04-01"),                      # "from" a place or a report, not "since"
])
def test_open_ended_periods_without_a_year(query: str, start: str | None, end: str | None) -> None:
    w = time_window(query, NOW)
    assert w is not None
    assert (w.start, w.end) == (day(start) if start else _EPOCH, day(end) if end else _NEVER)


def _resolved_year(month: int, now: datetime) -> int:
    return now.year if month <= now.month else now.year - 1


_NOWS = st.datetimes(min_value=datetime(1991, 1, 1), max_value=datetime(2098, 12, 31),
                     timezones=st.just(timezone.utc))


@given(month=st.sampled_from(sorted(timeframe._MONTH_OF)), case=st.sampled_from([str.lower, str.title, str.upper]),
       lead=st.sampled_from(OPEN_START_LEADS + ENDS_BEFORE_LEADS + OPEN_END_LEADS + STARTS_AFTER_LEADS
                            + CLOSED_LEADS),
       qualifier=st.sampled_from(["", "early ", "late ", "mid "]),
       subject=st.sampled_from(["", "billing database ", "What did Alice decide "]), now=_NOWS)
def test_a_month_without_a_year_opens_like_the_same_month_with_its_year(
        month: str, case: Callable[[str], str], lead: str, qualifier: str, subject: str, now: datetime) -> None:
    # "before June" is "before June <the latest June up to now>": the same window, the same open side
    name = case(month)
    number = timeframe._MONTH_OF[month]
    year = _resolved_year(number, now)
    yearless = time_window(f"{subject}{lead} {qualifier}{name}?", now)
    dated = time_window(f"{subject}{lead} {qualifier}{name} {year}?", now)
    assert yearless is not None and dated is not None
    assert (yearless.start, yearless.end) == (dated.start, dated.end)
    first = datetime(year, number, 1, tzinfo=timezone.utc)
    following = datetime(year + (number == 12), number % 12 + 1, 1, tzinfo=timezone.utc)
    expected = ((_EPOCH, following) if lead in OPEN_START_LEADS else (_EPOCH, first) if lead in ENDS_BEFORE_LEADS
                else (first, _NEVER) if lead in OPEN_END_LEADS else (following, _NEVER) if lead in STARTS_AFTER_LEADS
                else (first, following))
    assert (yearless.start, yearless.end) == expected


@given(month=st.integers(1, 12), form=st.sampled_from([("截至", "的预算", "start"), ("", "之前", "start"),
                                                      ("", "以前", "start"), ("", "まで", "start"),
                                                      ("自从", "", "end"), ("", "以来", "end"), ("", "之后", "end"),
                                                      ("", "から", "end"), ("", "的会议", None)]), now=_NOWS)
def test_a_cjk_month_without_a_year_opens_like_the_same_month_with_its_year(
        month: int, form: tuple[str, str, str | None], now: datetime) -> None:
    before, after, side = form
    year = _resolved_year(month, now)
    yearless = time_window(f"{before}{month}月{after}", now)
    dated = time_window(f"{before}{year}年{month}月{after}", now)
    assert yearless is not None and dated is not None
    assert (yearless.start, yearless.end) == (dated.start, dated.end)
    assert (yearless.start == _EPOCH, yearless.end == _NEVER) == (side == "start", side == "end")


@pytest.mark.parametrize("query, start, end", [
    ("what happened before June 2025", None, "2025-06-01"),
    ("what happened after June 2025", "2025-07-01", None),
    ("what was decided prior to March 2025", None, "2025-03-01"),
    ("as of June 2025", None, "2025-07-01"),                  # "as of" keeps the month
    ("since June 2025", "2025-06-01", None),
    ("what broke at 2025-04-10T10:00:00Z", "2025-04-10", "2025-04-11"),  # a timestamp names its day, not its month
])
def test_before_and_after_leave_the_month_out_and_a_timestamp_is_its_day(query: str, start: str | None,
                                                                        end: str | None) -> None:
    window = time_window(query, datetime(2026, 12, 4, tzinfo=timezone.utc))
    assert window is not None
    assert (None if window.start == _EPOCH else window.start.date().isoformat(),
            None if window.end == _NEVER else window.end.date().isoformat()) == (start, end)


@pytest.mark.parametrize("query, start, end", [
    # asked in August 2023, "June last year" is June 2022, not the latest June up to now (June 2023)
    ("what did we ship in June last year?", "2022-06-01", "2022-07-01"),
    ("the outage in June of last year", "2022-06-01", "2022-07-01"),
    ("last year in June", "2022-06-01", "2022-07-01"),
    ("in October this year", "2023-10-01", "2023-11-01"),
    ("去年3月的预算", "2022-03-01", "2022-04-01"),
    ("前年3月的预算", "2021-03-01", "2021-04-01"),
    ("今年3月的预算", "2023-03-01", "2023-04-01"),
])
def test_a_month_with_a_relative_year_is_in_that_year(query: str, start: str, end: str) -> None:
    w = time_window(query, NOW)
    assert w is not None and (w.start, w.end) == (day(start), day(end))


@pytest.mark.parametrize("query, start, end", [
    # the second end alone ("May 2023") made March and April memories "outside" the period asked about
    ("what changed from March to May 2023", "2023-03-01", "2023-06-01"),
    ("incidents between March and May 2023", "2023-03-01", "2023-06-01"),
    ("what changed from March 2023 to May 2023", "2023-03-01", "2023-06-01"),
    ("from March until May 2023", "2023-03-01", "2023-06-01"),               # not "until May": open to the past
    ("between 1 and 10 March 2023", "2023-03-01", "2023-03-11"),
    ("from 3 March to 10 March 2023", "2023-03-03", "2023-03-11"),
    ("from November to February 2023", "2022-11-01", "2023-03-01"),          # the first end in the year before
    ("moved from Lisbon to Porto, from March to May 2023", "2023-03-01", "2023-06-01"),
    ("moved from Lisbon to Porto in May 2023", "2023-05-01", "2023-06-01"),   # "from" a place is no range
    ("from May 2023 to the launch", "2023-05-01", "2023-06-01"),             # no second date: the first alone
])
def test_a_range_names_the_whole_period(query: str, start: str, end: str) -> None:
    w = time_window(query, NOW)
    assert w is not None and (w.start, w.end) == (day(start), day(end))
