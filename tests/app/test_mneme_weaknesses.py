"""Guards for Mneme's known bugs (reference mneme.md §8.2): each test names the item it pins and fails if mnemon
behaved like Mneme. Items already guarded elsewhere are listed in the audit report, not repeated here."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.world import propose_assertion

from conftest import FakeClock

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def _reachable(mem: Mnemon, start: str, hops: int) -> set[str]:
    """Node ids within `hops` steps of `start` over active edges, both directions (what a walk can reach)."""
    seen, frontier = {start}, {start}
    for _ in range(hops):
        edges = mem.rt.store.edges_of(sorted(frontier), statuses=("active",), direction="both")
        frontier = {e.dst if e.src in frontier else e.src for e in edges} - seen
        seen |= frontier
    return seen


# ── graph construction ─────────────────────────────────────────────────────────────────────────────────────────
def test_w1_a_wikilink_joins_the_linked_note_so_a_walk_reaches_its_observations(mem: Mnemon,
                                                                                 example_vault: Path) -> None:
    """Mneme §8.2 #1: `[[Harbour Station]]` became a global wikilink node never joined to the note."""
    mem.ingest(str(example_vault))
    store = mem.rt.store
    assert not list(store.iter_nodes(kind="wikilink"))
    harbour = "note:Projects/harbour-station.md"
    badge = next(m for m in store.iter_nodes(kind="memory") if m.content.startswith("Site access needs a badge"))
    # the link's target is the very node that owns the linked note's observations
    link = store.find_edge("note:Projects/lighthouse.md", harbour, "links_to")
    assert link is not None and store.find_edge(harbour, badge.id, "has_blocked") is not None
    mem.promote_candidates(mode="all")  # parsed links start as candidates; walks follow active edges
    assert badge.id in _reachable(mem, "note:Projects/lighthouse.md", 2)  # note → linked note → its bullet


def test_w2_the_title_h1_is_not_a_heading_of_its_own_note_and_numbered_items_count(mem: Mnemon,
                                                                                   example_vault: Path) -> None:
    """Mneme §8.2 #2: the H1 title was duplicated as a `has_heading` child; numbered lists were ignored."""
    mem.ingest(str(example_vault))
    store = mem.rt.store
    note = "note:Projects/lighthouse.md"
    edges = store.edges_of([note], statuses=("active", "candidate"), direction="out")
    headings = {n.title for n in store.get_nodes([e.dst for e in edges if e.type == "has_heading"]).values()}
    assert headings == {"Status", "Budget", "Firmware"}
    assert store.get_node("heading:Projects/lighthouse.md#lighthouse") is None
    numbered = [m for m in store.iter_nodes(kind="memory") if m.source == "vault:Projects/lighthouse.md"
                and m.content == "Order 40 sensor units, deadline 2026-04-10"]
    assert len(numbered) == 1 and numbered[0].metadata["observation_kind"] == "risk"


# ── retrieval ──────────────────────────────────────────────────────────────────────────────────────────────────
def test_w4_stop_words_and_substrings_do_not_match_lexically(mem_none: Mnemon) -> None:
    """Mneme §8.2 #4: "the"/"here" counted as query terms and "art" matched inside "party"."""
    mem_none.remember("The lease for the flat is renewed here every year", category="fact")
    mem_none.remember("The party starts at noon on the pier", category="fact")
    pack = mem_none.retrieve("what should the agent remember here?")
    assert not {"the", "here", "should", "what"} & set(pack["tokens"])
    assert pack["items"] == [] and pack["empty_reason"] == "no_matching_memories"
    art = mem_none.retrieve("art")
    assert art["items"] == [] and art["empty_reason"] == "no_matching_memories"
    lease = mem_none.retrieve("lease renewal")
    assert [i["text"] for i in lease["items"] if i["item_type"] == "memory"] == [
        "The lease for the flat is renewed here every year"]


def test_w6_a_missed_prediction_enters_only_packs_that_ask_about_it(make_mem: Callable[..., Mnemon]) -> None:
    """Mneme §8.2 #6: missed/unverifiable predictions were injected into every context pack."""
    clock = FakeClock(datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc))
    mem = make_mem("hash", clock=clock)
    mem.remember("The weather station in Oslo reports daily", category="fact")
    mem.predict_add({"title": "Parcel should arrive", "check_after": "2026-06-02T00:00:00Z",
                     "expires_at": "2026-06-05T00:00:00Z",
                     "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]}})
    clock.now = datetime(2026, 6, 3, 1, tzinfo=timezone.utc)  # (an event is added once it was perceived)
    mem.sense_add(json.dumps({"sense_type": "gws", "observed_at": "2026-06-03T00:00:00Z", "text": "newsletter"}))
    clock.now = datetime(2026, 6, 6, tzinfo=timezone.utc)
    mem.world_tick()
    asked = mem.retrieve("did the parcel arrive?")
    assert [i["truth_policy"] for i in asked["items"]].count("missed_prediction") == 1
    unrelated = mem.retrieve("what is the weather in Oslo?")
    assert unrelated["items"] and unrelated["stats"]["world_items"] == 0
    assert all(i["item_type"] in ("memory", "edge") for i in unrelated["items"])


DATED = """# Bills

- Invoice from the plumber paid on 2025-01-10
- Invoice for the roofer due 2026-02-25
- Invoice to inspect the boiler Mar 5
"""


def _one_note(make_mem: Callable[..., Mnemon], tmp_path: Path, name: str, text: str) -> tuple[Mnemon, FakeClock]:
    """A store on a clock at T0 with a one-note vault ingested."""
    clock = FakeClock(T0)
    mem = make_mem("hash", clock=clock)
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / name).write_text(text, encoding="utf-8")
    mem.ingest(str(tmp_path / "v"))
    return mem, clock


def _memory_factors(pack: dict[str, Any]) -> dict[str, tuple[float, Any, Any]]:
    return {i["text"]: (i["score"], i["score_factors"]["staleness"], i["source_notes"].get("newest_past_date_age_days"))
            for i in pack["items"] if i["item_type"] == "memory" and i.get("kind") != "section"}


def test_w7_staleness_follows_as_of_or_the_runtime_clock_never_the_wall_clock(make_mem: Callable[..., Mnemon],
                                                                              tmp_path: Path) -> None:
    """Mneme §8.2 #7: the wall-clock date (and a guessed year for "Mon D") drove staleness, so packs drifted."""
    mem, clock = _one_note(make_mem, tmp_path, "bills.md", DATED)
    clock.advance(days=1)
    replay = mem.retrieve("invoice", as_of="2026-03-05T00:00:00Z", budget=10000, max_items=20)
    clock.advance(days=400)
    again = mem.retrieve("invoice", as_of="2026-03-05T00:00:00Z", budget=10000, max_items=20)
    assert _memory_factors(again) == _memory_factors(replay)  # a replay is hermetic
    factors = _memory_factors(replay)
    assert factors["Invoice for the roofer due 2026-02-25"][1:] == (1.0, 8)  # age counted from as_of
    assert factors["Invoice to inspect the boiler Mar 5"][1:] == (1.0, None)  # no year: not dated, not stale
    # without as_of the runtime clock (2027-04-06 here, not today's date) measures the age
    live = _memory_factors(mem.retrieve("invoice", budget=10000, max_items=20))
    roofer_age = (clock.now - datetime(2026, 2, 25, tzinfo=timezone.utc)).days
    assert live["Invoice for the roofer due 2026-02-25"][2] == roofer_age
    assert live["Invoice to inspect the boiler Mar 5"][1:] == (1.0, None)


# ── world model ────────────────────────────────────────────────────────────────────────────────────────────────
def test_w11_lapsed_open_loops_compare_instants_not_iso_strings(make_mem: Callable[..., Mnemon]) -> None:
    """Mneme §8.2 #11: lapsed open loops compared ISO strings, wrong with mixed UTC offsets."""
    clock = FakeClock(datetime(2026, 6, 1, 6, 0, tzinfo=timezone.utc))
    mem = make_mem("hash", clock=clock)

    def loop(subject: str, valid_until: str) -> str:
        out = propose_assertion(mem.rt, {
            "subject": subject, "predicate": "status", "object": "awaiting reply", "state_type": "open_loop",
            "confidence": 0.95, "certainty": "confirmed", "evidence": "email (fictional)",
            "source_path": f"mneme://w11/{subject}", "valid_from": "2026-05-01T00:00:00Z", "valid_until": valid_until})
        assert out["written"] is True
        return str(out["id"])

    east = loop("Ana", "2026-06-01T10:00:00+05:00")  # 05:00 UTC: lapsed an hour ago, though "10:00" > "06:00"
    west = loop("Bo", "2026-06-01T03:00:00-05:00")  # 08:00 UTC: open two more hours, though "03:00" < "06:00"
    tick = mem.world_tick(dry_run=True)
    assert [row["id"] for row in tick["lapsed_open_loops"]] == [east]
    current = [a["id"] for a in mem.state_list(status="current")["assertions"]]
    assert current == [west]


# ── forgetting / lifecycle ─────────────────────────────────────────────────────────────────────────────────────
MONTHS = """# Contracts

- Renew the home insurance by Jan 15, 2027
- Gas contract ends 14 Feb 2027
- Check the boiler pressure Mar 5
- Paid the old water bill on 2025-01-10
- Waiting on the landlord for the new keys
"""


def test_w13_dates_keep_their_year_and_age_only_their_own_line(make_mem: Callable[..., Mnemon],
                                                               tmp_path: Path) -> None:
    """Mneme §8.2 #13: forget guessed year 2026 for "Mon D", skipped Jan/Feb and zeroed every edge of the note."""
    mem, _clock = _one_note(make_mem, tmp_path, "contracts.md", MONTHS)
    store = mem.rt.store
    dates = {n.id for n in store.iter_nodes(kind="date")}
    assert {"date:2027-01-15", "date:2027-02-14", "date:2025-01-10"} <= dates  # January and February parse
    assert not any(d.endswith("-03-05") for d in dates)  # "Mar 5" names no year: none is invented
    before = {e.id: (e.status, e.weight, e.confidence) for e in store.iter_edges()}
    pack = mem.retrieve("water bill landlord keys insurance boiler", budget=10000, max_items=20)
    stale = {i["text"]: i["score_factors"]["staleness"] for i in pack["items"]
             if i["item_type"] == "memory" and i["kind"] == "observation"}
    assert stale["Paid the old water bill on 2025-01-10"] < 1.0
    assert stale["Waiting on the landlord for the new keys"] == 1.0  # same note, not dragged down with it
    assert {e.id: (e.status, e.weight, e.confidence) for e in store.iter_edges()} == before  # read-time only


def test_w15_surface_without_a_prompt_is_a_read_that_changes_nothing(mem: Mnemon, example_vault: Path) -> None:
    """Mneme §8.2 #15: prompt-less surface returned a bare list and bumped counters, so the next read differed."""
    mem.ingest(str(example_vault))
    store = mem.rt.store
    counts = {m.id: m.access_count for m in store.iter_nodes(kind="memory")}
    first = mem.surface(limit=3)
    second = mem.surface(limit=3)
    assert isinstance(first, dict) and first["count"] == 3
    assert first == second
    assert {m.id: m.access_count for m in store.iter_nodes(kind="memory")} == counts


def test_w16_explain_edge_reads_the_configured_database_and_fails_cleanly(cli_run: Callable[..., Any],
                                                                          example_vault: Path, tmp_path: Path) -> None:
    """Mneme §8.2 #16: explain-edge ignored the config (needed --db) and raised KeyError on unknown ids."""
    config, db = tmp_path / "mneme.json", tmp_path / "configured.sqlite"
    code, _ = cli_run(["--config", config, "init", "--vault", example_vault, "--db", db, "--out", tmp_path / "out"])
    assert code == 0
    code, _ = cli_run(["--config", config, "ingest"])
    assert code == 0
    code, out = cli_run(["--config", config, "explain-edge", "1"])
    assert code == 0 and out["edge"]["id"] == 1 and out["edge"]["source_path"].endswith(".md")
    code, out = cli_run(["explain-edge", "1"])  # the default database never saw this vault
    assert code != 0 and out["error"]["code"] == "not_found"
    code, out = cli_run(["--config", config, "explain-edge", "424242"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "not_found"
    code, out = cli_run(["--config", config, "explain-edge", "abc"])
    assert code != 0 and out["error"]["code"] == "invalid_input"
