"""A memory that differs from a stored one only in a small word — the ones keyword tokens drop ("not", "up",
"she", "some", "was") — is a different fact. The advisory diff called such pairs DUPLICATE at similarity 1.0
("Server is up" / "Server is down", "Tests are passing" / "Tests are not passing"), which tells an agent the new
memory was already known. Negation spelt any way is one polarity: "don't", "do not", "never", "isn't" agree."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core import diff
from mnemon.core.diff import diff_suggestion, negation_cues

NEGATED = [
    ("Tests are passing on SQLite", "Tests are not passing on SQLite"),
    ("Use tabs for indentation", "Use no tabs for indentation"),
    ("The cache is warm", "The cache isn't warm"),
    ("The cache is warm", "The cache isn’t warm"),  # a typographic apostrophe
    ("Mira can join the call", "Mira cannot join the call"),
    ("Mira was at the meeting", "Mira wasn't at the meeting"),
]
CHANGED_SMALL_WORD = [
    ("The spare key is in the drawer", "The spare key is under the drawer"),
    ("He lives in Lisbon", "She lives in Lisbon"),
    ("All tests pass", "Some tests pass"),
    ("Mira is the team lead", "Mira was the team lead"),
    ("Backups run before the deploy", "Backups run after the deploy"),
]
SAME_FACT = [
    ("The server is up", "Server is up"),
    ("We don't deploy on Fridays", "We do not deploy on Fridays"),
    ("We’re moving to Porto", "We're moving to Porto"),
]


@pytest.mark.parametrize(("old", "new"), NEGATED, ids=[p[1] for p in NEGATED])
def test_a_negation_only_one_side_says_is_a_conflict_not_a_duplicate(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT"


@pytest.mark.parametrize(("old", "new"), CHANGED_SMALL_WORD, ids=[p[1] for p in CHANGED_SMALL_WORD])
def test_a_changed_small_word_is_no_duplicate_and_says_which(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE"
    changed = diff.polar_words(new) ^ diff.polar_words(old)
    assert changed and all(f"{w}" in matches[0].reason for w in changed)


@pytest.mark.parametrize(("old", "new"), SAME_FACT, ids=[p[1] for p in SAME_FACT])
def test_the_same_fact_in_other_small_words_is_still_a_duplicate(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "DUPLICATE" and matches[0].reason == ""


def test_a_paraphrase_a_high_cosine_calls_the_same_is_not_read_for_small_words() -> None:
    # no shared words: its small words differ anyway ("down" / "on the"), and the vector decides
    verdict, _ = diff_suggestion("car broke down", [("m1", "automobile failure on the road", 0.97)])
    assert verdict == "DUPLICATE"


def test_never_and_not_agree() -> None:
    verdict, _ = diff_suggestion("We don't deploy on Fridays", [("old", "We never deploy on Fridays", None)])
    assert verdict == "UPDATE"


def test_every_spelling_of_not_is_one_polarity() -> None:
    spellings = ["We do not deploy", "We don't deploy", "We don’t deploy", "We never deploy", "We cannot deploy",
                 "We can't deploy", "No deploys by us", "We did not deploy", "We didn't deploy"]
    assert {negation_cues(s) for s in spellings} == {frozenset({"not"})}


SUBJECTS = ["The server", "Billing", "The nightly backup", "Our staging cluster", "Redis"]
STATES = ["running", "healthy", "reachable from the office", "enabled for every team"]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SUBJECTS), st.sampled_from(STATES), st.sampled_from(["is", "was"]),
       st.sampled_from(["not", "no longer", "never"]))
def test_a_negated_state_is_never_called_a_duplicate_of_the_state(subject: str, state: str, verb: str,
                                                                   cue: str) -> None:
    plain = f"{subject} {verb} {state}"
    negated = f"{subject} {verb} {cue} {state}"
    for a, b in ((plain, negated), (negated, plain)):
        verdict, _ = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT"
