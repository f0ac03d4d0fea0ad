"""A new value of one measure is an UPDATE however it is written, and the same value written another way is none:
- an age said as "turned 35", "35 years old" or "Mira's age is 35" after "Mira is 34" was an ADD (only "Mira is 35
  years old" was seen, as a measure named "Mira");
- a unit stated on one side only ("Headcount is 12" / "Headcount is 15 people after the hiring round", "The budget
  is 5000" / "… 8000 USD since the reorg") was an ADD, as was a measure after a verb that measures ("The deploy takes
  10 minutes" / "… takes 25 minutes since …", "Mira weighs 60 kg" / "… 58 kg after …");
- a day written first ("moved to 10 March" after "is on March 3") was an ADD, while the same date written two ways
  ("on 2026-03-03" after "on March 3", "at 14:00" after "at 2pm", "0.42s" after "420ms") was an UPDATE naming
  "another value", as "$5k" after "$5,000" would be.
The reason quotes the values as written ("5k", "95%")."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

CHANGED = [
    ("Mira is 34", "Mira turned 35 last week", "age", "35", "34"),
    ("Mira is 34 years old", "Mira just turned 35", "age", "35", "34"),
    ("Mira is 34", "Mira's age is 35 according to HR", "age", "35", "34"),
    ("Mira is 34", "Mira is 35 years old", "age", "35", "34"),
    ("Headcount is 12", "Headcount is 15 people after the hiring round", "Headcount", "15", "12"),
    ("The budget is 5000", "The budget is 8000 USD since the reorg", "budget", "8000", "5000"),
    ("The SLA is 99.9%", "The SLA is 99.95% uptime for enterprise customers", "SLA", "99.95%", "99.9%"),
    ("The price is €20", "The price is €25 per seat from next month", "price", "€25", "€20"),
    ("The team budget is $5k per quarter", "The team budget is $8,000 per quarter after the reorg", "team budget",
     "$8,000", "$5k"),
    ("The deploy takes 10 minutes on average", "The deploy takes 25 minutes since we added the integration suite",
     "deploy takes", "25", "10"),
    ("Our deploy takes 5-10 minutes", "Our deploy now takes 15-20 minutes with the new checks", "deploy takes",
     "15-20", "5-10"),
    ("Mira weighs 60 kg", "Mira weighs 58 kg after the marathon training", "Mira weighs", "58", "60"),
    ("The meeting is on March 3", "The meeting moved to 10 March", "meeting", "10 March", "March 3"),
    ("The standup is at 2pm", "The standup is at 15:30 every day", "standup", "15:30", "2pm"),
]


@pytest.mark.parametrize(("old", "new", "measure", "value", "old_value"), CHANGED, ids=[c[1] for c in CHANGED])
def test_a_new_value_written_with_a_unit_or_a_verb_is_an_update(old: str, new: str, measure: str, value: str,
                                                                   old_value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE", matches
    reason = matches[0].reason
    assert "same measure" in reason and measure in reason
    assert f'says "{value}"' in reason and f'this one "{old_value}"' in reason


SAME_VALUE = [
    ("The meeting is on March 3", "The meeting is on 2026-03-03 in room 4"),
    ("The meeting is on March 3", "The meeting is now on 3 March in the big room"),
    ("The launch is on March 3rd", "The launch is on March 3 after all"),
    ("The team budget is $5k per quarter", "The team budget is $5,000 per quarter, approved by finance"),
    ("The team budget is 5000 USD", "The team budget is $5,000 after the review"),
    ("The standup is at 10am", "The standup is at 10:00 in room 4"),
    ("The standup is at 2pm", "The standup is at 14:00 every day"),
    ("Our p99 latency is 420ms", "Our p99 latency is 0.42s after the fix"),
]


@pytest.mark.parametrize(("old", "new"), SAME_VALUE, ids=[c[1] for c in SAME_VALUE])
def test_the_same_value_written_another_way_is_no_new_value(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        _, matches = diff_suggestion(b, [("old", a, None)])
        assert "same measure" not in matches[0].reason, (b, a, matches)


NOT_ONE_MEASURE = [
    ("Mira is 34", "Mira has 2 kids and a dog"),  # another verb, a unit on one side: another thing
    ("Mira has 3 cats", "Mira has 2 kids"),
    ("Mira is 34", "Mira's flight is 2 hours late"),
    ("The deploy takes 10 minutes", "The review takes 2 days"),
]


@pytest.mark.parametrize(("old", "new"), NOT_ONE_MEASURE, ids=[c[1] for c in NOT_ONE_MEASURE])
def test_other_quantities_stay_apart(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        _, matches = diff_suggestion(b, [("old", a, None)])
        assert "same measure" not in matches[0].reason, (b, a, matches)


def test_remember_calls_a_birthday_an_update_of_the_age(mem: Mnemon) -> None:
    old = mem.remember("Mira is 34")
    out = mem.remember("Mira turned 35 last week")
    assert out["diff_suggestion"] == "UPDATE"
    assert out["diff_matches"][0]["id"] == old["id"] and "age" in out["diff_matches"][0]["reason"]
