"""Symlinks in a vault lived in for weeks: a linked note's target deleted, two links pointing at each other. They are
skipped as links that lead to no note, not as links leaving the vault — that reason sends a person looking for an
escape that is not there."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def test_a_dangling_or_looping_link_inside_the_vault_is_skipped_as_broken(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "plan.md").write_text("# Plan\nsteps\n", encoding="utf-8")
    (vault / "gone.md").symlink_to(vault / "deleted.md")
    (vault / "loop1.md").symlink_to(vault / "loop2.md")
    (vault / "loop2.md").symlink_to(vault / "loop1.md")
    (tmp_path / "secret.md").write_text("# Secret\n", encoding="utf-8")
    (vault / "escape.md").symlink_to(tmp_path / "secret.md")
    out = mem.ingest(str(vault), embed=False, follow_symlinks=True)
    reasons = {s["path"]: s["reason"] for s in out["skipped"]}
    assert reasons == {"gone.md": "broken_symlink", "loop1.md": "broken_symlink", "loop2.md": "broken_symlink",
                       "escape.md": "symlink_outside_vault"}
    assert out["notes_total"] == 1
