"""`note daily create` with no content was refused ("give the text with --content TEXT, or pipe it in") though its
help says it creates the daily note, and `--content ''` was refused too ("needs content"). Creating today's note is
what `create` is for: without text (nothing piped, a terminal, a closed stdin, or `--content ''`) it creates the note
empty — with `--heading`, holding that heading — and piped text or `--content` still go in. It stays refused when the
note exists (`conflict`), and `append` still needs text."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]
DAY = ["--date", "2026-03-01"]


class _Terminal:
    def isatty(self) -> bool:
        return True

    def read(self, *_: Any) -> str:
        raise AssertionError("the command waited on the terminal")


@pytest.mark.parametrize("stdin", ["empty", "closed", "terminal", "content ''"])
def test_daily_create_without_text_creates_the_empty_daily_note(cli_run: Run, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch, stdin: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    line = ["note", "daily", "create", "--vault", str(vault), *DAY]
    if stdin in ("closed", "terminal"):
        monkeypatch.setattr(sys, "stdin", None if stdin == "closed" else _Terminal())
    code, out = cli_run([*line, "--content", ""] if stdin == "content ''" else line, input="")
    assert code == 0 and out["ok"] and out["created"] and out["path"] == "Daily/2026-03-01.md", out
    assert (vault / "Daily/2026-03-01.md").read_bytes() == b""
    code, out = cli_run(line, input="")  # there now: `create` does not write over it
    assert code != 0 and out["error"]["code"] == "conflict", out


def test_daily_create_with_a_heading_or_piped_text(cli_run: Run, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    code, out = cli_run(["note", "daily", "create", "--vault", str(vault), *DAY, "--heading", "Log"], input="")
    assert code == 0 and (vault / "Daily/2026-03-01.md").read_text(encoding="utf-8") == "## Log\n", out
    code, out = cli_run(["note", "daily", "create", "--vault", str(vault), "--date", "2026-03-02"], input="- plan\n")
    assert code == 0 and (vault / "Daily/2026-03-02.md").read_text(encoding="utf-8") == "- plan\n", out
    code, out = cli_run(["note", "daily", "append", "--vault", str(vault), *DAY], input="")
    assert code != 0 and out["error"]["code"] == "invalid_input" and "--content" in out["error"]["message"]
    assert (vault / "Daily/2026-03-01.md").read_text(encoding="utf-8") == "## Log\n"
