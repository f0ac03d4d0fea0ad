"""Opposites a user expects beside the first table: "The office is cold" after "The office is warm" was an ADD (0.33),
"Ana left the team" after "Ana joined the team" an UPDATE with no reason, "We lost the deal" after "We won the deal"
an ADD: an agent kept the old state as current beside its opposite. Each is a CONFLICT both ways naming the pair, in
English and Chinese. A state word counts after a verb of being ("is cold", "feels warm"), not as part of a name
("cold storage", "the left panel"), and a word both in the pair table and a negative prefix is named once."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion

OPPOSED = [
    ("The office is warm", "The office is cold", "hot/cold"),
    ("The server room feels hot", "The server room feels cold", "hot/cold"),
    ("Ana joined the platform team", "Ana left the platform team", "join/leave"),
    ("We won the Globex deal", "We lost the Globex deal", "win/lose"),
    ("I like the new dashboard", "I hate the new dashboard", "like/hate"),
    ("Mira loves the on-call rotation", "Mira hates the on-call rotation", "like/hate"),
    ("Ana is present at the planning meeting", "Ana is absent at the planning meeting", "present/absent"),
    ("The staging queue is empty", "The staging queue is full", "full/empty"),
    ("The nightly export job is running", "The nightly export job is stopped", "running/stopped"),
    ("The release build is green", "The release build is red", "green/red"),
    ("The migration risk is high", "The migration risk is low", "high/low"),
    ("The estimate in the roadmap is correct", "The estimate in the roadmap is wrong", "correct/wrong"),
    ("Mira supports the pricing proposal", "Mira opposes the pricing proposal", "support/oppose"),
    ("The contractor was hired in March", "The contractor was fired in March", "hire/fire"),
    ("The cache warmup is fast", "The cache warmup is slow", "fast/slow"),
    ("The demo went good", "The demo went bad", "good/bad"),
    ("The old bridge is safe", "The old bridge is dangerous", "safe/dangerous"),
    ("The cat is alive", "The cat is dead", "alive/dead"),
    # Chinese
    ("办公室很热", "办公室很冷", "热/冷"),
    ("安娜加入了支付团队", "安娜离开了支付团队", "加入/离开"),
    ("我们赢了这个项目", "我们输了这个项目", "赢/输"),
    ("米拉喜欢新的仪表盘", "米拉讨厌新的仪表盘", "喜欢/讨厌"),
    ("米拉支持这个定价方案", "米拉反对这个定价方案", "支持/反对"),
    ("这个估算是正确的", "这个估算是错误的", "正确/错误"),
    ("这个优惠码有效", "这个优惠码无效", "有效/无效"),
    ("这座旧桥很安全", "这座旧桥很危险", "安全/危险"),
]


@pytest.mark.parametrize(("old", "new", "pair"), OPPOSED, ids=[p[1] for p in OPPOSED])
def test_a_common_opposite_is_a_conflict_both_ways_naming_the_pair(old: str, new: str, pair: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT", (b, a, matches)
        assert pair in matches[0].reason


NOT_OPPOSED = [
    # names, prepositions and idioms, not the state
    ("Move the logs to cold storage on Friday", "Move the logs to hot storage on Friday"),
    ("The filter is in the left panel of the dashboard", "The filter joined the left panel of the dashboard"),
    ("There are 2 seats left in the workshop", "There are 2 seats joined in the workshop"),
    ("Ana is on parental leave until June", "Ana joined on parental leave until June"),
    ("The dashboard looks like the old one", "The dashboard hates the old one"),
    ("Mira will present the roadmap on Monday", "Mira will be absent on Monday"),
    ("We lost the VPN connection twice today", "We lost the VPN connection three times today"),
    # a negation and the opposite word say the same
    ("The office is not warm", "The office is cold"),
    ("输入框在左边", "输出框在左边"),
    ("他对这个项目很热情", "他对这个项目很冷静"),
]


@pytest.mark.parametrize(("old", "new"), NOT_OPPOSED, ids=[p[1] for p in NOT_OPPOSED])
def test_no_opposite_where_a_pair_word_names_no_state(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert not any("opposite words" in m.reason for m in matches), (b, a, matches)


def test_a_word_both_in_the_table_and_prefixed_is_named_once() -> None:
    verdict, matches = diff_suggestion("The admin account is unlocked", [("old", "The admin account is locked", None)])
    assert verdict == "CONFLICT"
    assert 'says "unlocked" and this one "locked"' in matches[0].reason  # (it said "unlocked unlocked")
    assert matches[0].reason.count("locked/unlocked") == 1


SUBJECTS = ["The office", "The build queue", "The API", "Ana's estimate", "The lab freezer"]
STATES = [("warm", "cold"), ("hot", "cold"), ("empty", "full"), ("running", "stopped"), ("correct", "wrong"),
          ("high", "low"), ("present", "absent")]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SUBJECTS), st.sampled_from(STATES), st.sampled_from(["is", "was", "stays", "is still"]),
       st.sampled_from(["", " today", " in staging"]))
def test_a_state_and_its_opposite_conflict_and_the_same_state_does_not(
        subject: str, pair: tuple[str, str], verb: str, rest: str) -> None:
    one, other = (f"{subject} {verb} {word}{rest}" for word in pair)
    assert diff_suggestion(other, [("old", one, None)])[0] == "CONFLICT"
    assert diff_suggestion(one, [("old", other, None)])[0] == "CONFLICT"
    assert diff_suggestion(f"{one}, as measured", [("old", one, None)])[0] != "CONFLICT"
