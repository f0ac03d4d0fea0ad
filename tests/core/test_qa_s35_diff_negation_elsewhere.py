"""A negation in a clause the other memory does not say is no contradiction of it: "The nightly backup runs at 2am,
no exceptions" after "The nightly backup runs at 2am" and "Mira leads the payments team, not the billing team" after
"Mira leads the payments team" were a CONFLICT ('the new memory says "no" … one negates the other'), and an agent
retired the fact the new memory repeats. The negation counts when the clauses free of it do not say all the other
memory says ("We deploy on Fridays, but not after 4pm" still contradicts "We deploy on Fridays after 4pm")."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion

ELSEWHERE = [
    ("The nightly backup runs at 2am", "The nightly backup runs at 2am, no exceptions"),
    ("Mira leads the payments team", "Mira leads the payments team, not the billing team"),
    ("Mira lives in Porto", "Mira lives in Porto, not Lisbon"),
    ("我们周五部署", "我们周五部署，不是周一"),
]


@pytest.mark.parametrize(("old", "new"), ELSEWHERE, ids=[p[1] for p in ELSEWHERE])
def test_a_negation_about_something_else_is_no_conflict(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict != "CONFLICT", matches


FLIPPED = [
    ("We deploy on Fridays after 4pm", "We deploy on Fridays, but not after 4pm"),
    ("We deploy on Fridays", "We never deploy on Fridays"),
    ("Mira lives in Lisbon", "Mira lives in Porto, not Lisbon"),
    ("Tests are passing on SQLite", "Tests are not passing on SQLite"),
]


@pytest.mark.parametrize(("old", "new"), FLIPPED, ids=[p[1] for p in FLIPPED])
def test_a_negation_of_what_the_other_says_is_still_a_conflict(old: str, new: str) -> None:
    assert diff_suggestion(new, [("old", old, None)])[0] == "CONFLICT"
