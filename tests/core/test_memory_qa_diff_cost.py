"""The correction reading of the diff finds a candidate's clauses once, not once per mention of the retired value:
a long memory naming it hundreds of times ("… loved Lisbon. loved Lisbon. …") cost ~0.2 s of every `remember` it was
a candidate of, ~3 s with the 15 candidates a write reads."""
from __future__ import annotations

import re
from typing import Any

import pytest

from mnemon.core import diff


class _Counting:
    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.scans = 0

    def finditer(self, *args: Any) -> Any:
        self.scans += 1
        return self.pattern.finditer(*args)


def test_a_candidate_naming_the_value_often_is_scanned_for_clauses_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _Counting(diff._CLAUSE_START)
    monkeypatch.setattr(diff, "_CLAUSE_START", counting)
    long_memory = ("Mira " + "loved Lisbon. " * 700)[:8000]
    verdict, matches = diff.diff_suggestion("Mira moved from Lisbon to Porto", [("m1", long_memory, None)])
    assert verdict == "ADD" and matches[0].reason == ""  # every mention is an attitude: no conflict
    assert counting.scans <= 5


@pytest.mark.parametrize("content", [
    "Mira lives in Lisbon", "Mira was born in Lisbon. She lives in Lisbon now", "Mira loved Lisbon; lives in Lisbon",
    "Mira loved Lisbon. Mira loved Lisbon", "In 2020, Mira lived in Lisbon", "Mira: Lisbon",
])
def test_the_clause_reading_is_unchanged(content: str) -> None:
    # the verdicts the per-mention scan gave (stated as current unless every mention is an event or attitude)
    expected = content not in ("Mira loved Lisbon. Mira loved Lisbon", "In 2020, Mira lived in Lisbon")
    found = diff.corrections("Mira moved from Lisbon to Porto")[0]
    assert diff._as_current_value(found, content) is expected
