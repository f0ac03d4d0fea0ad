"""A role handed on by its holder, or a role's noun moved to another: "Kenji handed the CI pipeline to Aiko" after
"Kenji maintains the CI pipeline" was an UPDATE naming only "handed Aiko" against "maintains", and "Ownership of the
billing service moved from Alice to Bob" after "Alice owns the billing service" an ADD (its subject taken as
"Ownership"): the old holder stayed current in recall. Both hand the role to the holder after "to", a CONFLICT naming
the hand-over, as "Bob now owns the billing service" is. Not a hand-over: a thing handed that is no role held
("handed the report to Aiko" against "Kenji wrote the report"), another thing, or the same holder."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion
from mnemon.core.diff_handover import handover, hands_over
from mnemon.core.recall.rerank import corrected_by

HANDED = [
    ("Kenji maintains the CI pipeline", "Kenji handed the CI pipeline to Aiko"),
    ("Kenji maintains the CI pipeline", "Kenji handed over the CI pipeline to Aiko"),
    ("Kenji maintains the CI pipeline", "Kenji handed the CI pipeline over to Aiko"),
    ("Kenji maintains the CI pipeline", "Kenji passed the CI pipeline on to Aiko"),
    ("Alice owns the billing service", "Ownership of the billing service moved from Alice to Bob"),
    ("Alice owns the billing service", "Ownership of the billing service was transferred to Bob"),
    ("Alice leads the payments team", "Leadership of the payments team passed from Alice to Bob"),
]


@pytest.mark.parametrize(("old", "new"), HANDED, ids=[h[1] for h in HANDED])
def test_a_role_handed_to_another_retires_its_last_holder(old: str, new: str) -> None:
    assert hands_over(new)
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT", matches
    assert "hand-over" in matches[0].reason, matches[0].reason
    assert corrected_by([("a", old, "2026-11-01"), ("b", new, "2026-11-02")]) == {"a": "b"}


NOT_HANDED = [
    ("Kenji maintains the CI pipeline", "Kenji handed the release notes to Aiko"),
    ("Kenji maintains the CI pipeline", "Kenji handed the CI pipeline to Kenji"),
    ("Alice owns the billing service", "Ownership of the search service moved from Alice to Bob"),
    ("Kenji wrote the migration guide", "Kenji handed the migration guide to Aiko"),
    ("Alice owns the billing service", "Ownership of the billing service moved to the platform team too"),
]


@pytest.mark.parametrize(("old", "new"), NOT_HANDED, ids=[n[1] for n in NOT_HANDED])
def test_no_role_handed_retires_nothing(old: str, new: str) -> None:
    assert handover(new, old) == ""
    assert corrected_by([("a", old, "2026-11-01"), ("b", new, "2026-11-02")]) == {}
