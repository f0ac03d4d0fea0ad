"""An UPDATE names what changed: "Bob owns the billing service" after "Alice owns the billing service", "We run
Postgres 16 in production" after "… Postgres 15 …" and "Release 2.4 ships on Friday" after "Release 2.3 …" were
UPDATEs with no reason at all, so the agent could not tell a new owner or version from a rewording without opening
the old memory. A memory that only adds words to the other ("… and the billing team") still has nothing to name."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

CHANGED = [
    ("Alice owns the billing service", "Bob owns the billing service", ("Bob", "Alice")),
    ("We run Postgres 15 in production", "We run Postgres 16 in production", ("16", "15")),
    ("Release 2.3 ships on Friday", "Release 2.4 ships on Friday", ("2.4", "2.3")),
    ("The payments team reports to Dana", "The payments team reports to Eli", ("Eli", "Dana")),
]


@pytest.mark.parametrize(("old", "new", "values"), CHANGED, ids=[c[1] for c in CHANGED])
def test_an_update_names_the_changed_words(old: str, new: str, values: tuple[str, str]) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE", matches
    said, was = values
    assert f'"{said}"' in matches[0].reason and f'"{was}"' in matches[0].reason, matches[0].reason


ADDED_ONLY = [
    ("Mira leads the payments team", "Mira leads the payments team and the billing team"),
    ("The design review is with Ana", "The design review is with Ben and Ana"),
]


@pytest.mark.parametrize(("old", "new"), ADDED_ONLY, ids=[a[1] for a in ADDED_ONLY])
def test_words_only_added_name_no_changed_value(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and matches[0].reason == "", matches


def test_remember_tells_the_agent_the_new_owner(mem: Mnemon) -> None:
    old = mem.remember("Alice owns the billing service")
    out = mem.remember("Bob owns the billing service")
    match = next(m for m in out["diff_matches"] if m["id"] == old["id"])
    assert match["suggestion"] == "UPDATE" and '"Bob"' in match["reason"] and '"Alice"' in match["reason"]
