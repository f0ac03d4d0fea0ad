"""QA session 36, the interfaces' contract: flags that change nothing are refused (`surface --no-candidates`
without a prompt, `note daily read --dry-run`), an export whose every memory is refused fails whole, the servers'
schemas state what the facade refuses inside an object, and suggested actions name only tools that exist."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


# ── 1. flags that change nothing ───────────────────────────────────────────────────────────────────────────────
def test_surface_no_candidates_without_a_prompt_is_refused(cli_run: CliRun) -> None:
    """The proactive cards read no pack: `surface --no-candidates` answered the same cards, the flag dropped."""
    assert cli_run(["remember", "Mira leads the payments team"])[0] == 0
    code, doc = cli_run(["surface", "--no-candidates"])
    assert code == 1 and doc["error"]["code"] == "invalid_input" and "needs a prompt" in doc["error"]["message"]
    code, doc = cli_run(["surface", "--no-candidates", "--prompt", "payments team"])
    assert code == 0 and doc["prompt"] == "payments team"


@pytest.mark.parametrize("action", [["read"], []])
def test_daily_read_with_dry_run_is_refused(cli_run: CliRun, tmp_path: Path, action: list[str]) -> None:
    """Reading writes nothing: `note daily read --dry-run` printed the note as if the flag meant something."""
    vault = tmp_path / "vault"
    vault.mkdir()
    code, doc = cli_run(["note", "daily", *action, "--vault", vault, "--date", "2026-03-02", "--dry-run"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert doc["error"]["message"] == "`daily read` writes nothing: drop --dry-run"
    code, doc = cli_run(["note", "daily", "append", "--vault", vault, "--date", "2026-03-02", "--content", "x",
                         "--dry-run"])
    assert code == 0 and not (vault / "Daily" / "2026-03-02.md").exists()
