"""A Markdown link with a title in single quotes or parentheses — ``[spec](Spec.md 'the spec')``,
``[spec](<Beta Spec.md> (draft))``, both CommonMark, as valid as ``"title"`` — was no link at all: no edge, and
`note move` left it pointing at the old path (the note's other links were rewritten)."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from mnemon.app import note_tools
from mnemon.app.memory import Mnemon
from mnemon.core.vault import parse_note

LINKS = ["[a](Spec.md 'the spec')", "[b](<Beta Spec.md> 'T')", "[c](Spec.md (draft))", '[d](Spec.md "quoted")',
         "[e](<Beta Spec.md> (x))"]


def test_every_title_form_is_a_link() -> None:
    parsed = parse_note("N.md", "# N\n\n" + "\n".join(LINKS) + "\n")
    assert [link.target for link in parsed.markdown_links] == [
        "Spec.md", "Beta Spec.md", "Spec.md", "Spec.md", "Beta Spec.md"]


def test_ingest_links_and_note_move_rewrites_them(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Beta Spec.md").write_text("# Beta Spec\n", encoding="utf-8")
    (vault / "Plan.md").write_text("# Plan\n\nSee [spec](<Beta Spec.md> 'the spec').\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    assert [e.dst for e in mem.rt.store.iter_edges() if e.type == "links_to"] == ["note:Beta Spec.md"]
    note_tools.move_note(vault, "Beta Spec.md", "Archive/Spec v2.md",
                         clock=lambda: datetime(2026, 6, 1, tzinfo=timezone.utc))
    assert (vault / "Plan.md").read_text(encoding="utf-8") == "# Plan\n\nSee [spec](<Archive/Spec v2.md> 'the spec').\n"
