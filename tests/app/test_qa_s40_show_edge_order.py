"""`show` lists a node's edges in an order both backends give: a note's own edges top to bottom as the note reads.

`mnemon show note:Projects/lighthouse.md` listed the edges in edge-id order: on SQLite a note's edges to its own
sections, headings and bullets are numbered below zero from its last item up (m055), so the heading of the note's
last section came first; on PostgreSQL they are rows numbered as written (sections, then bullets, then headings),
so the same note on a team's server listed another order."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

NOTE = """---
tags: [pilot]
---
# Lighthouse

Kickoff with [[Ada Quill]] on 2026-03-04.

## Risks

- Risk: the vendor may miss the June date
- [ ] Sign the vendor contract

## Budget

Spend is tracked in [[Budget 2026]].
"""


def _outgoing(m: Mnemon, node_id: str) -> list[tuple[str, int | None]]:
    shown = m.show(node_id)["edges"]
    return [(e["edge_type"], (e.get("metadata") or {}).get("line")) for e in shown if e["source_id"] == node_id]


def test_a_notes_edges_are_listed_as_the_note_reads(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    vault = tmp_path / "notes"
    vault.mkdir()
    (vault / "lighthouse.md").write_text(NOTE, encoding="utf-8")
    (vault / "Ada Quill.md").write_text("Firmware lead, see [[lighthouse]].\n", encoding="utf-8")
    m = make_mem("none")
    m.ingest(str(vault))
    listed = _outgoing(m, "note:lighthouse.md")
    lines = [line if isinstance(line, int) else -1 for _, line in listed]
    assert lines == sorted(lines), listed
    assert [t for t, _ in listed].count("has_heading") == 2
    headings = [line for t, line in listed if t == "has_heading"]
    assert headings == sorted(headings)
    # incoming edges after the note's own, each once
    shown = m.show("note:lighthouse.md")["edges"]
    incoming = [e for e in shown if e["target_id"] == "note:lighthouse.md"]
    assert incoming and shown[-len(incoming):] == incoming
