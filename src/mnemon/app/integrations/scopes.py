"""Where a project's setup puts what: a team commits `.claude/settings.json`, `.mcp.json`, `.codex/config.toml` and
`AGENTS.md`, and a command naming this machine's Python and this user's store fails on every teammate's machine.

* **Personal** (the default): Claude Code's hooks in `.claude/settings.local.json` (Claude Code's file for one
  person in one project, git-ignored), its MCP server by `claude mcp add --scope local` (its state file is its own:
  a step to run), Codex's by `codex mcp add` and its guide in `~/.codex/AGENTS.md` (Codex has no personal file in a
  project: the user's own, for every project; a project's eject says so, with the commands that remove them). What an
  earlier setup wrote with this machine's commands into the shared files is taken out of them; what `--shared` put
  there (`mnemon` by name) is the team's and left, and no second pair of hooks is added beside it. The personal files
  the project's git does not ignore are named in a `git ignore` step.
* **Shared** (`--shared`): the shared files get commands every teammate can run — `mnemon` as their PATH finds it,
  with the store's name or URL only (`options.shared_options`) — and the personal hooks file loses mnemon's.

Eject takes mnemon out of all of them, whichever wrote it.
"""
from __future__ import annotations

import dataclasses
import shlex
import subprocess
import tomllib
from pathlib import Path
from typing import Any

from ...core.errors import Conflict, InvalidInput
from . import edits, hosts, stores_named, user_wide
from .edits import FileChange
from .guide import guide_command, instructions_block, is_portable, program
from .hosts import SERVER_NAME, Commands, HostPlan, Place


def plan(host: str, place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    if place.user and host == "codex" and not install:  # the server a `codex mcp add` step added is not setup's
        done = hosts.plan(host, place, commands, install=install, hooks=hooks, mcp=mcp)
        return HostPlan(host, done.changes, done.manual + _codex_user_wide(place))
    if install and (host == "hermes" or place.user and host in ("claude-code", "codex")):
        # said when they name another store before (Hermes reads skills user-wide only: a project's setup too)
        done = hosts.plan(host, place, commands, install=install, hooks=hooks, mcp=mcp)
        steps = user_wide.repointed(host, place, commands, hooks=hooks, mcp=mcp) + (
            user_wide.projects_beside(place, commands) if place.user and host == "claude-code" and hooks else [])
        said = any(s["what"] == "mcp server" for s in steps)  # (the server left, and why it matters)
        return HostPlan(host, done.changes, [m for m in done.manual if not (
            said and m["what"] == "mcp server" and "run" not in m)] + steps)
    if place.user or host not in ("claude-code", "codex"):
        return hosts.plan(host, place, commands, install=install, hooks=hooks, mcp=mcp)
    planner = _claude_code if host == "claude-code" else _codex
    return planner(place, commands, install=install, hooks=hooks, mcp=mcp)


def _by_name(command: Any) -> bool:
    """Whether a command runs `mnemon` by name (written by `--shared`), not this machine's Python by its path."""
    return isinstance(command, str) and command.split(" ", 1)[0] == "mnemon"


def _machines_hook(hook: Any) -> bool:
    return hosts._is_ours(hook) and not _by_name(hook["command"])


def _scoped(change: FileChange, scope: str) -> FileChange:
    return dataclasses.replace(change, scope=scope)


def _left(change: FileChange) -> FileChange:
    return dataclasses.replace(change, after=change.before)


# ── Claude Code ──────────────────────────────────────────────────────────────


def _claude_code(place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    folder = place.project / ".claude"
    shared, local, servers = folder / "settings.json", folder / "settings.local.json", place.project / ".mcp.json"
    skill = hosts._skill(folder, commands, install)

    def hooks_change(path: Path, scope: str, add: bool, ours: Any = hosts._is_ours) -> FileChange:
        return _scoped(edits.json_change(path, "hooks", lambda s: hosts._claude_hooks(s, commands, add, ours)), scope)

    def server_change(keep_the_teams: bool, add: bool) -> FileChange:
        return _scoped(edits.json_change(servers, "mcp server", lambda s: s if keep_the_teams and _team_server(s)
                                         else hosts._mcp_servers(s, servers, "mcpServers", commands, add)), "shared")

    manual: list[dict[str, str]] = user_wide.beside_users_hooks(place, commands) if (
        install and hooks and commands.shared) else []
    if not install or commands.shared:
        changes = [_scoped(skill, "shared" if commands.shared or is_portable(skill.before) else "personal"),
                   hooks_change(shared, "shared", install and hooks), hooks_change(local, "personal", False),
                   server_change(False, install and mcp)]
        if not install:
            manual += _local_server(place, commands, install=False, mcp=mcp)
        elif mcp:  # (`claude mcp list` shows it "Pending approval" until then)
            manual.append({"what": "mcp server approval", "note": "Claude Code starts a project's MCP servers only "
                           f"once approved: if it has not approved {SERVER_NAME!r} for this project yet, it asks at "
                           "the next session (or approve it in /mcp)"})
            # a personal server of the same name is the one Claude Code starts, and it warns of two endpoints
            manual += [{**step, "note": "your own server of this project (an earlier setup's, local scope) would "
                                        "stand before the shared one"}
                       for step in _local_server(place, commands, install=False, mcp=mcp)]
        return HostPlan("claude-code", changes, manual)
    team_hooks = _team_hooks(shared)
    team_server = _team_server(edits.json_object(servers, edits.read_text(servers)))
    team_skill = skill.before is not None and is_portable(skill.before)
    changes = [_left(skill) if team_skill else _scoped(skill, "personal"),
               hooks_change(shared, "shared", False, _machines_hook),
               hooks_change(local, "personal", hooks and not team_hooks), server_change(True, False)]
    if hooks and not team_hooks:
        manual += user_wide.beside_users_hooks(place, commands)
    if hooks and team_hooks:
        manual.append({"what": "hooks", "note": f"{shared} (the project's, shared) runs mnemon's hooks for every "
                       f"teammate: none added to {local.name}, as each prompt would be recalled twice"})
    if mcp and team_server:  # a local one of the same name would stand before it (Claude Code warns of both)
        manual.append({"what": "mcp server", "note": f"{servers} (the project's, shared) runs mnemon for every "
                                                     "teammate: no server of yours added"})
    else:
        manual += _local_server(place, commands, install=True, mcp=mcp)
    manual += _unignored(place.project, [c for c in changes if c.scope == "personal" and c.after is not None])
    return HostPlan("claude-code", changes, manual)


def _team_hooks(path: Path) -> bool:
    """Whether the shared settings run mnemon's hooks by name (a `--shared` setup's)."""
    table = edits.json_object(path, edits.read_text(path)).get("hooks")
    groups = [g for v in table.values() if isinstance(v, list) for g in v] if isinstance(table, dict) else []
    inner = [g.get("hooks") for g in groups if isinstance(g, dict)]
    return any(hosts._is_ours(h) and _by_name(h["command"]) for h_list in inner if isinstance(h_list, list)
               for h in h_list)


def _team_server(settings: dict[str, Any]) -> bool:
    servers = settings.get("mcpServers")
    entry = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
    return isinstance(entry, dict) and _by_name(entry.get("command"))


def _local_server(place: Place, commands: Commands, *, install: bool, mcp: bool) -> list[dict[str, str]]:
    """`claude mcp add --scope local` (run in the project: Claude Code keys it by the folder it runs in)."""
    return hosts.server_step(hosts.claude_servers(place, place.project), commands, install=install, mcp=mcp,
                             where="Claude Code's local config of this project",
                             add=["claude", "mcp", "add", "--scope", "local", SERVER_NAME],
                             remove=f"claude mcp remove --scope local {SERVER_NAME}",
                             cd=f"cd {shlex.quote(str(place.project))} && ")


def _unignored(project: Path, changes: list[FileChange]) -> list[dict[str, str]]:
    """A step naming the personal files this run leaves in the project that its git repository does not ignore
    (.gitignore, .git/info/exclude, core.excludesFile: `git check-ignore`); none outside a repository."""
    wanted = {str(c.path.relative_to(project)): (".claude/skills/mnemon/" if c.what == "skill" else
                                                 str(c.path.relative_to(project))) for c in changes}
    if not wanted:
        return []
    try:
        proc = subprocess.run(["git", "-C", str(project), "check-ignore", "--", *wanted], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []  # no git here
    if proc.returncode not in (0, 1):
        return []  # not a repository (or one git refuses to read)
    left = [line for path, line in wanted.items() if path not in proc.stdout.splitlines()]
    if not left:
        return []
    return [{"what": "git ignore", "file": str(project / ".gitignore"), "add": "\n".join(left),
             "note": "these files name this machine's mnemon and store, for you alone, and git does not ignore them "
                     "here: add the lines to .gitignore (or .git/info/exclude) so they are not committed"}]


# ── Codex ────────────────────────────────────────────────────────────────────


def _codex(place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    if not install or commands.shared:
        done = hosts.plan("codex", place, commands, install=install, hooks=hooks, mcp=mcp)
        left = _user_guide_beside(place, commands) if install else _codex_user_wide(place)
        return HostPlan("codex", [_scoped(c, "shared") for c in done.changes], done.manual + left)
    config = place.project / ".codex" / "config.toml"
    before = edits.read_text(config)
    edits.toml_table(config, before)  # the whole file parses, or nothing is written
    found = edits.TOML_MARKERS.pattern().search(edits.plain(before))
    team_server = found is not None and _codex_by_name(found.group(0))
    server = FileChange(config, "mcp server", before, before) if team_server else edits.block_change(
        config, "mcp server", edits.TOML_MARKERS, None)
    path, own = place.project / "AGENTS.md", place.folder("CODEX_HOME", ".codex") / "AGENTS.md"
    text = edits.read_text(path)
    block = edits.MARKDOWN_MARKERS.pattern().search(edits.plain(text))
    team_guide = block is not None and is_portable(block.group(0))
    # the project's AGENTS.md is the team's (committed): this machine's guide goes to the user's own, which Codex
    # reads first in every project (it has no personal file in a project); an earlier setup's is taken out
    if not team_guide:
        _refuse_another_store(place, own, commands, mcp=mcp and not team_server)
    guide = FileChange(path, "instructions", text, text) if team_guide else edits.block_change(
        path, "instructions", edits.MARKDOWN_MARKERS, None)
    personal = FileChange(own, "instructions", None, None) if team_guide else edits.block_change(
        own, "instructions", edits.MARKDOWN_MARKERS, instructions_block(commands.options), close=" -->",
        note=edits.USER_CODEX_NOTE)
    manual: list[dict[str, str]] = []
    if team_server and mcp:
        manual.append({"what": "mcp server", "note": f"{config} (the project's, shared) runs mnemon for every "
                                                     "teammate: no server of yours added"})
    elif mcp:  # Codex has no personal file in a project: the user's own config, for every project
        manual += hosts.server_step(_codex_user_servers(place), commands, install=True, mcp=mcp,
                                    where="Codex's user config", add=["codex", "mcp", "add", SERVER_NAME],
                                    remove=f"codex mcp remove {SERVER_NAME}")
    if not team_guide:
        manual.append({"what": "instructions", "note": f"the guide naming this machine's mnemon and store is in "
                       f"{own}, your own, which Codex reads in every project (it has no personal file in a project); "
                       f"{path} is the project's, shared: `mnemon setup --shared` writes one every teammate can run"})
        override = edits.read_text(own.with_name("AGENTS.override.md")) if own.parent.is_dir() else None
        if override and override.strip():
            manual.append({"what": "instructions", "note": f"Codex reads {own.with_name('AGENTS.override.md')} "
                           f"instead of {own} while it is there: copy mnemon's block into it"})
    return HostPlan("codex", [_scoped(guide, "shared"), _scoped(personal, "personal"), _scoped(server, "shared")],
                    manual)


def _codex_user_wide(place: Place) -> list[dict[str, str]]:
    """What a project's eject leaves in the user's Codex home, for every project, and how to take it out: the MCP
    server a `codex mcp add` step added (outside mnemon's block), and the guide a personal setup put in its
    AGENTS.md. A user-wide eject takes out the guide (and the block), and says the server's step."""
    codex_home = place.folder("CODEX_HOME", ".codex")
    steps = []
    servers = _codex_user_servers(place, outside_block=True)
    if servers is None or hosts._looks_like_mnemon(servers.get(SERVER_NAME)):
        steps.append({"what": "mcp server", "run": f"codex mcp remove {SERVER_NAME}",
                      "note": f"{codex_home / 'config.toml'} (Codex's user config) still runs mnemon's MCP server, "
                              "for every project (a `codex mcp add` step of setup put it there): run this when no "
                              "project of yours needs it"})
    own = codex_home / "AGENTS.md"
    if not place.user and edits.MARKDOWN_MARKERS.pattern().search(edits.plain(_readable(own))):
        steps.append({"what": "instructions", "run": shlex.join([program(), "setup", "--global", "--target", "codex",
                                                                 "--eject"]),
                      "note": f"{own} (your own, read by Codex in every project) still holds mnemon's guide (a "
                              "personal setup of a project puts it there): run this when no project of yours needs it"})
    return steps


def _global_eject() -> str:
    """The command that takes mnemon's guide (and a --global setup's server block) out of the user's Codex home."""
    return shlex.join([program(), "setup", "--global", "--target", "codex", "--eject"])


def _user_guide_beside(place: Place, commands: Commands) -> list[dict[str, str]]:
    """A `--shared` guide goes to the project's AGENTS.md, and Codex reads the user's own before it, in this project
    too: one naming another store (a personal setup's) leaves the agent two guides to two stores, said with the
    command that takes it out."""
    own = place.folder("CODEX_HOME", ".codex") / "AGENTS.md"
    found = edits.MARKDOWN_MARKERS.pattern().search(edits.plain(_readable(own)))
    words = guide_command(found.group(0)) if found else None
    if words is None or stores_named.same(words[1:], commands.options, place.environ):
        return []
    held = stores_named.described(words[1:], place.environ)
    return [{"what": "instructions", "run": _global_eject(),
             "note": f"{own} (your own, which Codex reads in every project before the project's AGENTS.md) holds "
                     f"mnemon's guide for {held}: in this project the agent reads it beside the team's, two guides "
                     "naming two stores; run this when no project of yours needs it"}]


def _refuse_another_store(place: Place, own: Path, commands: Commands, *, mcp: bool) -> None:
    """A personal setup writes the user's own Codex guide and server, which Codex reads in every project: one naming
    another store is another project's (or a --global setup's), and replacing it would point that project's agent
    at this store without a word. Refused, nothing written, with the ways on."""
    wanted = stores_named.store_of(commands.options)
    found = edits.MARKDOWN_MARKERS.pattern().search(edits.plain(_readable(own)))
    words = guide_command(found.group(0)) if found else None
    theirs: list[tuple[str, tuple[str, ...], str]] = []
    if words is not None and not stores_named.same(words[1:], wanted, place.environ):
        theirs.append((f"{own} holds mnemon's guide", stores_named.store_of(words[1:]), _global_eject()))
    entry = (_codex_user_servers(place) or {}).get(SERVER_NAME) if mcp else None
    server = stores_named.store_of([str(entry.get("command")), *map(str, entry.get("args") or [])]) if isinstance(
        entry, dict) else wanted
    if hosts._looks_like_mnemon(entry) and not stores_named.same(server, wanted, place.environ):
        outside = SERVER_NAME in (_codex_user_servers(place, outside_block=True) or {})
        theirs.append((f"{own.with_name('config.toml')} runs mnemon's MCP server", server,
                       f"codex mcp remove {SERVER_NAME}" if outside else _global_eject()))
    if not theirs:
        return
    old = theirs[0][1]

    def store(options: tuple[str, ...]) -> str:
        return stores_named.described(options, place.environ)

    held = "; ".join(f"{what} for {store(options)}" for what, options, _ in theirs)
    fixes = " and ".join(dict.fromkeys(f"`{fix}`" for _, _, fix in theirs))
    again = shlex.join([program(), *old, "setup", "--project", str(place.project), "--target", "codex"])
    raise Conflict(f"{held}, which Codex reads in every project: this setup of {place.project} would point the "
                   f"agent of every project set up with it at {store(wanted)} instead; nothing was written. Set "
                   f"this project up with that store (`{again}`), or move every project to {store(wanted)}: run "
                   f"{fixes}, then this setup again", path=str(own),
                   store=list(old), wanted=list(wanted))


def _readable(path: Path) -> str | None:
    try:
        return edits.read_text(path)
    except InvalidInput:
        return None


def _codex_by_name(block: str) -> bool:
    try:
        table = tomllib.loads(block).get("mcp_servers", {}).get(SERVER_NAME, {})
    except (tomllib.TOMLDecodeError, AttributeError):
        return False
    return isinstance(table, dict) and _by_name(table.get("command"))


def _codex_user_servers(place: Place, outside_block: bool = False) -> dict[str, Any] | None:
    """The MCP servers of the user's Codex config (`outside_block`: those `codex mcp add` wrote, not setup's block);
    none when there is no file, None when it cannot be read."""
    try:
        text = edits.plain((place.folder("CODEX_HOME", ".codex") / "config.toml").read_bytes().decode("utf-8"))
        table = tomllib.loads(edits.without_block(text, edits.TOML_MARKERS) if outside_block else text)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    servers = table.get("mcp_servers")
    return servers if isinstance(servers, dict) else {}
