"""A retired Chinese value whose first or last character stands alone beside a space ("不再用 Redis 做缓存": 用 then
"Redis") is found in the memory stating it ("我们用 Redis 做缓存"), where that character is part of a longer run: the
value's lone character is a token of its own (用), the memory's a pair (们用), so the diff never saw the value stated."""
from __future__ import annotations

import pytest

from mnemon.core.diff import correction_reason, corrections


@pytest.mark.parametrize(("new", "old", "retired"), [
    ("我们不再用 Redis 做缓存", "我们用 Redis 做缓存", True),
    ("我们不再用 Redis 做缓存", "我们用 Memcached 做缓存", False),
    ("我们不再用 Redis 做缓存", "他们的 Redis 集群很稳定", False),
    ("团队不再用 Jira 管理任务", "团队用 Jira 管理任务", True),
])
def test_a_lone_chinese_character_of_a_retired_value_is_found_inside_a_run(new: str, old: str,
                                                                            retired: bool) -> None:
    assert bool(correction_reason(corrections(new), old)) is retired
