"""Date phrases Mneme recognises: ``YYYY-MM-DD``, ``D Mon YYYY`` and ``Mon D`` — plus ``Mon D, YYYY``, ``the Dth of
Mon YYYY`` and numeric dates with slashes or dots (`_NUMERIC_TAIL`).

Fixes over the reference: impossible dates (2024-02-30) are rejected instead of becoming date nodes, and a
yearless ``Mon D`` is kept yearless (``year=None``) rather than silently assigned the current year or a
hard-coded 2026 — whoever compares dates decides what a missing year means. Yearless forms need a capitalised
month name, so "you may 3x the budget" is not a date.
"""
from __future__ import annotations

import datetime as _dt
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate
from operator import add
from typing import Callable

from mnemon.core.vault.model import DateMention

_MONTHS: dict[str, int] = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH_WORD = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)

# Patterns start with a literal or are anchored at a known offset: a leading look-behind or character class
# makes Python's regex engine try every position of the note, which dominated ingest time.
# A trailing "T10:00" (ISO datetime) or "-meeting" (daily-note names) still counts; "2024-01-05-7" does not.
_ISO_TAIL = re.compile(r"-(\d\d)-(\d\d)(?!\d|-\d)")
_ORDINAL = r"(?:(?:st|nd|rd|th)[ \t]+of|st|nd|rd|th)?"  # ("the 5th of March 2024": "of" after an ordinal only)
_DAY_MONTH_YEAR = re.compile(
    rf"(\d{{1,2}}){_ORDINAL}[ \t]+({_MONTH_WORD})\.?,?[ \t]+(\d{{4}})(?!\w)", re.IGNORECASE
)
_DAY_BEFORE_MONTH = re.compile(rf"(?<![\w])\d{{1,2}}{_ORDINAL}[ \t]+$", re.IGNORECASE)
# A numeric date with '/' or '.' between its parts (ISO's '-' is `_ISO_TAIL`'s), found from its first separator:
# what comes before it is read by `_numeric_date`. Not followed by another part: "10.12.2024.1" is a version.
_NUMERIC_TAIL = re.compile(r"([/.])(\d{1,2})\1(\d{4}|\d{1,2})(?!\d|[/.-]\d)")
_MONTH_DAY_YEAR = re.compile(
    rf"({_MONTH_WORD})\.?[ \t]+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?[ \t]+(\d{{4}}))?(?![\w:])", re.IGNORECASE
)
_HAS_DIGIT = re.compile(r"\d")
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _month_number(word: str) -> int:
    return _MONTHS[word[:3].lower()]


def _is_valid(year: int | None, month: int, day: int) -> bool:
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return False
    try:
        _dt.date(year if year is not None else 2000, month, day)  # 2000 is a leap year: Feb 29 stays valid
    except ValueError:
        return False
    return year is None or 1000 <= year <= 9999


def _month_at(text: str, at: int, found: list[tuple[int, str, int | None, int, int]], claim: Callable[[int, int], bool]) -> None:
    """Try "D Mon YYYY" ending and "Mon D[, YYYY]" starting at the month word found at `at`."""
    before = _DAY_BEFORE_MONTH.search(text, max(0, at - 16), at)
    if before:
        match = _DAY_MONTH_YEAR.match(text, before.start())
        if match:
            day, month, full_year = int(match.group(1)), _month_number(match.group(2)), int(match.group(3))
            if _is_valid(full_year, month, day) and claim(match.start(), match.end()):
                found.append((match.start(), match.group(0), full_year, month, day))
                return
    match = _MONTH_DAY_YEAR.match(text, at)
    if not match:
        return
    month_word, day_s, year_s = match.group(1), match.group(2), match.group(3)
    if year_s is None and not month_word[0].isupper():
        return
    year = int(year_s) if year_s is not None else None
    month, day = _month_number(month_word), int(day_s)
    if _is_valid(year, month, day) and claim(match.start(), match.end()):
        found.append((match.start(), match.group(0), year, month, day))


def _numeric_date(text: str, tail: re.Match[str]) -> tuple[int, int, int, int] | None:
    """(start, year, month, day) of the numeric date whose first separator `tail` matched, or None when it names no
    day for certain. The order is read where it cannot be mistaken, as the month-name forms are: year first is year,
    month, day, as ISO (dotted, with two-digit parts, as a version rarely has them: "2024.03.05" but not
    "2024.3.5"); year last with dots is day first, as every locale writing dates with dots reads them; with slashes
    it is day first in some and month first in others, so it is read only when one order is impossible
    ("25/03/2024") or both agree ("05/05/2024"): a day guessed wrong is worse than none."""
    start = at = tail.start()
    while start > 0 and at - start < 5 and "0" <= text[start - 1] <= "9":
        start -= 1
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-/"):
        return None  # ("v1.2.2024", "docs/2024/03/05", "1.05.03.2024")
    separator, middle, last = tail.group(1), tail.group(2), tail.group(3)
    if at - start == 4 and len(last) <= 2:
        if separator == "." and len(middle) + len(last) < 4:
            return None
        return start, int(text[start:at]), int(middle), int(last)
    if not 1 <= at - start <= 2 or len(last) != 4:
        return None
    first, second = int(text[start:at]), int(middle)
    if separator == "/" and first != second and max(first, second) <= 12:
        return None
    day, month = (second, first) if separator == "/" and second > 12 else (first, second)
    return start, int(last), month, day


def date_spans(text: str) -> list[tuple[int, str, int | None, int, int]]:
    """(offset, matched text, year, month, day) of every date phrase, in order, each span counted once.

    Patterns never cross a newline, so the caller can run this over a whole note and map offsets to lines.
    """
    if not _HAS_DIGIT.search(text):
        return []
    found: list[tuple[int, str, int | None, int, int]] = []
    taken_starts: list[int] = []  # claimed spans never overlap, so sorted starts find the one neighbour to test
    taken_ends: list[int] = []

    def claim(start: int, end: int) -> bool:
        index = bisect_left(taken_starts, end)
        if index and taken_ends[index - 1] > start:
            return False
        taken_starts.insert(index, start)
        taken_ends.insert(index, end)
        return True

    # An ISO date's first dash follows four digits. The scan skips the rest of each "-MM-DD" it finds: no date
    # can start at its inner dash, or end within four characters after it (neither has four digits before it).
    for match in _ISO_TAIL.finditer(text, 4):
        position = match.start()
        start = position - 4
        if text[start:position].isdigit() and text[start:position].isascii() and (
            start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_.-")
        ):
            year, month, day = int(text[start:position]), int(match.group(1)), int(match.group(2))
            if _is_valid(year, month, day) and claim(start, match.end()):
                found.append((start, text[start:match.end()], year, month, day))
    if "/" in text or "." in text:
        for tail in _NUMERIC_TAIL.finditer(text, 1):
            numeric = _numeric_date(text, tail)
            if numeric is not None:
                start, year, month, day = numeric
                if _is_valid(year, month, day) and claim(start, tail.end()):
                    found.append((start, text[start:tail.end()], year, month, day))
    lowered = text.lower()
    for prefix in _MONTH_PREFIXES:
        at = lowered.find(prefix)
        while at != -1:
            if at == 0 or not lowered[at - 1].isalnum():
                _month_at(text, at, found, claim)
            at = lowered.find(prefix, at + 3)
    found.sort(key=lambda span: span[0])
    return found


def dated_days(text: str) -> list[str]:
    """The ISO days (sorted, each once) of the date phrases in `text` that name a year; yearless ones are left out."""
    return sorted({f"{y:04d}-{m:02d}-{d:02d}" for _, _, y, m, d in date_spans(text) if y is not None})


def dated_days_each(texts: Sequence[str]) -> list[list[str]]:
    """`dated_days` of each text, from one `date_spans` scan of them all joined by newlines: ingestion stores the
    dated days of every bullet of a note, and a scan's fixed cost was most of what one bullet cost.

    The days are the same: no date phrase crosses a newline, a newline is neither a word character nor one a date
    must not follow (so a text's first date counts as at the start of a text), and lower-casing — which the month
    scan's offsets rely on — changes no length (checked: a text where it does is scanned alone, as are texts that
    hold newlines themselves).
    """
    joined = "\n".join(texts)
    if not texts or joined.count("\n") != len(texts) - 1 or len(joined.lower()) != len(joined):
        return [dated_days(text) for text in texts]
    starts = list(map(add, accumulate(map(len, texts), initial=0), range(len(texts))))  # each text's offset
    days: list[set[str]] = [set() for _ in texts]
    for offset, _, y, m, d in date_spans(joined):
        if y is not None:
            days[bisect_right(starts, offset) - 1].add(f"{y:04d}-{m:02d}-{d:02d}")
    return [sorted(found) for found in days]


def find_dates(text: str, line: int = 1, evidence: str = "") -> list[DateMention]:
    """Date phrases of one line of text as `DateMention`s."""
    return [DateMention(matched, year, month, day, line, evidence) for _, matched, year, month, day in date_spans(text)]


def contains_date(text: str) -> bool:
    return bool(date_spans(text))
