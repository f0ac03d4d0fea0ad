"""`--as-of` names an instant to replay on every command, as `retrieve --as-of`, the MCP and HTTP schemas and the
help ("Evaluate at this ISO-8601 instant") say: a duration such as "1d" is refused, never read as a day from now
(`agent preflight --as-of 1d` replayed tomorrow, while `retrieve --as-of 1d` and MCP's agent_preflight refused)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

COMMANDS = [["agent", "preflight", "--prompt", "what is due"], ["retrieve", "--prompt", "what is due"],
            ["state", "list"], ["state", "conflicts"], ["predict", "due"], ["predict", "check", "--dry-run"],
            ["world", "watch"], ["contract", "check"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("duration", ["1d", "4h", "2w"])
def test_as_of_refuses_a_duration(cli_run: Callable[..., tuple[int, Any]], command: list[str],
                                  duration: str) -> None:
    code, out = cli_run([*command, "--as-of", duration])
    assert code == 1 and out["ok"] is False, out
    assert out["error"]["code"] == "invalid_input" and "ISO-8601" in out["error"]["message"]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_as_of_takes_an_instant(cli_run: Callable[..., tuple[int, Any]], command: list[str]) -> None:
    code, out = cli_run([*command, "--as-of", "2026-01-02T03:04:05Z"])
    assert code == 0, out
