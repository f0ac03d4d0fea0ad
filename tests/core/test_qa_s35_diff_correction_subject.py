"""A correction's reason names its whole subject: for "Zhang Wei no longer owns the payment service" it said the
memory states the value 'about "Zhang"', half a name (an agent reading it could take another Zhang for the one
corrected). A name of several capitalised words is named whole; a subject word that is not a name stays one word."""
from __future__ import annotations

import pytest

from mnemon.core.diff import corrections, diff_suggestion

NAMED = [
    ("Zhang Wei no longer owns the payment service", "Zhang Wei"),
    ("Mira Lopez moved from Lisbon to Porto", "Mira Lopez"),
    ("The Payments Platform Team no longer runs the ledger", "The Payments Platform Team"),
    ("Sven now works at Wayne instead of Tyrell", "Sven"),
    ("Team chat no longer runs on Slack", "Team chat"),
    ("Mira finally moved from Lisbon to Porto", "Mira"),
    ("Mira doesn't live in Lisbon anymore", "Mira"),
    ("Our staging cluster used to run on Heroku", "Our staging cluster"),
    ("After the reorg, Ana Sousa no longer leads billing", "Ana Sousa"),
]


@pytest.mark.parametrize(("text", "subject"), NAMED, ids=[n[1] for n in NAMED])
def test_the_subject_of_a_correction_is_named_whole(text: str, subject: str) -> None:
    assert [c.subject_text for c in corrections(text)] == [subject]


def test_the_conflict_reason_names_the_whole_name() -> None:
    verdict, matches = diff_suggestion("Zhang Wei no longer owns the payment service",
                                       [("old", "Zhang Wei owns the payment service", None)])
    assert verdict == "CONFLICT"
    assert matches[0].reason.endswith('which this memory states about "Zhang Wei"')
