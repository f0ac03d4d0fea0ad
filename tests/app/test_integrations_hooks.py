"""What `mnemon hook claude-code prompt` adds to a conversation, for the prompts users type: a question after a pasted
log or file, longer than a recall's query, still brings the memories that bear on it."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
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


_PASTED = "ERROR 2026-03-01 worker[12] batch 44 flushed 512 rows to disk at 0x7f3a"  # ≈ 75 characters


def test_a_question_beside_pasted_text_on_its_line_still_brings_its_memory(cli_run: CliRun) -> None:
    code, stored = cli_run(["remember", "The payment service is owned by Zhang Wei", "--cat", "fact"])
    assert code == 0
    question = "Who owns the payment service?"
    assert stored["id"] in _context(cli_run, f"{question} {_PASTED}")
    assert stored["id"] in _context(cli_run, f"{_PASTED}. {question}")
    assert stored["id"] in _context(cli_run, f"Seen today: {_PASTED}. {question} Thanks!")  # a question mid-line
    assert _context(cli_run, f"{_PASTED}. Nothing else to add here.") == ""


def test_a_question_alone_does_not_bring_what_the_whole_prompt_does_not_find(cli_run: CliRun) -> None:
    code, _ = cli_run(["remember", "The payment service is owned by Zhang Wei", "--cat", "fact"])
    assert code == 0
    assert _context(cli_run, "Can you fix the login bug? It fails with a 500 on submit.") == ""


def test_a_store_the_hook_names_that_is_not_there_is_said_at_session_start(cli_run: CliRun, tmp_path: Path) -> None:
    stored = tmp_path / "mem" / "x.db"
    assert cli_run(["--db", str(stored), "remember", "The payment service is owned by Zhang Wei"])[0] == 0
    moved = tmp_path / "moved"
    stored.parent.rename(moved)  # the store moved (or deleted) after setup wrote its path into the hooks
    code, out = cli_run(["--db", str(stored), "hook", "claude-code", "session-start"], input="{}")
    assert code == 0
    message = out.get("systemMessage", "")
    assert str(stored) in message and "moved or deleted" in message and "setup" in message
    # said once, at session start: the prompts of the session go on without it, and no hook made a store there
    code, out = cli_run(["--db", str(stored), "hook", "claude-code", "prompt"],
                        input=json.dumps({"prompt": "Who owns the payment service?"}))
    assert code == 0 and out == {}
    assert not stored.exists() and not stored.parent.exists()
    # a store that is there, or the home's own not created yet, says nothing of the kind
    stored.parent.mkdir()
    (moved / "x.db").rename(stored)
    code, out = cli_run(["--db", str(stored), "hook", "claude-code", "session-start"], input="{}")
    assert code == 0 and "systemMessage" not in out and "1 memory" in out["hookSpecificOutput"]["additionalContext"]
    code, out = cli_run(["hook", "claude-code", "session-start"], input="{}")
    assert code == 0 and "systemMessage" not in out


def test_an_event_written_the_windows_way_is_read(cli_run: CliRun) -> None:
    # a byte-order mark before the JSON (PowerShell's and Notepad's UTF-8), CRLF line ends within and after it
    code, stored = cli_run(["remember", "The payment service is owned by Zhang Wei", "--cat", "fact"])
    assert code == 0
    event = json.dumps({"prompt": "Who owns the payment service?\r\nThanks"}, indent=2).replace("\n", "\r\n")
    for text in (event + "\r\n", "\ufeff" + event + "\r\n"):
        code, out = cli_run(["hook", "claude-code", "prompt"], input=text)
        assert code == 0 and stored["id"] in out.get("hookSpecificOutput", {}).get("additionalContext", ""), text


def test_hooks_of_two_stores_in_one_session_each_name_their_store(cli_run: CliRun, projects: tuple[Path, Path],
                                                                   monkeypatch: Any) -> None:
    a, b = projects
    mine, team = a.parent / "a.db", Path(os.environ["MNEMON_HOME"]) / "data" / "team" / "mnemon.db"
    assert cli_run(["--db", str(mine), "setup", "--global", "--target", "claude-code", "--no-mcp"])[0] == 0
    assert cli_run(["--store", "team", "setup", "--project", str(b), "--target", "claude-code", "--shared",
                    "--no-mcp"])[0] == 0
    for store in (["--db", str(mine)], ["--store", "team"]):
        assert cli_run([*store, "remember", "The payment service is owned by Zhang Wei", "--cat", "fact"])[0] == 0
    prompt = json.dumps({"prompt": "Who owns the payment service?"})
    # the project's session: Claude Code runs both sets (the user's and the team's), so each answer names its store
    # and the session start names the other set
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(b))
    for store, own, other in ((["--db", str(mine)], mine, team), (["--store", "team"], team, mine)):
        code, out = cli_run([*store, "hook", "claude-code", "session-start"], input="{}")
        start = out["hookSpecificOutput"]["additionalContext"]
        assert code == 0 and str(own) in start.splitlines()[0], start
        assert str(other) in start and "each" in start, start
        code, out = cli_run([*store, "hook", "claude-code", "prompt"], input=prompt)
        recalled = out["hookSpecificOutput"]["additionalContext"]
        assert code == 0 and str(own) in recalled.splitlines()[0] and str(other) not in recalled, recalled
    # another project's session runs the user's set alone: nothing said of another
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(a))
    code, out = cli_run(["--db", str(mine), "hook", "claude-code", "session-start"], input=json.dumps({"cwd": str(a)}))
    assert code == 0 and str(team) not in out["hookSpecificOutput"]["additionalContext"], out
    # the project read from the event when Claude Code's variable is not there
    monkeypatch.delenv("CLAUDE_PROJECT_DIR")
    code, out = cli_run(["--db", str(mine), "hook", "claude-code", "session-start"], input=json.dumps({"cwd": str(b)}))
    assert code == 0 and str(team) in out["hookSpecificOutput"]["additionalContext"], out
    # one store by two commands (the user's '<python> -m mnemon --db …', the team's 'mnemon --store team'): twice
    assert cli_run(["--store", "team", "setup", "--global", "--target", "claude-code", "--no-mcp"])[0] == 0
    code, out = cli_run(["--store", "team", "hook", "claude-code", "session-start"], input=json.dumps({"cwd": str(b)}))
    assert code == 0 and "twice" in out["hookSpecificOutput"]["additionalContext"], out
