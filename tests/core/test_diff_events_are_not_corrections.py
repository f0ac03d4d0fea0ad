"""A correction retires a value only where an older memory states it as its subject's current one. A memory that
names the value in a past event or an attitude ("Alice was born in Lisbon", "We built a Slack bot", "Alice loves the
food in Lisbon") stays true after "Alice moved from Lisbon to Porto": the diff must not call it a CONFLICT (the
spec's workflow has the agent `forget` what a conflict names)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion

# (older memory that stays true, a newer correction about the same subject and value)
STILL_TRUE = [
    ("Alice was born in Lisbon", "Alice moved from Lisbon to Porto"),
    ("Alice loves the food in Lisbon", "Alice moved from Lisbon to Porto"),
    ("We built a Slack bot for deploy alerts", "We switched from Slack to Zulip for chat"),
    ("Mira wrote the Jenkins migration guide", "Mira replaced Jenkins with GitHub Actions"),
    ("The team wrote the billing service in Go", "The team now uses Rust rather than Go for new services"),
    ("Bob fixed a Payments team outage last month", "Bob is no longer on the Payments team"),
    ("We used Jenkins to build the Android app in 2023", "We no longer use Jenkins"),
]

# (older memory that states the value as current, the correction that retires it)
RETIRED = [
    ("Alice was born in Lisbon and lives in Lisbon", "Alice moved from Lisbon to Porto"),
    ("Our shared chat lives on Slack", "We switched from Slack to Zulip"),
    ("Team chat is hosted on Slack", "Team chat switched from Slack to Zulip"),
    ("The standup was moved to Monday", "We moved the standup from Monday to Tuesday"),
    ("Sven has worked at Tyrell since 2019", "Sven now works at Wayne instead of Tyrell"),
    ("Alice moved to Lisbon in 2019", "Alice moved from Lisbon to Porto"),
]


@pytest.mark.parametrize(("old", "new"), STILL_TRUE, ids=[p[0] for p in STILL_TRUE])
def test_a_past_event_or_an_attitude_about_the_value_is_no_conflict(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "CONFLICT"
    assert matches[0].reason == ""


@pytest.mark.parametrize(("old", "new"), RETIRED, ids=[p[0] for p in RETIRED])
def test_the_value_stated_as_current_is_still_the_conflict(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT" and matches[0].reason


PLACES = ["Lisbon", "Porto", "Berlin", "Hamburg", "Madrid", "Oslo"]
EVENTS = ["was born in {x}", "loves the food in {x}", "visited {x} last summer", "studied in {x}",
          "met her husband in {x}", "went to school in {x}", "enjoys the beaches of {x}"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["Mira", "Jonas", "Ana", "Sven"]), st.permutations(PLACES), st.sampled_from(EVENTS))
def test_a_move_never_conflicts_with_what_happened_at_the_old_place(name: str, places: list[str], event: str) -> None:
    x, y = places[:2]
    verdict, _ = diff_suggestion(f"{name} moved from {x} to {y}", [("old", f"{name} {event.format(x=x)}", None)])
    assert verdict != "CONFLICT"
    verdict, _ = diff_suggestion(f"{name} moved from {x} to {y}", [("old", f"{name} lives in {x}", None)])
    assert verdict == "CONFLICT"
