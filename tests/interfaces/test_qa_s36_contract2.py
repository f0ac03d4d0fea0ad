"""QA session 36, the interfaces' contract (second round): a missing prompt is a usage error as a missing query is,
every option's help says what it does and its real default, `link` takes the same arguments everywhere, a read-only
server's cards carry only calls it offers, and the servers' schemas refuse what the library refuses inside an
object."""
from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# ── a missing required argument: usage, exit 2, on every command ───────────────────────────────────────────────
@pytest.mark.parametrize("stdin", ["terminal", "empty pipe"])
def test_retrieve_without_a_prompt_is_a_usage_error_as_recall_without_a_query(
        cli_run: CliRun, monkeypatch: pytest.MonkeyPatch, stdin: str) -> None:
    """`mnemon retrieve` with no prompt answered invalid_input (exit 1, "--prompt must be a non-empty string") where
    `mnemon recall` and `mnemon search` with no query answer usage (exit 2)."""
    for argv in (["recall"], ["search"], ["retrieve"]):
        monkeypatch.setattr("sys.stdin", _Terminal() if stdin == "terminal" else io.StringIO(""))
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (2, "usage"), (argv, doc)
    assert "--prompt" in doc["error"]["message"]
    # a prompt given but empty is bad input, as `recall ""` is
    for argv in (["recall", ""], ["retrieve", ""], ["retrieve", "--prompt", ""]):
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (1, "invalid_input"), (argv, doc)
    code, doc = cli_run(["retrieve"], input="payments\n")
    assert code == 0 and doc["prompt"] == "payments"
