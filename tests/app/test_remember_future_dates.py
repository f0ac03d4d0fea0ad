"""A memory is dated when it happened: a `created_at` days past the clock is refused (it would rank first on recency
and never decay or be pruned), on `remember` and on each item of a draft `import`; a slip of hours is accepted."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.core.validation import FUTURE_SLACK, refuse_future, validate_memory


def test_remember_refuses_a_date_next_year_and_stores_nothing(make_mem: Any, clock: Any) -> None:
    mem = make_mem("none", clock=clock)
    with pytest.raises(InvalidInput) as refused:
        mem.remember("The launch went well", created_at="2099-01-01T00:00:00Z")
    assert refused.value.to_dict()["details"]["field"] == "created_at" and "future" in str(refused.value)
    assert mem.status()["total_insights"] == 0
    out = mem.remember("The deploy finished", created_at="2026-03-01T20:00:00Z")  # 8 h ahead: another clock's zone
    assert out["action"] == "added" and mem.show(out["id"])["created_at"].startswith("2026-03-01T20:00:00")


def test_import_refuses_only_the_future_items(make_mem: Any, clock: Any) -> None:
    mem = make_mem("none", clock=clock)
    draft = {"insights": [{"content": "Met the vendor", "created_at": "2026-02-27T10:00:00Z"},
                          {"content": "Shipped the thing", "created_at": "2031-05-05T10:00:00Z"}]}
    out = mem.import_json(json.dumps(draft))
    assert [r["action"] for r in out["results"]] == ["added", "error"]
    assert out["results"][1]["error"]["code"] == "invalid_input"
    assert mem.status()["total_insights"] == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-10 * 86_400, max_value=10 * 86_400))
def test_the_boundary_is_the_clock_plus_the_slack(offset_s: int) -> None:
    from datetime import datetime, timedelta, timezone

    now = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
    when = now + timedelta(seconds=offset_s)
    inp = validate_memory("x", created_at=when.isoformat())
    if when > now + FUTURE_SLACK:
        with pytest.raises(InvalidInput):
            refuse_future(inp, now)
    else:
        assert refuse_future(inp, now) is inp
