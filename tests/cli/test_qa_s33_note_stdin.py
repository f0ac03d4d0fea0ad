"""QA round 33: note text the command line did not give.

`note write`, `note upsert-section`, `write` and `note daily append` read stdin when `--content` is omitted. Run with
stdin closed (`<&-`, a service without one) they answered `internal` naming an AttributeError; from a terminal they
waited for input without a word, which an agent's shell (often a pseudo-terminal) waits on forever. Both are now an
`invalid_input` saying how to give the text; piped text and `--content -` read stdin as before."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


class _Terminal:
    """A stdin that is a terminal: reading it would wait for someone to type."""

    def isatty(self) -> bool:
        return True

    def read(self, *_: Any) -> str:
        raise AssertionError("the command waited on the terminal")


LINES = [
    lambda v: ["note", "write", "n.md", "--vault", v, "--mode", "append"],
    lambda v: ["note", "upsert-section", "n.md", "--vault", v, "--heading", "Status"],
    lambda v: ["write", "--vault", v, "--path", "n.md", "--mode", "overwrite"],
    lambda v: ["note", "daily", "append", "--vault", v],
]


@pytest.mark.parametrize("stdin", [None, _Terminal()], ids=["closed", "terminal"])
@pytest.mark.parametrize("line", LINES, ids=["note-write", "upsert-section", "write", "daily-append"])
def test_missing_content_without_a_readable_stdin_is_a_clear_error(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        line: Callable[[str], list[str]], stdin: Any) -> None:
    (tmp_path / "n.md").write_text("# N\n\n## Status\nkept\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out = cli_run(line(str(tmp_path)))
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert "--content" in out["error"]["message"]
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "# N\n\n## Status\nkept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.md"]
    # the same line with the text piped in (or `--content -`) reads it
    for args in (line(str(tmp_path)), [*line(str(tmp_path)), "--content", "-"]):
        code, out = cli_run(args, input="- piped\n")
        assert code == 0 and out["ok"] is True, out
