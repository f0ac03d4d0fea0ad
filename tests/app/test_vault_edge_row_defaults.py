"""An ingested edge's row leaves out its note path and its repeated `updated_at` (m052, ports/store/edge_rows.py):
every public read still gives both, and a change to the edge gives it a time of its own — on both backends."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import FakeClock

from mnemon.app.memory import Mnemon
from mnemon.ports.store.edge_rows import NOTE_PATH
from mnemon.ports.store.vault_texts_sqlite import PACKED_NOTE_PATH

NOTES = {
    "Projects/move.md": "# Move\n\nWe move to the garden flat with [[Alex]] on 2026-04-02.\n\n"
                        "- Waiting on the lease renewal from [[Alex]] #housing\n",
    "People/alex.md": "# Alex\n\nLandlord of the garden flat, see [[Move]].\n",
}


def _vault(root: Path, notes: dict[str, str]) -> Path:
    for rel, text in notes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _raw(mem: Mnemon, edge_id: int) -> tuple[str, str, str] | None:
    """The stored row; None for an edge derived from its item (SQLite: a negative id, contained_sqlite.py). A coded
    row (SQLite, coded_edges_sqlite.py) reads as the row it stands for: its path the note's (as a key to its note's
    blob), its times NULL when they are its source node's."""
    conn = mem.rt.store.conn  # type: ignore[attr-defined]
    row = conn.execute(f"SELECT source_path, created_at, updated_at FROM edge_rows WHERE id = {int(edge_id)}"
                       ).fetchone()
    if row is None and edge_id > 0 and getattr(mem.rt.store, "codes_edges", False):
        coded = conn.execute(f"SELECT COALESCE(created_at, ''), COALESCE(updated_at, '') FROM coded_edges"
                             f" WHERE id = {int(edge_id)}").fetchone()
        row = (PACKED_NOTE_PATH, *coded) if coded is not None else None
    assert (row is None) == (edge_id < 0)
    return tuple(row) if row is not None else None  # type: ignore[return-value]


def _ingested(make_mem: Callable[..., Mnemon], tmp_path: Path) -> tuple[Mnemon, FakeClock, Path]:
    clock = FakeClock()
    mem = make_mem(clock=clock)
    vault = _vault(tmp_path / "vault", NOTES)
    mem.ingest(str(vault))
    return mem, clock, vault


def _marker(mem: Mnemon) -> str:
    """An ingested edge's stored path: SQLite also moves its evidence into the note's blob (vault_texts_sqlite.py)."""
    return PACKED_NOTE_PATH if mem.rt.store.vault.packs_texts else NOTE_PATH  # type: ignore[attr-defined]


def _born(mem: Mnemon, created_at: str) -> str:
    """An ingested edge's stored creation time: SQLite leaves out one equal to its source node's (m054) — here
    every edge was written with its source."""
    return "" if mem.rt.store.vault.packs_texts else created_at  # type: ignore[attr-defined]


def _note_path(src: str) -> str:
    return src.split(":", 1)[1] if src.startswith("note:") else src.split(":")[1]  # note:P / vault:P:kind:digest


def test_an_ingested_edge_reads_its_path_and_time_everywhere_while_its_row_holds_neither(
        make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem, clock, _vault_dir = _ingested(make_mem, tmp_path)
    store = mem.rt.store
    edges = list(store.iter_edges())  # what an export reads (it holds only the edges between memories)
    assert {e.type for e in edges} >= {"links_to", "has_section", "mentions_date", "has_tag"}
    for e in edges:
        assert e.origin == "ingest" and e.source_path == _note_path(e.src) and e.updated_at == e.created_at
        assert _raw(mem, e.id or 0) in ((_marker(mem), _born(mem, e.created_at), ""), None)
        assert e in store.edges_of([e.src], statuses=("active", "candidate"))
    link = next(e for e in edges if e.type == "links_to" and e.src == "note:People/alex.md")
    info = mem.explain_edge(link.id)["edge"]
    assert (info["source_path"], info["created_at"], info["updated_at"]) == ("People/alex.md", link.created_at,
                                                                               link.created_at)
    pack = mem.retrieve("garden flat lease Alex move", max_items=20, budget=20000)
    shown = [i for i in [*pack["items"], *pack["skipped"]] if i.get("kind") == "edge" and "source_path" in i]
    assert shown and all(i["source_path"] in NOTES for i in shown)


def test_a_person_or_a_reparse_changing_an_edge_gives_it_a_time_of_its_own(make_mem: Callable[..., Mnemon],
                                                                            tmp_path: Path) -> None:
    mem, clock, vault = _ingested(make_mem, tmp_path)
    store = mem.rt.store
    first = {(e.src, e.dst, e.type): e for e in store.iter_edges()}
    links = sorted((e for e in first.values() if e.type == "links_to"), key=lambda e: e.id or 0)
    tag = next(e for e in first.values() if e.type == "has_tag")
    clock.advance(hours=1)
    mem.kill_edge(links[0].id, reason="wrong")
    clock.advance(hours=1)
    mem.weaken_edge(links[1].id, reason="weaker")
    clock.advance(hours=1)
    mem.validate_edge(tag.id, reason="right")
    for e in (links[0], links[1], tag):
        now = store.get_edge(e.id or 0)
        assert now is not None and now.created_at == e.created_at and now.updated_at > e.created_at
        assert now.source_path == e.source_path and (_raw(mem, e.id or 0) or ("", "", ""))[2] == now.updated_at
    # a re-parse moves the bullet a line down: its edges keep their ids and read the new time and the same path
    clock.advance(hours=1)
    (vault / "Projects/move.md").write_text(NOTES["Projects/move.md"].replace("\n\n- ", "\n\nIntro.\n\n- "),
                                            encoding="utf-8")
    mem.ingest(str(vault))
    after = {(e.src, e.dst, e.type): e for e in store.iter_edges()}
    decided = {links[0].id, links[1].id, tag.id}
    moved = [k for k, e in after.items() if k in first and e.updated_at != first[k].updated_at
             and k[0].startswith("note:Projects/") and e.id not in decided]
    assert moved
    for k in moved:
        e = after[k]
        assert e.id == first[k].id and e.source_path == "Projects/move.md" and e.updated_at > e.created_at
        assert _raw(mem, e.id or 0) in ((_marker(mem), _born(mem, e.created_at), e.updated_at), None)
    unchanged = [k for k in first if k[0] == "note:People/alex.md" and first[k].id not in decided]
    assert unchanged and all(after[k] == first[k] for k in unchanged)


def test_a_link_a_person_makes_from_a_note_keeps_its_empty_path(make_mem: Callable[..., Mnemon],
                                                                  tmp_path: Path) -> None:
    mem, _clock, _vault_dir = _ingested(make_mem, tmp_path)
    out: Any = mem.link("note:People/alex.md", "note:Projects/move.md", "semantic")
    assert out
    e = mem.rt.store.find_edge("note:People/alex.md", "note:Projects/move.md", "semantic")
    assert e is not None and e.source_path == "" and e.origin != "ingest" and _raw(mem, e.id or 0)[0] == ""
