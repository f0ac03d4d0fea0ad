"""A wikilink names a file: ``[[Beta]]`` goes to ``Beta.md`` even when another note's H1 (or front-matter title)
happens to read "Beta" — as Obsidian resolves it. A title tier ranked above the stem sent such links to meeting
and daily notes whose heading repeated a project's name."""
from __future__ import annotations

from pathlib import Path

from mnemon.core.vault.links import LinkIndex
from mnemon.core.vault.model import NoteIdentity


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _link_targets(mem, src: str) -> list[tuple[str, str]]:
    return sorted((e.dst, e.rule) for e in mem.rt.store.iter_edges() if e.type == "links_to" and e.src == src)


def test_a_link_resolves_to_the_file_it_names_not_to_a_note_whose_heading_repeats_it() -> None:
    index = LinkIndex.build([
        NoteIdentity("Daily/2024-05-01.md", "Beta"),  # its H1 is "# Beta"
        NoteIdentity("Projects/Beta.md", "Beta rollout plan"),
    ])
    assert index.explain_key("beta") == ("Projects/Beta.md", "stem")
    # a title still resolves when no file has that name
    assert index.explain_key("beta rollout plan") == ("Projects/Beta.md", "title")


def test_ingest_links_to_the_named_file(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, "Projects/Beta.md", "# Beta rollout plan\n\nShip it.\n")
    _write(vault, "Meetings/2024-05-01.md", "---\ntitle: Beta\n---\nNotes from the sync.\n")
    _write(vault, "Daily/2024-05-02.md", "# Beta\n\nAnother day.\n")
    _write(vault, "index.md", "# Index\n\nSee [[Beta]] and [[Beta rollout plan]].\n")
    mem.ingest(str(vault))
    assert ("note:Projects/Beta.md", "wikilink:stem") in _link_targets(mem, "note:index.md")
    assert {dst for dst, _ in _link_targets(mem, "note:index.md")} == {"note:Projects/Beta.md"}


def test_a_file_created_or_deleted_later_moves_the_link(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, "Daily/2024-05-02.md", "# Beta\n\nAnother day.\n")
    _write(vault, "index.md", "# Index\n\nSee [[Beta]].\n")
    mem.ingest(str(vault))
    assert _link_targets(mem, "note:index.md") == [("note:Daily/2024-05-02.md", "wikilink:title")]
    _write(vault, "Projects/Beta.md", "# Beta rollout plan\n")
    mem.ingest(str(vault))
    assert _link_targets(mem, "note:index.md") == [("note:Projects/Beta.md", "wikilink:stem")]
    (vault / "Projects/Beta.md").unlink()
    mem.ingest(str(vault))
    assert _link_targets(mem, "note:index.md") == [("note:Daily/2024-05-02.md", "wikilink:title")]
