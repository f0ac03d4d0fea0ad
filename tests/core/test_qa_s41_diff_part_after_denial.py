"""A stored memory that already says a value is no longer used is not replaced by the new value: "团队现在用 Zulip
沟通" after "团队不再用 Slack 沟通了" was an UPDATE saying "用Zulip" replaces "不再用Slack", as if Slack were the team's
current tool the new memory retired. The changed part of one memory is no value when it denies one (不再, 不, 没,
"no longer", "not"): the two agree, and the diff claims no replacement. A plain change of value stays an UPDATE."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion
from mnemon.core.diff_slots import changed_part

AGREEING = [
    ("团队不再用 Slack 沟通了", "团队现在用 Zulip 沟通"),
    ("团队现在用 Zulip 沟通", "团队不再用 Slack 沟通了"),
    ("我们不用 Jenkins 部署", "我们现在用 GitHub Actions 部署"),
    ("The team does not use Slack for chat", "The team now uses Zulip for chat"),
]


@pytest.mark.parametrize(("old", "new"), AGREEING, ids=[a[1] for a in AGREEING])
def test_a_value_said_beside_a_denied_one_replaces_nothing(old: str, new: str) -> None:
    assert changed_part(new, old) == ""
    _, matches = diff_suggestion(new, [("old", old, None)])
    assert all("replaces" not in m.reason and "one part" not in m.reason for m in matches), matches


CHANGED = [
    ("团队用 Slack 沟通", "团队现在用 Zulip 沟通"),
    ("The team uses Slack for chat", "The team now uses Zulip for chat"),
]


@pytest.mark.parametrize(("old", "new"), CHANGED, ids=[c[1] for c in CHANGED])
def test_a_plain_new_value_is_still_an_update(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and "Zulip" in matches[0].reason and "Slack" in matches[0].reason, matches
