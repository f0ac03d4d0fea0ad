"""`mnemon hook` as an agent host runs it (its event's JSON piped on stdin): whatever the hook line says, it answers
one JSON object and exits 0 — Claude Code reads exit 2 as "block this prompt", so a hand-edited line, an event
mnemon does not answer (a future one) or a global option an older mnemon lacks must not stop the user. At a
terminal (stdin a TTY) the same mistakes stay usage errors, exit 2, as on every command."""
from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable

import pytest

CliRaw = Callable[..., tuple[int, str, str]]
_EVENT = json.dumps({"prompt": "who owns the payment service?", "hook_event_name": "Stop"})


@pytest.mark.parametrize("args", [
    ["hook", "claude-code", "stop"],  # an event mnemon does not answer
    ["hook", "claude-code", "PreCompact"],
    ["hook", "codex", "prompt"],  # a host it does not answer
    ["hook", "claude-code"],  # the event left out
    ["hook"],
    ["hook", "claude-code", "prompt", "extra"],
    ["hook", "claude-code", "prompt", "--bogus"],
    ["--bogus", "hook", "claude-code", "prompt"],  # a global option this mnemon does not know
    ["--db", "x.db", "--bogus", "hook", "claude-code", "session-start"],
    ["--embed", "hash", "hook", "claude-code", "stop"],
])
def test_a_hook_line_mnemon_cannot_answer_says_so_and_exits_0(cli_raw: CliRaw, args: list[str]) -> None:
    code, out, err = cli_raw(args, input=_EVENT)
    assert code == 0, out
    answer = json.loads(out)
    assert set(answer) == {"systemMessage"}, answer  # one field Claude Code reads: shown to the user, nothing added
    assert answer["systemMessage"].startswith("mnemon hook did nothing:")
    assert "Traceback" not in out + err


def test_an_unknown_event_names_the_events_mnemon_answers(cli_raw: CliRaw) -> None:
    code, out, _ = cli_raw(["hook", "claude-code", "stop"], input=_EVENT)
    assert code == 0
    message = json.loads(out)["systemMessage"]
    assert "'stop'" in message and "session-start" in message and "prompt" in message


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_the_same_mistake_is_a_usage_error(cli_raw: CliRaw, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.interfaces.cli.main import main

    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    assert main(["hook", "claude-code", "stop"]) == 2


def test_other_commands_keep_their_usage_errors(cli_raw: CliRaw) -> None:
    code, out, _ = cli_raw(["recall", "hook", "--bogus"], input="")
    assert code == 2 and json.loads(out)["error"]["code"] == "usage"
    code, out, _ = cli_raw(["--bogus", "recall", "hook"], input="")
    assert code == 2 and json.loads(out)["error"]["code"] == "usage"
