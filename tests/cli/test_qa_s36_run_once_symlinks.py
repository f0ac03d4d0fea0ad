"""QA session 36: `run-once` reads the config's follow_symlinks as `ingest` does."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_run_once_follows_symlinks_when_the_config_says_so(cli_run: CliRun, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With `"follow_symlinks": true` in the config (`init --follow-symlinks`), `mnemon ingest` read a note linked
    from Projects/ to a hidden folder, and the next `mnemon run-once` — an update that did not follow the link —
    removed it from the store (notes_removed 1, 'battery supplier' found nothing)."""
    vault = tmp_path / "vault"
    (vault / ".shared").mkdir(parents=True)
    (vault / "Projects").mkdir()
    (vault / ".shared" / "lighthouse.md").write_text("# Lighthouse\n\n- [ ] Call the battery supplier about the "
                                                     "invoice\n", encoding="utf-8")
    (vault / "Projects" / "beacon.md").symlink_to(Path("..") / ".shared" / "lighthouse.md")
    (vault / "plan.md").write_text("# Plan\n\n- Mira owns the plan\n", encoding="utf-8")
    monkeypatch.setenv("MNEMON_CONFIG", str(tmp_path / "config.json"))
    assert cli_run(["init", "--vault", vault, "--follow-symlinks", "--out", tmp_path / "cards"])[0] == 0
    code, ingested = cli_run(["ingest"])
    assert code == 0 and ingested["notes_read"] == 2 and ingested["skipped"] == []
    code, ran = cli_run(["run-once"])
    assert code == 0 and ran["stats"]["notes_removed"] == 0 and ran["stats"]["skipped"] == []
    assert cli_run(["search", "battery supplier"])[1]["results"]
    code, ran = cli_run(["run-once", "--follow-symlinks"])  # the flag says the same
    assert code == 0 and ran["stats"]["notes_removed"] == 0
