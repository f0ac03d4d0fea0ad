"""QA round (session 32) of the advisory diff on pairs an agent writes every day.

- A fact restated with another number ("the limit is 100" → "500", "16GB" → "32GB", "9:30" → "10:30") is a changed
  value, not the same memory said again. With a real embedding the two are nearly one vector, and the cosine
  override called them DUPLICATE: the agent is told the new value was already known.
- Chinese negation ("不是", "不喜欢", "没有") flips a fact as "not" does in English; the diff knew only 不再/放弃/替换/取消,
  so "张伟不是支付团队的负责人" was a DUPLICATE of "张伟是支付团队的负责人"."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion, negation_cues

HIGH_COSINE = 0.95  # what e5 gives two sentences that differ in one number

CHANGED_NUMBER = [
    ("The API rate limit is 100 requests per minute", "The API rate limit is 500 requests per minute"),
    ("Standup is at 9:30 every weekday", "Standup is at 10:30 every weekday"),
    ("The planning meeting is on 2026-05-03 at 3pm", "The planning meeting is on 2026-05-10 at 3pm"),
    ("Use Python 3.11 for the build image", "Use Python 3.12 for the build image"),
    ("服务器的内存是 16GB", "服务器的内存是 32GB"),
    ("会议定在2026年5月3日下午三点", "会议定在2026年5月4日下午三点"),
]


@pytest.mark.parametrize(("old", "new"), CHANGED_NUMBER, ids=[p[1] for p in CHANGED_NUMBER])
@pytest.mark.parametrize("cosine", [None, HIGH_COSINE])
def test_a_changed_number_is_an_update_that_names_both_values(old: str, new: str, cosine: float | None) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, cosine)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE"
    if matches[0].similarity > 0.9:  # the overlap alone would have said DUPLICATE: the reason says why not
        assert "number" in matches[0].reason


def test_the_reason_names_the_new_and_the_old_number() -> None:
    _, matches = diff_suggestion("The API rate limit is 500 requests per minute",
                                 [("old", "The API rate limit is 100 requests per minute", HIGH_COSINE)])
    assert "500" in matches[0].reason and "100" in matches[0].reason


SAME_NUMBERS = [
    ("The API rate limit is 100 requests per minute", "The API rate limit is 100 requests per minute."),
    ("Standup is at 9:30 every weekday", "Standup is at 9:30 every weekday!"),
    ("car broke down", "automobile failure on the road"),  # no number on either side: the vector decides
    ("The limit is 100 requests a minute", "Rate limit: one hundred requests per minute"),  # one side has none
]


@pytest.mark.parametrize(("old", "new"), SAME_NUMBERS, ids=[p[1] for p in SAME_NUMBERS])
def test_the_same_numbers_or_none_leave_a_duplicate_as_it_was(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, 0.97)])
    assert verdict == "DUPLICATE" and matches[0].reason == ""


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000),
       st.sampled_from(["The cache holds {} entries", "Retry {} times before paging", "缓存最多保存 {} 条记录"]))
def test_two_values_of_one_sentence_are_a_duplicate_exactly_when_equal(a: int, b: int, template: str) -> None:
    verdict, _ = diff_suggestion(template.format(b), [("old", template.format(a), HIGH_COSINE)])
    assert (verdict == "DUPLICATE") == (a == b)


CHINESE_NEGATED = [
    ("张伟是支付团队的负责人", "张伟不是支付团队的负责人"),
    ("用户喜欢深色模式", "用户不喜欢深色模式"),
    ("测试环境有备份", "测试环境没有备份"),
    ("这个接口支持分页", "这个接口并不支持分页"),
]


@pytest.mark.parametrize(("old", "new"), CHINESE_NEGATED, ids=[p[1] for p in CHINESE_NEGATED])
@pytest.mark.parametrize("cosine", [None, HIGH_COSINE])
def test_a_chinese_negation_only_one_side_says_is_a_conflict(old: str, new: str, cosine: float | None) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, cosine)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT"


CHINESE_NOT_NEGATED = [
    ("这个方案不错", "这个方案很好"),
    ("我们不断改进搜索", "我们持续改进搜索"),
    ("两个服务的配置不同", "两个服务的配置有差异"),
    ("未来三个月迁移数据库", "接下来三个月迁移数据库"),
    ("这个改动非常重要", "这个改动很重要"),
]


@pytest.mark.parametrize(("a", "b"), CHINESE_NOT_NEGATED, ids=[p[0] for p in CHINESE_NOT_NEGATED])
def test_chinese_words_that_merely_contain_a_negation_character_say_no_not(a: str, b: str) -> None:
    assert negation_cues(a) == negation_cues(b) == frozenset()


def test_chinese_and_english_negations_are_one_polarity() -> None:
    assert {negation_cues(s) for s in ("我们不在周五部署", "我们没有在周五部署", "We don't deploy on Fridays")} == {
        frozenset({"not"})}


def test_the_same_chinese_negation_on_both_sides_is_no_conflict() -> None:
    verdict, _ = diff_suggestion("张伟不是支付团队的负责人。", [("old", "张伟不是支付团队的负责人", HIGH_COSINE)])
    assert verdict == "DUPLICATE"
