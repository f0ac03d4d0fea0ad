"""A replacement said the other way round retires the old value as "We replaced Slack with Zulip" does: "Slack was
replaced by Zulip for team chat" and "Zulip replaced Slack for team chat" after "We use Slack for team chat" were
UPDATEs with no reason (and recall kept Slack current), "Slack 被 Zulip 取代了" an ADD. The replaced thing is what
the memory must state, with the rest of the clause ("for team chat"); who replaced it is not asked for."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion
from mnemon.core.recall.rerank import corrected_by

RETIRED = [
    ("We use Slack for team chat", "Slack was replaced by Zulip for team chat", "Slack"),
    ("We use Slack for team chat", "Zulip replaced Slack for team chat last week", "Slack"),
    ("The nightly cron job builds the reports", "The nightly cron job has been replaced by an Airflow DAG", "job"),
    ("Our wiki runs on Confluence", "Confluence was superseded by Notion in March", "Confluence"),
    ("We use Google Chat with the vendors", "Zulip replaces Google Chat", "Google Chat"),
    ("我们用 Slack 沟通", "Slack 被 Zulip 取代了", "Slack"),
]


@pytest.mark.parametrize(("old", "new", "value"), RETIRED, ids=[r[1] for r in RETIRED])
def test_a_replacement_said_either_way_round_is_a_conflict(old: str, new: str, value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT", matches
    assert f'retires "{value}"' in matches[0].reason and 'about ""' not in matches[0].reason


NOT_RETIRED = [
    # the rest of the clause names another use of it
    ("We use Slack for customer support", "Slack was replaced by Zulip for team chat"),
    # the replaced thing is another one
    ("We use Slack for team chat", "Jira was replaced by Linear"),
    # the same replacement said again
    ("We replaced Slack with Zulip for team chat", "Slack was replaced by Zulip for team chat"),
    # a past event with the old value stays true
    ("We built a Slack bot for team chat in 2021", "Zulip replaced Slack for team chat"),
]


@pytest.mark.parametrize(("old", "new"), NOT_RETIRED, ids=[r[1] for r in NOT_RETIRED])
def test_no_conflict_where_the_replaced_value_is_not_stated(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "CONFLICT", matches


def test_recall_marks_the_replaced_tool_as_corrected() -> None:
    out = corrected_by([("a", "We use Slack for team chat", "2026-11-01T00:00:00Z"),
                        ("b", "Slack was replaced by Zulip for team chat", "2026-11-02T00:00:00Z")])
    assert out == {"a": "b"}
    out = corrected_by([("a", "Our wiki runs on Confluence", "2026-11-01T00:00:00Z"),
                        ("b", "Notion supersedes Confluence", "2026-11-02T00:00:00Z")])
    assert out == {"a": "b"}


def test_remember_calls_the_passive_replacement_a_conflict(mem: Mnemon) -> None:
    old = mem.remember("We use Slack for team chat")
    out = mem.remember("Slack was replaced by Zulip for team chat")
    assert out["diff_suggestion"] == "CONFLICT" and out["diff_matches"][0]["id"] == old["id"]
