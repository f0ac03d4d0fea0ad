"""Claude Code's settings hold each hook event as a list of groups. An event mnemon adds its hook to that holds
something else (a command string, an object) was spread into the list character by character — `"echo hi"`
became `["e", "c", "h", "o", …]` and stayed so after an eject — breaking the user's settings. setup now refuses it
as a conflict naming the event, and writes nothing."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


@pytest.mark.parametrize("event", ["UserPromptSubmit", "SessionStart"])
@pytest.mark.parametrize("value", ["echo hi", {"hooks": [{"type": "command", "command": "echo hi"}]}, 3])
def test_an_event_that_is_not_a_list_is_refused_and_left_as_it_was(cli_run: CliRun, projects: tuple[Path, Path],
                                                                   event: str, value: Any) -> None:
    project, _ = projects
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    text = json.dumps({"hooks": {event: value, "Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}})
    settings.write_text(text)
    code, out = cli_run(["setup", "--project", str(project), "--target", "claude-code"])
    assert code == 1 and out["error"]["code"] == "conflict", out
    assert event in out["error"]["message"] and "--no-hooks" in out["error"]["message"]
    assert out["error"]["details"]["path"] == str(settings) and str(settings) in out["error"]["message"]
    assert settings.read_text() == text
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.local.json"]
    code, out = cli_run(["setup", "--project", str(project), "--target", "claude-code", "--no-hooks"])
    assert code == 0, out
    assert settings.read_text() == text


def test_another_events_odd_value_is_not_ours_to_judge(cli_run: CliRun, projects: tuple[Path, Path]) -> None:
    project, _ = projects
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": {"Stop": "echo done"}}))
    assert cli_run(["setup", "--project", str(project), "--target", "claude-code"])[0] == 0
    assert json.loads(settings.read_text())["hooks"]["Stop"] == "echo done"
    assert cli_run(["setup", "--project", str(project), "--target", "claude-code", "--eject"])[0] == 0
    assert json.loads(settings.read_text()) == {"hooks": {"Stop": "echo done"}}
