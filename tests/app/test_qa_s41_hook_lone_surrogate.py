"""A prompt holding a lone surrogate — text cut in the middle of an emoji, sent by the host as a `\\ud83d` escape
without its pair — failed the prompt hook with "UnicodeEncodeError: … surrogates not allowed" shown to the user, and
recalled nothing. The prompt is now asked with that half a character left out (U+FFFD)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

CliRaw = Callable[..., tuple[int, str, str]]
CliRun = Callable[..., tuple[int, Any]]


@pytest.mark.parametrize("event", ['{"prompt": "which runner does the deploy use? \\ud83d"}',
                                   '{"prompt": "\\udc00which runner does the \\ud800deploy use?"}'])
def test_a_lone_surrogate_in_the_prompt_does_not_fail_the_hook(cli_run: CliRun, cli_raw: CliRaw, event: str) -> None:
    import json

    assert cli_run(["remember", "The deploy pipeline runs on the self-hosted runner named atlas"])[0] == 0
    code, out, _ = cli_raw(["hook", "claude-code", "prompt"], input=event)
    assert code == 0
    answer = json.loads(out)
    assert "systemMessage" not in answer, answer
    assert "runner named atlas" in answer["hookSpecificOutput"]["additionalContext"]
