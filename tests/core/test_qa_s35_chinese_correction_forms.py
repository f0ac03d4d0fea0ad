"""Chinese corrections beyond 从…到 and 不再: "把 X 换成 Y" (put X, changed to Y), "Y 取代了 X" / "用 Y 代替 X"
(Y replaced X), "X 已被 Y 取代" (X was replaced by Y) and "…，不是 X" (…, not X) retire X as "replaced X with Y",
"instead of X" and ", not X" do in English. Before, the diff said ADD for each and recall kept X as current."""
from __future__ import annotations

import pytest

from mnemon.core.diff import corrections, diff_suggestion

# (old fact, the correction, the cue and value its reason names)
CORRECTIONS = [
    ("我们用Slack沟通", "我们把Slack换成了Zulip", "把…换成", "Slack"),
    ("我们用 Slack 沟通", "我们把 Slack 改成了 Zulip", "把…换成", "Slack"),
    ("我们用Redis做缓存", "我们用Memcached取代了Redis", "取代", "Redis"),
    ("我们用Redis做缓存", "我们用Memcached代替Redis", "取代", "Redis"),
    ("我们用Redis做缓存", "我们的Redis已被Memcached取代", "被…取代", "Redis"),
    ("米拉住在里斯本", "米拉住在波尔图，不是里斯本", "，不是", "里斯本"),
]

NOT_CORRECTIONS = [
    ("米拉住在里斯本", "米拉住在波尔图，不是因为工作", "'不是因为' gives a reason, it retires nothing"),
    ("我们用Redis做缓存", "我们把报告换成了PDF格式", "another value"),
    ("米拉住在里斯本", "这不是里斯本的问题", "'不是' inside a clause is a plain negation"),
]


@pytest.mark.parametrize(("old", "new", "cue", "value"), CORRECTIONS, ids=[c[1] for c in CORRECTIONS])
def test_a_chinese_correction_names_the_fact_it_retires(old: str, new: str, cue: str, value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None), ("filler", "每周例会进行顺利", None)])
    assert verdict == "CONFLICT"
    named = {m.id: m for m in matches if m.suggestion != "ADD"}
    assert set(named) == {"old"}
    assert f'cue "{cue}"' in named["old"].reason and f'retires "{value}"' in named["old"].reason


@pytest.mark.parametrize(("old", "new", "why"), NOT_CORRECTIONS, ids=[c[2] for c in NOT_CORRECTIONS])
def test_no_chinese_correction_without_the_retired_value(old: str, new: str, why: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "CONFLICT", why
    assert all(m.reason == "" for m in matches)


def test_the_retired_value_is_the_one_replaced_not_the_new_one() -> None:
    assert [(c.cue, c.old) for c in corrections("Zulip取代了Slack")] == [("取代", "Slack")]
    assert [(c.cue, c.old) for c in corrections("Slack已经被Zulip替代了")] == [("被…取代", "Slack")]
    assert [(c.cue, c.old) for c in corrections("她的角色被取代了")] == [("被…取代", "角色")]


@pytest.mark.parametrize(("old", "new", "cue", "value"), CORRECTIONS, ids=[c[1] for c in CORRECTIONS])
def test_recall_marks_the_replaced_memory_as_corrected(make_mem, old: str, new: str, cue: str,  # type: ignore[no-untyped-def]
                                                       value: str) -> None:
    mem = make_mem("hash")
    first = mem.remember(old, created_at="2026-11-01T10:00:00Z")["id"]
    said = mem.remember(new, created_at="2026-11-20T10:00:00Z")
    assert said["diff_suggestion"] == "CONFLICT" and [m["id"] for m in said["diff_matches"]] == [first]
    [row] = [r for r in mem.recall(old)["results"] if r["insight"]["id"] == first]
    assert row.get("corrected_by") == said["id"]
