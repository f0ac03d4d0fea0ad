"""A day the query names is a source of recall of its own: what was written that day is a candidate (the `window`
anchors) and matches the query's date words, so "what happened on 20 November 2026" returns that day's memories
whatever their words. A longer period (a month, "since January") only demotes what lies far from it: its hundreds of
memories would otherwise crowd out what the question asks about (measured on LoCoMo, core/recall/params.py) — unless
the query asks about nothing but a closed period ("what happened in March 2025"): there is then nothing to crowd out,
and the period is a source as a day is (core/recall/period_source.py).

Every test runs once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from conftest import FakeClock
from mnemon.app.memory import Mnemon
from mnemon.core.model import iso
from mnemon.core.text import tokens

MODULES = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
           "lima", "mike", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
           "xray", "yankee", "zulu", "amber", "basalt", "cobalt")


def _ids(out: dict[str, Any]) -> list[str]:
    return [r["insight"]["id"] for r in out["results"]]


def _stage(out: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in out["trace"] if s["stage"] == name)


def _standups(mem: Mnemon, **remember: Any) -> dict[int, list[str]]:
    """Two standups a day through November 2026 (no date in their words) and a move written on the 20th."""
    by_day: dict[int, list[str]] = {}
    for day in range(1, 29):
        for project in ("Atlas", "Comet"):
            text = f"Project {project} standup: worked on the {MODULES[day - 1]} module with the team"
            by_day.setdefault(day, []).append(
                mem.remember(text, created_at=f"2026-11-{day:02d}T10:00:00Z", **remember)["id"])
    by_day[20].append(mem.remember("Mira moved from Lisbon to Porto", created_at="2026-11-20T12:00:00Z",
                                   **remember)["id"])
    return by_day


def test_a_named_day_returns_the_memories_written_that_day(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    day = _standups(mem)[20]
    for query in ("what happened on 20 November 2026", "standup notes from 20 November 2026"):
        out = mem.recall(query, limit=10, explain=True)
        assert set(_ids(out)[:3]) == set(day), query  # above every other day's standups
        # the trace says why: the window stage found them, and they match the date words by their date
        assert set(day) <= set(_stage(out, "anchors")["signals"]["window"])
        rerank = _stage(out, "rerank")
        assert rerank["in_time_window"] == 3 and rerank["period_words"] == tokens("20 November 2026")
        by_id = {r["insight"]["id"]: r for r in out["results"]}
        assert all("outside_time_window" not in by_id[i] and by_id[i]["signals"]["keyword"] > 0 for i in day)
    mira = day[-1]  # shares no word with the first query: the window alone found it
    out = mem.recall("what happened on 20 November 2026", limit=10)
    assert next(r for r in out["results"] if r["insight"]["id"] == mira)["via"] == "window"


def test_a_named_day_without_memories_changes_nothing(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    _standups(mem)
    out = mem.recall("standup notes from 20 December 2026", limit=10, explain=True)
    assert _stage(out, "anchors")["signals"]["window"] == []
    assert _stage(out, "rerank")["in_time_window"] == 0
    # what is returned is there for its words, as without a named day, and flagged as written far from it
    assert len(out["results"]) == 10
    assert all(r["via"] != "window" and r["signals"]["keyword"] > 0 and r["outside_time_window"]
               for r in out["results"])


def test_a_month_or_an_open_period_does_not_flood_the_results(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    for k in range(40):
        mem.remember(f"Lunch menu {k}: soup and bread", created_at=f"2025-03-{k % 28 + 1:02d}T12:{k:02d}:00Z")
    billing = mem.remember("Billing migration decided: move invoices to Stripe",
                           created_at="2025-03-10T09:00:00Z")["id"]
    for query in ("billing migration decisions in March 2025", "billing migration decisions since January 2025"):
        out = mem.recall(query, limit=10, explain=True)
        # the month's forty lunch menus say nothing about billing: at most its neighbours in time come along
        assert _ids(out)[0] == billing and len(out["results"]) <= 3, query
        assert "window" not in _stage(out, "anchors")["signals"] and _stage(out, "anchors")["period_source"] is None
        assert all(r["via"] != "window" and r["signals"]["keyword"] == 0 for r in out["results"][1:])
        assert _stage(out, "rerank")["in_time_window"] == 0


def test_the_window_keeps_to_the_category_and_source_asked_for(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    decided = mem.remember("Chose Porto for the offsite", category="decision", source="ops",
                           created_at="2026-11-20T09:00:00Z")["id"]
    fact = mem.remember("The office plants were watered", category="fact", source="ops",
                        created_at="2026-11-20T10:00:00Z")["id"]
    other = mem.remember("Chose Lisbon for the retreat", category="decision", source="hr",
                         created_at="2026-11-20T11:00:00Z")["id"]
    query = "what happened on 20 November 2026"
    assert set(_ids(mem.recall(query))) == {decided, fact, other}
    assert _ids(mem.recall(query, category="decision", source="ops")) == [decided]


def test_a_vault_row_is_not_of_the_day_it_was_ingested(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc)))
    mine = mem.remember("Booked the ferry for the site visit")["id"]
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "suppliers.md").write_text("# Suppliers\n\n- Northwind Batteries overdue on the May shipment\n",
                                        encoding="utf-8")
    mem.ingest(str(vault))  # its rows are dated by the ingest: today, not when anything in them happened
    out = mem.recall("what happened on 20 November 2026", explain=True)
    assert _stage(out, "anchors")["signals"]["window"] == [mine]
    assert _ids(out) == [mine] and _stage(out, "rerank")["in_time_window"] == 1


def test_a_replay_sees_only_what_was_written_that_day_by_then(make_mem: Callable[..., Mnemon]) -> None:
    """`retrieve --as-of` in the middle of the named day: the day's later memories are not there yet, and the pack
    equals the one taken at that instant, before them."""
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 12, 1, tzinfo=timezone.utc)))
    _standups(mem, no_diff=True)
    as_of = iso(datetime(2026, 11, 20, 13, 0, tzinfo=timezone.utc))
    morning = mem.remember("Mira signed the lease in Porto", created_at=as_of, no_diff=True)["id"]
    prompt = "what happened on 20 November 2026"
    then = mem.retrieve(prompt, as_of=as_of, max_items=6, verbose=True)
    assert morning in [i["id"] for i in then["items"]]
    evening = mem.remember("Mira threw a housewarming party", created_at="2026-11-20T18:00:00Z", no_diff=True)["id"]
    replayed = mem.retrieve(prompt, as_of=as_of, max_items=6, verbose=True)
    assert evening not in str(replayed)
    assert [i["id"] for i in replayed["items"]] == [i["id"] for i in then["items"]]
    assert replayed["items"] == then["items"]
    assert evening in _ids(mem.recall(prompt))  # today it is one of that day's


def _a_year(mem: Mnemon) -> list[str]:
    """Four memories written in March 2025 (no date or shared word in their words) and a routine note every other
    month of 2025; the March ones."""
    march = [mem.remember(text, created_at=f"2025-03-{day}T10:00:00Z")["id"] for text, day in (
        ("Shipped the new onboarding flow to beta users", 10), ("Hired two backend engineers for the platform", 14),
        ("Postgres upgrade finished without downtime", 20), ("Quarterly planning offsite held in Porto", 27))]
    for month in (1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12):
        mem.remember(f"Routine note about vendor invoices and the budget review, month {month}",
                     created_at=f"2025-{month:02d}-15T10:00:00Z")
    return march


def test_a_query_that_names_only_a_month_returns_that_months_memories(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    march = _a_year(mem)
    for query in ("what happened in March 2025", "what did we do in March 2025", "2025年3月发生了什么"):
        out = mem.recall(query, limit=10, explain=True)
        # first, every one of them: supported by the period, not dropped for sharing no word with the query
        assert set(_ids(out)[:4]) == set(march), query
        anchors, rerank = _stage(out, "anchors"), _stage(out, "rerank")
        assert set(march) <= set(anchors["signals"]["window"])
        assert anchors["period_source"] == rerank["period_source"] == "period_only"
        assert rerank["in_time_window"] == 4
        assert all("outside_time_window" not in r for r in out["results"][:4])


def test_a_month_with_content_words_is_no_source(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    march = _a_year(mem)
    out = mem.recall("vendor invoices in March 2025", limit=10, explain=True)
    # as before: the month only demotes what lies far from it; March's memories, which say nothing of invoices, are
    # no anchors of their own, match no date word, and those no link vouches for are dropped
    assert "window" not in _stage(out, "anchors")["signals"]
    rerank = _stage(out, "rerank")
    assert rerank["period_source"] is None and rerank["in_time_window"] == 0 and rerank["dropped_unsupported"] > 0
    assert not set(march) <= set(_ids(out))
    assert all(r["via"] != "window" and r["signals"]["keyword"] == 0 for r in out["results"]
               if r["insight"]["id"] in march)
    assert sum(r["signals"]["keyword"] > 0 for r in out["results"]) >= 8  # the invoice notes
