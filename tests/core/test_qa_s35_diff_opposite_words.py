"""Opposite words flip a fact as a negation does: "Disable the feature flag for EU users" after "Enable the feature
flag for EU users" was an UPDATE (0.857), "Guests are forbidden in the lab" after "Guests are allowed in the lab" an
UPDATE at 0.5: an agent read the new memory as the old one reworded and kept both as current. Each is a CONFLICT,
both ways, whose reason names the pair; a text that says both sides of a pair flips nothing."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion

OPPOSED = [
    ("Enable the feature flag for EU users", "Disable the feature flag for EU users", "enable/disable"),
    ("Guests are allowed in the lab", "Guests are forbidden in the lab", "allow/forbid"),
    ("The main branch is open for merges", "The main branch is closed for merges", "open/closed"),
    ("Archived projects are included in the quarterly report", "Archived projects are excluded from the quarterly "
     "report", "include/exclude"),
    ("The vendor accepted our security questionnaire", "The vendor rejected our security questionnaire",
     "accept/reject"),
    ("The integration tests passed on the release branch", "The integration tests failed on the release branch",
     "pass/fail"),
    ("The maintenance flag is on in staging", "The maintenance flag is off in staging", "on/off"),
    ("The billing API is up", "The billing API is down", "up/down"),
    ("Switch the VPN on before deploying", "Switch the VPN off before deploying", "on/off"),
    ("The maintenance page is still on", "The maintenance page is still off", "on/off"),
    ("The design repository is public", "The design repository is private", "public/private"),
    ("Code review is required for hotfixes", "Code review is optional for hotfixes", "required/optional"),
]


@pytest.mark.parametrize(("old", "new", "pair"), OPPOSED, ids=[p[2] for p in OPPOSED])
def test_an_opposite_word_is_a_conflict_both_ways_naming_the_pair(old: str, new: str, pair: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT"
        assert pair in matches[0].reason and matches[0].similarity >= 0.7


def test_the_cli_calls_disable_after_enable_a_conflict(cli_run) -> None:
    code, first = cli_run(["remember", "Enable the feature flag for EU users"])
    assert code == 0
    code, out = cli_run(["remember", "Disable the feature flag for EU users"])
    assert code == 0 and out["diff_suggestion"] == "CONFLICT"
    assert out["diff_matches"][0]["id"] == first["id"] and "enable/disable" in out["diff_matches"][0]["reason"]


NOT_OPPOSED = [
    # both sides in one text: two things, no flip
    ("Turn off the fan", "Turn on the lights and off the fan"),
    ("Allow reads on the bucket", "Allow reads and forbid writes on the bucket"),
    # particles and prepositions, not states
    ("We set up the staging cluster", "We shut down the staging cluster"),
    ("Deploys happen on Fridays", "Deploys happen off Fridays"),
    ("Scale the workers up to 5 replicas", "Scale the workers down to 5 replicas"),
    ("Mira is working on the migration plan", "Mira is working off the migration plan"),
    # a negation and the opposite word say the same
    ("Guests are not allowed in the lab", "Guests are forbidden in the lab"),
    ("The feature flag is not enabled", "The feature flag is disabled"),
    # the same side in another form
    ("Enable the feature flag for EU users", "The feature flag is enabled for EU users"),
]


@pytest.mark.parametrize(("old", "new"), NOT_OPPOSED, ids=[p[1] for p in NOT_OPPOSED])
def test_no_opposite_read_where_there_is_none(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict != "CONFLICT", matches


SUBJECTS = ["The nightly backup", "Dark mode", "SSO login", "The beta banner", "Rate limiting"]
PAIRS = [("enabled", "disabled"), ("allowed", "forbidden"), ("required", "optional"), ("on", "off")]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SUBJECTS), st.sampled_from(PAIRS), st.sampled_from(["is", "was", "stays"]),
       st.sampled_from(["", " for the EU tenant", " in staging"]))
def test_a_state_and_its_opposite_conflict_and_the_same_state_again_does_not(
        subject: str, pair: tuple[str, str], verb: str, rest: str) -> None:
    one, other = (f"{subject} {verb} {word}{rest}" for word in pair)
    assert diff_suggestion(other, [("old", one, None)])[0] == "CONFLICT"
    assert diff_suggestion(one, [("old", other, None)])[0] == "CONFLICT"
    assert diff_suggestion(one + " again", [("old", one, None)])[0] != "CONFLICT"
