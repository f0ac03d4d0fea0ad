"""Which rule makes the period a query names a source of recall of its own (core/recall/period_source.py)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mnemon.core.recall.period_source import NAMED_DAY, PERIOD_ONLY, period_source
from mnemon.core.recall.timeframe import time_window

NOW = datetime(2025, 12, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("query, rule", [
    ("what happened on 20 November 2025", NAMED_DAY),
    ("standup notes from 20 November 2025", NAMED_DAY),
    ("what happened in March 2025", PERIOD_ONLY),
    ("What did we do in June 2024?", PERIOD_ONLY),
    ("what happened during March 2025?", PERIOD_ONLY),
    ("what was going on in 2025-03", PERIOD_ONLY),
    ("what happened in June last year", PERIOD_ONLY),
    ("what happened from March to May 2025", PERIOD_ONLY),
    ("2025年3月发生了什么", PERIOD_ONLY),
    ("去年3月发生了什么？", PERIOD_ONLY),
    ("2025年3月に何があった？", PERIOD_ONLY),
    # a content word: the month only demotes what lies far from it, as before
    ("billing migration decisions in March 2025", None),
    ("What did Caroline do in June 2023?", None),
    ("2025年3月的预算会议", None),
    # an open period is no period of its own, however bare the query
    ("what happened since January 2025", None),
    ("what happened before June 2024", None),
    ("what did we decide last week", None),
])
def test_the_rule_that_makes_a_period_a_source(query: str, rule: str | None) -> None:
    own, applied = period_source(query, time_window(query, NOW))
    assert applied == rule, query
    assert (own is None) == (rule is None)
