"""What each agent host needs to use mnemon, as file changes (`edits.FileChange`) for installing or ejecting.

* **Claude Code**: the skill (`.claude/skills/mnemon/SKILL.md`), two hooks in `.claude/settings.json` —
  `SessionStart` (the store's size and the guide's gist; after a compaction, a word to recall what the task needs)
  and `UserPromptSubmit` (the memories a recall of the prompt finds, when any is a medium or high match) — and the
  MCP server in the project's `.mcp.json`, with `--shared`; a project's personal setup (the default) puts this
  machine's commands in `.claude/settings.local.json` and a `claude mcp add --scope local` step instead (`scopes`).
  User-wide (`--global`), the same under `~/.claude` (or `$CLAUDE_CONFIG_DIR`); the user-wide MCP entry is
  `claude mcp add`'s to write (its file holds Claude Code's own state), so it is given as a command to run.
* **Codex**: the MCP server as a `[mcp_servers.mnemon]` table in `.codex/config.toml` (a project's with `--shared`,
  else a `codex mcp add` step: user-wide) and the guide as a block of `AGENTS.md` (the project's, or `~/.codex/` —
  `$CODEX_HOME` — user-wide).
* **Hermes**: the skill in `~/.hermes/skills/mnemon/` (`$HERMES_HOME`); Hermes reads skills user-wide only. Its MCP
  entry lives in its YAML config, which mnemon does not rewrite: given as a snippet to add (read, to give none when
  it is there as meant, and a step to take it out at an eject).

Hook and server commands run this very interpreter (`python -m mnemon`, absolute paths), with the global options
`setup` was given (the store), so they reach the same code and store whatever the host's PATH and working directory;
with `--shared`, `mnemon` by name and the store by its name or URL (`shared_command`), what every teammate can run.
"""
from __future__ import annotations

import json
import re
import shlex
import shutil
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import Conflict, InvalidInput
from . import edits
from .edits import FileChange
from .guide import instructions_block, is_skill_as_written, skill_markdown

HOSTS = ("claude-code", "codex", "hermes")
HOOK_EVENTS = {"SessionStart": "session-start", "UserPromptSubmit": "prompt"}
HOOK_TIMEOUT_S = {"SessionStart": 15, "UserPromptSubmit": 20}
SERVER_NAME = "mnemon"


@dataclass(frozen=True)
class Place:
    """Where a run writes: the project folder, or the user's own (`user` True), and the environment it reads."""

    project: Path
    user: bool
    home: Path
    environ: Mapping[str, str]

    def folder(self, variable: str, default: str) -> Path:
        named = self.environ.get(variable)
        return Path(named).expanduser() if named else self.home / default


@dataclass(frozen=True)
class Commands:
    """The argv that runs mnemon with this run's global options (the store), and the shell line of a hook."""

    base: tuple[str, ...]
    options: tuple[str, ...]  # the global options alone (the store), as the guide shows them
    shared: bool = False  # `mnemon` by name, for the files a team commits (`--shared`), not this machine's path

    @property
    def name(self) -> str | None:
        """The program the guide names: `mnemon` when shared, else None (this installation's, `guide.program`)."""
        return "mnemon" if self.shared else None

    def hook(self, host: str, event: str) -> str:
        return shlex.join([*self.base, "hook", host, event])

    def server(self) -> list[str]:
        return [*self.base, "mcp", "serve"]


@dataclass(frozen=True)
class HostPlan:
    host: str
    changes: list[FileChange]
    manual: list[dict[str, str]]

    def report(self, applied: bool) -> dict[str, Any]:
        return {"host": self.host, "changes": [c.report(applied) for c in self.changes], "manual": self.manual}


def detected(host: str, place: Place, which: Callable[[str], str | None] = shutil.which) -> bool:
    """Whether the host seems installed: its program on PATH, or its user folder present."""
    program, variable, folder = {"claude-code": ("claude", "CLAUDE_CONFIG_DIR", ".claude"),
                                 "codex": ("codex", "CODEX_HOME", ".codex"),
                                 "hermes": ("hermes", "HERMES_HOME", ".hermes")}[host]
    return which(program) is not None or place.folder(variable, folder).is_dir()


def plan(host: str, place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    return {"claude-code": _claude_code, "codex": _codex, "hermes": _hermes}[host](
        place, commands, install=install, hooks=hooks, mcp=mcp)


def _skill(folder: Path, commands: Commands, install: bool) -> FileChange:
    path = folder / "skills" / "mnemon" / "SKILL.md"
    before = edits.read_text(path)
    # removed as written (for this store or another), it needs no backup; edited by someone since, it keeps one
    return FileChange(path, "skill", before, skill_markdown(commands.options, commands.name) if install else None,
                      owned=before is not None and is_skill_as_written(before))


# ── Claude Code ──────────────────────────────────────────────────────────────


def _claude_code(place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    folder = place.folder("CLAUDE_CONFIG_DIR", ".claude") if place.user else place.project / ".claude"
    changes = [_skill(folder, commands, install)]
    changes.append(edits.json_change(folder / "settings.json", "hooks",
                                     lambda s: _claude_hooks(s, commands, install and hooks)))
    manual: list[dict[str, str]] = []
    if place.user:
        manual += _claude_user_server(place, commands, install=install, mcp=mcp)
    else:
        path = place.project / ".mcp.json"
        changes.append(edits.json_change(path, "mcp server",
                                         lambda s: _mcp_servers(s, path, "mcpServers", commands, install and mcp)))
        if install and mcp:  # (`claude mcp list` shows it "Pending approval" until then)
            manual.append({"what": "mcp server approval", "note": "Claude Code starts a project's MCP servers only "
                           f"once approved: if it has not approved {SERVER_NAME!r} for this project yet, it asks at "
                           "the next session (or approve it in /mcp)"})
    return HostPlan("claude-code", changes, manual)


def _claude_user_server(place: Place, commands: Commands, *, install: bool, mcp: bool) -> list[dict[str, str]]:
    """The step that adds (or removes) the user-wide MCP server: `claude mcp`'s to run, as Claude Code's own state
    file (`~/.claude.json`) holds it. That file is only read, to say what the step must be (`server_step`)."""
    return server_step(claude_servers(place), commands, install=install, mcp=mcp, where="Claude Code's user config",
                       add=["claude", "mcp", "add", "--scope", "user", SERVER_NAME],
                       remove=f"claude mcp remove --scope user {SERVER_NAME}")


def server_step(servers: Mapping[str, Any] | None, commands: Commands, *, install: bool, mcp: bool, where: str,
                add: list[str], remove: str, cd: str = "") -> list[dict[str, str]]:
    """The command that adds (or removes) mnemon's MCP server in a host's own config, given the servers it holds
    (None: unreadable, the step is given as if nothing were known). `add` refuses a name already there, so a server
    of another store is removed first, and one as this run would add it is left; someone else's is left alone."""
    current = None if servers is None else servers.get(SERVER_NAME)
    ours = current is None or _looks_like_mnemon(current)
    if not install:
        return [{"what": "mcp server", "run": cd + remove}] if ours and (servers is None or current is not None) else []
    wanted = _server_entry(commands)
    if not mcp or (isinstance(current, dict) and {k: current.get(k) for k in wanted} == wanted):
        return []
    if not ours:
        return [{"what": "mcp server", "note": f"{where} already has an MCP server named {SERVER_NAME!r} that does "
                                               "not run mnemon: left as it is"}]
    line = shlex.join([*add, "--", *commands.server()])
    return [{"what": "mcp server", "run": cd + (line if current is None else f"{remove} && {line}")}]


def claude_servers(place: Place, project: Path | None = None) -> dict[str, Any] | None:
    """The MCP servers in Claude Code's state file — user-wide, or of `project` (`claude mcp add --scope local`'s) —
    none when there is no file, or None when it cannot be read."""
    folder = place.environ.get("CLAUDE_CONFIG_DIR")
    path = Path(folder).expanduser() / ".claude.json" if folder else place.home / ".claude.json"
    try:
        data = json.loads(edits.plain(path.read_bytes().decode("utf-8")))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    if project is not None:
        projects = data.get("projects") if isinstance(data, dict) else None
        data = projects.get(str(project)) if isinstance(projects, dict) else None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return servers if isinstance(servers, dict) else {}


def _is_ours(hook: Any) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and " hook claude-code " in command and "mnemon" in command


def _claude_hooks(settings: dict[str, Any], commands: Commands, install: bool,
                  ours: Callable[[Any], bool] = _is_ours) -> dict[str, Any]:
    """`settings` without mnemon's hooks or, installing, with them: one per event, kept in its place with what the
    user gave it (a matcher, a timeout) and its command made this run's, else added as a group after the user's own.
    A group, an event or the whole table that removing them left empty goes too; one the user left empty, and
    mnemon did not add to, stays."""
    table = settings.get("hooks")
    if table is not None and not isinstance(table, dict):
        raise Conflict("the settings' `hooks` is not an object: mnemon leaves it alone (fix it, or run setup with "
                       "--no-hooks)")
    table = dict(table or {})
    odd = [event for event in HOOK_EVENTS if install and not isinstance(table.get(event, []), list)]
    if odd:  # (its groups are a list: a command string or an object there is not Claude Code's, nor to spread)
        raise Conflict(f"the settings' `hooks.{odd[0]}` is not a list of hook groups: mnemon leaves it alone (fix it, "
                       "or run setup with --no-hooks)")
    changed, placed = False, set[str]()
    for event, groups in list(table.items()):
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(ours(h) for h in inner):
                changed = True
                if install:
                    inner = [kept_hook for h in inner if (kept_hook := _ours_again(h, event, commands, placed)
                                                          if ours(h) else h) is not None]
                else:
                    inner = [h for h in inner if not ours(h)]
                if not inner:
                    continue
                group = {**group, "hooks": inner}
            kept.append(group)
        if kept or not groups:
            table[event] = kept
        else:
            del table[event]
    if install:
        for event, name in HOOK_EVENTS.items():
            if event not in placed:
                group = {"hooks": [{"type": "command", "command": commands.hook("claude-code", name),
                                    "timeout": HOOK_TIMEOUT_S[event]}]}
                table[event] = [*table.get(event, []), group]
    elif not changed:
        return settings
    return _replaced(settings, "hooks", table or None)


def _ours_again(hook: dict[str, Any], event: str, commands: Commands, placed: set[str]) -> dict[str, Any] | None:
    """mnemon's hook found under `event` when installing: the event's first, with this run's command and the rest as
    it was; None (dropped) for another, or under an event mnemon does not hook."""
    if event not in HOOK_EVENTS or event in placed:
        return None
    placed.add(event)
    return {**hook, "type": "command", "command": commands.hook("claude-code", HOOK_EVENTS[event])}


def _replaced(settings: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """`settings` with `key` set in its place (appended when new), or removed when `value` is None."""
    out = {k: (value if k == key else v) for k, v in settings.items() if k != key or value is not None}
    if key not in settings and value is not None:
        out[key] = value
    return out


def _server_entry(commands: Commands) -> dict[str, Any]:
    argv = commands.server()
    return {"command": argv[0], "args": argv[1:]}


def _looks_like_mnemon(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    words = [str(entry.get("command", "")), *map(str, entry.get("args") or [])]
    return any("mnemon" in w for w in words) and "mcp" in words and "serve" in words


def _mcp_servers(settings: dict[str, Any], path: Path, key: str, commands: Commands,
                 install: bool) -> dict[str, Any]:
    servers = settings.get(key)
    if servers is not None and not isinstance(servers, dict):
        raise Conflict(f"`{key}` in {path} is not an object: mnemon leaves it alone (fix it, or run setup with "
                       "--no-mcp)", path=str(path))
    servers = dict(servers or {})
    current = servers.get(SERVER_NAME)
    if current is not None and not _looks_like_mnemon(current):
        if not install:
            return settings  # someone else's server under the name: not ours to remove
        raise Conflict(f"{path} already has an MCP server named {SERVER_NAME!r} that does not run mnemon: left "
                       "as it is (rename it, or run setup with --no-mcp)", path=str(path))
    if current is None and not install:
        return settings
    if install:  # in its place, with what the user gave it (`env`, ...)
        servers[SERVER_NAME] = {**(current or {}), **_server_entry(commands)}
    else:
        servers.pop(SERVER_NAME, None)
    return _replaced(settings, key, servers or None)


# ── Codex ────────────────────────────────────────────────────────────────────


def _codex(place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    folder = place.folder("CODEX_HOME", ".codex") if place.user else place.project / ".codex"
    config = folder / "config.toml"
    before = edits.read_text(config)
    outside = edits.toml_table(config, edits.without_block(edits.plain(before), edits.TOML_MARKERS))
    edits.toml_table(config, before)  # the whole file parses, or nothing is written
    manual: list[dict[str, str]] = []
    servers = outside.get("mcp_servers")
    theirs = isinstance(servers, dict) and SERVER_NAME in servers
    if install and mcp and theirs:
        manual.append({"what": "mcp server", "note": f"{config} already defines [mcp_servers.{SERVER_NAME}] "
                                                     "outside mnemon's block: left as it is"})
    note = edits.USER_CODEX_NOTE if place.user else edits.BLOCK_NOTE
    if install and mcp and not theirs:
        server = _codex_server(config, before, commands, note)
        trust = None if place.user else _codex_trust(place)
        if trust != "trusted" and not place.user:
            user_config = place.folder("CODEX_HOME", ".codex") / "config.toml"
            table = f"[projects.{edits.toml_string(str(place.project))}]"
            step = (f'set trust_level = "trusted" in its {table} table' if trust is not None else
                    f"add {table} with trust_level = \"trusted\"")
            manual.append({"what": "project trust", "file": str(user_config),
                           **({} if trust is not None else {"add": f'{table}\ntrust_level = "trusted"'}),
                           "note": f"Codex reads {config} only in a project it trusts: start `codex` in "
                                   f"{place.project} and trust it, or {step} in {user_config}"})
    else:
        server = edits.block_change(config, "mcp server", edits.TOML_MARKERS, None)
    instructions = (place.folder("CODEX_HOME", ".codex") if place.user else place.project) / "AGENTS.md"
    guide = edits.block_change(instructions, "instructions", edits.MARKDOWN_MARKERS,
                               instructions_block(commands.options, commands.name) if install else None, close=" -->",
                               note=note)
    return HostPlan("codex", [guide, server], manual)


_OUR_TOML_LINE = re.compile(rf"\s*(\[mcp_servers\.{SERVER_NAME}\]|(command|args)\s*=)")


def _codex_server(config: Path, before: str | None, commands: Commands, note: str) -> FileChange:
    """mnemon's block with this run's `[mcp_servers.mnemon]` command and args, and the lines the user added to the
    block kept after them (`env`, `startup_timeout_sec`, ...) when the table still reads as meant with them."""
    argv = commands.server()
    wanted = {"command": argv[0], "args": argv[1:]}
    body = (f"[mcp_servers.{SERVER_NAME}]\ncommand = {edits.toml_string(argv[0])}\n"
            f"args = [{', '.join(edits.toml_string(a) for a in argv[1:])}]")
    found = edits.TOML_MARKERS.pattern().search(edits.plain(before))
    added = [line for line in (found.group(0).strip("\n").split("\n")[1:-1] if found else [])
             if not _OUR_TOML_LINE.match(line)]
    for lines in ([body, *added] if "".join(added).strip() else [body], [body]):
        server = edits.block_change(config, "mcp server", edits.TOML_MARKERS, "\n".join(lines), note=note)
        try:
            servers = edits.toml_table(config, server.after).get("mcp_servers")
        except InvalidInput:
            continue
        parsed = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
        if isinstance(parsed, dict) and {k: parsed.get(k) for k in wanted} == wanted:  # what Codex will read
            return server
    # the user's `mcp_servers` takes no table after it: an inline table (`mcp_servers = { … }`), an array of tables
    raise Conflict(f"{config} holds `mcp_servers` in a form mnemon cannot add its [mcp_servers.{SERVER_NAME}] table "
                   "to (an inline table, or not a table): nothing was written. Write it as [mcp_servers.<name>] "
                   "tables, or run setup with --no-mcp and add mnemon's server yourself", path=str(config))


def _codex_trust(place: Place) -> str | None:
    """The project's trust_level in the user's Codex config ("trusted": it reads the project's `.codex/config.toml`),
    "" when its table has none, None when the config names no such project or cannot be read."""
    try:
        table = tomllib.loads(edits.plain((place.folder("CODEX_HOME", ".codex") / "config.toml").read_bytes()
                                          .decode("utf-8")))
    except (OSError, ValueError):
        return None
    projects = table.get("projects")
    if not isinstance(projects, dict):
        return None
    # codex trusts the folder it starts in when the folder, or the root of the git repository holding it, is trusted
    root = next((f for f in (place.project, *place.project.parents) if (f / ".git").exists()), None)
    levels = [str(entry.get("trust_level", "")) for entry in (projects.get(str(f)) for f in (place.project, root) if f)
              if isinstance(entry, dict)]
    return "trusted" if "trusted" in levels else (levels[0] if levels else None)


# ── Hermes ───────────────────────────────────────────────────────────────────


def _hermes(place: Place, commands: Commands, *, install: bool, hooks: bool, mcp: bool) -> HostPlan:
    folder = place.folder("HERMES_HOME", ".hermes")
    config = folder / "config.yaml"
    servers = _hermes_servers(config)
    current = (servers or {}).get(SERVER_NAME)
    step: dict[str, str] = {"what": "mcp server", "file": str(config)}
    manual: list[dict[str, str]] = []
    if not install:
        if _looks_like_mnemon(current):  # (Hermes would go on starting it, with no skill to say what it is)
            manual.append({**step, "note": f"remove mcp_servers.{SERVER_NAME} from it: Hermes still starts "
                                          "mnemon's MCP server"})
    elif mcp and current is not None and not _looks_like_mnemon(current):
        manual.append({**step, "note": f"it already has an MCP server named {SERVER_NAME!r} that does not run "
                                       "mnemon: left as it is"})
    elif mcp and not (isinstance(current, dict) and all(current.get(k) == v
                                                        for k, v in _server_entry(commands).items())):
        argv = commands.server()
        snippet = "\n".join(["mcp_servers:", f"  {SERVER_NAME}:", f"    command: {_yaml_string(argv[0])}",
                             "    args: [" + ", ".join(_yaml_string(a) for a in argv[1:]) + "]"])
        manual.append({**step, "add": snippet, **({} if current is None else {
            "note": f"replace its mcp_servers.{SERVER_NAME}, which runs mnemon another way (another store)"})})
    return HostPlan("hermes", [_skill(folder, commands, install)], manual)


def _hermes_servers(config: Path) -> dict[str, Any] | None:
    """The MCP servers of Hermes' YAML config (read only: setup gives steps for it), none when there is no file, or
    None when it cannot be read — then a step is given as if nothing were known."""
    import yaml

    try:
        data = yaml.safe_load(config.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError, yaml.YAMLError):
        return None
    servers = data.get("mcp_servers") if isinstance(data, dict) else None
    return servers if isinstance(servers, dict) else {}


def _yaml_string(value: str) -> str:
    # a JSON string is a YAML double-quoted scalar
    return edits.toml_string(value)


def base_command(python: str, global_options: Sequence[str]) -> Commands:
    return Commands((python, "-m", "mnemon", *global_options), tuple(global_options))


def shared_command(options: Sequence[str]) -> Commands:
    """The commands `--shared` writes: `mnemon` as every teammate's PATH finds it, with the store's name or URL."""
    return Commands(("mnemon", *options), tuple(options), shared=True)
