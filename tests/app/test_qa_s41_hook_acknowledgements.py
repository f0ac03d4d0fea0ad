"""A prompt that only acknowledges or moves the conversation on ("yes", "continue", "thanks!", "ok, go ahead") is
about nothing a memory could hold, yet its one word matched memories that happen to use it ("Yes, the team agreed to
continue using PostgreSQL 16", "Thanks to Bob for …") as medium matches: the prompt hook put them into the
conversation at every such turn. It now adds nothing for such a prompt; a prompt with a word of substance is
recalled as before."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.integrations.hooks import ACKNOWLEDGEMENTS

CliRaw = Callable[..., tuple[int, str, str]]
CliRun = Callable[..., tuple[int, Any]]

MEMORIES = ["Yes, the team agreed to continue using PostgreSQL 16 for the billing service",
            "Thanks to Bob for the migration script of the billing database",
            "Ok to proceed with the release once the flaky login test is fixed",
            "Go code in this repository uses tabs, never spaces"]


@pytest.fixture
def stored(cli_run: CliRun) -> None:
    for text in MEMORIES:
        assert cli_run(["remember", text, "--cat", "decision", "--no-diff"])[0] == 0


def _context(cli_raw: CliRaw, prompt: str) -> str:
    code, out, _ = cli_raw(["hook", "claude-code", "prompt"], input=json.dumps({"prompt": prompt}))
    assert code == 0
    return str(json.loads(out).get("hookSpecificOutput", {}).get("additionalContext", ""))


@pytest.mark.parametrize("prompt", ["yes", "Yes!", "continue", "thanks!", "Thank you.", "ok, go ahead",
                                    "yes please continue", "OK proceed", "go on", "sounds good, do it"])
def test_an_acknowledgement_adds_no_memories(cli_raw: CliRaw, stored: None, prompt: str) -> None:
    assert _context(cli_raw, prompt) == ""


@pytest.mark.parametrize(("prompt", "found"), [("continue the PostgreSQL upgrade for billing", "PostgreSQL 16"),
                                               ("yes, and who wrote the migration script?", "Bob"),
                                               ("tabs or spaces in Go?", "tabs")])
def test_a_prompt_with_substance_is_recalled_as_before(cli_raw: CliRaw, stored: None, prompt: str,
                                                        found: str) -> None:
    assert found in _context(cli_raw, prompt)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(sorted(ACKNOWLEDGEMENTS)), min_size=1, max_size=4),
       st.sampled_from(["", "!", ".", ", thanks", " please"]))
def test_any_run_of_acknowledgements_is_one(words: list[str], end: str) -> None:
    from mnemon.app.integrations.hooks import only_acknowledges

    assert only_acknowledges(" ".join(words) + end)
    assert not only_acknowledges(" ".join(words) + " the billing migration" + end)
