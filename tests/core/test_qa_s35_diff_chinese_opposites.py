"""Chinese opposite words flip a fact as 不 does: "禁用欧盟用户的功能开关" after "启用欧盟用户的功能开关" was an UPDATE,
"实验室禁止访客进入" after "实验室允许访客进入" an ADD (the character pairs around 允许 and 禁止 differ too), so an
agent kept the enabled flag and the allowed visit as current. Each is a CONFLICT both ways, naming the pair; a text
saying both sides ("允许读取，禁止写入") flips nothing."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion

OPPOSED = [
    ("启用欧盟用户的功能开关", "禁用欧盟用户的功能开关", "启用/禁用"),
    ("实验室允许访客进入", "实验室禁止访客进入", "允许/禁止"),
    ("昨晚的数据迁移成功了", "昨晚的数据迁移失败了", "成功/失败"),
    ("测试通过了", "测试失败了", "通过/失败"),
    ("财务部门批准了这笔预算", "财务部门拒绝了这笔预算", "批准/拒绝"),
    ("设计仓库是公开的", "设计仓库是私有的", "公开/私有"),
    ("The payment API is online in 欧盟", "The payment API is offline in 欧盟", "online/offline"),
]


@pytest.mark.parametrize(("old", "new", "pair"), OPPOSED, ids=[p[2] for p in OPPOSED])
def test_a_chinese_opposite_is_a_conflict_both_ways(old: str, new: str, pair: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and pair in matches[0].reason


NOT_OPPOSED = [
    ("存储桶允许读取", "存储桶允许读取，禁止写入"),
    ("实验室允许访客进入", "实验室允许访客进入，周末也允许"),
    ("实验室不允许访客进入", "实验室禁止访客进入"),  # 不 and the opposite word say the same
]


@pytest.mark.parametrize(("old", "new"), NOT_OPPOSED, ids=[p[1] for p in NOT_OPPOSED])
def test_no_chinese_opposite_where_there_is_none(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        assert diff_suggestion(b, [("old", a, None)])[0] != "CONFLICT"
