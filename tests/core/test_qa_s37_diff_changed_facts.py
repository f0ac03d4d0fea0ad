"""A new memory that changes an old fact is an UPDATE or a CONFLICT naming why, not an unrelated ADD:
- a negation dropped beside a word of time ("the cache is warm now" after "the cache is not warm": 0.67 with the
  "now", an UPDATE with no reason, where "the cache is warm" is a CONFLICT);
- a count of the same thing changed ("5 open incidents after the outage" after "3 open incidents": ADD at 0.4);
- a verb of moving changes where someone lives ("Mira relocated to Porto" after "Mira lives in Lisbon": ADD);
- a time said with a verb of scheduling ("the standup now starts at 10:15" after "the standup is at 9:30": ADD).
Near misses, which are other facts, stay what they were; the verdict does not depend on letter case or the spaces
around the text."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion


def _verdict(old: str, new: str) -> tuple[str, str]:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    return verdict, matches[0].reason


NEGATION_DROPPED = [
    ("the cache is not warm", "the cache is warm now"),
    ("the cache is warm", "the cache is still not warm"),
    ("The API is not deployed", "The API is currently deployed"),
    ("Backups are not encrypted", "Backups are encrypted now"),
    ("the cache is not warm", "the cache is finally warm"),
]


@pytest.mark.parametrize(("old", "new"), NEGATION_DROPPED, ids=[c[1] for c in NEGATION_DROPPED])
def test_a_negation_dropped_beside_a_word_of_time_is_a_conflict(old: str, new: str) -> None:
    verdict, reason = _verdict(old, new)
    assert verdict == "CONFLICT", reason
    assert '"not"' in reason


NEGATION_ELSEWHERE = [
    ("the cache is not warm", "the disk cache is warm now"),
    ("the cache is not warm", "the cache is warm now in staging"),
]


@pytest.mark.parametrize(("old", "new"), NEGATION_ELSEWHERE, ids=[c[1] for c in NEGATION_ELSEWHERE])
def test_a_negation_of_another_thing_is_no_conflict(old: str, new: str) -> None:
    assert _verdict(old, new)[0] != "CONFLICT"


COUNTS = [
    ("3 open incidents", "5 open incidents after the outage", "open incidents", "5", "3"),
    ("We have 3 open incidents", "There are now 5 open incidents", "open incidents", "5", "3"),
    ("12 engineers were hired", "14 engineers were hired last quarter", "engineers", "14", "12"),
    ("There are 1,200 active users", "1,450 active users this week", "active users", "1,450", "1,200"),
]


@pytest.mark.parametrize(("old", "new", "counted", "said", "was"), COUNTS, ids=[c[1] for c in COUNTS])
def test_another_count_of_the_same_thing_is_an_update(old: str, new: str, counted: str, said: str, was: str) -> None:
    verdict, reason = _verdict(old, new)
    assert verdict == "UPDATE", reason
    assert f'("{counted}")' in reason and f'"{said}"' in reason and f'"{was}"' in reason


OTHER_COUNTS = [
    ("3 open incidents", "5 closed incidents"),  # another thing counted
    ("3 open incidents", "5 open incidents in the EU region"),  # of another place
    ("3 replicas of the API", "5 replicas of the database"),
    ("12 engineers were hired", "14 engineers were fired"),  # another thing said of them
    ("Payments has 3 open incidents", "Billing has 5 open incidents"),  # of another subject
    ("Build agent 7 is offline", "Build agent 9 is offline"),  # a number in a name
    ("The 2025 budget is approved", "The 2026 budget is approved"),  # a year
    ("3 open incidents", "3 open incidents after the outage"),  # the same count
]


@pytest.mark.parametrize(("old", "new"), OTHER_COUNTS, ids=[c[1] for c in OTHER_COUNTS])
def test_a_count_of_another_thing_is_not_a_new_count(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        assert "count" not in _verdict(a, b)[1], (a, b)


MOVES = [
    ("Mira lives in Lisbon", "Mira relocated to Porto", "Porto", "Lisbon"),
    ("Mira lives in Lisbon", "Mira finally moved to Porto last spring", "Porto", "Lisbon"),
    ("Mira moved to Lisbon", "Mira lives in Porto", "Porto", "Lisbon"),
    ("We live in Berlin", "We relocated to Amsterdam", "Amsterdam", "Berlin"),
    ("Mira Chen is based in New York", "Mira Chen moved to San Francisco", "San Francisco", "New York"),
]


@pytest.mark.parametrize(("old", "new", "place", "was"), MOVES, ids=[c[1] for c in MOVES])
def test_a_move_to_another_place_updates_where_the_subject_lives(old: str, new: str, place: str, was: str) -> None:
    verdict, reason = _verdict(old, new)
    assert verdict == "UPDATE", reason
    assert f' {place}" and' in reason and f' {was}"' in reason


NOT_MOVES = [
    ("Mira lives in Lisbon", "Ana relocated to Porto"),  # someone else
    ("Mira lives in Lisbon", "Mira travelled to Porto"),  # a trip, no move
    ("Mira lives in Lisbon", "Mira moved to the design team"),  # no place
    ("Mira lives in Lisbon", "Mira moved the meeting to Friday"),
    ("Mira lived in Lisbon", "Mira relocated to Porto"),  # a past home: both hold
    ("Mira lives in Lisbon", "Mira's office moved to Porto"),
    ("Mira works in Lisbon", "Mira relocated to Porto"),
    ("Mira lives in Lisbon", "Mira relocated to Lisbon"),  # the same place
]


@pytest.mark.parametrize(("old", "new"), NOT_MOVES, ids=[c[1] for c in NOT_MOVES])
def test_no_move_where_no_one_moved_from_the_place(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        assert "another place" not in _verdict(a, b)[1], (a, b)


SCHEDULED = [
    ("the standup is at 9:30", "the standup now starts at 10:15", "10:15", "9:30"),
    ("The standup starts at 9:30", "The standup begins at 10am", "10am", "9:30"),
    ("The offsite is on March 3", "The offsite is now scheduled for March 10", "March 10", "March 3"),
]


@pytest.mark.parametrize(("old", "new", "said", "was"), SCHEDULED, ids=[c[1] for c in SCHEDULED])
def test_a_time_said_with_a_verb_of_scheduling_is_the_same_measure(old: str, new: str, said: str, was: str) -> None:
    verdict, reason = _verdict(old, new)
    assert verdict == "UPDATE", reason
    assert f'says "{said}" and this one "{was}"' in reason


NOT_SCHEDULED = [
    ("The standup starts at 9:30", "The standup ends at 10:15"),  # the other end of it
    ("Deploy freeze starts on Friday", "Deploy freeze ends on Monday"),
    ("the standup is at 9:30", "the retro starts at 10:15"),  # another meeting
    ("the standup is at 9:30", "the standup ends at 9:45"),
]


@pytest.mark.parametrize(("old", "new"), NOT_SCHEDULED, ids=[c[1] for c in NOT_SCHEDULED])
def test_the_start_and_the_end_of_a_thing_are_two_measures(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        assert "same measure" not in _verdict(a, b)[1], (a, b)


ALL_PAIRS = ([(o, n) for o, n in NEGATION_DROPPED + NEGATION_ELSEWHERE + OTHER_COUNTS + NOT_MOVES + NOT_SCHEDULED]
             + [(c[0], c[1]) for c in COUNTS + MOVES + SCHEDULED])


@settings(max_examples=150, deadline=None)
@given(pair=st.sampled_from(ALL_PAIRS), case=st.sampled_from([str.lower, str.upper, str.title, str]),
       pad=st.sampled_from(["", " ", "  ", "\n", "\t "]))
def test_the_verdict_does_not_depend_on_case_or_surrounding_spaces(pair: tuple[str, str], case, pad: str) -> None:
    old, new = pair
    assert _verdict(case(old), pad + case(new) + pad)[0] == _verdict(old, new)[0]


def test_remember_names_the_changed_facts(mem: Mnemon) -> None:
    for old, new in (("the cache is not warm", "the cache is warm now"),
                     ("3 open incidents", "5 open incidents after the outage"),
                     ("Mira lives in Lisbon", "Mira relocated to Porto"),
                     ("the standup is at 9:30", "the standup now starts at 10:15")):
        first = mem.remember(old)
        out = mem.remember(new)
        assert out["diff_suggestion"] in ("UPDATE", "CONFLICT"), (new, out["diff_matches"])
        assert first["id"] in {m["id"] for m in out["diff_matches"] if m.get("reason")}, (new, out["diff_matches"])
