"""What `mnemon hook claude-code prompt` adds to a conversation, for the prompts users type: a question after a pasted
log or file, longer than a recall's query, still brings the memories that bear on it."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

CliRun = Callable[..., tuple[int, Any]]

_LOG = "".join(f"2026-03-0{i % 9 + 1} 12:00:{i % 60:02d} worker[{i}] INFO batch {i} flushed 512 rows to disk\n"
               for i in range(200))  # ≈ 15,000 characters of nothing stored


def _context(cli_run: CliRun, prompt: str) -> str:
    code, out = cli_run(["hook", "claude-code", "prompt"], input=json.dumps({"prompt": prompt}))
    assert code == 0
    return str(out.get("hookSpecificOutput", {}).get("additionalContext", ""))


def test_a_long_prompt_is_asked_by_its_start_and_its_end(cli_run: CliRun) -> None:
    code, stored = cli_run(["remember", "The payment service is owned by Zhang Wei", "--cat", "fact"])
    assert code == 0
    question = "Who owns the payment service?"
    assert stored["id"] in _context(cli_run, question)
    assert stored["id"] in _context(cli_run, f"{question}\n\n{_LOG}")
    assert stored["id"] in _context(cli_run, f"Here is the log:\n\n{_LOG}\n{question}")  # the question last
    assert _context(cli_run, _LOG) == ""
