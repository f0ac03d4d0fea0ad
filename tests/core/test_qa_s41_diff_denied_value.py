"""A memory that denies the value a correction retires agrees with it: "Deploys are not allowed on Fridays" and
"Deploys are no longer allowed on Fridays", "We do not use Jenkins" and "We stopped using Jenkins", "Mira does not
live in Lisbon" and "Mira moved from Lisbon to Porto", 我们不用 Slack and 我们不再用 Slack were each a CONFLICT
whose reason said the one memory "states" the value the other retires, in either order: an agent told to resolve
it would forget a true memory. "No longer" and 不再 say "not" as "never" does, so the pair does not "negate
differently" either. A memory that states the value, or denies something else before it, still conflicts."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

AGREE = [
    ("Deploys are no longer allowed on Fridays", "Deploys are not allowed on Fridays"),
    ("We stopped using Jenkins", "We do not use Jenkins"),
    ("We don't use Jenkins anymore", "We do not use Jenkins"),
    ("Mira moved from Lisbon to Porto", "Mira does not live in Lisbon"),
    ("We no longer use Slack", "We never use Slack"),
    ("我们不再用 Slack", "我们不用 Slack"),
    ("团队从 Slack 换成了 Zulip", "团队不用 Slack"),
]


@pytest.mark.parametrize(("correction", "denial"), AGREE, ids=[a[1] for a in AGREE])
def test_a_memory_denying_the_retired_value_is_no_conflict(correction: str, denial: str) -> None:
    for new, old in ((correction, denial), (denial, correction)):
        verdict, matches = diff_suggestion(new, [("old", old, None)])
        assert verdict != "CONFLICT" and matches[0].suggestion != "CONFLICT", (new, old, matches)


STILL_CONFLICT = [
    ("Deploys are no longer allowed on Fridays", "Deploys are allowed on Fridays"),
    ("We stopped using Jenkins", "We use Jenkins"),
    ("Mira moved from Lisbon to Porto", "Mira lives in Lisbon"),
    ("Mira moved from Lisbon to Porto", "Mira never drives, she lives in Lisbon"),
    ("我们不再用 Slack", "我们用 Slack"),
]


@pytest.mark.parametrize(("correction", "stated"), STILL_CONFLICT, ids=[s[1] for s in STILL_CONFLICT])
def test_a_memory_stating_the_retired_value_still_conflicts(correction: str, stated: str) -> None:
    for new, old in ((correction, stated), (stated, correction)):
        verdict, matches = diff_suggestion(new, [("old", old, None)])
        assert verdict == "CONFLICT", (new, old, matches)


def test_remember_does_not_call_two_denials_a_conflict(mem: Mnemon) -> None:
    mem.remember("Deploys are not allowed on Fridays")
    out = mem.remember("Deploys are no longer allowed on Fridays")
    assert out["diff_suggestion"] != "CONFLICT", out["diff_matches"]
    assert all(m["suggestion"] != "CONFLICT" for m in out["diff_matches"])
