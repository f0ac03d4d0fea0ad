"""The periods a recall query names relative to when it is asked: "yesterday", "this morning", "last week",
"3 days ago", "last Monday", "in the past 10 days", "昨天", "上周", "3天前".

They are read against the store's clock (the one `remember` stamps with), in the user's own calendar: "yesterday" is
the local day before today, its bounds turned to UTC as memories are stamped. A weekday is its latest occurrence
before today ("last Monday", "on Monday"; not "this Friday", often the one ahead); "last week", "last month" and
"last quarter" are the calendar ones before the current; "the past N days" ends now. Years are left out, as they are
for absolute dates: "the camping trip last year" is told long after it, and a year's window would demote every
memory telling of it.

Such a period is only a hint: recall applies it when memories were written in it (app/recall.py), so a question asked
long after the store was written ("what did she do last week", asked of a conversation from 2023) reads as before.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from ..lazy_regex import LazyRegex

_NUMBER = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "thirty": 30}
_ZH_NUMBER = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_N = r"\d{1,3}|" + "|".join(sorted(_NUMBER, key=len, reverse=True))
# a number in digits or Chinese numerals up to 99 ("十五天前": 15 days, not 5), never begun inside another
_ZN = r"(?<![\d一两二三四五六七八九十])(?:\d{1,3}|[一两二三四五六七八九]?十[一二三四五六七八九]?|[一两二三四五六七八九])"
_UNIT = r"(?P<{}>day|week|month|hour)s?"
_DAYPART = r"(?:morning|afternoon|evening|night)"
# one alternation, tried at each position: the earliest expression wins, then the most specific
_EXPR = LazyRegex(
    r"(?P<before_yesterday>\b(?:the\s+)?day\s+before\s+yesterday\b|大前天|前天)"
    rf"|(?P<yesterday>\byesterday(?:\s+{_DAYPART})?\b|昨天(?:早上|上午|下午|晚上)?|昨日)"
    r"|(?P<last_night>\blast\s+night\b|昨晚|昨夜)"
    rf"|(?P<today>\btoday\b|\btonight\b|\bthis\s+{_DAYPART}\b|今天(?:早上|上午|下午|晚上)?|今日|今早|今晚)"
    rf"|\b(?:(?:in|during|over|within)\s+)?(?:the\s+)?(?:past|last|previous)\s+(?P<n_past>{_N})\s+"
    + _UNIT.format("u_past") + r"\b"
    + r"|\b(?:(?:in|during|over|within)\s+)?the\s+past\s+" + _UNIT.format("u_past1") + r"\b"
    + rf"|(?:最近|过去|近)\s*(?P<zn_past>{_ZN})\s*(?:个)?\s*(?P<zu_past>天|周|星期|个?月)"
    + rf"|(?P<few>\b(?:a\s+)?(?:few|couple(?:\s+of)?)\s+days\s+ago\b)"
    + rf"|\b(?P<n_ago>{_N})\s+" + _UNIT.format("u_ago") + r"\s+ago\b"
    + rf"|(?P<zn_ago>{_ZN})\s*(?:个)?\s*(?P<zu_ago>天|周|星期|礼拜|月)(?:以)?前"
    + rf"|\b(?:last|on|this\s+past)\s+(?P<wd>{'|'.join(_WEEKDAYS)})\b"
    + r"|(?P<zh_wd_week>上|这|本)(?:个)?(?:周|星期|礼拜)(?P<zh_wd>[一二三四五六日天])"
    + r"|\b(?P<week_rel>last|this|previous|over\s+the)\s+(?P<week_unit>week|month|weekend|quarter)\b"
    + r"|(?P<zh_rel>上|这|本)(?:个)?(?P<zh_unit>周|星期|礼拜|季度|月)",
    re.IGNORECASE,
)
ENGLISH_WORDS = frozenset(("yesterday", "today", "tonight", "ago", "week", "weekend", "month", "morning",
                           "afternoon", "evening", "night", "days", "weeks", "months", "hours", "quarter",
                           *_WEEKDAYS))


def _amount(text: str | None) -> int:
    if not text:
        return 1
    text = text.lower()
    if text.isdigit():
        return int(text)
    if "十" in text:  # 十 10, 十五 15, 二十 20, 二十五 25
        tens, _, ones = text.partition("十")
        return _ZH_NUMBER.get(tens, 1) * 10 + _ZH_NUMBER.get(ones, 0)
    return _NUMBER.get(text) or _ZH_NUMBER.get(text, 1)


def _month_start(day: datetime, back: int) -> datetime:
    index = day.year * 12 + day.month - 1 - back
    return day.replace(year=index // 12, month=index % 12 + 1, day=1)


def _unit_of(text: str) -> str:
    units = {"天": "day", "周": "week", "星期": "week", "礼拜": "week", "季度": "quarter"}
    return units.get(text, "month" if "月" in text else text.lower())


def _span(g: dict[str, str | None], now: datetime, today: datetime) -> tuple[datetime, datetime] | None:
    """The local period the match's groups name; `today` is the local midnight starting the day of `now`."""
    day = timedelta(days=1)
    monday = today - timedelta(days=today.weekday())
    if g["before_yesterday"]:
        back = 3 if g["before_yesterday"] == "大前天" else 2
        return today - back * day, today - (back - 1) * day
    if g["yesterday"]:
        return today - day, today
    if g["last_night"]:
        return today - day / 2, today + day / 2
    if g["today"]:
        return today, today + day
    if g["n_past"] or g["u_past1"] or g["zn_past"]:
        n = _amount(g["n_past"] or g["zn_past"])
        unit = _unit_of(g["u_past"] or g["u_past1"] or g["zu_past"] or "day")
        if unit == "hour":
            return now - timedelta(hours=n), now + timedelta(microseconds=1)
        if unit == "month":
            return _month_start(today, n).replace(day=min(today.day, 28)), today + day
        return today - n * (7 if unit == "week" else 1) * day, today + day
    if g["few"]:
        return (today - 3 * day, today - day) if "couple" in g["few"].lower() else (today - 6 * day, today - day)
    if g["n_ago"] or g["zn_ago"]:
        n = _amount(g["n_ago"] or g["zn_ago"])
        unit = _unit_of(g["u_ago"] or g["zu_ago"] or "day")
        if unit == "hour":
            return None
        if unit == "day":
            return today - n * day, today - (n - 1) * day
        if unit == "week":
            week = monday - 7 * n * day
            return week, week + 7 * day
        start = _month_start(today, n)
        return start, _month_start(start, -1)
    if g["wd"]:
        back = (today.weekday() - _WEEKDAYS.index(g["wd"].lower())) % 7 or 7  # the latest one before today
        return today - back * day, today - (back - 1) * day
    if g["zh_wd"]:  # 上周一: Monday of last week; 这周一: of this one
        start = monday - (7 * day if g["zh_wd_week"] == "上" else timedelta()) + _ZH_WEEKDAY[g["zh_wd"]] * day
        return (start, start + day) if start <= today else None  # (这周五, asked on a Wednesday, is ahead)
    rel, unit = g["week_rel"] or g["zh_rel"], _unit_of(g["week_unit"] or g["zh_unit"] or "")
    back = 0 if rel and rel.lower().split()[0] in ("this", "over", "这", "本") else 1
    if unit == "week":
        return monday - 7 * back * day, monday + 7 * (1 - back) * day
    if unit == "weekend":  # the latest one begun before today ("this/over the weekend": the one under way, if any)
        saturday = monday - 2 * day if back or today.weekday() < 5 else monday + 5 * day
        return saturday, saturday + 2 * day
    if unit == "quarter":  # the calendar quarter under way, or the one before it
        start = _month_start(today, (today.month - 1) % 3 + 3 * back)
        return start, _month_start(start, -3)
    start = _month_start(today, back)
    return start, _month_start(start, -1)


def relative_periods(query: str, now: datetime) -> Iterator[tuple[re.Match[str], datetime, datetime]]:
    """Each relative expression of `query` with the period [start, end) it names, in UTC, earliest first."""
    local = now.astimezone() if now.tzinfo is not None else now.replace(tzinfo=timezone.utc)
    today = local.replace(hour=0, minute=0, second=0, microsecond=0)
    for m in _EXPR.finditer(query):
        span = _span(m.groupdict(), local, today)
        if span is not None:
            yield m, span[0].astimezone(timezone.utc), span[1].astimezone(timezone.utc)
