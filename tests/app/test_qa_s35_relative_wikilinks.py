"""Wikilinks in Obsidian's "relative path to file" form (Settings → Files and links → New link format): a note in
another folder is written ``[[../Beta/Beta Spec|Beta Spec]]``. The ``..`` stayed in the lookup key
(``../beta/beta spec``), which no note claims, so the link parked on a placeholder; it is read from the linking
note's folder, as a relative Markdown link is, and `note move` keeps it relative."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from mnemon.app import note_tools
from mnemon.app.memory import Mnemon
from mnemon.core.vault import parse_note

PLAN = "# Plan\n[[../Beta/Beta Spec|Beta Spec]] ![[../../Root#Top]] [[./sub/Item]] [[../../../Outside]]\n"


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    for rel, text in {"Projects/Beta/Beta Spec.md": "# Beta Spec\n", "Root.md": "# Root\n## Top\n",
                      "Projects/Alpha/sub/Item.md": "# Item\n", "Other/sub/Item.md": "# Other item\n",
                      "Projects/Alpha/Plan.md": PLAN}.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")
    return vault


def test_the_parser_reads_a_relative_wikilink_from_its_note_folder() -> None:
    note = parse_note("Projects/Alpha/Plan.md", PLAN)
    assert [(w.target, w.section, w.alias) for w in note.wikilinks] == [
        ("Projects/Beta/Beta Spec", None, "Beta Spec"), ("Root", "Top", None), ("Projects/Alpha/sub/Item", None, None),
        ("../../../Outside", None, None)]  # (one leaving the vault names no note of it)


def test_relative_wikilinks_reach_their_notes(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_vault(tmp_path)))
    links = sorted((e.type, e.dst) for e in mem.rt.store.iter_edges()
                   if e.type in ("links_to", "embeds") and e.src == "note:Projects/Alpha/Plan.md")
    assert links == [("embeds", "note:Root.md"), ("links_to", "note:Projects/Alpha/sub/Item.md"),
                     ("links_to", "note:Projects/Beta/Beta Spec.md"), ("links_to", "placeholder:../../../outside")]


def test_note_move_keeps_a_relative_wikilink_relative(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    when = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)  # noqa: E731
    out = note_tools.move_note(vault, "Projects/Beta/Beta Spec.md", "Archive/Beta Specification.md", clock=when)
    assert out["links_rewritten"] == 1
    assert (vault / "Projects/Alpha/Plan.md").read_text(encoding="utf-8") == PLAN.replace(
        "[[../Beta/Beta Spec|", "[[../../Archive/Beta Specification|")
