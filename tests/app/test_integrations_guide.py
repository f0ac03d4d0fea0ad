"""The guide an agent is given (the skill file, the AGENTS.md block, the session-start context) names only commands
and options the CLI has, with values it accepts, and names the store setup was run with."""
from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from mnemon.app.config import load_config
from mnemon.app.integrations.guide import instructions_block, skill_markdown
from mnemon.app.integrations.hooks import claude_code
from mnemon.core.model import CATEGORIES, MNEMON_EDGE_TYPES
from mnemon.interfaces.cli.main import cli, register_all


def _command_lines(text: str) -> list[list[str]]:
    """The mnemon command lines of `text`, the program as `mnemon` (`guide.program()` may name its script's path)."""
    return [["mnemon", *shlex.split(span)[1:]] for span in re.findall(r"`((?:\S*/)?mnemon [^`]+)`", text)]


# values the guide shows for options whose type is plain text, checked against what the facade accepts
_VALUES = {"--cat": set(CATEGORIES), "--type": set(MNEMON_EDGE_TYPES), "--imp": {"1", "2", "3", "4", "5"},
           "--intent": {"WHY", "WHEN", "ENTITY", "GENERAL"}, "--sub-type": {"causes", "enables", "prevents"}}


def _check(words: list[str]) -> None:
    """`mnemon [global options] command [arguments and options]`, as the CLI parses it."""
    register_all()
    args = words[1:]
    global_options = {o for p in cli.params for o in p.opts}
    while args[0].startswith("--"):
        assert args[0] in global_options, words
        args = args[2:]
    command = cli.commands[args[0]]
    options = {o: p for p in command.params for o in p.opts}
    for k, word in enumerate(args[1:], 1):
        if not word.startswith("--"):
            continue
        assert word in options, f"{words}: {word} is no option of {command.name}"
        value = None if getattr(options[word], "is_flag", False) else args[k + 1]
        if value is not None and not value.startswith("<") and word in _VALUES:
            assert value in _VALUES[word], words


def test_every_command_in_the_guide_exists() -> None:
    lines = _command_lines(skill_markdown()) + _command_lines(instructions_block())
    assert len(lines) >= 8 and {w[1] for w in lines} >= {"recall", "remember", "show", "link", "forget"}
    for words in lines:
        _check(words)


def test_the_guide_names_the_store_setup_was_run_with() -> None:
    options = ["--db", "/srv/team memory/mnemon.db"]
    for text in (skill_markdown(options), instructions_block(options)):
        lines = _command_lines(text)
        assert lines and all(w[1:3] == options for w in lines)
        for words in lines:
            _check(words)
    assert skill_markdown().startswith("---\nname: mnemon\ndescription: ")
    assert instructions_block().startswith("## mnemon: long-term memory\n")


def test_the_session_start_context_names_commands_that_exist(tmp_path: Path) -> None:
    options = ["--db", str(tmp_path / "m.db")]
    cfg = load_config(dict(os.environ), db=options[1])
    out = claude_code(lambda: (cfg, options), "session-start", json.dumps({"source": "compact"}), None)
    lines = _command_lines(out["hookSpecificOutput"]["additionalContext"])
    assert {w[3] for w in lines} == {"recall", "remember"}
    for words in lines:
        _check(words)


def test_the_agent_is_told_a_mnemon_its_shell_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # installed in a virtual environment not on PATH, the hooks (this interpreter by its path) worked, and every
    # `mnemon recall` the agent was told to run answered "mnemon: command not found"
    venv_bin, other_bin = tmp_path / "venv" / "bin", tmp_path / "other" / "bin"
    for folder in (venv_bin, other_bin):
        folder.mkdir(parents=True)
        (folder / "mnemon").write_text("#!/bin/sh\n")
        (folder / "mnemon").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(venv_bin / "python"))
    options = ["--db", str(tmp_path / "m.db")]
    cfg = load_config(dict(os.environ), db=options[1])

    def told() -> set[str]:
        context = claude_code(lambda: (cfg, options), "session-start", "{}", None)["hookSpecificOutput"]
        return {shlex.split(span)[0] for text in (context["additionalContext"], skill_markdown(options))
                for span in re.findall(r"`((?:\S*/)?mnemon [^`]+)`", text)}

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert told() == {str(venv_bin / "mnemon")}
    monkeypatch.setenv("PATH", f"{other_bin}:{venv_bin}:/usr/bin")  # another installation first
    assert told() == {str(venv_bin / "mnemon")}
    monkeypatch.setenv("PATH", f"{venv_bin}:/usr/bin")
    assert told() == {"mnemon"}
