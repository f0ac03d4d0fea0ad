"""A file or folder whose name starts with "." is hidden at every depth: ingest reads no note in it and none named
so. Hidden folders were skipped, but a hidden *file* (``.draft.md`` at the vault's top, or in any folder) was
ingested as a note. The note tools list what ingest reads, so they skip the same files."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemon.app import note_tools
from mnemon.app.memory import Mnemon
from mnemon.app.vault.ingest import walk_vault

HIDDEN = (".hidden.md", ".trash/old.md", ".obsidian/plugins/x.md", "Projects/.draft.md", "Projects/.git/y.md")
SEEN = ("alpha.md", "Projects/beta.md")


def _vault(root: Path, paths: tuple[str, ...]) -> Path:
    for rel in paths:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"# {Path(rel).stem}\n\nText of {rel}.\n", encoding="utf-8")
    return root


def test_hidden_files_and_folders_at_any_depth_are_not_notes(tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault", HIDDEN + SEEN)
    _root, entries, _skipped = walk_vault(vault)
    assert [e.rel for e in entries] == sorted(SEEN)
    assert [n["path"] for n in note_tools.list_notes(vault)["notes"]] == sorted(SEEN)


def test_a_vault_in_a_hidden_folder_is_still_read(tmp_path: Path) -> None:
    vault = _vault(tmp_path / ".notes", SEEN + (".hidden.md",))
    assert [e.rel for e in walk_vault(vault)[1]] == sorted(SEEN)


def test_ingest_makes_no_note_of_a_hidden_file(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault", HIDDEN + SEEN)
    out = mem.ingest(str(vault))
    assert out["notes_total"] == len(SEEN)
    notes = {n.id for n in mem.rt.store.iter_nodes(kind="note")}
    assert notes == {f"note:{rel}" for rel in SEEN}


def test_moving_a_note_to_a_hidden_name_warns_it_will_not_be_ingested(tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault", SEEN)
    out = note_tools.move_note(vault, "alpha.md", ".alpha.md", dry_run=True)
    assert "destination_not_ingested" in {w["code"] for w in out["warnings"]["warnings"]}


_NAME = st.text(alphabet="ab.", min_size=1, max_size=3).filter(lambda name: name not in (".", ".."))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_NAME, min_size=1, max_size=3), min_size=1, max_size=6))
def test_a_note_is_read_exactly_when_no_part_of_its_path_is_hidden(trees: list[list[str]]) -> None:
    paths = tuple(dict.fromkeys("/".join(parts) + ".md" for parts in trees))
    with tempfile.TemporaryDirectory() as tmp:
        vault = _vault(Path(tmp), paths)
        read = [e.rel for e in walk_vault(vault)[1]]
    assert read == sorted(p for p in paths if not any(part.startswith(".") for part in p.split("/")))
