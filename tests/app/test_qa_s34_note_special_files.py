"""A vault holding a named pipe called `*.md` (a tool's socket or FIFO left in a synced folder): `note list`,
`search`, `search-content`, `status`, `move` and `delete` listed it as a note and read it, and the read of a FIFO
waits for a writer that never comes — the command hung for good. A file that is not a regular file is now passed
over as `not_a_file` (as `ingest` never reads it), and the editor names it as such instead of "a directory"."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from mnemon.app import note_tools, notes
from mnemon.core.errors import InvalidInput

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "Inbox").mkdir(parents=True)
    (root / "Plan.md").write_text("# Plan\n- see [[Inbox/pipe]]\n", encoding="utf-8")
    os.mkfifo(root / "Inbox" / "pipe.md")
    return root


def test_a_named_pipe_is_passed_over_not_listed_as_a_note(vault: Path) -> None:
    found, skipped = note_tools._walk(vault)
    assert [n.rel for n in found] == ["Plan.md"]
    assert skipped == [{"path": "Inbox/pipe.md", "reason": "not_a_file"}]


def test_the_vault_commands_answer_beside_a_named_pipe(vault: Path) -> None:
    assert [n["path"] for n in note_tools.list_notes(vault)["notes"]] == ["Plan.md"]
    assert note_tools.search_content(vault, "plan")["count"] == 1
    status = note_tools.vault_status(vault)
    assert status["notes"] == 1 and {"path": "Inbox/pipe.md", "reason": "not_a_file"} in status["skipped"]["paths"]
    with pytest.raises(InvalidInput, match="not a regular file"):
        notes.read_note(vault, "Inbox/pipe.md")


def test_ingest_names_a_named_pipe_as_not_a_file(mem, vault: Path) -> None:
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_read"] == 1 and {"path": "Inbox/pipe.md", "reason": "not_a_file"} in out["skipped"]
