"""A CONFLICT by negation means the two memories disagree on whether something holds: a negation cue that only one
of them says. The same cue on both sides is a restatement (UPDATE or DUPLICATE, as without it), and the negation
word alone must not pull a flipped fact under the conflict threshold."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import classify, diff_suggestion

RESTATED = [
    ("Never commit secrets to the git repository", "Never commit secrets to the git repository ever"),
    ("Don't deploy on Fridays after 3pm", "Don't deploy on Fridays after 4pm"),
    ("We don't deploy on Fridays after 4pm", "We do not deploy on Fridays after 4pm"),
]
FLIPPED = [
    ("We deploy on Fridays", "We never deploy on Fridays"),
    ("We never deploy on Fridays", "We deploy on Fridays"),
    ("The team uses Redis for the session cache", "The team no longer uses Redis for the session cache"),
]


@pytest.mark.parametrize(("old", "new"), RESTATED, ids=[p[1] for p in RESTATED])
def test_the_same_negation_on_both_sides_is_no_conflict(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict in ("UPDATE", "DUPLICATE")
    assert matches[0].suggestion == verdict


@pytest.mark.parametrize(("old", "new"), FLIPPED, ids=[p[1] for p in FLIPPED])
def test_a_negation_on_one_side_only_is_a_conflict(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT"
    assert matches[0].similarity >= 0.7  # the similarity the verdict was made on


def test_the_classifier_reads_the_polarity_not_just_the_cue() -> None:
    assert classify(0.8, "we never deploy on Fridays", "we never deploy on Fridays or Saturdays") == "UPDATE"
    assert classify(0.8, "we never deploy on Fridays", "we deploy on Fridays or Saturdays") == "CONFLICT"


WORDS = ["deploy", "cache", "billing", "Fridays", "Redis", "staging", "secrets", "reviews", "tests", "main"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=2, max_size=6, unique=True),
       st.sampled_from(["never", "no longer", "don't"]))
def test_negating_a_memory_conflicts_and_repeating_the_negation_does_not(words: list[str], cue: str) -> None:
    plain = "We " + " ".join(words)
    negated = f"We {cue} " + " ".join(words)
    assert diff_suggestion(negated, [("old", plain, None)])[0] == "CONFLICT"
    assert diff_suggestion(negated + " again", [("old", negated, None)])[0] != "CONFLICT"


def test_a_reversal_with_the_same_words_is_still_a_conflict() -> None:
    # the same cue on both sides, the same words in another order: the correction reading, not the cue, says so
    verdict, matches = diff_suggestion("We replaced Memcached with Redis", [("old", "We replaced Redis with Memcached",
                                                                             None)])
    assert verdict == "CONFLICT" and matches[0].reason
