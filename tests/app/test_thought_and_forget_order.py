"""`candidates` and `forget --days-threshold` list the same things on SQLite and PostgreSQL: they used to break ties
by edge id, and SQLite numbers a note's edges to its own items below zero (newest item first) while PostgreSQL
counts up — so each backend showed other paths, and `forget` listed other bullets among its first 20. Here the
order is by what the edges join; each test runs once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge, Memory

from conftest import FakeClock

WHEN = "2026-02-20T09:00:00.000000Z"


def _edge(src: str, dst: str, type_: str, confidence: float = 0.8) -> Edge:
    return Edge(src=src, dst=dst, type=type_, weight=confidence, confidence=confidence, status="active",
                evidence="- Waiting on Bram for the signed contract", origin="ingest", rule="test",
                source_path=src[5:], created_at=WHEN, updated_at=WHEN)


def _plan(mem: Mnemon, name: str, order: list[int]) -> tuple[str, str, str]:
    """A project note with one blocked bullet and a person note; its edges are written in the given order: 0 the
    bullet's own edge, 1 a second edge from the note to the bullet, 2 and 3 two edges of one weight to the person
    (a tie for the walk). Returns (note, bullet, person)."""
    note, person, bullet = f"note:{name}.md", f"note:{name}-bram.md", f"vault:{name}.md:observation:{name}"
    store = mem.rt.store
    edges = [_edge(note, bullet, "has_blocked"), _edge(note, bullet, "links_to"),
             _edge(note, person, "relates_to"), _edge(note, person, "belongs_to")]
    with store.transaction():
        for node_id, title, kind in ((note, "Plan", "project"), (person, "Bram", "person")):
            store.insert_node(Memory(id=node_id, content="", kind="note", title=title,
                                     source=f"vault:{node_id[5:]}", created_at=WHEN, updated_at=WHEN,
                                     inserted_at=WHEN, metadata={"type": kind}))
        store.insert_node(Memory(id=bullet, content=f"Waiting on Bram for the signed {name} contract",
                                 category="fact", importance=4, source=f"vault:{name}.md", created_at=WHEN,
                                 updated_at=WHEN, inserted_at=WHEN, title="Plan",
                                 metadata={"memory_kind": "observation", "note": f"{name}.md", "line": 3,
                                           "observation_kind": "blocked", "score": 4.0, "heading_path": ["Plan"]}))
        for k in order:
            store.upsert_edge(edges[k])
    return note, bullet, person


def test_a_card_path_is_the_same_whichever_edge_was_written_first(mem: Mnemon) -> None:
    written = [_plan(mem, "first", [0, 1, 2, 3]), _plan(mem, "second", [3, 2, 1, 0])]
    cards = {c["observation"]["id"]: c for c in mem.candidates(limit=5, hops=4)["candidates"]}
    for note, bullet, person in written:
        steps = [(s["id"], s.get("via")) for s in cards[bullet]["path"]]
        # the card opens with the bullet's own edge; of two edges of one weight the walk takes the first by type
        assert steps == [(note, None), (bullet, "has_blocked"), (person, "belongs_to")], steps


NOW = datetime(2026, 6, 1, 12, 0, tzinfo=timezone.utc)


def test_forget_lists_its_first_twenty_oldest_first_by_what_they_join(make_mem: Callable[..., Mnemon],
                                                                       tmp_path: Path) -> None:
    mem = make_mem("hash", clock=FakeClock(NOW))
    vault = tmp_path / "v"
    vault.mkdir()
    # 30 dated bullets over two notes, written in no order of their dates; the 20th listed is one of three of a day
    b_days = [f"2026-01-{d:02d}" for d in (17, 3, 28, 9, 21, 14, 5, 25, 11, 19, 2, 30, 7, 23, 13)]
    a_days = ["2026-01-13"] * 3 + ["2026-01-30"] * 2 + [f"2026-02-{d:02d}" for d in (1, 4, 2, 3, 8, 6, 5, 9, 7)]
    a_days.append("2026-01-19")
    for name, part in (("b.md", b_days), ("a.md", a_days)):
        bullets = "".join(f"- Paid the invoice {i} on {day}\n" for i, day in enumerate(part))
        (vault / name).write_text(f"# {name[0].upper()}\n\n{bullets}", encoding="utf-8")
    mem.ingest(str(vault))
    out = mem.forget_dated(30, dry_run=True)
    assert out["forgotten_count"] == 30
    listed = out["forgotten_edges"]
    keys = [(e["latest_date"], e["relation"], e["src"], e["dst"]) for e in listed]
    assert len(keys) == 20 and keys == sorted(keys)
    assert [e["latest_date"] for e in listed] == sorted(a_days + b_days)[:20]
    # days shared by bullets of both notes list note a's first, and the 20th is note a's second of 2026-01-30
    assert [e["src"] for e in listed if e["latest_date"] == "2026-01-13"] == ["note:a.md"] * 3 + ["note:b.md"]
    assert [e["src"] for e in listed if e["latest_date"] == "2026-01-30"] == ["note:a.md"] * 2
    assert mem.forget_dated(30)["forgotten_edges"] == listed  # the run lists what its dry run did
