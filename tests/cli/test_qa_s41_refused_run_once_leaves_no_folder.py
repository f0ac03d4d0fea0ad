"""A refused `run-once` leaves nothing behind: `run-once --vault MISSING --out NEWDIR` answered not_found for the
vault but had already made NEWDIR (the card folder is made before the ingest, so that an --out that cannot be made
is refused before any work) — and so did any other refusal of the run after that point."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize("out", ["cards", "deep/er/cards"])
def test_a_missing_vault_leaves_no_card_folder(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, out: str) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    code, reply = cli_run(["--db", str(tmp_path / "s.db"), "run-once", "--vault", str(tmp_path / "missing"),
                           "--out", out])
    assert code == 1 and reply["error"]["code"] == "not_found", reply
    assert list(cwd.iterdir()) == []


def test_a_refused_run_keeps_a_card_folder_that_was_there(cli_run: Callable[..., tuple[int, Any]],
                                                          tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    code, reply = cli_run(["--db", str(tmp_path / "s.db"), "run-once", "--vault", str(tmp_path / "missing"),
                           "--out", str(cards)])
    assert code == 1 and reply["error"]["code"] == "not_found", reply
    assert cards.is_dir()


def test_a_run_that_goes_through_still_writes_its_card_into_the_new_folder(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "plan.md").write_text("# Plan\n\n- [ ] ship the release before Friday #launch\n"
                                   "- Alice owns the release checklist\n", encoding="utf-8")
    out = tmp_path / "new" / "cards"
    code, reply = cli_run(["--db", str(tmp_path / "s.db"), "run-once", "--vault", str(vault), "--out", str(out)])
    assert code == 0, reply
    assert out.is_dir()
    if reply.get("thought") is not None:
        assert Path(reply["thought"]["image"]).parent == out.resolve()


@pytest.mark.parametrize("prompt", [" ", "\n"])
def test_surface_refusing_a_blank_prompt_makes_no_card_folder(cli_run: Callable[..., tuple[int, Any]],
                                                              tmp_path: Path, prompt: str) -> None:
    db = tmp_path / "s.db"
    assert cli_run(["--db", str(db), "remember", "alpha bravo"])[0] == 0
    out = tmp_path / "cards"
    code, reply = cli_run(["--db", str(db), "surface", "--prompt", prompt, "--out", str(out)])
    assert code == 1 and reply["error"]["code"] == "invalid_input", reply
    assert not out.exists()
