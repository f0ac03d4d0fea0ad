"""The sets of mnemon's hooks Claude Code runs in one session: the user's own (`~/.claude/settings.json`, a
`--global` setup's) and the project's (`.claude/settings.json`, a `--shared` one's; `.claude/settings.local.json`, a
personal one's). Claude Code runs an identical command once and any other beside it, so a project set up for a team's
store beside the user's own hooks gets each prompt's memories from both stores — or twice from one store two commands
name. Said at session start, to the agent, so it can tell which memories come from which store."""
from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .guide import program
from .stores_named import described, resolved
from .user_wide import hook_lines

_EVENT = " hook claude-code session-start"


def session_hooks(environ: Mapping[str, str], payload: Mapping[str, Any]) -> list[tuple[Path, tuple[str, ...]]]:
    """Each distinct mnemon session-start hook of this session's settings files, with the store options it names:
    the user's own, then the project's (Claude Code's CLAUDE_PROJECT_DIR, else the event's cwd)."""
    home = Path(environ.get("HOME") or Path.home())
    user = Path(environ["CLAUDE_CONFIG_DIR"]).expanduser() if environ.get("CLAUDE_CONFIG_DIR") else home / ".claude"
    project = environ.get("CLAUDE_PROJECT_DIR") or payload.get("cwd")
    files = [user / "settings.json"]
    if isinstance(project, str) and project:
        files += [Path(project).expanduser() / ".claude" / name for name in ("settings.json", "settings.local.json")]
    seen: dict[str, tuple[Path, tuple[str, ...]]] = {}
    for path in dict.fromkeys(files):
        for command, options in hook_lines(path):
            if _EVENT in command:
                seen.setdefault(command, (path, options))
    return list(seen.values())


def beside(environ: Mapping[str, str], payload: Mapping[str, Any]) -> str:
    """A line naming every set of mnemon's hooks this session runs and its store, when there is more than one."""
    sets = session_hooks(environ, payload)
    if len(sets) < 2:
        return ""
    stores = [described(options, environ) for _, options in sets]
    databases = [resolved(options, environ) or store for (_, options), store in zip(sets, stores)]
    twice = (", one store by two commands (its memories come twice)" if len(set(databases)) < len(databases)
             else ", each with its store")
    listed = "; ".join(f"{path} for {store}" for (path, _), store in zip(sets, stores))
    eject = shlex.join([program(), "setup", "--global", "--target", "claude-code", "--eject"])
    return (f"mnemon's hooks run {len(sets)} times in this session{twice}: {listed}. "
            "Each block of memories names the store it comes from; remember into the store the task belongs to. "
            f"`{eject}` takes the user's own (user-wide) set out, if the user wants one set.")
