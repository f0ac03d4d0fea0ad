"""The same value written another way is the same fact said again: "The request timeout is 30 seconds" after "… is
30s", "Budget is $5000" after "Budget is $5,000", "The VM has 16 GB of RAM" after "… 16GB of RAM" and "The launch is
on 2026-03-03" after "The launch is on March 3, 2026" were ADDs (the differently written value left too few words in
common), so the agent stored the fact twice, told nothing matched. Each is a DUPLICATE naming both spellings; another
value, or the same value of another measure, is not."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

REWRITTEN = [
    ("The request timeout is 30s", "The request timeout is 30 seconds"),
    ("The request timeout is 30 seconds", "The request timeout is 0.5 minutes"),
    ("Budget is $5,000", "Budget is $5000"),
    ("The VM has 16GB of RAM", "The VM has 16 GB of RAM"),
    ("The launch is on March 3, 2026", "The launch is on 2026-03-03"),
]


@pytest.mark.parametrize(("old", "new"), REWRITTEN, ids=[r[1] for r in REWRITTEN])
def test_the_same_value_written_another_way_is_a_duplicate(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "DUPLICATE" and matches[0].suggestion == "DUPLICATE", (b, a, matches)
        assert "written another way" in matches[0].reason, matches[0].reason


NOT_THE_SAME = [
    ("The request timeout is 30s", "The request timeout is 45 seconds"),
    ("The request timeout is 30s", "The connect timeout is 30 seconds"),
    ("Budget is $5,000", "Budget is $5000 for the offsite"),
    ("The VM has 16GB of RAM", "The VM has 16 GB of disk"),
]


@pytest.mark.parametrize(("old", "new"), NOT_THE_SAME, ids=[n[1] for n in NOT_THE_SAME])
def test_another_value_or_measure_is_no_duplicate(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "DUPLICATE", matches


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=999), st.integers(min_value=1, max_value=999))
def test_seconds_agree_only_when_the_values_do(one: int, other: int) -> None:
    verdict, _ = diff_suggestion(f"The job timeout is {one} seconds", [("old", f"The job timeout is {other}s", None)])
    assert (verdict == "DUPLICATE") == (one == other)


def test_remember_names_the_rewritten_duplicate(mem: Mnemon) -> None:
    old = mem.remember("The request timeout is 30s")
    out = mem.remember("The request timeout is 30 seconds")
    assert out["diff_suggestion"] == "DUPLICATE"
    assert out["diff_matches"][0]["id"] == old["id"] and "30s" in out["diff_matches"][0]["reason"]
