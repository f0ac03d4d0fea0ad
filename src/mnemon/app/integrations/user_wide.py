"""What the user's own host files — read in every project — say about the store before a setup changes them or
stands beside them: a `--global` setup that moves them to another store says which they named before (every
project that used them moves too), and a project's Claude Code setup (personal or shared) says when the user's own
hooks, which Claude Code runs in the project as well, recall from another store, or from the same one again — and
a `--global` Claude Code setup names the projects whose own hooks Claude Code runs beside the user's there."""
from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path
from typing import Any

from ...core.errors import InvalidInput
from . import edits, hosts, stores_named
from .guide import guide_command, program
from .hosts import SERVER_NAME, Commands, Place

Named = tuple[str, tuple[str, ...]]  # where (a file, what of it), and the store options it holds


def repointed(host: str, place: Place, commands: Commands, *, hooks: bool, mcp: bool) -> list[dict[str, str]]:
    """The steps of a `--global` install of `host` that moves the user's files from another store: one saying what
    named which store before, and for Codex the server a `codex mcp add` step put outside mnemon's block, which the
    setup leaves (so the agent would read one store's guide and call the other's server)."""
    steps: list[dict[str, str]] = []
    if host == "claude-code":
        folder = place.folder("CLAUDE_CONFIG_DIR", ".claude")
        named = ([] if not hooks else _claude_hooks(folder / "settings.json")) + _guide(
            folder / "skills" / "mnemon" / "SKILL.md", "the skill")
        server = (hosts.claude_servers(place) or {}).get(SERVER_NAME) if mcp else None
        named += [(f"{_claude_state(place)} (the MCP server, which the step replaces)", _server_store(server))
                  ] if hosts._looks_like_mnemon(server) else []
        reader = "Claude Code reads them in every project"
    elif host == "codex":
        codex_home = place.folder("CODEX_HOME", ".codex")
        config = codex_home / "config.toml"
        named = _guide(codex_home / "AGENTS.md", "the guide")
        block, outside = _codex_servers(config) if mcp else (None, None)
        named += [(f"{config} (mnemon's block)", _server_store(block))] if hosts._looks_like_mnemon(block) else []
        reader = ("Codex reads them in every project: the agent of each project set up with them (a personal "
                  "setup's, or a --global one's) moves too; mnemon keeps no list of those projects")
        if hosts._looks_like_mnemon(outside) and not stores_named.same(_server_store(outside), commands.options,
                                                                      place.environ):
            old, new = _said(_server_store(outside), place), _said(commands.options, place)
            steps.append({"what": "mcp server", "run": f"codex mcp remove {SERVER_NAME}",
                          "note": f"{config} runs mnemon's MCP server for {old} outside mnemon's block (a `codex mcp "
                                  f"add` step put it there), and this setup leaves it: the agent would read the guide "
                                  f"for {new} and call the server of {old}; run this, then this setup again"})
    elif host == "hermes":
        named = _guide(place.folder("HERMES_HOME", ".hermes") / "skills" / "mnemon" / "SKILL.md", "the skill")
        reader = "Hermes reads skills user-wide only, in every project: each set up with it moves too"
    else:
        return []
    moved = [(where, options) for where, options in named
             if not stores_named.same(options, commands.options, place.environ)]
    if moved:
        by_store: dict[str, list[str]] = {}
        for where, options in moved:
            by_store.setdefault(_said(options, place), []).append(where)
        before = "; ".join(f"{' and '.join(wheres)} named {store}" for store, wheres in by_store.items())
        steps.append({"what": "store", "note": f"{before} before: this setup makes them name "
                                                  f"{_said(commands.options, place)}. {reader}"})
    return steps


def beside_users_hooks(place: Place, commands: Commands) -> list[dict[str, str]]:
    """A project's Claude Code hooks — personal, or the team's (`--shared`, `mnemon` by name) — beside the user's
    own (`--global`): Claude Code runs a hook identical to one of the user's once, and any other beside it, so each
    prompt is recalled from two stores, or twice from one store named by two commands."""
    settings = place.folder("CLAUDE_CONFIG_DIR", ".claude") / "settings.json"
    these = {commands.hook("claude-code", event) for event in hosts.HOOK_EVENTS.values()}
    theirs = [options for command, options in hook_lines(settings) if command not in these]
    if not theirs:
        return []
    beside = "the project's, which every teammate runs," if commands.shared else "these"
    if stores_named.same(theirs[0], commands.options, place.environ):
        what = (f"runs mnemon's hooks for {_said(theirs[0], place)} by another command: in this project Claude Code "
                f"runs them beside {beside} for the same store, {_said(commands.options, place)}, each prompt "
                "recalled twice from it")
    else:
        what = (f"runs mnemon's hooks for {_said(theirs[0], place)}: in this project Claude Code runs them beside "
                f"{beside} for {_said(commands.options, place)}, each prompt recalled from both stores")
    return [{"what": "hooks", "run": shlex.join([program(), "setup", "--global", "--target", "claude-code", "--eject"]),
             "note": f"{settings} (your own, which Claude Code reads in every project) {what} (and two skills "
                     "named mnemon); run this when no project of yours needs them"}]


def projects_beside(place: Place, commands: Commands, shown: int = 5) -> list[dict[str, str]]:
    """A `--global` Claude Code install's step naming the projects Claude Code knows (`~/.claude.json`) whose own
    mnemon hooks it runs beside these: another store's (each prompt recalled from both), or the same store's by
    another command (a `--shared` setup's `mnemon` by name: recalled twice). A hook identical to these runs once."""
    try:
        known = json.loads(edits.plain(_claude_state(place).read_bytes().decode("utf-8"))).get("projects")
    except (OSError, ValueError, AttributeError):
        known = None
    own = place.folder("CLAUDE_CONFIG_DIR", ".claude") / "settings.json"
    these = {commands.hook("claude-code", event) for event in hosts.HOOK_EVENTS.values()}
    both: list[str] = []
    twice: list[str] = []
    for folder in known if isinstance(known, dict) else {}:
        theirs = [options for name in ("settings.local.json", "settings.json")
                  if Path(folder) / ".claude" / name != own
                  for command, options in hook_lines(Path(folder) / ".claude" / name) if command not in these]
        other = [o for o in theirs if not stores_named.same(o, commands.options, place.environ)]
        if theirs:  # (each named with the store its hooks name)
            (both if other else twice).append(f"{folder} (for {_said((other or theirs)[0], place)})")
    if not both and not twice:
        return []

    def listed(folders: list[str]) -> str:
        more = f" and {len(folders) - shown} more" if len(folders) > shown else ""
        return ", ".join(folders[:shown]) + more

    said = ([f"another store's, each prompt recalled from both stores, in {listed(both)}"] if both else []) + (
        [f"the same store's by another command (a --shared setup's runs 'mnemon' by name), each prompt recalled "
         f"twice from {_said(commands.options, place)}, in {listed(twice)}"] if twice else [])
    return [{"what": "hooks", "note": f"projects Claude Code knows run mnemon's hooks of their own, which it runs "
                                      f"there beside the ones this setup writes: {'; and '.join(said)}"}]


def _said(options: Any, place: Place) -> str:
    return stores_named.described(options, place.environ)


def _claude_hooks(settings: Path) -> list[Named]:
    """The store mnemon's hooks in a Claude Code settings file name (the first of them), if it holds any."""
    found = hook_lines(settings)
    return [(f"{settings} (the hooks)", found[0][1])] if found else []


def hook_lines(settings: Path) -> list[tuple[str, tuple[str, ...]]]:
    """mnemon's hook commands in a Claude Code settings file, each with the store options it names (a command the
    shell would not split is left out)."""
    try:
        table = edits.json_object(settings, edits.read_text(settings)).get("hooks")
    except InvalidInput:
        return []
    groups = [g for v in table.values() if isinstance(v, list) for g in v] if isinstance(table, dict) else []
    found = [h["command"] for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)
             for h in g["hooks"] if hosts._is_ours(h)]
    lines = []
    for command in found:
        try:
            lines.append((command, stores_named.store_of(shlex.split(command))))
        except ValueError:
            continue
    return lines


def _guide(path: Path, what: str) -> list[Named]:
    try:
        words = guide_command(edits.read_text(path))
    except InvalidInput:
        return []
    return [(f"{path} ({what})", stores_named.store_of(words[1:]))] if words else []


def _server_store(entry: Any) -> tuple[str, ...]:
    return stores_named.store_of([str(entry.get("command")), *map(str, entry.get("args") or [])])


def _claude_state(place: Place) -> Path:
    """Claude Code's state file (`hosts.claude_servers` reads its servers)."""
    return Path(place.environ.get("CLAUDE_CONFIG_DIR") or place.home).expanduser() / ".claude.json"


def _codex_servers(config: Path) -> tuple[Any, Any]:
    """mnemon's server in the user's Codex config: in setup's block, and outside it (a `codex mcp add` step's)."""
    try:
        text = edits.plain(edits.read_text(config))
        found = edits.TOML_MARKERS.pattern().search(text)
        block = tomllib.loads(found.group(0)) if found else {}
        outside = tomllib.loads(edits.without_block(text, edits.TOML_MARKERS))
    except (InvalidInput, tomllib.TOMLDecodeError):
        return None, None

    def entry(table: dict[str, Any]) -> Any:
        servers = table.get("mcp_servers")
        return servers.get(SERVER_NAME) if isinstance(servers, dict) else None

    return entry(block), entry(outside)
