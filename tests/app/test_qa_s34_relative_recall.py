"""Recall reads "yesterday", "last week", "3 days ago", "on December 3" against the store's clock (the one remember
stamps with), and applies such a period only when memories were written in it: asked long after the store was
written, an empty "yesterday" changes nothing. Every test runs once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from conftest import FakeClock
from mnemon.app.memory import Mnemon

NOW = datetime(2026, 12, 6, 15, 0, tzinfo=timezone.utc)  # a Sunday


@pytest.fixture(autouse=True)
def _utc(local_tz: Callable[[str], None]) -> None:
    """The process's local time zone is UTC unless a test sets another (`local_tz`)."""


def _ids(out: dict[str, Any]) -> list[str]:
    return [r["insight"]["id"] for r in out["results"]]


def _stage(out: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((s for s in out["trace"] if s["stage"] == name), None)


def _diary(mem: Mnemon) -> dict[str, list[str]]:
    """A fortnight of work notes, none naming its day, plus a deploy note on each of several days."""
    days = {"yesterday": "2026-12-05", "three_days_ago": "2026-12-03", "last_week": "2026-11-25",
            "this_week": "2026-12-01", "long_ago": "2026-10-14"}
    texts = {"yesterday": ("Fixed the flaky login test in the auth service", "Reviewed the pricing page with Ana"),
             "three_days_ago": ("Wrote the onboarding guide draft",),
             "last_week": ("Planned the Q1 roadmap with the team", "Interviewed two backend candidates"),
             "this_week": ("Deployed billing v2 to staging",),
             "long_ago": ("Deployed billing v1 to production",)}
    return {k: [mem.remember(t, created_at=f"{days[k]}T{10 + n}:00:00Z", no_diff=True)["id"]
                for n, t in enumerate(texts[k])] for k in days}


def test_what_did_i_do_yesterday(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash", clock=FakeClock(NOW))
    diary = _diary(mem)
    for query in ("what did I do yesterday", "昨天做了什么"):
        out = mem.recall(query, limit=10, explain=True)
        # yesterday's notes, which share no word with the question, and nothing else
        assert set(_ids(out)) == set(diary["yesterday"]), query
        assert all("outside_time_window" not in r for r in out["results"])
        rerank = _stage(out, "rerank")
        assert rerank is not None and rerank["time_window"]["relative"] is True
        assert rerank["time_window"]["from"].startswith("2026-12-05") and rerank["in_time_window"] == 2
        assert set(diary["yesterday"]) <= set(_stage(out, "anchors")["signals"]["window"])  # type: ignore[index]


@pytest.mark.parametrize("query, key", [
    ("what happened last week", "last_week"),
    ("what did I do 3 days ago", "three_days_ago"),
    ("what happened on December 3", "three_days_ago"),
    ("上周发生了什么", "last_week"),
])
def test_a_relative_period_asked_alone_returns_its_memories(make_mem: Callable[..., Mnemon], query: str,
                                                           key: str) -> None:
    mem = make_mem("hash", clock=FakeClock(NOW))
    diary = _diary(mem)
    assert set(_ids(mem.recall(query, limit=10))) == set(diary[key])


def test_a_past_relative_period_demotes_what_lies_far_from_it(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash", clock=FakeClock(NOW))
    diary = _diary(mem)
    out = mem.recall("which billing version did we deploy 5 days ago", limit=10)
    assert _ids(out)[:2] == [*diary["this_week"], *diary["long_ago"]]
    assert out["results"][1].get("outside_time_window") is True and "outside_time_window" not in out["results"][0]


def test_a_period_reaching_now_demotes_nothing(make_mem: Callable[..., Mnemon]) -> None:
    """"Today we need to fix the login bug" is about the work at hand: what was learnt of the bug last month is
    its best memory still, neither halved nor flagged, while today's notes remain at hand below it."""
    mem = make_mem("hash", clock=FakeClock(NOW))
    cause = mem.remember("The login bug comes from the expired token cache in the auth service",
                         created_at="2026-11-10T10:00:00Z")["id"]
    today = [mem.remember(text, created_at=f"2026-12-06T{9 + k:02d}:00:00Z")["id"]
             for k, text in enumerate(("Answered support tickets", "Updated the staging config"))]
    for query in ("Today we need to fix the login bug", "this week we need to fix the login bug"):
        out = mem.recall(query, limit=5, explain=True)
        assert _ids(out)[0] == cause and all("outside_time_window" not in r for r in out["results"]), query
        assert _stage(out, "rerank")["demotes_outside"] is False  # type: ignore[index]
    assert set(_ids(mem.recall("what did I do today", limit=5))) == set(today)


def test_an_empty_relative_period_changes_nothing(make_mem: Callable[..., Mnemon]) -> None:
    """Asked months after the memories were written, "yesterday" names a day without any: no window is applied,
    and the deploy notes come back by their words, none flagged as written outside it."""
    mem = make_mem("hash", clock=FakeClock(datetime(2027, 3, 1, 12, tzinfo=timezone.utc)))
    diary = _diary(mem)
    for query in ("which billing version did we deploy yesterday", "billing deploy on December 9"):
        out = mem.recall(query, limit=10, explain=True)
        assert set(_ids(out)) == {*diary["this_week"], *diary["long_ago"]}, query
        assert all("outside_time_window" not in r for r in out["results"])
        anchors = _stage(out, "anchors")
        assert anchors is not None and anchors["time_window_unapplied"]["reason"] == "no memory was written in it"
        assert [s["stage"] for s in out["trace"][:2]] == ["intent", "anchors"]
        rerank = _stage(out, "rerank")
        assert rerank is not None and rerank["time_window"] is None and rerank["outside_time_window"] == 0


def test_a_relative_period_holds_only_the_filters_memories(make_mem: Callable[..., Mnemon]) -> None:
    """Under --source, a day holding only another source's memories is empty: the window is not applied."""
    mem = make_mem("hash", clock=FakeClock(NOW))
    mem.remember("Deployed the search service", source="ops", created_at="2026-11-20T10:00:00Z")
    mem.remember("Reviewed the search design doc", source="hr", created_at="2026-12-05T10:00:00Z")
    out = mem.recall("search service deploy yesterday", source="ops", limit=10)
    assert len(out["results"]) == 1 and "outside_time_window" not in out["results"][0]


def test_a_past_period_whose_memories_the_query_does_not_find_demotes_nothing(
        make_mem: Callable[..., Mnemon]) -> None:
    """"Yesterday was busy; what do we know about the token cache?": nothing written yesterday is about the cache,
    so yesterday is not the period asked about, and what was learnt of the cache before is not halved."""
    mem = make_mem("hash", clock=FakeClock(NOW))
    cache = mem.remember("The token cache expires after ten minutes in the auth service",
                         created_at="2026-11-10T10:00:00Z")["id"]
    for k, text in enumerate(("Answered support tickets", "Coffee with the design team")):
        mem.remember(text, created_at=f"2026-12-05T{9 + k:02d}:00:00Z")
    out = mem.recall("Yesterday was busy; what do we know about the token cache?", limit=5, explain=True)
    assert _ids(out)[0] == cache and "outside_time_window" not in out["results"][0]
    assert _stage(out, "rerank")["demotes_outside"] is False  # type: ignore[index]
    mem.remember("Shortened the token cache lifetime to five minutes", created_at="2026-12-05T15:00:00Z")
    out = mem.recall("what did we change in the token cache yesterday", limit=5)  # now yesterday is asked about
    assert out["results"][0]["insight"]["content"].startswith("Shortened")
    assert next(r for r in out["results"] if r["insight"]["id"] == cache)["outside_time_window"] is True
