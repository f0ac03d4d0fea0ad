"""A coding agent looks flags up: 'mnemon search --no-verify' and 'mnemon recall -x' answered only "No such option
'--no-verify'.", leaving it to guess that `--` makes the flag text; a command taking words now says so."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

MEMORY = "Never commit with `git commit --no-verify`: the pre-commit hook runs ruff and mypy"


@pytest.mark.parametrize("command", ["search", "recall", "remember", "find-nodes"])
def test_a_flag_given_as_the_text_is_refused_with_how_to_give_it(
        cli_run: Callable[..., tuple[int, Any]], command: str) -> None:
    code, out = cli_run([command, "--no-verify"])
    assert code == 2 and out["error"]["code"] == "usage"
    assert f"put -- before the text (mnemon {command} -- --no-verify …)" in out["error"]["message"]


def test_the_command_it_suggests_finds_the_memory(cli_run: Callable[..., tuple[int, Any]]) -> None:
    assert cli_run(["remember", MEMORY])[0] == 0
    code, out = cli_run(["search", "--", "--no-verify"])
    assert code == 0 and [r["content"] for r in out["results"]] == [MEMORY]


def test_a_command_without_words_gets_no_such_advice(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["show", "--no-verify"])
    assert code == 2 and "put --" not in out["error"]["message"]


def test_an_option_close_to_the_flag_is_still_offered(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["remember", "--no-verify"])
    assert "Did you mean '--no-diff'?" in out["error"]["message"] and "-- --no-verify" in out["error"]["message"]
