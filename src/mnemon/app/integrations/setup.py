"""`mnemon setup`: wire agent hosts to mnemon, or take mnemon out of them again (`eject`).

Every host's changes are planned before any is written, so a settings file that cannot be read fails the run with
nothing changed; `dry_run` reports the plan alone. A run twice is a run once (nothing changes the second time), and
ejecting removes only what setup wrote.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...core.errors import InvalidInput
from . import backups, edits, hosts, scopes
from .hosts import HOSTS, Place



def setup(*, targets: Sequence[str], user: bool, project: str | None, eject: bool, dry_run: bool, hooks: bool,
          mcp: bool, options: Sequence[str], environ: Mapping[str, str] | None = None,
          python: str | None = None, shared: Sequence[str] | None = None) -> dict[str, Any]:
    """`shared`: the options of `--shared` (`options.shared_options`): a project's shared files get commands every
    teammate can run; None, personal: this machine's commands go to the personal files (`scopes`)."""
    env = dict(os.environ if environ is None else environ)
    home = Path(env.get("HOME") or Path.home()).expanduser()
    folder = Path(project).expanduser() if project else Path.cwd()
    if not folder.is_dir():
        raise InvalidInput(f"--project {folder} is not a folder", path=str(folder))
    folder = folder.resolve()
    notes: list[str] = []
    if not user and folder == home.resolve():
        # a project's `.claude` in the home folder is the user's own: said so, and written as such
        user = True
        notes.append("the project folder is the home folder: wrote the user-wide settings")
    if shared is not None and user:
        raise InvalidInput("--shared writes a project's shared files, and the project folder is your home folder, "
                           "whose settings are your own: set up a project folder, or leave out --shared")
    place = Place(folder, user, home, env)
    unknown = [t for t in targets if t not in HOSTS]
    if unknown:
        raise InvalidInput(f"unknown host {', '.join(map(repr, unknown))}: setup knows {', '.join(HOSTS)}",
                           valid=list(HOSTS))
    commands = (hosts.base_command(python or sys.executable, options) if shared is None else
                hosts.shared_command(shared))
    chosen = list(dict.fromkeys(targets)) or [h for h in HOSTS if hosts.detected(h, place) or (
        eject and _holds_ours(h, place, commands, hooks=hooks, mcp=mcp))]
    if not chosen:
        raise InvalidInput(f"no agent host found (looked for {', '.join(HOSTS)}: their programs on PATH, their "
                           "folders in your home" + (", what setup wrote here" if eject else "") +
                           "): name one with --target", valid=list(HOSTS))
    if not user and not eject:
        notes += _where_commands_go(chosen, shared is not None)
    if not eject and "--embed" in commands.options[:-1]:
        # baked in as the store is: a host starts its hooks without this shell's MNEMON_EMBED_PROVIDER, and a query
        # vector of another provider than the store's vectors would leave recall to keywords, without a word
        provider = commands.options[commands.options.index("--embed") + 1]
        notes.append(f"the hooks and MCP server run with --embed {provider}, as this command did (the host starts "
                     "them without your shell's variables): after a change of provider (and `embed --all`), run "
                     "setup again")
    plans = [scopes.plan(h, place, commands, install=not eject, hooks=hooks, mcp=mcp) for h in chosen]
    said: dict[str, dict[str, Any]] = {}
    for n, p in enumerate(plans):  # (a copy of the user's own file, as it was, is never written over)
        changes, tidied = (backups.eject_changes if eject else backups.install_changes)(p.changes)
        plans[n], said = dataclasses.replace(p, changes=changes), {**said, **tidied}
    if not dry_run:
        edits.apply([c for p in plans for c in p.changes], home if user else folder)
        backups.tidy(said, home if user else folder)
    changed = sum(c.action != "unchanged" for p in plans for c in p.changes)
    reports = [p.report(applied=not dry_run) for p in plans]
    for change in (c for r in reports for c in r["changes"]):
        change.update(said.get(change["path"], {}))
    return {
        "action": "eject" if eject else "install",
        "dry_run": dry_run,
        "scope": "user" if user else "project",
        "project": None if user else str(folder),
        "hosts": reports,
        "changed_files": changed,
        "notes": notes,
        "next": _next(eject, dry_run, changed, steps=sum(len(p.manual) for p in plans)),
    }


# a project's files of each host, shared and personal (Hermes writes none in a project: its skill is user-wide)
_SHARED_FILES = {"claude-code": ".claude/settings.json, .claude/skills/mnemon/, .mcp.json",
                 "codex": ".codex/config.toml, AGENTS.md"}
_PERSONAL_FILES = {"claude-code": ".claude/settings.local.json, 'claude mcp add --scope local'",
                   "codex": "~/.codex/AGENTS.md, 'codex mcp add'"}


def _where_commands_go(chosen: Sequence[str], shared: bool) -> list[str]:
    """Where a project's setup put the commands it wrote, for the hosts it set up alone."""
    files = ", ".join((_SHARED_FILES if shared else _PERSONAL_FILES)[h] for h in chosen if h in _SHARED_FILES)
    if not files:
        return []
    if shared:
        return [f"--shared: the project's shared files ({files}) run 'mnemon' by name, as every teammate's PATH "
                "finds it"]
    return [f"this machine's commands (its Python, your store) go to your personal files — {files} — not to the "
            "files a team commits; --shared writes those with commands every teammate can run"]


def _holds_ours(host: str, place: Place, commands: hosts.Commands, *, hooks: bool, mcp: bool) -> bool:
    """Whether an eject has something of setup's to take out of the host's files here: setup may have been run with
    `--target` on a machine where the host is not found (its program not on PATH), or the host uninstalled since."""
    plan = scopes.plan(host, place, commands, install=False, hooks=hooks, mcp=mcp)
    return any(c.action != "unchanged" for c in plan.changes)


def _next(eject: bool, dry_run: bool, changed: int, steps: int) -> str:
    left = f"; then see the {steps} step{'s' if steps > 1 else ''} under hosts[].manual" if steps else ""
    if dry_run and not changed:  # (a run without --dry-run would write nothing either)
        done = "nothing to remove" if eject else "these files are set up already: nothing would change"
        return f"nothing was written, and {done}{left}"
    if dry_run:
        return f"nothing was written: run again without --dry-run to apply{left}"
    if eject:
        done = "mnemon is out of these hosts (your memories stay in the store)" if changed else "nothing to remove"
        return done + left
    if not changed:
        return f"these files are set up already: nothing changed{left}"
    return f"restart the agent (or start a new session) so it loads the skill, hooks and MCP server{left}"
