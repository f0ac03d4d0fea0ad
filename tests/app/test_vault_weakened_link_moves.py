"""A weakened link stays weakened when `note move` rewrites it: the note it reaches renamed (the link now names the
new file), or the linking note moved under another name (its relative Markdown links rebased, so neither its bytes
nor its file name match the note it was). The successor edge takes the weakening (`weakening_carried`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.note_tools import move_note

LINKS = {"markdown": "[the B note](B.md)", "wikilink": "[[B]]"}


def _links(mem: Mnemon) -> list[tuple[str, str, float, float]]:
    return sorted((e.src, e.dst, e.weight, e.confidence)
                  for e in mem.rt.store.iter_edges(statuses=("active", "candidate")) if e.type == "links_to")


def _weakened_vault(mem: Mnemon, tmp_path: Path, link: str) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "A.md").write_text(f"# Alpha title\nSee {link}\n", encoding="utf-8")
    (vault / "B.md").write_text("# Bravo title\nbody\n", encoding="utf-8")
    mem.ingest(str(vault))
    [(_src, _dst, weight, _conf)] = _links(mem)
    [edge] = [e for e in mem.rt.store.iter_edges() if e.type == "links_to"]
    assert mem.weaken_edge(int(edge.id or 0), factor=0.2)["strength"] == pytest.approx(weight * 0.2)
    return vault


def _carried(mem: Mnemon) -> None:
    [(src, dst, weight, confidence)] = _links(mem)
    assert weight == pytest.approx(confidence * 0.2), (src, dst)
    [edge] = [e for e in mem.rt.store.iter_edges() if e.type == "links_to"]
    assert any(ev["event"] == "weakened" and ev["detail"].get("reason") == "weakening_carried"
               for ev in mem.rt.store.edge_events(int(edge.id or 0)))


@pytest.mark.parametrize("kind", sorted(LINKS))
def test_the_linked_note_renamed(mem: Mnemon, tmp_path: Path, kind: str) -> None:
    vault = _weakened_vault(mem, tmp_path, LINKS[kind])
    assert move_note(str(vault), "B.md", "Sub/C.md")["links_rewritten"] == 1
    mem.ingest(str(vault))
    assert [link[:2] for link in _links(mem)] == [("note:A.md", "note:Sub/C.md")]
    _carried(mem)


def test_the_linking_note_moved_under_another_name(mem: Mnemon, tmp_path: Path) -> None:
    vault = _weakened_vault(mem, tmp_path, LINKS["markdown"])
    assert move_note(str(vault), "A.md", "Sub/Z.md")["links_rewritten"] == 1
    assert "(../B.md)" in (vault / "Sub" / "Z.md").read_text(encoding="utf-8")
    mem.ingest(str(vault))
    assert [link[:2] for link in _links(mem)] == [("note:Sub/Z.md", "note:B.md")]
    _carried(mem)
