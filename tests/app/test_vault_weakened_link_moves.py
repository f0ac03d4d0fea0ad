"""A weakened link stays weakened when `note move` rewrites it because the note it reaches was renamed (the link now
names the new file): the weakened edge takes its successor's place under its id (`repointed`, `weakening_carried`).
A note deleted while another is made is never taken for a move by its title: the new note gets no decision of the
old one."""
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
    assert any(ev["event"] == "repointed" and ev["detail"].get("reason") == "weakening_carried"
               for ev in mem.rt.store.edge_events(int(edge.id or 0)))


@pytest.mark.parametrize("kind", sorted(LINKS))
def test_the_linked_note_renamed(mem: Mnemon, tmp_path: Path, kind: str) -> None:
    vault = _weakened_vault(mem, tmp_path, LINKS[kind])
    assert move_note(str(vault), "B.md", "Sub/C.md")["links_rewritten"] == 1
    mem.ingest(str(vault))
    assert [link[:2] for link in _links(mem)] == [("note:A.md", "note:Sub/C.md")]
    _carried(mem)


def test_a_note_made_from_the_same_template_gets_no_decision_of_the_deleted_one(mem: Mnemon,
                                                                               tmp_path: Path) -> None:
    """Yesterday's `# Standup` deleted and today's made: pairing them by title as a move gave today's note the kill
    of a link it never had (a tombstone that would block it)."""
    vault = tmp_path / "vault"
    vault.mkdir()
    for name in ("Vendor", "Payroll"):
        (vault / f"{name}.md").write_text(f"# {name}\n", encoding="utf-8")
    (vault / "2026-12-05.md").write_text("# Standup\nSee [[Vendor]]\n", encoding="utf-8")
    mem.ingest(str(vault))
    [edge] = [e for e in mem.rt.store.iter_edges() if e.type == "links_to"]
    mem.kill_edge(int(edge.id or 0), reason="not about the vendor")
    (vault / "2026-12-05.md").unlink()
    (vault / "2026-12-06.md").write_text("# Standup\nSee [[Payroll]]\n", encoding="utf-8")
    mem.ingest(str(vault))
    links = {(e.src, e.dst): e.status for e in mem.rt.store.iter_edges() if e.type == "links_to"}
    assert ("note:2026-12-06.md", "note:Vendor.md") not in links
    assert links[("note:2026-12-06.md", "note:Payroll.md")] != "killed"
