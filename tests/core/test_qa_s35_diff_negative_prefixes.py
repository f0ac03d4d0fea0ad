"""A word and its negative-prefixed form deny each other as "not" does: "The feature is unavailable in the EU"
after "The feature is available in the EU" was an UPDATE, "The migration is incomplete" after "The migration is
complete" and "The vendor contract is invalid" after "… is valid" were ADDs, "Mira dislikes the new office" an
UPDATE of "Mira likes the new office". un-, dis- (before a short list of verbs) and in-/im-/il-/ir- (before an
adjective's ending) only: "discover" is no "not cover", "install" no "not stall", "unless" no "not less"."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion

PREFIXED = [
    ("The feature is available in the EU", "The feature is unavailable in the EU", "unavailable"),
    ("The migration is complete", "The migration is incomplete", "incomplete"),
    ("Mira likes the new office", "Mira dislikes the new office", "dislikes"),
    ("The vendor contract is valid", "The vendor contract is invalid", "invalid"),
    ("The staging database is encrypted at rest", "The staging database is unencrypted at rest", "unencrypted"),
    ("A rollback is possible after the migration", "A rollback is impossible after the migration", "impossible"),
    ("The finance team agreed with the plan", "The finance team disagreed with the plan", "disagreed"),
]


@pytest.mark.parametrize(("old", "new", "word"), PREFIXED, ids=[p[2] for p in PREFIXED])
def test_a_negative_prefix_is_a_conflict_both_ways(old: str, new: str, word: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and word in matches[0].reason


NOT_PREFIXED = [
    ("Mira will cover the release notes", "Mira will discover the release notes"),
    ("We stall the queue on errors", "We install the queue on errors"),
    ("Use less memory on the workers", "Use unless memory on the workers"),
    ("The feature is available in the EU", "The feature is available or unavailable in the EU depending on load"),
    ("Mira takes the form to HR", "Mira takes the inform to HR"),
]


@pytest.mark.parametrize(("old", "new"), NOT_PREFIXED, ids=[p[1] for p in NOT_PREFIXED])
def test_a_prefix_that_negates_nothing_is_no_conflict(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        assert diff_suggestion(b, [("old", a, None)])[0] != "CONFLICT"
