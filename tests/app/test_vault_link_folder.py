"""An ambiguous wikilink goes to the note in the linking note's own folder, as in Obsidian: ``[[Meeting]]`` written
in ``Projects/Beta/Log.md`` means ``Projects/Beta/Meeting.md``, not ``Projects/Alpha/Meeting.md``. A fixed vault-wide
rule (shallowest path, then the first by path) sent every project's ``[[Meeting]]`` to the same one; it still
decides for a link written outside all their folders."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.note_tools import move_note
from mnemon.core.vault.links import LinkIndex
from mnemon.core.vault.model import NoteIdentity


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _links(mem) -> set[tuple[str, str]]:
    return {(e.src, e.dst) for e in mem.rt.store.iter_edges() if e.type == "links_to"}


def _project_vault(root: Path, *, beta_meeting: bool = True) -> Path:
    _write(root, "Projects/Alpha/Meeting.md", "# Alpha meeting\n\nMondays.\n")
    if beta_meeting:
        _write(root, "Projects/Beta/Meeting.md", "# Beta meeting\n\nThursdays.\n")
    _write(root, "Projects/Alpha/Log.md", "# Alpha log\n\nSee [[Meeting]].\n")
    _write(root, "Projects/Beta/Log.md", "# Beta log\n\nSee [[Meeting]].\n")
    _write(root, "Index.md", "# Index\n\nAll: [[Meeting]].\n")
    return root


def test_the_index_prefers_the_linking_notes_folder_then_the_fixed_rule() -> None:
    index = LinkIndex.build([NoteIdentity("Projects/Beta/Meeting.md", "Beta meeting"),
                             NoteIdentity("Projects/Alpha/Meeting.md", "Alpha meeting")])
    assert index.resolve_key("meeting", "Projects/Beta/Log.md") == "Projects/Beta/Meeting.md"
    assert index.resolve_key("meeting", "Projects/Alpha/Log.md") == "Projects/Alpha/Meeting.md"
    assert index.resolve_key("meeting", "Index.md") == "Projects/Alpha/Meeting.md"
    assert index.resolve_key("meeting", "Projects/Beta/Sub/Deep.md") == "Projects/Alpha/Meeting.md"  # (not a parent)
    assert index.resolve_key("meeting") == "Projects/Alpha/Meeting.md"  # a claim's name: no folder to prefer
    assert index.offered("meeting", "Projects/Beta/Log.md") == (
        "stem", ("Projects/Beta/Meeting.md", "Projects/Alpha/Meeting.md"))


def test_each_project_log_links_its_own_meeting(mem, tmp_path: Path) -> None:
    mem.ingest(str(_project_vault(tmp_path / "vault")))
    assert _links(mem) == {
        ("note:Projects/Alpha/Log.md", "note:Projects/Alpha/Meeting.md"),
        ("note:Projects/Beta/Log.md", "note:Projects/Beta/Meeting.md"),
        ("note:Index.md", "note:Projects/Alpha/Meeting.md"),
    }


def test_a_meeting_note_added_or_removed_later_moves_only_its_folders_links(mem, make_mem, tmp_path: Path) -> None:
    vault = _project_vault(tmp_path / "vault", beta_meeting=False)
    mem.ingest(str(vault), mode="update")
    assert ("note:Projects/Beta/Log.md", "note:Projects/Alpha/Meeting.md") in _links(mem)

    _write(vault, "Projects/Beta/Meeting.md", "# Beta meeting\n\nThursdays.\n")
    mem.ingest(str(vault), mode="update")
    fresh = make_mem(db=tmp_path / "fresh.db")
    fresh.ingest(str(vault))
    assert _links(mem) == _links(fresh)  # the incremental run lands every link where a fresh ingest does
    assert ("note:Projects/Beta/Log.md", "note:Projects/Beta/Meeting.md") in _links(mem)
    assert ("note:Index.md", "note:Projects/Alpha/Meeting.md") in _links(mem)

    (vault / "Projects/Beta/Meeting.md").unlink()
    mem.ingest(str(vault), mode="update")
    assert ("note:Projects/Beta/Log.md", "note:Projects/Alpha/Meeting.md") in _links(mem)


def test_note_move_writes_the_shortest_link_that_resolves_from_each_linking_note(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, "Projects/Alpha/Meeting.md", "# Alpha meeting\n")
    _write(vault, "Projects/Beta/Agenda.md", "# Beta agenda\n")
    _write(vault, "Projects/Beta/Log.md", "# Beta log\n\nSee [[Agenda]].\n")
    _write(vault, "Index.md", "# Index\n\nSee [[Agenda]].\n")
    out = move_note(vault, "Projects/Beta/Agenda.md", "Projects/Beta/Meeting.md")
    assert out["warnings"]["count"] == 0
    # from its own folder the bare name reaches the moved note; from the top it would reach Alpha's
    assert (vault / "Projects/Beta/Log.md").read_text(encoding="utf-8").endswith("See [[Meeting]].\n")
    assert (vault / "Index.md").read_text(encoding="utf-8").endswith("See [[Beta/Meeting]].\n")
