"""An open task whose date has passed is titled "Past due", not "Open loop": `- [ ] Deadline 2026-02-01 send the
report` read 309 days later came out as "Open loop: Deadline 2026-02-01 …" under the amber Open loop badge, though
the task was past its date. A loop without a deadline's words, or with its date still ahead, stays an open loop."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timezone
from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import compose
from mnemon.render.cards import badge_for

from conftest import FakeClock

TODAY = date(2026, 12, 7)
TASK = "Deadline 2026-02-01 send the report"


def test_an_open_task_past_its_deadline_is_past_due() -> None:
    card = compose([], TASK, "blocked", "Reports", TODAY)
    assert card["title"] == f"Past due: {TASK}"
    assert "done by 2026-02-01 (309 days ago)" in card["action"]
    assert badge_for(card)[0] == "Deadline"


def test_a_loop_not_yet_due_or_without_a_deadline_stays_an_open_loop() -> None:
    assert compose([], "Deadline 2026-12-20 send the report", "blocked", "", TODAY)["title"].startswith("Open loop:")
    waiting = compose([], "Waiting on Bob's reply since 2026-02-01", "blocked", "", TODAY)
    assert waiting["title"].startswith("Open loop:")
    assert compose([], TASK, "done", "", TODAY)["title"].startswith("Done:")


def test_the_surfaced_card_of_the_vault_task_says_past_due(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "Reports.md").write_text(f"# Reports\n\n- [ ] {TASK}\n", encoding="utf-8")
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 12, 7, 12, tzinfo=timezone.utc)))
    mem.ingest(str(root), embed=False)
    cards = [t for t in mem.surface(limit=5)["thoughts"] if TASK in " ".join(t["evidence"])]
    assert cards and cards[0]["title"].startswith("Past due:"), [t["title"] for t in cards]
