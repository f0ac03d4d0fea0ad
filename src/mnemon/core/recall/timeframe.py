"""The period a recall query names ("in June", "on 9 February 2023", "as of March 2024", "2023年5月", "Q3 2026").

A question that names a time asks about what happened then; a memory written months away from it is weaker evidence
however well its words match. Recall demotes results outside the named period (like superseded ones, flagged, never
dropped). Calendar expressions count, and the relative ones of relative_time.py ("yesterday", "last week", "3 days
ago", "last Monday") read against the store's clock; "recently" names no period. A bare year does not either: "the
2024 budget" or "Windows Server 2019" name a topic far more often than when something was written. A month with a
relative year ("in June last year", "去年3月") is in that year, and a range ("from March to May 2025", "between 1 and
10 March 2025") is the whole of it. A quarter is its three months, named with its year ("Q3 2026", "2026年第三季度") or
after a word of time ("in Q3": the latest one begun, as a month is). A day named without a year ("on December 3", "3
December", "12月3日") is its latest occurrence up to today. A period read against the clock that way, or relatively,
is `relative`: recall applies it only when memories were written in it — asked years after a conversation,
"yesterday" is an empty day.

Memories are dated when they were written, and people tell of events afterwards ("yesterday I…", "last week we…"),
so the window reaches `AFTER` days past the named period and `BEFORE` days ahead of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from ..lazy_regex import LazyRegex
from ..model import iso
from .relative_time import ENGLISH_WORDS, relative_periods

BEFORE = timedelta(days=3)
AFTER = timedelta(days=14)
OUTSIDE_FACTOR = 0.5

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH_OF = {**{m: k + 1 for k, m in enumerate(_MONTHS)},
             **{m[:3]: k + 1 for k, m in enumerate(_MONTHS)}, "sept": 9}
_M = "|".join(sorted(_MONTH_OF, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"
# the words that may stand before a month named without a year: a bare "may" or "march" is a verb far too often
_MONTH_LEAD = r"in|during|since|after|before|until|till|by|of|last|this|early|late|mid|up\s+to|prior\s+to"
# one alternation, tried at each position, so the earliest and then most specific expression wins; compiled on the
# first query that could hold a date (≈ 3 ms of every one-shot `recall` otherwise)
_EXPR = LazyRegex(
    rf"\b(?P<iso>(?P<iy>(?:19|20)\d\d)-(?P<im>[01]?\d)(?:-(?P<id>[0-3]?\d))?)(?:\b|(?=T\d))"  # (…-10T10:00Z: its day)
    rf"|\b(?P<d1>[0-3]?\d){_ORD}(?:\s+of)?\s+(?P<m1>{_M})\.?(?:,\s*|\s+)(?P<y1>(?:19|20)\d\d)\b"
    rf"|\b(?P<m2>{_M})\.?\s+(?P<d2>[0-3]?\d){_ORD}(?:,\s*|\s+)(?P<y2>(?:19|20)\d\d)\b"
    rf"|\b(?P<m3>{_M})\.?,?\s+(?:of\s+)?(?P<y3>(?:19|20)\d\d)\b"
    # a day without a year ("3 December", "December 3rd"); not when a year follows that the forms above did not read
    rf"|\b(?P<d5>[0-3]?\d){_ORD}(?:\s+of)?\s+(?P<m5>{_M})\b\.?(?![\s.,]*(?:19|20)\d\d)"
    rf"|\b(?P<m6>{_M})\.?\s+(?P<d6>[0-3]?\d){_ORD}\b(?![\s.,]*(?:19|20)\d\d)"
    # a quarter with its year ("Q3 2026", "2026-Q3", "the third quarter of 2025", "2026年第三季度"), or after a word
    # of time ("in Q3"); not alone: "the Q3 goal" names a topic, as "the 2024 budget" does
    rf"|\bq(?P<q1>[1-4])(?:\s+|\s*[-/]\s*)(?:of\s+)?(?P<qy1>(?:19|20)\d\d)\b"
    rf"|\b(?P<qy2>(?:19|20)\d\d)(?:\s+|\s*[-/]\s*)q(?P<q2>[1-4])\b"
    rf"|\b(?P<qo>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s*(?:of\s+|,\s*|\s)(?P<qy3>(?:19|20)\d\d)\b"
    rf"|(?P<zqy>(?:19|20)\d\d)\s*年\s*(?:第\s*)?(?P<zq>[一二三四1-4])\s*季度?"
    rf"|(?P<zy>(?:19|20)\d\d)\s*年(?:\s*(?P<zm>[01]?\d)\s*月(?:\s*(?P<zd>[0-3]?\d)\s*[日号])?)?"
    rf"|(?:(?<![\d年])|(?<=[去今前]年))(?P<zm2>[01]?\d)\s*月(?:\s*(?P<zd2>[0-3]?\d)\s*[日号])?"
    rf"|\b(?P<y4>(?:19|20)\d\d)\b"
    rf"|\b(?:{_MONTH_LEAD})\s+(?P<q4>q[1-4])\b(?![\s.,]*(?:19|20)\d\d)"
    rf"|\b(?:{_MONTH_LEAD})\s+(?P<m4>{_M})\b"
    rf"(?![\s.,]*(?:[0-3]?\d{_ORD},?\s+)?(?:of\s+)?(?:19|20)\d\d|\s+[0-3]?\d{_ORD}\b)",  # read whole above
    re.IGNORECASE,
)
# the words that open a period to one side: read in the text before the month ("as of March", "until late June",
# "截至3月", "自从2023年5月") and, for Chinese and Japanese, which put them after it, in the text that follows
# ("3月之前", "5月以来", "3月まで", "4月から"); "in/during March" opens nothing
_QUALIFIER = r"(?:\s+(?:early|late|mid|last|this))?"
# ("as of / by / until / since March" keep March; "before / after March" leave it out)
_OPEN_START = LazyRegex(rf"\b(?:as\s+of|by|until|till|up\s+to){_QUALIFIER}\s*$|(?:截至|截止)\s*$", re.IGNORECASE)
_ENDS_BEFORE = LazyRegex(rf"\b(?:before|prior\s+to){_QUALIFIER}\s*$", re.IGNORECASE)
_OPEN_END = LazyRegex(rf"\bsince{_QUALIFIER}\s*$|自从\s*$", re.IGNORECASE)
_STARTS_AFTER = LazyRegex(rf"\bafter{_QUALIFIER}\s*$", re.IGNORECASE)
_OPEN_START_AFTER = LazyRegex(r"^\s*まで")
_ENDS_BEFORE_AFTER = LazyRegex(r"^\s*(?:之前|以前)")
_OPEN_END_AFTER = LazyRegex(r"^\s*(?:以来|以降|から|至今)")
_STARTS_AFTER_AFTER = LazyRegex(r"^\s*(?:之后|以后)")
# a month named without a year but with a relative one ("in June last year", "去年3月"): that year, not the latest
# June up to now — which, asked in August, is this year's and would demote every memory of the June meant
_YEAR_AGO_AFTER = LazyRegex(r"^\s*,?\s*(?:of\s+)?(?P<rel>last|this)\s+year\b", re.IGNORECASE)
_YEAR_AGO_BEFORE = LazyRegex(r"\b(?P<rel>last|this)\s+year\s*,?\s*$|(?P<zh>[去今前])年\s*$", re.IGNORECASE)
_YEARS_AGO = {"last": 1, "this": 0, "去": 1, "今": 0, "前": 2}
# a range ("from March to May 2025", "between 1 and 10 March 2025"): its first end names no year (it takes the
# second's) and was not read on its own, so the second end alone would be the window and March and April "outside"
# (`.*` first: the last "from" before the second end, not one of "moved from Lisbon … from March to May 2025")
_RANGE_FIRST = LazyRegex(r"^.*\b(?:from|between)\s+(?P<first>[\w.,' ]{1,40}?)\s*"
                         r"(?:to|and|through|till|until|-|–|—)\s*$", re.IGNORECASE | re.DOTALL)
_RANGE_OPEN = LazyRegex(r"\b(?:from|between)\s*$", re.IGNORECASE)
_RANGE_NEXT = LazyRegex(r"\s*(?:to|and|through|till|until|-|–|—)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class TimeWindow:
    """A half-open period [start, end) named by the query; `text` is the expression it was read from."""

    start: datetime
    end: datetime
    text: str
    relative: bool = False  # read against the clock: applied only when memories were written in it (module doc)

    def contains(self, when: datetime) -> bool:
        """True when a memory written at `when` can tell of this period (with the slack of the module doc)."""
        return self.start <= when + BEFORE and when - AFTER < self.end

    def bounds(self) -> tuple[str | None, str | None]:
        """The creation times (ISO, UTC) of the memories `contains` admits; None where the window is open."""
        lo = None if self.start.year == 1 else iso(self.start - BEFORE)
        hi = None if self.end.year == 9999 else iso(self.end + AFTER)
        return lo, hi

    def holds(self, when: datetime) -> bool:
        """True when `when` lies in the period itself, without the slack: written on the day the query names."""
        return self.start <= when < self.end

    def own_bounds(self) -> tuple[str, str]:
        """`holds` as inclusive ISO creation times, for a closed period (the store's filters are inclusive)."""
        return iso(self.start), iso(self.end - timedelta(microseconds=1))

    def span(self) -> timedelta:
        return self.end - self.start

    def as_dict(self) -> dict[str, str | bool]:
        return {"from": self.start.isoformat(), "to": self.end.isoformat(), "expression": self.text,
                **({"relative": True} if self.relative else {})}


def _latest_year(now: datetime, month: int, day: int) -> int:
    """The year of the latest `month`/`day` up to `now`'s day."""
    return now.year if (month, day) <= (now.month, now.day) else now.year - 1


def _yearless_day(m: re.Match[str]) -> bool:
    """Whether `m` is a day named without a year ("December 3", "3 December", "12月3日")."""
    return bool(m.group("m5") or m.group("m6") or m.group("zd2"))


_QUARTER_OF = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
               "一": 1, "二": 2, "三": 3, "四": 4}


def _quarter_of(g: dict[str, str | None]) -> int:
    """The quarter (1-4) the match names, 0 when it names none."""
    said = g["q1"] or g["q2"] or (g["q4"] or "")[1:] or g["qo"] or g["zq"]
    if not said:
        return 0
    return int(said) if said.isdigit() else _QUARTER_OF[said.lower()]


def _month_span(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=timezone.utc)
    return start, datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=timezone.utc)


def _span(m: re.Match[str], now: datetime, year: int | None = None) -> tuple[datetime, datetime] | None:
    """The period `m` names; `year` is the one a month without a year belongs to when the query says so."""
    g = m.groupdict()
    try:
        if g["iso"]:
            year, month = int(g["iy"]), int(g["im"])
            if g["id"]:
                day = datetime(year, month, int(g["id"]), tzinfo=timezone.utc)
                return day, day + timedelta(days=1)
            return _month_span(year, month)
        for d, mo, y in (("d1", "m1", "y1"), ("d2", "m2", "y2"), ("d5", "m5", ""), ("d6", "m6", "")):
            if g[d]:
                month = _MONTH_OF[g[mo].lower()]
                day = datetime(int(g[y]) if y else year or _latest_year(now, month, int(g[d])), month, int(g[d]),
                               tzinfo=timezone.utc)
                return day, day + timedelta(days=1)
        if g["m3"]:
            return _month_span(int(g["y3"]), _MONTH_OF[g["m3"].lower()])
        if g["zy"]:
            year = int(g["zy"])
            if g["zd"]:
                day = datetime(year, int(g["zm"]), int(g["zd"]), tzinfo=timezone.utc)
                return day, day + timedelta(days=1)
            if g["zm"]:
                return _month_span(year, int(g["zm"]))
            return None
        quarter = _quarter_of(g)
        if quarter:
            year = int(g["qy1"] or g["qy2"] or g["qy3"] or g["zqy"] or 0) or _latest_year(now, 3 * quarter - 2, 1)
            return _month_span(year, 3 * quarter - 2)[0], _month_span(year, 3 * quarter)[1]
        if g["y4"]:
            return None  # consumed so that "June 2023" is not read as a bare June elsewhere in the query
        month = _MONTH_OF[g["m4"].lower()] if g["m4"] else int(g["zm2"]) if g["zm2"] else 0
        if not 1 <= month <= 12:
            return None
        # a month without a year is its latest occurrence up to now (a day: the latest such day)
        yearless = year is None
        if year is None:
            year = now.year if month <= now.month else now.year - 1
        if g["zd2"]:
            day = datetime(year if not yearless else _latest_year(now, month, int(g["zd2"])), month,
                           int(g["zd2"]), tzinfo=timezone.utc)
            return day, day + timedelta(days=1)
        return _month_span(year, month)
    except ValueError:  # "31 February", month 13: not a date, so no window
        return None


_ASCII_WORD = LazyRegex(r"[a-z]+")


def _may_name_a_period(query: str) -> bool:
    """False only when `_EXPR` cannot match: an ASCII query with no digit and no month name as a whole word (every
    expression but "in June" holds a digit). Other scripts always go to `_EXPR`: its CJK forms, and letters such
    as "ſ" that match ASCII ones when case is ignored."""
    if not query.isascii() or any(c.isdigit() for c in query):
        return True
    return any(word in _MONTH_OF or word in ENGLISH_WORDS for word in _ASCII_WORD.findall(query.lower()))


def _relative_year(query: str, m: re.Match[str], now: datetime) -> int | None:
    """The year a month named without one belongs to when the query says it relatively ("in June last year")."""
    if not (m.group("m4") or m.group("zm2") or m.group("m5") or m.group("m6")):
        return None
    rel = _YEAR_AGO_AFTER.match(query[m.end():]) or _YEAR_AGO_BEFORE.search(query[: m.start()])
    if rel is None:
        return None
    return now.year - _YEARS_AGO[(rel.groupdict().get("zh") or rel.group("rel")).lower()]


def _first_end(first: str, second: datetime, now: datetime) -> datetime | None:
    """Where a range opens whose first end, `first`, may leave out what the second end says: its year ("March to May
    2025"), or its month too ("1 to 10 March 2025"). None when `first` is no date or falls after the second end."""
    if first.isdigit() and len(first) <= 2:
        try:
            day = second.replace(day=int(first))
        except ValueError:
            return None
        return day if day <= second else None
    for text in (first, f"{first} {second.year}", f"{first} {second.year - 1}"):  # November to February 2025
        m = _EXPR.fullmatch(text)
        # ("August 11 and August 15 2023": August 11 of 2023, not the latest one)
        span = _span(m, now) if m is not None and not _yearless_day(m) else None
        if span is not None and span[0] <= second:
            return span[0]
    return None


def _range(query: str, m: re.Match[str], before: str, start: datetime, end: datetime,
           now: datetime) -> TimeWindow | None:
    """The whole of a range the query names ("from March to May 2025", "between March 2025 and May 2025") when `m`
    is one of its ends, else None."""
    first = _RANGE_FIRST.search(before)
    if first is not None:  # `m` is the second end
        opens = _first_end(first.group("first").strip(), start, now)
        if opens is not None:
            return TimeWindow(opens, end, query[first.start("first"):m.end()].strip())
    if _RANGE_OPEN.search(before):  # `m` is the first end: the second follows if it is a date of its own
        link = _RANGE_NEXT.match(query, m.end())
        second = _EXPR.match(query, link.end()) if link is not None else None
        span = _span(second, now) if second is not None else None
        if span is not None and _yearless_day(m):  # "from August 11 to August 15 2023": the second end's year
            start = _first_end(m.group(0).strip(), span[0], now) or span[1]
        if span is not None and span[1] > start:
            return TimeWindow(start, span[1], query[m.start():second.end()].strip() if second else m.group(0))
    return None


def time_window(query: str, now: datetime) -> TimeWindow | None:
    """The first calendar period `query` names, relative to `now` when it leaves out the year; else the first
    relative one ("yesterday", relative_time.py).

    >>> from datetime import datetime, timezone
    >>> now = datetime(2023, 8, 1, tzinfo=timezone.utc)
    >>> w = time_window("What did Jolene do on 9 February, 2023?", now)
    >>> (w.start.date().isoformat(), w.end.date().isoformat())
    ('2023-02-09', '2023-02-10')
    >>> time_window("When did Melanie go camping in June?", now).start.date().isoformat()
    '2023-06-01'
    >>> time_window("How many pets did Andrew have, as of September 2023?", now).start.year
    1
    >>> w = time_window("what did we decide last week", now)
    >>> (w.span().days, w.relative)
    (7, True)
    """
    if not _may_name_a_period(query):
        return None
    for m in _EXPR.finditer(query):
        rel_year = _relative_year(query, m, now)
        span = _span(m, now, rel_year)
        if span is None or _a_verb(query, m):
            continue
        start, end = span
        # "before June" is matched whole by the month-without-year form, so its preposition is inside the match:
        # read what precedes the month itself, as "before June 2023" leaves the preposition in front of the match
        lead_inside = "m4" if m.group("m4") else "q4" if m.group("q4") else None
        before = query[: m.start(lead_inside)] if lead_inside else query[: m.start()]
        ranged = _range(query, m, before, start, end, now)
        if ranged is not None:
            return ranged
        start, end = _opened(before, query[m.end():], start, end)
        return TimeWindow(start, end, m.group(0).strip(), _yearless_day(m) and rel_year is None)
    for m, start, end in relative_periods(query, now):
        start, end = _opened(query[: m.start()], query[m.end():], start, end)
        return TimeWindow(start, end, m.group(0).strip(), True)
    return None


def _opened(before: str, after: str, start: datetime, end: datetime) -> tuple[datetime, datetime]:
    """The period as the words around it open or shift it ("as of June", "before June", "since yesterday")."""
    if _ENDS_BEFORE.search(before) or _ENDS_BEFORE_AFTER.search(after):
        return datetime(1, 1, 1, tzinfo=timezone.utc), start  # before June: up to where June starts
    if _OPEN_START.search(before) or _OPEN_START_AFTER.search(after):
        return datetime(1, 1, 1, tzinfo=timezone.utc), end
    if _STARTS_AFTER.search(before) or _STARTS_AFTER_AFTER.search(after):
        return end, datetime(9999, 1, 1, tzinfo=timezone.utc)  # after June: from where June ends
    if _OPEN_END.search(before) or _OPEN_END_AFTER.search(after):
        return start, datetime(9999, 1, 1, tzinfo=timezone.utc)
    return start, end


_VERB_MONTHS = ("may", "march")
_DAY_LEAD = LazyRegex(rf"\b(?:on|{_MONTH_LEAD})\s+(?:the\s+)?$", re.IGNORECASE)


def _a_verb(query: str, m: re.Match[str]) -> bool:
    """Whether a day without a year is a verb's words instead ("we may 2x the budget", "3 march past"): its month
    is "may" or "march" in lower case with no word of time before it ("on may 3" is a day)."""
    month = m.group("m5") or m.group("m6")
    return bool(month and month in _VERB_MONTHS and not _DAY_LEAD.search(query[: m.start()]))
