"""A Chinese correction naming a Latin-script value between spaces, as mixed text is usually written ("团队从 Slack 换成了
Zulip", "我们从 Google Cloud 迁到了 AWS"), retires that value as the unspaced form does: the diff said ADD and recall
kept "团队使用 Slack 沟通" as current."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from conftest import FakeClock
from mnemon.core.diff import correction_reason, corrections

PAIRS = [
    ("团队使用 Slack 沟通", "团队从 Slack 换成了 Zulip", "团队用什么沟通"),
    ("我们的服务部署在 Google Cloud 上", "我们从 Google Cloud 迁到了 AWS", "我们的服务在 Google Cloud 上吗"),
]


@pytest.mark.parametrize(("old", "new", "query"), PAIRS)
def test_a_spaced_value_in_a_chinese_correction_retires_it(make_mem, old: str, new: str, query: str) -> None:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 12, 9, tzinfo=timezone.utc)))
    first = mem.remember(old, created_at="2026-11-01T10:00:00Z")["id"]
    said = mem.remember(new, created_at="2026-11-20T10:00:00Z")
    assert said["diff_suggestion"] == "CONFLICT" and [m["id"] for m in said["diff_matches"]] == [first]
    [row] = [r for r in mem.recall(query)["results"] if r["insight"]["id"] == first]
    assert row.get("corrected_by") == said["id"]


def test_a_spaced_value_is_read_whole_and_retires_only_itself() -> None:
    [found] = corrections("我们从 Google Cloud 迁到了 AWS")
    assert found.old == "Google Cloud"
    assert correction_reason([found], "我们在 AWS 上跑批处理") == ""
