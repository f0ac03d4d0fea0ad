"""A derived containment edge's id (SQLite: its item's seq negated, m055) is never another edge's. SQLite gives a new
row the largest seq + 1, so when the bullet holding the top seq was edited away, the next bullet got its seq and its
containment edge the old one's id — and with it the old edge's `edge_events` and oplog decisions: `explain-edge` of
the new bullet's edge showed the `weaken-edge` of the one it replaced, and `retrieve --as-of` replayed that decision
on it. A bullet back in its note after its edge went gets a new edge too, as on PostgreSQL (whose identity column
never hands out an id twice). Each test runs once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mnemon.app.edge_history import EdgeHistory
from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge

NOTE = "# A\n\nintro\n\n- Blocked: waiting on parts\n- Risk: appeal deadline 2026-01-01\n"
EDITED = NOTE.replace("appeal deadline 2026-01-01", "the hull leaks")


def _write(vault: Path, text: str) -> None:
    vault.mkdir(exist_ok=True)
    (vault / "A.md").write_text(text, encoding="utf-8")


def _risk(m: Mnemon) -> Edge:
    return next(e for e in m.rt.store.iter_edges() if e.type == "has_risk")


def _history(m: Mnemon, edge: Edge) -> list[str]:
    """What `explain-edge` and a replay at an earlier instant (`retrieve --as-of`) read of the edge's past."""
    log = [e["event"] for e in m.explain_edge(edge.id)["debug_log"]]
    past = EdgeHistory.read(m.rt.store, [(int(edge.id or 0), edge.src)])
    return log + [f"event:{e.event}" for rows in past.events.values() for e in rows] + [
        f"decision:{d.event}" for rows in past.decisions.values() for d in rows]


@pytest.mark.parametrize("decide", ["weaken", "forget"])
def test_a_new_edge_never_shows_a_gone_edges_history(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                     decide: str) -> None:
    vault = tmp_path / "vault"
    _write(vault, NOTE.replace(" 2026-01-01", ""))  # (no date: the risk bullet's row is the store's last)
    m = make_mem()
    m.ingest(str(vault), embed=False)
    old = _risk(m)
    if decide == "weaken":
        m.weaken_edge(old.id, factor=0.5, reason="doubtful")
    else:
        m.forget(old.dst)
    assert len(_history(m, old)) > 1
    _write(vault, EDITED)  # the decided bullet (and the section holding it) leave the note for good
    m.ingest(str(vault), embed=False)
    if decide == "weaken":  # a decision: kept retired with its line, as a kill or validation is kept (s37)
        kept = m.rt.store.get_edge(old.id)
        assert kept is not None and kept.status == "retired"
    else:
        assert m.rt.store.get_node(old.dst, include_deleted=True) is None and m.rt.store.get_edge(old.id) is None
    edges = [e for e in m.rt.store.iter_edges() if e.id != old.id]
    assert sorted(e.type for e in edges) == ["has_blocked", "has_risk", "has_section"]
    for edge in edges:  # the new section's and bullet's edges among them
        assert edge.id != old.id and _history(m, edge) == ["created"]
        assert edge.weight == pytest.approx(edge.confidence)  # nothing weakened


def test_a_bullet_back_in_its_note_gets_a_new_edge_without_the_old_ones_history(make_mem: Callable[..., Mnemon],
                                                                                  tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, NOTE)
    m = make_mem()
    m.ingest(str(vault), embed=False)
    old = _risk(m)
    m.weaken_edge(old.id, factor=0.5, reason="doubtful")
    # a person kills the bullet's date: its row is kept (deleted) while the bullet is out of its note
    date = next(e for e in m.rt.store.iter_edges() if e.type == "mentions_date" and e.src == old.dst)
    m.kill_edge(date.id, reason="not a deadline")
    _write(vault, EDITED)
    m.ingest(str(vault), embed=False)
    assert m.rt.store.get_node(old.dst, include_deleted=True) is not None
    assert m.rt.store.get_edge(old.id).status == "retired"  # (s37: kept with its weakening while its line is out)
    _write(vault, NOTE)
    m.ingest(str(vault), embed=False)
    back = _risk(m)
    assert back.dst == old.dst and m.rt.store.get_node(old.dst) is not None  # the same bullet, revived
    # the same edge taken up again, weakened as the person left it, with its own history
    assert (back.id, back.weight, back.status) == (old.id, pytest.approx(old.weight * 0.5), "active")
    assert [e for e in _history(m, back) if not e.startswith(("event:", "decision:"))][:2] == ["created", "weakened"]
    assert len([e for e in m.rt.store.iter_edges() if e.type == "has_risk"]) == 1
