"""The same subject said to be in the opposite state is a CONFLICT however the rest is worded: "The API is down"
after "The API is up and running" was an UPDATE (0.5) with no reason ("up"/"down" were seen, but "running" pulled
the overlap under the conflict threshold), and "The office is cold this morning" after "The office is warm" an ADD:
an agent read a changed state as the old fact reworded and kept "up" as current. The reason says plainly that the
subject's state changed, naming the subject and both words. Another subject, or a state of something else said
after it ("up in the US" / "down in the EU"), is no such change."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

CHANGED = [
    ("The API is up and running", "The API is down", "API", "down", "up"),
    ("The billing API is up", "The billing API went down during the deploy at 3pm", "billing API", "down", "up"),
    ("The office is warm", "The office is cold this morning, bring a jacket", "office", "cold", "warm"),
    ("The feature flag is enabled", "The feature flag is disabled for EU users since the audit", "feature flag",
     "disabled", "enabled"),
    ("The payment gateway is online", "The payment gateway is offline until the vendor fixes the certificate",
     "payment gateway", "offline", "online"),
    ("Mira's calendar is public", "Mira's calendar is now private after the reorg", "Mira's calendar", "private",
     "public"),
    ("支付服务在线", "支付服务离线了，因为机房断电", "支付服务", "离线", "在线"),
]


@pytest.mark.parametrize(("old", "new", "subject", "word", "old_word"), CHANGED, ids=[c[1] for c in CHANGED])
def test_the_opposite_state_of_the_same_subject_is_a_conflict_saying_so(
        old: str, new: str, subject: str, word: str, old_word: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT", matches
    reason = matches[0].reason
    assert "state" in reason and f'"{subject}"' in reason and f'"{word}"' in reason and f'"{old_word}"' in reason


def test_remember_calls_down_after_up_and_running_a_conflict(mem: Mnemon) -> None:
    old = mem.remember("The API is up and running")
    out = mem.remember("The API is down")
    assert out["diff_suggestion"] == "CONFLICT"
    assert out["diff_matches"][0]["id"] == old["id"] and "state" in out["diff_matches"][0]["reason"]


NO_CHANGE = [
    ("The staging API is up", "The production API is down"),  # another subject
    ("The API is up in the US region", "The API is down in the EU region"),  # a state of something else
    ("The API is down", "The API is not up"),  # the same state
    ("The API is up and running", "The API is up again after the restart"),
    ("Ana joined the platform team", "Ana left the payments company"),  # an act with another object
    ("支付服务在线", "订单服务离线了"),
]


@pytest.mark.parametrize(("old", "new"), NO_CHANGE, ids=[c[1] for c in NO_CHANGE])
def test_no_state_change_of_another_subject_or_object(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert not any("state" in m.reason for m in matches), (b, a, matches)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["The VPN", "Our build server", "The reporting job", "The EU cluster"]),
       st.sampled_from([("up", "down"), ("online", "offline"), ("enabled", "disabled"), ("open", "closed")]),
       st.sampled_from(["", " and running", " again", " since Monday"]),
       st.sampled_from(["", " after the outage", " until the vendor replies"]))
def test_a_state_then_its_opposite_with_any_tail_conflicts(subject: str, pair: tuple[str, str], tail: str,
                                                           other_tail: str) -> None:
    old, new = f"{subject} is {pair[0]}{tail}", f"{subject} is {pair[1]}{other_tail}"
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT", matches
