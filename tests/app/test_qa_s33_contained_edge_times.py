"""A note's containment edges (note → its sections, headings, bullets) report the same creation time on SQLite and
PostgreSQL. SQLite reads such an edge back from its item row (m055), so it is as old as the item; PostgreSQL stores
it as a row, and the ingest wrote a new row with the time of that ingest even where the item was older: after a
restore (an export keeps the vault memories with their times, the next ingest keeps them) and when a bullet that had
left its note came back (its row kept for a person's decision and revived), PostgreSQL said "today" where SQLite
said when the item first appeared. Each test runs once per backend (`make_mem`)."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/conftest.py (tests/ is on sys.path)

CONTAINMENT = ("has_section", "has_heading", "has_blocked", "has_risk", "has_done", "has_correction", "has_fact")
NOTE = "# A\n\nintro\n\n## Part\n\nbody\n\n- Risk: appeal deadline 2026-01-01\n- Blocked: waiting on parts\n"
T0, T1, T2 = "2026-03-01T12:00:00.000000Z", "2026-03-04T12:00:00.000000Z", "2026-03-07T12:00:00.000000Z"


def _vault(tmp_path: Path, text: str = NOTE) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir(exist_ok=True)
    (vault / "A.md").write_text(text, encoding="utf-8")
    return vault


def _times(m: Mnemon) -> dict[tuple[str, str], str]:
    """(relation, item) → created_at of each live containment edge, as `explain-edge` shows it."""
    out = {}
    for e in m.rt.store.iter_edges(statuses=("active", "candidate")):
        if e.type in CONTAINMENT:
            assert m.explain_edge(e.id)["edge"]["created_at"] == e.created_at
            out[(e.type, e.dst)] = e.created_at
    return out


def test_restored_items_keep_their_containment_edge_times_after_the_next_ingest(
        make_mem: Callable[..., Mnemon], tmp_path: Path, clock: FakeClock) -> None:
    vault = _vault(tmp_path)
    source = make_mem(db=tmp_path / "source.db", clock=clock)
    source.ingest(str(vault), embed=False)
    before = _times(source)
    assert len(before) == 5 and set(before.values()) == {T0}
    exported = source.export_json()

    clock.advance(days=3)
    target = make_mem(clock=clock)  # the backend under test
    assert target.import_json(json.dumps(exported))["errors"] == 0
    target.ingest(str(vault), embed=False)
    # the sections and bullets came back with their times; the heading is no memory, not exported: new today
    assert _times(target) == {key: T1 if key[0] == "has_heading" else T0 for key in before}


def test_a_bullet_back_in_its_note_keeps_its_containment_edge_time(make_mem: Callable[..., Mnemon],
                                                                  tmp_path: Path, clock: FakeClock) -> None:
    vault = _vault(tmp_path)
    m = make_mem(clock=clock)
    m.ingest(str(vault), embed=False)
    risk = next(key for key in _times(m) if key[0] == "has_risk")
    # a person kills the bullet's date: the bullet's row stays (deleted) while it is out of its note
    date = next(e for e in m.rt.store.iter_edges() if e.type == "mentions_date" and e.src == risk[1])
    m.kill_edge(date.id, reason="not a deadline")

    clock.advance(days=3)
    vault.joinpath("A.md").write_text(NOTE.replace("- Risk: appeal deadline 2026-01-01\n", "- Risk: the hull\n"),
                                      encoding="utf-8")
    m.ingest(str(vault), embed=False)
    edited = _times(m)
    # the edited bullet and the section holding it are new; the rest keep their first ingest's time
    assert risk not in edited and sorted(edited.values()) == [T0, T0, T0, T1, T1]

    clock.advance(days=3)
    vault.joinpath("A.md").write_text(NOTE, encoding="utf-8")
    m.ingest(str(vault), embed=False)
    assert m.rt.store.get_node(risk[1]).created_at == T0  # (revived: the same memory as before)
    back = _times(m)
    assert back[risk] == T0 and sorted(back.values()) == [T0, T0, T0, T0, T2]  # (the old section came back anew)
