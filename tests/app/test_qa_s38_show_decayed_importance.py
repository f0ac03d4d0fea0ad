"""QA round (session 38): `show` gives a memory's effective importance as it is now, decayed.

Effective importance decays with a 30-day half-life, grows with reads and links, and is what auto-prune takes the
lowest of. `show` printed the stored column — the value of the memory's last write or `gc` — so 90 days after
writing, `mnemon --readonly show ID` said 0.6 while `gc` (and auto-prune) read 0.075, and a memory that had since
gathered links or reads showed less than it had. `show` now computes it as `gc` does, at the moment it answers."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

from conftest import FakeClock


def _gc_value(m: Mnemon, node_id: str) -> float:
    out = m.gc(threshold=100.0, limit=100)
    return next(c["effective_importance"] for c in out["candidates"] if c["insight"]["id"] == node_id)


def test_a_read_only_show_gives_the_decayed_importance(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "decay.db"
    m = make_mem(db=db, max_insights=0, clock=clock)
    node_id = m.remember("the ferry timetable changes in spring", importance=3)["id"]
    written = m.show(node_id)["effective_importance"]
    clock.advance(days=90)
    seen = make_mem(db=db, clock=clock, readonly=True).show(node_id)["effective_importance"]
    assert seen < written / 4  # three half-lives
    assert seen == _gc_value(m, node_id)


def test_show_counts_the_links_and_reads_gathered_since_the_write(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem(max_insights=0, clock=clock)
    node_id = m.remember("Mira runs the ferry to Porto", importance=3)["id"]
    # linked by later memories about Mira, read by one recall (with the show two reads: three make it immune)
    for k in range(4):
        clock.advance(hours=1)
        m.remember(f"Mira fixed the ferry's engine part {k}", importance=3)
        if k == 0:
            m.recall("Mira ferry Porto")
    clock.advance(days=3)
    shown = m.show(node_id)["effective_importance"]
    assert shown == _gc_value(m, node_id)
