"""The note editor: path escapes refused, atomic writes with backups, dry-run diffs, section and bullet edits."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app import notes
from mnemon.core.errors import Conflict, InvalidInput, NotFound, PathRefused

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "Projects").mkdir(parents=True)
    (root / "Projects" / "move.md").write_text("# Move\n\n## Tasks\n\n- Book the van\n\n## Status\n\nOpen\n",
                                               encoding="utf-8")
    return root


@pytest.mark.parametrize("bad", ["../outside.md", "Projects/../../outside.md", "/etc/passwd.md", "~/x.md",
                                 "C:/x.md", "Projects\\move.md", "Projects/move.txt", "Projects/.md", "a\x00.md",
                                 ".mnemon-backups/x.md"])
def test_escapes_and_non_notes_are_refused(vault: Path, bad: str) -> None:
    with pytest.raises(PathRefused):
        notes.write_note(vault, bad, "x", mode="overwrite")


def test_symlinked_directory_pointing_outside_is_refused(vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault / "escape").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathRefused):
        notes.write_note(vault, "escape/pwned.md", "x", mode="create")
    assert not (outside / "pwned.md").exists()


def test_symlinked_note_is_refused_for_read_and_write(vault: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("secret", encoding="utf-8")
    (vault / "link.md").symlink_to(secret)
    with pytest.raises(PathRefused):
        notes.read_note(vault, "link.md")
    with pytest.raises(PathRefused):
        notes.write_note(vault, "link.md", "overwritten", mode="overwrite")
    assert secret.read_text(encoding="utf-8") == "secret"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "..", "."]), min_size=1, max_size=5))
def test_any_dotdot_segment_is_refused(tmp_path_factory: pytest.TempPathFactory, parts: list[str]) -> None:
    root = tmp_path_factory.mktemp("v")
    rel = "/".join(parts) + "/n.md"
    if ".." in parts:
        with pytest.raises(PathRefused):
            notes.safe_resolve(root, rel)
    else:
        assert notes.safe_resolve(root, rel).path.is_relative_to(root.resolve())


def test_missing_vault_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        notes.read_note(None, "a.md")
    with pytest.raises(NotFound):
        notes.read_note(tmp_path / "nope", "a.md")


def test_dry_run_returns_diff_and_leaves_disk_alone(vault: Path) -> None:
    before = (vault / "Projects/move.md").read_text(encoding="utf-8")
    out = notes.replace_in_note(vault, "Projects/move.md", "Open", "Done", dry_run=True)
    assert out["changed"] and out["dry_run"]
    assert "-Open" in out["diff"] and "+Done" in out["diff"]
    assert (vault / "Projects/move.md").read_text(encoding="utf-8") == before
    assert not (vault / notes.BACKUP_DIR).exists()


def test_changed_note_is_backed_up_and_written_atomically(vault: Path) -> None:
    before = (vault / "Projects/move.md").read_text(encoding="utf-8")
    out = notes.write_note(vault, "Projects/move.md", "- Call the school\n", mode="append", clock=CLOCK)
    assert out["changed"] and out["backup"]
    assert (vault / out["backup"]).read_text(encoding="utf-8") == before
    assert not out["backup"].endswith(".md")  # ingestion must never read a backup back in
    assert (vault / "Projects/move.md").read_text(encoding="utf-8") == before + "- Call the school\n"
    assert [p.name for p in (vault / "Projects").iterdir()] == ["move.md"]  # no temp files left behind


def test_create_refuses_existing_and_creates_folders(vault: Path) -> None:
    with pytest.raises(Conflict):
        notes.write_note(vault, "Projects/move.md", "x", mode="create")
    out = notes.write_note(vault, "New/deep/note.md", "# New\n", mode="create")
    assert out["created"] and out["backup"] is None
    assert notes.read_note(vault, "New/deep/note.md")["content"] == "# New\n"


def test_unchanged_write_makes_no_backup(vault: Path) -> None:
    text = (vault / "Projects/move.md").read_text(encoding="utf-8")
    out = notes.write_note(vault, "Projects/move.md", text, mode="overwrite")
    assert not out["changed"] and out["backup"] is None


def test_replace_needs_all_for_several_matches(vault: Path) -> None:
    notes.write_note(vault, "x.md", "cat cat dog", mode="create")
    with pytest.raises(Conflict):
        notes.replace_in_note(vault, "x.md", "cat", "cow")
    assert notes.replace_in_note(vault, "x.md", "cat", "cow", all_matches=True)["replacements"] == 2
    with pytest.raises(NotFound):
        notes.replace_in_note(vault, "x.md", "zebra", "cow")


def test_upsert_section_replaces_only_that_section(vault: Path) -> None:
    notes.upsert_section(vault, "Projects/move.md", "status", "Ready for review")
    text = (vault / "Projects/move.md").read_text(encoding="utf-8")
    assert "Ready for review" in text and "\nOpen\n" not in text and "- Book the van" in text
    notes.upsert_section(vault, "Projects/move.md", "Risks", "Lease overlap", level=3)
    assert (vault / "Projects/move.md").read_text(encoding="utf-8").endswith("### Risks\n\nLease overlap\n")
    assert notes.read_note(vault, "Projects/move.md", heading="Risks")["content"].strip() == "Lease overlap"


def test_headings_inside_code_fences_are_not_sections(vault: Path) -> None:
    notes.write_note(vault, "c.md", "# C\n\n```\n## Status\n```\n", mode="create")
    notes.upsert_section(vault, "c.md", "Status", "real")
    text = (vault / "c.md").read_text(encoding="utf-8")
    assert text.count("## Status") == 2 and text.endswith("## Status\n\nreal\n")


def test_add_bullet_dedupes_and_creates_heading(vault: Path) -> None:
    out = notes.add_bullet(vault, "Projects/move.md", "Tasks", "Call the school")
    assert out["changed"] and "mnemon ingest" in out["hint"]  # (the graph reads the note at the next ingest)
    again = notes.add_bullet(vault, "Projects/move.md", "tasks", "- call the  school")
    assert again["duplicate"] and not again["changed"] and "hint" not in again
    text = (vault / "Projects/move.md").read_text(encoding="utf-8")
    assert "- Book the van\n- Call the school\n\n## Status" in text
    notes.add_bullet(vault, "Projects/move.md", "Next Actions", "Follow up")
    assert (vault / "Projects/move.md").read_text(encoding="utf-8").endswith("## Next Actions\n\n- Follow up\n")
    (vault / "Projects/trailing.md").write_text("# T\n- one\n\n", encoding="utf-8")  # ends with a blank line
    notes.add_bullet(vault, "Projects/trailing.md", "Open", "two")
    assert (vault / "Projects/trailing.md").read_text(encoding="utf-8") == "# T\n- one\n\n## Open\n\n- two\n"


def test_invalid_arguments(vault: Path) -> None:
    with pytest.raises(InvalidInput):
        notes.write_note(vault, "a.md", "x", mode="truncate")
    with pytest.raises(InvalidInput):
        notes.add_bullet(vault, "a.md", "H", "two\nlines")
    with pytest.raises(InvalidInput):
        notes.upsert_section(vault, "a.md", "H", "x", level=9)
    with pytest.raises(NotFound):
        notes.read_note(vault, "Projects/missing.md")


def test_a_new_note_gets_the_umask_mode_and_an_edited_one_keeps_its_own(vault: Path) -> None:
    import os

    old = os.umask(0o022)
    try:
        notes.write_note(vault, "Projects/new.md", "# New\n", mode="create", clock=CLOCK)
        existing = vault / "Projects" / "move.md"
        existing.chmod(0o664)
        notes.write_note(vault, "Projects/move.md", "more\n", mode="append", clock=CLOCK)
    finally:
        os.umask(old)
    assert (vault / "Projects" / "new.md").stat().st_mode & 0o777 == 0o644  # readable by sync tools, as any editor's
    assert existing.stat().st_mode & 0o777 == 0o664
    assert not [p for p in (vault / "Projects").iterdir() if p.name.endswith(".tmp")]


def _add_bullets(args: tuple[str, int]) -> int:
    vault, worker = args
    from mnemon.app import notes as editor

    for k in range(8):
        editor.add_bullet(vault, "race.md", "Log", f"entry {worker}.{k}")
    return worker


def test_editor_writes_from_processes_at_once_lose_nothing(tmp_path: Path) -> None:
    """Three processes adding bullets to one note used to end with 21-23 of 24: each wrote back what it had read."""
    import multiprocessing

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "race.md").write_text("# Race\n\n## Log\n\n- start\n", encoding="utf-8")
    with multiprocessing.get_context("fork").Pool(3) as pool:
        assert sorted(pool.map(_add_bullets, [(str(vault), w) for w in range(3)])) == [0, 1, 2]
    text = (vault / "race.md").read_text(encoding="utf-8")
    assert all(f"- entry {w}.{k}\n" in text for w in range(3) for k in range(8))
    assert not (vault / ".mnemon-backups" / ".lock").exists()


def test_a_note_another_program_changed_after_it_was_read_is_not_overwritten(tmp_path: Path, monkeypatch) -> None:
    from mnemon.app import notes as editor

    vault = tmp_path / "vault"
    vault.mkdir()
    note = vault / "n.md"
    note.write_text("# N\n\n## Log\n\n- one\n", encoding="utf-8")
    real_read = editor._read

    def read_then_edited_elsewhere(target):
        before = real_read(target)
        note.write_text("# N\n\n## Log\n\n- one\n- typed in Obsidian meanwhile\n", encoding="utf-8")
        return before

    monkeypatch.setattr(editor, "_read", read_then_edited_elsewhere)
    with pytest.raises(Conflict, match="changed while"):
        editor.add_bullet(vault, "n.md", "Log", "two")
    assert "typed in Obsidian" in note.read_text(encoding="utf-8")


def test_the_editor_lock_keeps_the_runtime_folder_private(tmp_path: Path, monkeypatch) -> None:
    """The lock's folder is the resident process's too: made with the umask's mode, it was no longer private and
    the resident process would refuse it."""
    import os
    import stat

    from mnemon.app import notes as editor

    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    vault = tmp_path / "vault"
    vault.mkdir()
    editor.add_bullet(vault, "n.md", "Log", "first")
    for folder in (runtime / "mnemon", runtime / "mnemon" / "vault-locks"):
        assert stat.S_IMODE(os.stat(folder).st_mode) & 0o077 == 0, folder


@pytest.mark.parametrize("rel", [".obsidian/scratch.md", ".trash/old.md", "Projects/.draft.md", ".hidden.md",
                                 "node_modules/readme.md"])
def test_a_note_ingest_will_never_read_is_written_with_a_warning(vault: Path, rel: str) -> None:
    """Written as asked, but the reply says no ingest reads it (it said "recall finds it after the next ingest")."""
    out = notes.write_note(vault, rel, "# Scratch\n- an idea\n", mode="create")
    assert (vault / rel).is_file() and "hint" not in out
    assert out["warnings"] == [{"code": "not_ingested", "path": rel, "reason": out["warnings"][0]["reason"]}]
    plain = notes.write_note(vault, "Projects/plain.md", "# Plain\n", mode="create")
    assert "warnings" not in plain and "mnemon ingest" in plain["hint"]
