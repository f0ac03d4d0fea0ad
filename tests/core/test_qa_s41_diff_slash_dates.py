"""A date written with slashes is a date: "The deadline is 03/03/2026" after "The deadline is 2026-03-03" was an
UPDATE saying "'03' and '2026' in each other's place: not the same fact", though both say March 3, 2026. A slash
date is read as the date it names when it can name only one ("03/03/2026", "25/12/2026", "12/25/2026"); one that
reads as two dates ("04/03/2026": April 3 or 4 March) is compared as written, and another date is still a new value."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion
from mnemon.core.measure_values import canonical, same_value

SAME = [
    ("The deadline is 2026-03-03", "The deadline is 03/03/2026"),
    ("The launch is on December 25, 2026", "The launch is on 25/12/2026"),
    ("The launch is on 2026-12-25", "The launch is on 12/25/2026"),
]


@pytest.mark.parametrize(("old", "new"), SAME, ids=[s[1] for s in SAME])
def test_a_slash_date_naming_one_day_is_the_same_date(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "DUPLICATE", (b, a, matches)
        assert "written another way" in matches[0].reason, matches[0].reason


def test_another_slash_date_is_a_new_value() -> None:
    verdict, matches = diff_suggestion("The deadline is 03/04/2026", [("old", "The deadline is 2026-03-03", None)])
    assert verdict == "UPDATE" and "written another way" not in matches[0].reason


def test_an_ambiguous_slash_date_is_not_read_as_either_day() -> None:
    # (April 3 in the US, 4 March elsewhere: calling it the same as either would drop a real change)
    for iso in ("2026-04-03", "2026-03-04"):
        _, matches = diff_suggestion("The deadline is 04/03/2026", [("old", f"The deadline is {iso}", None)])
        assert "written another way" not in matches[0].reason, matches[0].reason


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 28), st.integers(2000, 2099))
def test_an_unambiguous_slash_date_is_its_iso_date(month: int, day: int, year: int) -> None:
    iso = canonical(f"{year}-{month:02d}-{day:02d}")
    for written in (f"{month:02d}/{day:02d}/{year}", f"{day:02d}/{month:02d}/{year}"):
        if month == day or day > 12:
            assert same_value(canonical(written), iso), written
        else:
            assert canonical(written)[0] != "date", written
