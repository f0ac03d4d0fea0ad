"""A prompt over a million characters (a pasted log) was read as an empty event: the prompt hook added nothing, the
question before the log and the one after it included. What is read stays bounded (the event's start, then its last
characters), and the prompt is recalled by its start and its end."""
from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.integrations import hooks

CliRaw = Callable[..., tuple[int, str, str]]
CliRun = Callable[..., tuple[int, Any]]

LOG = "".join(f"2026-12-07T10:{n % 60:02d}:00Z INFO worker-{n % 7} processed batch {n} in {n % 90} ms\n"
              for n in range(20_000))  # ~1.2 million characters
PROMPT = ("Why does the deploy key rotate every Friday?\n" + LOG +
          "Also, in Go code of this repository, tabs or spaces for indentation?")


@pytest.fixture
def stored(cli_run: CliRun) -> None:
    for text in ["The deploy key rotates every Friday because the security team audits keys weekly",
                 "Go code in this repository is indented with tabs, never spaces"]:
        assert cli_run(["remember", text, "--cat", "decision", "--no-diff"])[0] == 0


@pytest.mark.parametrize("event", [{"prompt": PROMPT},
                                   {"session_id": "s1", "prompt": PROMPT, "cwd": "/w", "permission_mode": "default"}])
@pytest.mark.parametrize("as_bytes", [True, False])
def test_a_prompt_holding_a_huge_log_is_recalled_by_its_start_and_its_end(
        cli_raw: CliRaw, stored: None, monkeypatch: pytest.MonkeyPatch, event: dict[str, Any], as_bytes: bool) -> None:
    text = json.dumps(event)
    assert len(text) > hooks.MAX_INPUT_CHARS
    if as_bytes:  # (the host's pipe: bytes; the test runner's: text)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    code, out, _ = cli_raw(["hook", "claude-code", "prompt"], input=None if as_bytes else text)
    assert code == 0
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "security team audits" in context and "indented with tabs" in context


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=0, max_size=300), st.text(min_size=0, max_size=300),
       st.dictionaries(st.sampled_from(["cwd", "session_id", "x"]), st.text(max_size=20), max_size=2),
       st.booleans())
def test_an_event_over_the_limit_gives_the_prompts_start_and_end(start: str, end: str, rest: dict[str, str],
                                                                  prompt_last: bool) -> None:
    prompt = start + "x" * 3000 + end
    event = {**rest, "prompt": prompt} if prompt_last else {"prompt": prompt, **rest}
    head, tail = 1000, 1000
    read = hooks.read_event(io.BytesIO(json.dumps(event).encode()), head_bytes=head, tail_bytes=tail)
    got = read.get("prompt")
    assert isinstance(got, str)
    first, _, last = got.partition(hooks.CUT)
    assert prompt.startswith(first) and prompt.endswith(last)
    assert len(first) >= 20 and len(last) >= 20
