"""QA s31b: thought history across `run-once`, and `agent preflight --as-of` with `--surface-limit`, on SQLite and
PostgreSQL.

- `run-once` (the daily card) ingested in rebuild mode, which drops thought history whenever a note changed: a
  vault edited every day showed the same card every day, while an unchanged vault rotated through its candidates.
- `agent preflight --as-of T --surface-limit N` replayed the context pack at T but surfaced today's cards: memories
  written after T, and a deadline after T called "Past due … days ago"."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from mnemon.app.memory import Mnemon

from conftest import FakeClock

T_INGEST = datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc)


def test_run_once_keeps_thought_history_when_a_note_changed(make_mem: Callable[..., Mnemon],
                                                             example_vault: Path) -> None:
    clock = FakeClock(T_INGEST)
    mem = make_mem("hash", clock=clock)
    daily = example_vault / "Meetings" / "2026-04-01 Review.md"
    titles = []
    for day in range(3):
        with daily.open("a", encoding="utf-8") as f:
            f.write(f"\n- day {day} log entry\n")  # a vault that changes between runs, as a daily one does
        out = mem.run_once(vault=str(example_vault))
        titles.append(out["title"])
        clock.advance(days=1)
    assert len(set(titles)) == 3, titles  # the cooldown rotates: three runs, three different cards
    assert len(mem.log(op="thought")["entries"]) == 3


def test_run_once_without_changes_and_with_changes_agree(make_mem: Callable[..., Mnemon],
                                                         example_vault: Path) -> None:
    clock = FakeClock(T_INGEST)
    mem = make_mem("hash", clock=clock)
    first = mem.run_once(vault=str(example_vault))["title"]
    (example_vault / "Inbox.md").write_text("- an unrelated note\n", encoding="utf-8")
    second = mem.run_once(vault=str(example_vault))["title"]
    assert second != first


def test_preflight_replay_surfaces_no_card_of_a_later_memory(make_mem: Callable[..., Mnemon],
                                                            example_vault: Path) -> None:
    clock = FakeClock(T_INGEST)
    mem = make_mem("hash", clock=clock)
    mem.ingest(str(example_vault))
    now = mem.agent_preflight("sensor firmware deadline", surface_limit=3)
    assert now["surface"]["count"] > 0  # today the notes are there to surface
    before = mem.agent_preflight("sensor firmware deadline", as_of="2026-01-01T00:00:00Z", surface_limit=3)
    assert before["context"]["items"] == []  # nothing had been ingested by then …
    assert before["surface"]["count"] == 0, [t["title"] for t in before["surface"]["thoughts"]]  # … nor surfaced


def test_preflight_replay_reads_card_dates_at_the_replayed_instant(make_mem: Callable[..., Mnemon],
                                                                  example_vault: Path) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=timezone.utc))
    mem = make_mem("hash", clock=clock)
    mem.ingest(str(example_vault))
    clock.now = T_INGEST
    past = mem.agent_preflight("sensor firmware deadline", surface_limit=3)
    assert any(t["title"].startswith("Past due:") for t in past["surface"]["thoughts"])
    replay = mem.agent_preflight("sensor firmware deadline", as_of="2026-02-01T00:00:00Z", surface_limit=3)
    titles = [t["title"] for t in replay["surface"]["thoughts"]]
    assert titles and not any(t.startswith("Past due:") for t in titles), titles  # 2026-05-15 was still ahead
    assert not any("days ago" in t["action"] for t in replay["surface"]["thoughts"] if "2026-05-15" in t["action"])
