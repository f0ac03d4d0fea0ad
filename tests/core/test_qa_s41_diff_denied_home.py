"""A denied home is no home: "Mira does not live in Lisbon" after "Mira lives in Porto" was an UPDATE saying
"another place for the same subject ("Mira does not")", as if Mira had moved to Lisbon. The two agree; a said home
in another place is still an UPDATE."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion

DENIED = [
    ("Mira lives in Porto", "Mira does not live in Lisbon"),
    ("Mira lives in Porto", "Mira doesn't live in Lisbon"),
    ("Mira lives in Porto", "Mira never lived in Lisbon"),
    ("Mira is based in Porto", "Mira is not based in Lisbon"),
]


@pytest.mark.parametrize(("old", "new"), DENIED, ids=[d[1] for d in DENIED])
def test_a_denied_home_is_no_new_home(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        _verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert "another place" not in matches[0].reason, matches


def test_a_said_home_elsewhere_is_still_an_update() -> None:
    verdict, matches = diff_suggestion("Mira relocated to Lisbon", [("old", "Mira lives in Porto", None)])
    assert verdict == "UPDATE" and "another place" in matches[0].reason
