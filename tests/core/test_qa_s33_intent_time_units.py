"""A question that asks for a time by its unit ("What year did Mira move to Porto?", "in which month…") is WHEN,
like one that says "when"; a unit that is no question ("the year plan", "how long is the cable", "which day job")
is not."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.intent import Intent, detect_intent

WHEN, ENTITY, GENERAL = Intent.WHEN, Intent.ENTITY, Intent.GENERAL


@pytest.mark.parametrize(
    ("query", "cue"),
    [
        ("What year did Mira move to Porto?", "en:what year"),
        ("In what year did Mira move to Porto?", "en:what year"),
        ("Which year did Jolene start practicing yoga?", "en:which year"),
        ("Which month was the launch?", "en:which month"),
        ("In which month's game did John score a career high?", "en:which month"),
        ("What day did Tim get into the program?", "en:what day"),
        ("Which week did Tim visit the UK?", "en:which week"),
        ("what decade did the band form", "en:what decade"),
        ("What years did Mira live in Lisbon?", "en:what year"),
        ("WHAT  YEAR did the office open", "en:what year"),  # any case, any whitespace
    ],
)
def test_a_time_asked_by_its_unit_is_when(query: str, cue: str) -> None:
    decision = detect_intent(query)
    assert decision.intent is WHEN
    assert decision.cues == (cue,)


# each case pairs a query that is no time question with a close one that is: the cue is exactly as wide as the latter
@pytest.mark.parametrize(
    ("asks_no_time", "expected", "asks_when"),
    [
        ("how long is the cable", GENERAL, "what year was the cable laid"),
        ("How long did the review take?", GENERAL, "What day did the review take place?"),  # a duration
        ("the year plan for Porto", GENERAL, "the year Mira moved to Porto: what year was it"),
        ("what is in the year plan", ENTITY, "what year is in the plan"),
        ("What year-end target did we set?", GENERAL, "What year did we set the target?"),  # a modifier
        ("Which day job does Mira have?", GENERAL, "Which day does Mira have off?"),
        ("what month plans did we agree on", GENERAL, "what month did we agree on plans"),
        ("which day passes are left", GENERAL, "which day does the pass expire"),
        ("what yearly budget do we have", GENERAL, "what year does the budget start"),  # whole words only
        ("whatever year it was, Mira stayed", GENERAL, "what year was it that Mira stayed"),
        ("a year ago Mira moved to Porto", GENERAL, "what year did Mira move to Porto"),
    ],
)
def test_a_unit_that_asks_no_time_is_not_when(asks_no_time: str, expected: Intent, asks_when: str) -> None:
    assert detect_intent(asks_no_time).intent is expected
    assert detect_intent(asks_when).intent is WHEN


def test_the_unit_cue_counts_once_like_any_when_cue() -> None:
    # "what year" and "before" are two WHEN cues; "what is" is one ENTITY cue: WHEN wins by count
    assert detect_intent("What year was it before what is now the office?").intent is WHEN
    # one WHEN against one ENTITY: the ENTITY tie-break of the legacy rule still holds
    assert detect_intent("What year is the launch about?").intent is ENTITY


@settings(max_examples=60, deadline=None)
@given(
    opener=st.sampled_from(["what", "which", "What", "Which", "In what", "in which"]),
    unit=st.sampled_from(["year", "month", "week", "day", "decade"]),
    rest=st.sampled_from(["did Mira move to Porto?", "was the launch", "did we ship the migration", "?"]),
)
def test_every_opener_and_unit_asks_when(opener: str, unit: str, rest: str) -> None:
    assert detect_intent(f"{opener} {unit} {rest}").intent is WHEN
