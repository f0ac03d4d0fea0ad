"""A measure's value as the diff compares it: one date, amount or time however it is written. "March 3", "3 March",
"March 3rd", "2026-03-03" and "03/03/2026" are one date (a year said on one side only is not a difference); "$5k",
"5,000" and "5000 USD" one amount; "30s", "30 seconds" and "30000 ms" one duration; "2pm" and "14:00" one time of day.
Anything else is compared as written, case aside."""
from __future__ import annotations

import re

MONTHS = {name: k + 1 for k, names in enumerate((
    "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul", "august aug",
    "september sep sept", "october oct", "november nov", "december dec")) for name in names.split()}
ORDINALS = frozenset(("st", "nd", "rd", "th"))
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
                "billion": 1e9,
                # durations in seconds and sizes in bytes, as written onto a number or as the keyword token after it
                "ms": 1e-3, "millisecond": 1e-3, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "min": 60.0,
                "mins": 60.0, "minut": 60.0, "minute": 60.0, "h": 3600.0, "hr": 3600.0, "hrs": 3600.0,
                "hour": 3600.0, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}
_TIME = re.compile(r"(\d{1,2})(?::(\d{2}))?\s*(a\.?m|p\.?m)?\.?")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
# "03/03/2026", "25/12/2026": a date only when it can name one day (day and month alike, or one of them past 12)
_SLASH_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")
_AMOUNT = re.compile(r"[$€£¥]?\s*(\d[\d,]*(?:\.\d+)?)\s*%?\s*([a-z]*)")
CURRENCY = "$€£¥"

Value = tuple[object, ...]


def _date(words: list[str]) -> Value | None:
    if len(words) == 1 and (m := _ISO_DATE.fullmatch(words[0])):
        return ("date", int(m.group(2)), int(m.group(3)), int(m.group(1)))
    if len(words) == 1 and (m := _SLASH_DATE.fullmatch(words[0])):
        first, second, in_year = (int(g) for g in m.groups())
        if first == second or (first > 12) != (second > 12):  # ("04/03/2026": April 3 or 4 March, so neither)
            day_of, month_of = (first, second) if first > 12 else (second, first)
            return ("date", month_of, day_of, in_year) if 1 <= month_of <= 12 and 1 <= day_of <= 31 else None
    year = int(words[-1]) if len(words) == 3 and words[-1].isdigit() and len(words[-1]) == 4 else None
    pair = words[:2] if year is not None else words
    if len(pair) != 2:
        return None
    month, day = (pair[0], pair[1]) if pair[0] in MONTHS else (pair[1], pair[0])
    d = _DAY.fullmatch(day)
    return ("date", MONTHS[month], int(d.group(1)), year) if month in MONTHS and d else None


def canonical(value: str, unit: str = "") -> Value:
    """`value` (as the diff quotes it) and the keyword token of the word after it, in one form per meaning."""
    low = value.lower().replace(",", " ").strip()
    date = _date(low.split())
    if date is not None:
        return date
    t = _TIME.fullmatch(low)
    if t and (t.group(2) or t.group(3)):  # "10am", "10 am", "10:00", "2pm" / "14:00": minutes of the day
        hour = int(t.group(1)) % 12 + (12 if (t.group(3) or "").startswith("p") else 0) if t.group(3) else int(
            t.group(1))
        return ("time", hour * 60 + int(t.group(2) or 0))
    m = _AMOUNT.fullmatch(value.lower().strip())
    if m:
        suffix = m.group(2) or unit
        number = float(m.group(1).replace(",", "")) * _MULTIPLIERS.get(suffix, 1.0)
        return ("number", number)
    return ("text", " ".join(low.split()))


def same_value(one: Value, other: Value) -> bool:
    if one[0] == other[0] == "date":
        return one[1:3] == other[1:3] and (one[3] is None or other[3] is None or one[3] == other[3])
    return one == other
