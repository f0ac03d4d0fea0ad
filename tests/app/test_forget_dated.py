"""`forget --days-threshold N`: Mneme's date-based forgetting, with its bugs fixed (reference §8.2 #13).

An active bullet edge whose bullet names only days before the cutoff becomes a candidate of strength 0; the bullet's
neighbours in the same note, yearless dates and recent bullets are untouched, nothing is deleted, and every change
is an edge event."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

BILLS = """# Bills

- Paid the plumber invoice on 2026-01-10
- Invoice for the roofer was due 12 Jan 2026, then moved to 2026-03-20
- Boiler service overdue since Feb 3
- Waiting on the landlord for the new keys
- Gas contract renewal due 2026-02-01
"""
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # cutoff at 30 days: 2026-01-30


@pytest.fixture
def bills(make_mem: Callable[..., Mnemon], tmp_path: Path) -> Mnemon:
    mem = make_mem("hash", clock=FakeClock(NOW))
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "bills.md").write_text(BILLS, encoding="utf-8")
    mem.ingest(str(tmp_path / "v"))
    return mem


def _bullet_edges(mem: Mnemon) -> dict[str, tuple[str, float]]:
    """Bullet text → (status, strength) of the note's edge to it."""
    store = mem.rt.store
    edges = store.edges_of(["note:bills.md"], statuses=("active", "candidate", "killed"), direction="out")
    nodes = store.get_nodes([e.dst for e in edges])
    return {nodes[e.dst].content: (e.status, e.weight) for e in edges
            if e.dst in nodes and nodes[e.dst].kind == "memory" and e.type.startswith("has_")
            and e.type not in ("has_section", "has_heading", "has_tag")}


def test_only_bullets_whose_dates_are_all_past_the_cutoff_are_aged(bills: Mnemon) -> None:
    before = _bullet_edges(bills)
    assert all(status == "active" for status, _ in before.values())
    dry = bills.forget_dated(30, dry_run=True)
    assert {k: dry[k] for k in ("ok", "dry_run", "threshold_days", "cutoff_date", "forgotten_count")} == {
        "ok": True, "dry_run": True, "threshold_days": 30, "cutoff_date": "2026-01-30", "forgotten_count": 1}
    assert [e["text"] for e in dry["forgotten_edges"]] == ["Paid the plumber invoice on 2026-01-10"]
    assert _bullet_edges(bills) == before  # a dry run changes nothing
    listed, edge = dry["forgotten_edges"][0], bills.rt.store.get_edge(dry["forgotten_edges"][0]["id"])
    assert edge is not None and (listed["relation"], listed["src"], listed["dst"], listed["source_path"],
                                 listed["previous_status"], listed["previous_strength"]) == (
        edge.type, edge.src, edge.dst, edge.source_path, edge.status, edge.weight)

    out = bills.forget_dated(30)
    assert out["forgotten_count"] == 1 and out["forgotten_edges"][0]["latest_date"] == "2026-01-10"
    after = _bullet_edges(bills)
    assert after["Paid the plumber invoice on 2026-01-10"] == ("candidate", 0.0)
    for text in ("Invoice for the roofer was due 12 Jan 2026, then moved to 2026-03-20",  # its latest day counts
                 "Boiler service overdue since Feb 3",  # no year: no date, none guessed
                 "Waiting on the landlord for the new keys",  # the same note's other bullets keep their edges
                 "Gas contract renewal due 2026-02-01"):  # after the cutoff
        assert after[text] == before[text]
    found = bills.recall("plumber invoice", limit=3)["results"]
    assert found and found[0]["insight"]["content"] == "Paid the plumber invoice on 2026-01-10"  # still recallable


def test_each_aged_edge_tells_why_and_a_second_run_finds_nothing_more(bills: Mnemon) -> None:
    out = bills.forget_dated("30")
    edge_id = out["forgotten_edges"][0]["id"]
    events = bills.explain_edge(edge_id)["debug_log"]
    forgotten = [e for e in events if e["event"] == "forgotten"]
    assert len(forgotten) == 1 and forgotten[0]["thinking"]["latest_date"] == "2026-01-10"
    assert forgotten[0]["thinking"]["previous_status"] == "active"
    assert bills.forget_dated(30)["forgotten_count"] == 0
    assert [e["text"] for e in bills.forget_dated(0)["forgotten_edges"]] == ["Gas contract renewal due 2026-02-01"]


def test_a_forgotten_bullet_is_no_longer_brought_up(bills: Mnemon) -> None:
    """The docstring promised it and Mneme did it; thoughts, surface and candidates kept bringing the forgotten
    bullets up first."""
    def shown(rows: list[dict[str, Any]]) -> set[str]:
        return {c["observation"]["text"] for c in rows}

    forgotten = {e["text"] for e in bills.forget_dated(30)["forgotten_edges"]}
    assert "Paid the plumber invoice on 2026-01-10" in forgotten
    assert not shown(bills.candidates(limit=10)["candidates"]) & forgotten
    debug = bills.debug_candidates(include_skipped=True)
    assert not shown(debug["candidates"]) & forgotten
    skipped = {c["observation"]["text"]: c["skip_reasons"] for c in debug["skipped"]}
    assert all("observation edge forgotten (its dates are past)" in skipped[text] for text in forgotten)


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "", 40_000, None])
def test_a_bad_threshold_is_refused_and_changes_nothing(bills: Mnemon, bad: Any) -> None:
    before = _bullet_edges(bills)
    with pytest.raises(InvalidInput):
        bills.forget_dated(bad)
    assert _bullet_edges(bills) == before


def test_mnemes_command_line_runs(cli_run: Callable[..., Any], tmp_path: Path) -> None:
    from mnemon.interfaces.mneme_cli import translate

    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "bills.md").write_text(BILLS, encoding="utf-8")
    db = tmp_path / "m.db"
    assert cli_run(translate(["ingest", "--vault", str(tmp_path / "v"), "--db", str(db)]))[0] == 0
    code, out = cli_run(translate(["forget", "--db", str(db), "--days-threshold", "30", "--dry-run", "--json"]))
    assert code == 0 and out["dry_run"] is True and out["threshold_days"] == 30
    code, out = cli_run(["forget", "some-id", "--days-threshold", "30"])
    assert code != 0 and out["error"]["code"] == "usage"
