"""A thought card's suggested `note add-bullet` command for a note whose name starts with a dash (`-draft.md`, a
common way to sort drafts first) failed when run as given — "No such option '-d'" — because the note path came
before the options and read as one. The path now follows `--`, so every suggested command runs as pasted."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., tuple[int, Any]]


def test_a_suggested_follow_up_on_a_dash_named_note_runs_as_given(cli_run: Run, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "-draft.md").write_text("# Draft\n- [ ] Follow up with the printer about the proofs 2026-12-09\n",
                                     encoding="utf-8")
    db = str(tmp_path / "store.db")
    assert cli_run(["--db", db, "ingest", "--vault", str(vault), "--no-embed"])[0] == 0
    code, out = cli_run(["--db", db, "surface", "--prompt", "printer proofs"])
    assert code == 0
    [command] = [a["command"] for t in out["thoughts"] for a in t["suggested_actions"]
                 if a["type"] == "vault_append_bullet"]
    assert command[0] == "mnemon"
    code, done = cli_run(command[1:])
    assert code == 0 and done["path"] == "-draft.md" and done["changed"]
    assert "## Next Actions" in (vault / "-draft.md").read_text(encoding="utf-8")
