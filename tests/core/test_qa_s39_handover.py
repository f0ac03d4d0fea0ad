"""QA round (session 39): a role handed to someone else is a correction. After "Bob Chen owns the deployment
pipeline", `remember "Bob Chen left the team; Ana Ruiz now owns the deployment pipeline"` was only an UPDATE (half
their words in common, no "from X" cue), and recall "who owns the deployment pipeline" put Bob first until an agent
linked them. A hand-over ("now owns", "is now the owner of", "is now owned by", "took over", "replaced … as owner
of") of the same role over the same thing to another holder is a CONFLICT naming both holders, and recall reads it
as it reads "moved from X" (`corrected_by`); a role shared, another role, another thing or the same holder is not."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.diff import diff_suggestion
from mnemon.core.diff_handover import handover
from mnemon.core.recall.rerank import corrected_by

OLD = "Bob Chen owns the deployment pipeline"


@pytest.mark.parametrize("new", [
    "Bob Chen left the team; Ana Ruiz now owns the deployment pipeline",
    "Ana Ruiz now owns the deployment pipeline",
    "Ana Ruiz is now the owner of the deployment pipeline",
    "The deployment pipeline is now owned by Ana Ruiz",
    "Ana Ruiz took over the deployment pipeline from Bob Chen",
    "Ana Ruiz has taken over the deployment pipeline since the reorg",
    "Ana Ruiz replaced Bob Chen as owner of the deployment pipeline",
])
def test_a_hand_over_is_a_conflict_naming_both_holders(new: str) -> None:
    verdict, [match] = diff_suggestion(new, [("old", OLD, None)])
    assert verdict == "CONFLICT" and match.suggestion == "CONFLICT"
    assert "Ana Ruiz" in match.reason and "Bob Chen" in match.reason and "hand-over" in match.reason
    assert corrected_by([("old", OLD, "2026-01-01"), ("new", new, "2026-02-01")]) == {"old": "new"}


@pytest.mark.parametrize("new", [
    "Bob now also reviews the deployment pipeline",  # another role, the same holder, and "also"
    "Bob Chen now also owns the deployment pipeline",
    "Ana Ruiz now also owns the deployment pipeline",  # a role shared
    "Ana Ruiz also owns the deployment pipeline",
    "Ana Ruiz now co-owns the deployment pipeline",
    "Ana Ruiz owns the deployment pipeline too",
    "Ana Ruiz now owns the deployment pipeline together with Bob Chen",
    "Ana Ruiz now owns the billing service",  # another thing
    "Ana Ruiz now owns the deployment pipeline docs",
    "Ana Ruiz now reviews the deployment pipeline",  # another role
    "Bob Chen now owns the deployment pipeline",  # the same holder said again
    "Ana Ruiz owns the deployment pipeline",  # no cue: two statements, the diff's overlap decides
])
def test_near_misses_are_no_hand_over(new: str) -> None:
    assert handover(new, OLD) == ""
    verdict, [match] = diff_suggestion(new, [("old", OLD, None)])
    assert match.suggestion != "CONFLICT" or "hand-over" not in match.reason, match
    assert corrected_by([("old", OLD, "2026-01-01"), ("new", new, "2026-02-01")]) == {}


def test_the_old_holder_said_again_after_a_hand_over_conflicts_with_it() -> None:
    stored = "Ana Ruiz now owns the deployment pipeline"
    verdict, [match] = diff_suggestion(OLD, [("handed", stored, None)])
    assert verdict == "CONFLICT" and match.reason.startswith("this memory's hand-over")


def test_an_older_hand_over_retires_nothing_newer() -> None:
    rows = [("handed", "Ana Ruiz now owns the deployment pipeline", "2026-01-01"), ("old", OLD, "2026-02-01")]
    assert corrected_by(rows) == {}  # Bob was given it back after: the newer statement stands


_NAMES = st.sampled_from(["Ana Ruiz", "Mira Patel", "Sven", "The platform team"])
_THINGS = st.sampled_from(["the deployment pipeline", "the billing service", "payments", "the Q3 roadmap"])
_ROLES = st.sampled_from([("owns", "owner"), ("leads", "lead"), ("runs", None), ("manages", "manager"),
                          ("maintains", "maintainer")])


@settings(max_examples=80, deadline=None)
@given(_NAMES, _NAMES, _THINGS, _THINGS, _ROLES, _ROLES, st.booleans())
def test_only_the_same_role_over_the_same_thing_to_another_holder_is_handed_over(
        old_who: str, new_who: str, old_thing: str, new_thing: str, old_role: tuple[str, str | None],
        new_role: tuple[str, str | None], noun: bool) -> None:
    old = f"{old_who} {old_role[0]} {old_thing}"
    said = f"{new_who} is now the {new_role[1]} of {new_thing}" if noun and new_role[1] else \
        f"{new_who} now {new_role[0]} {new_thing}"
    expected = old_who != new_who and old_thing == new_thing and old_role == new_role
    assert bool(handover(said, old)) == expected, (said, old)
