"""QA round (session 41): a forgotten vault bullet can be brought back while its note is unchanged.

`forget --undo` of a vault row was refused with "it comes back when the note holds it again and is read (`mnemon
ingest`)"; the user ran `mnemon ingest` as told, every note was unchanged, and the bullet stayed forgotten until
someone edited its note. The undo now marks the note to be read again: the next ingest (the one the reply names)
reads it and brings the bullet back with its edges, while the note still holds the line. A forget still holds over an
ingest of unchanged notes — also one that reads them all again (other hints, a new parser version), which brought
every forgotten vault row back unasked — and over the read an undo of another row of its note asks for."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.revival import undo_status
from mnemon.core.errors import InvalidInput, NotFound

NOTE = "Projects/harbour-station.md"


def _bullets(m: Mnemon, path: str = NOTE) -> list[str]:
    return sorted(n.id for n in m.rt.store.iter_nodes(kind="memory")
                  if n.id.startswith(f"vault:{path}:observation:"))


def _edges(m: Mnemon, node_id: str) -> set[tuple[Any, ...]]:
    return {(e.src, e.dst, e.type, e.status)
            for e in m.rt.store.edges_of([node_id], statuses=("active", "candidate"), direction="both")}


def test_undo_of_a_forgotten_vault_bullet_brings_it_back_at_the_next_ingest(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    bullet = _bullets(m)[0]
    edges = _edges(m, bullet)
    assert edges
    m.forget(bullet)
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(bullet) is None  # an ingest of unchanged notes keeps the forget
    out = m.undo_forget([bullet])
    assert out["status"] == "pending_ingest" and out["revived"] == []
    assert [row["id"] for row in out["pending_ingest"]] == [bullet] and out["notes_to_read"] == [NOTE]
    assert "ingest" in out["message"] and NOTE in out["message"]
    assert m.rt.store.get_node(bullet) is None  # nothing back before the note is read
    read = m.ingest(str(example_vault), embed=False)
    assert read["notes_read"] == 1
    assert m.rt.store.get_node(bullet) is not None
    assert _edges(m, bullet) == edges
    assert bullet in [h["insight"]["id"] for h in m.recall(m.rt.store.get_node(bullet).content)["results"]]
    again = m.ingest(str(example_vault), embed=False)  # read once: the mark is spent
    assert again["notes_read"] == 0


def test_the_dry_run_marks_nothing(make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    bullet = _bullets(m)[0]
    m.forget(bullet)
    out = m.undo_forget([bullet], dry_run=True)
    assert out["status"] == "would_pend_ingest" and out["notes_to_read"] == [NOTE]
    assert m.ingest(str(example_vault), embed=False)["notes_read"] == 0
    assert m.rt.store.get_node(bullet, include_deleted=True).deleted_at is not None


def test_the_notes_other_forgotten_bullets_stay_forgotten_through_its_read(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    first, second = _bullets(m)[:2]
    m.forget(first)
    m.forget(second)
    assert "also_back" not in m.undo_forget([first])
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(first) is not None and m.rt.store.get_node(second) is None
    assert _edges(m, second) == set()
    # still forgotten by that forget, and still undoable
    row = next(e for e in m.log(op="forget")["entries"] if e["insight_id"] == second)
    assert row["in_effect"] is True and row["undo"] == {"possible": True}
    m.undo_forget([second])
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(second) is not None


def test_an_ingest_that_reads_every_note_again_keeps_the_forgets(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    # other hints (or a new parser version) read every note again, though none changed: the forgets hold
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    bullet = _bullets(m)[0]
    m.forget(bullet)
    read = m.ingest(str(example_vault), embed=False, hints=["blocked", "decided"])
    assert read["notes_read"] == read["notes_total"]
    assert m.rt.store.get_node(bullet) is None and _edges(m, bullet) == set()
    assert bullet not in [h["insight"]["id"] for h in m.recall("pier inspection")["results"]]
    # a change to its note still brings it back, as the forget's reply says
    note = example_vault / NOTE
    note.write_text(note.read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    m.ingest(str(example_vault), embed=False, hints=["blocked", "decided"])
    assert m.rt.store.get_node(bullet) is not None


def test_a_bullet_whose_note_no_longer_holds_it_stays_gone(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    bullet = _bullets(m)[0]
    text = m.rt.store.get_node(bullet).content
    m.forget(bullet)
    m.undo_forget([bullet])
    note = example_vault / NOTE
    note.write_text(note.read_text(encoding="utf-8").replace(text, "A line of another sense"), encoding="utf-8")
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(bullet) is None


def test_a_bullet_of_a_note_removed_from_the_vault_is_refused(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    bullet = _bullets(m)[0]
    m.forget(bullet)
    m.rt.store.vault.delete_files([NOTE])  # as an ingest that found the note gone leaves its forgotten rows
    with pytest.raises(InvalidInput) as refused:
        m.undo_forget([bullet])
    assert refused.value.details["reason"] == "vault"


def test_show_of_a_forgotten_vault_bullet_offers_the_undo(make_mem: Callable[..., Mnemon],
                                                          example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    bullet = _bullets(m)[0]
    m.forget(bullet)
    assert undo_status(m.rt, [bullet])[bullet] == {"possible": True}
    with pytest.raises(NotFound) as gone:
        m.show(bullet)
    assert "forget --undo" in gone.value.message and gone.value.details["undo"] == {"possible": True}


def test_cli_undo_then_ingest_brings_the_bullet_back(cli_run: Callable[..., tuple[int, Any]],
                                                      example_vault: Path) -> None:
    code, _ = cli_run(["ingest", "--vault", str(example_vault), "--no-embed"])
    assert code == 0
    code, found = cli_run(["recall", "pier inspection", "--limit", "5"])
    bullet = next(r["insight"]["id"] for r in found["results"] if ":observation:" in r["insight"]["id"])
    assert cli_run(["forget", bullet])[0] == 0
    code, out = cli_run(["forget", "--undo", bullet])
    assert code == 0 and out["status"] == "pending_ingest"
    assert cli_run(["ingest", "--vault", str(example_vault), "--no-embed"])[0] == 0
    code, shown = cli_run(["show", bullet])
    assert code == 0 and shown["id"] == bullet


def test_one_call_revives_an_agent_memory_now_and_marks_the_vault_rows_note(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    own = m.remember("The crane at the pier was serviced on Monday")["id"]
    bullet = _bullets(m)[0]
    m.forget(own)
    m.forget(bullet)
    out = m.undo_forget([own, bullet])
    assert out["status"] == "revived_and_pending_ingest"
    assert [r["id"] for r in out["revived"]] == [own] and [r["id"] for r in out["pending_ingest"]] == [bullet]
    assert m.rt.store.get_node(own) is not None and m.rt.store.get_node(bullet) is None
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(bullet) is not None


@pytest.mark.parametrize("kind", ["heading", "note"])
def test_a_forgotten_heading_or_note_comes_back_the_same_way(make_mem: Callable[..., Mnemon], example_vault: Path,
                                                            kind: str) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    node = next(n for n in m.rt.store.iter_nodes(kind=kind) if n.id.startswith(f"{kind}:Projects/lighthouse.md"))
    edges = _edges(m, node.id)
    linking = {e[0] for e in edges if e[1] == node.id and e[0].startswith("note:")}
    m.forget(node.id)
    out = m.undo_forget([node.id])
    # the notes linking to it are read again too: a link is written by the note that links
    assert {f"note:{p}" for p in out["notes_to_read"]} == {"note:Projects/lighthouse.md"} | linking
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(node.id) is not None and _edges(m, node.id) == edges
