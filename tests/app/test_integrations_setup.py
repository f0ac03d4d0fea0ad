"""`mnemon setup` wires agent hosts to the store, and `--eject` takes out exactly what it wrote.

The hooks are checked the way Claude Code runs them — the command line from `settings.json` through a shell, the
event's JSON on standard input, from another folder and without the environment that chose the store — and the MCP
entry by starting the server it names and listing its tools.
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.integrations import hosts
from mnemon.app.integrations.hosts import Commands

CliRun = Callable[..., tuple[int, Any]]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "user-home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("HERMES_HOME", raising=False)
    return folder


def _setup(cli_run: CliRun, project: Path, *args: str) -> tuple[int, Any]:
    return cli_run(["setup", "--project", str(project), *args])


def _host_env(tmp_path: Path) -> dict[str, str]:
    """What a host starts its hooks with: none of the MNEMON_* variables this test's store was chosen by."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env["MNEMON_DAEMON"] = "off"
    env["HOME"] = str(tmp_path / "elsewhere-home")
    return env


def _run_hook(command: str, event: dict[str, Any], tmp_path: Path) -> tuple[int, Any]:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    proc = subprocess.run(["sh", "-c", command], input=json.dumps(event), capture_output=True, text=True,
                          cwd=elsewhere, env=_host_env(tmp_path), timeout=60)
    return proc.returncode, json.loads(proc.stdout)


def _hook_command(settings: dict[str, Any], event: str) -> str:
    groups = settings["hooks"][event]
    return next(h["command"] for g in groups for h in g["hooks"] if "mnemon" in h["command"])


def test_claude_code_hooks_bring_the_stores_memories_into_a_session(cli_run: CliRun, project: Path,
                                                                     tmp_path: Path) -> None:
    assert cli_run(["remember", "The staging cluster runs PostgreSQL 16 since the March upgrade", "--cat",
                    "fact"])[0] == 0
    code, out = _setup(cli_run, project, "--target", "claude-code")
    assert code == 0 and out["scope"] == "project" and out["changed_files"] == 2
    assert (project / ".claude" / "skills" / "mnemon" / "SKILL.md").read_text().startswith("---\nname: mnemon\n")
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())

    code, started = _run_hook(_hook_command(settings, "SessionStart"), {"hook_event_name": "SessionStart",
                                                                        "source": "startup"}, tmp_path)
    context = started["hookSpecificOutput"]["additionalContext"]
    assert code == 0 and started["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "on for this session: 1 memory." in context and "recall" in context and "compacted" not in context
    code, compacted = _run_hook(_hook_command(settings, "SessionStart"), {"source": "compact"}, tmp_path)
    assert "compacted" in compacted["hookSpecificOutput"]["additionalContext"]

    prompt = _hook_command(settings, "UserPromptSubmit")
    code, answer = _run_hook(prompt, {"hook_event_name": "UserPromptSubmit",
                                      "prompt": "Which PostgreSQL version does the staging cluster run?"}, tmp_path)
    assert code == 0 and answer["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert "PostgreSQL 16 since the March upgrade" in answer["hookSpecificOutput"]["additionalContext"]
    code, nothing = _run_hook(prompt, {"prompt": "Write a haiku about autumn leaves"}, tmp_path)
    assert code == 0 and nothing == {}  # nothing stored bears on it: nothing added to the conversation


def test_the_prompt_hook_reads_without_counting_an_access(cli_run: CliRun, project: Path, tmp_path: Path) -> None:
    code, stored = cli_run(["remember", "Invoices are approved by Priya in finance", "--cat", "fact"])
    _setup(cli_run, project, "--target", "claude-code")
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    before = cli_run(["show", stored["id"]])[1]["access_count"]  # (`show` counts an access of its own)
    for _ in range(3):
        code, answer = _run_hook(_hook_command(settings, "UserPromptSubmit"), {"prompt": "who approves invoices?"},
                                 tmp_path)
        assert stored["id"] in answer["hookSpecificOutput"]["additionalContext"]
    # three automatic recalls are no use by the agent: only the second `show` counts
    assert cli_run(["show", stored["id"]])[1]["access_count"] == before + 1


def test_hooks_never_fail_the_host(cli_run: CliRun, project: Path, tmp_path: Path) -> None:
    _setup(cli_run, project, "--target", "claude-code")
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    prompt = _hook_command(settings, "UserPromptSubmit")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for stdin in ("not json", "", "[1, 2]", json.dumps({"prompt": 42}), "{" * 100_000):
        proc = subprocess.run(["sh", "-c", prompt], input=stdin, capture_output=True, text=True, cwd=elsewhere,
                              env=_host_env(tmp_path), timeout=60)
        assert proc.returncode == 0 and json.loads(proc.stdout) == {}
    # no store yet: an empty memory, not an error — and reading it created none
    db = Path(_hook_command(settings, "SessionStart").split("--db ", 1)[1].split(" ", 1)[0])
    assert not db.exists()
    code, started = _run_hook(_hook_command(settings, "SessionStart"), {}, tmp_path)
    assert code == 0 and "nothing stored yet" in started["hookSpecificOutput"]["additionalContext"]
    assert not db.exists()
    # a broken config file is said to the user, and the prompt goes on
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    proc = subprocess.run(["sh", "-c", prompt.replace(" hook ", f" --config {broken} hook ", 1)],
                          input=json.dumps({"prompt": "anything at all"}), capture_output=True, text=True,
                          env=_host_env(tmp_path), cwd=elsewhere, timeout=60)
    assert proc.returncode == 0 and "mnemon hook (prompt)" in json.loads(proc.stdout)["systemMessage"]


def test_the_mcp_entry_starts_a_working_server(cli_run: CliRun, project: Path, tmp_path: Path) -> None:
    code, out = _setup(cli_run, project, "--target", "claude-code")
    run = shlex.split(out["hosts"][0]["manual"][0]["run"].split(" && ", 1)[1])  # `claude mcp add --scope local`
    entry = {"command": run[run.index("--") + 1], "args": run[run.index("--") + 2:]}
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "test", "version": "0"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    proc = subprocess.run([entry["command"], *entry["args"]], input="".join(json.dumps(m) + "\n" for m in messages),
                          capture_output=True, text=True, cwd=tmp_path, env=_host_env(tmp_path), timeout=60)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert {"recall", "remember", "show"} <= {t["name"] for t in answers[1]["result"]["tools"]}


def test_setup_twice_is_setup_once_and_eject_leaves_the_users_settings_as_they_were(cli_run: CliRun,
                                                                                     project: Path) -> None:
    claude = project / ".claude"
    claude.mkdir()
    own = {"permissions": {"allow": ["Bash(ls:*)"]},
           "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo mine"}]}],
                     "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "notify done"}]}]}}
    (claude / "settings.json").write_text(json.dumps(own, indent=4))
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"docs": {"command": "docs-server"}}}))
    (project / "AGENTS.md").write_text("# Project rules\n\nUse tabs.\n")
    code, first = _setup(cli_run, project, "--target", "claude-code", "--target", "codex", "--shared")
    assert code == 0 and first["changed_files"] == 5
    settings = json.loads((claude / "settings.json").read_text())
    assert settings["permissions"] == own["permissions"] and settings["hooks"]["Stop"] == own["hooks"]["Stop"]
    assert settings["hooks"]["UserPromptSubmit"][0] == own["hooks"]["UserPromptSubmit"][0]  # the user's runs first
    assert set(json.loads((project / ".mcp.json").read_text())["mcpServers"]) == {"docs", "mnemon"}
    assert (project / "AGENTS.md").read_text().startswith("# Project rules\n\nUse tabs.\n\n<!-- mnemon:begin")
    snapshot = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}

    code, second = _setup(cli_run, project, "--target", "claude-code", "--target", "codex", "--shared")
    assert code == 0 and second["changed_files"] == 0 and second["next"].startswith("these files are set up already")
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == snapshot

    code, ejected = _setup(cli_run, project, "--eject", "--target", "claude-code", "--target", "codex")
    assert code == 0 and ejected["action"] == "eject"
    assert json.loads((claude / "settings.json").read_text()) == own
    assert json.loads((project / ".mcp.json").read_text()) == {"mcpServers": {"docs": {"command": "docs-server"}}}
    assert (project / "AGENTS.md").read_text() == "# Project rules\n\nUse tabs.\n"
    assert not (claude / "skills" / "mnemon").exists() and not (project / ".codex" / "config.toml").exists()
    # the backup is the user's file as it was before setup first touched it, byte for byte (eject keeps no copy of
    # its own edit: what it took out was mnemon's alone), and the report says it is there
    assert (claude / "settings.json.mnemon-backup").read_text() == json.dumps(own, indent=4)
    assert {c["path"]: c.get("backup") for c in ejected["hosts"][0]["changes"]}[str(claude / "settings.json")] == \
        str(claude / "settings.json.mnemon-backup")
    code, again = _setup(cli_run, project, "--eject", "--target", "claude-code", "--target", "codex")
    assert code == 0 and again["changed_files"] == 0 and again["next"] == "nothing to remove"


def test_eject_of_what_setup_alone_wrote_leaves_no_file_behind(cli_run: CliRun, project: Path) -> None:
    _setup(cli_run, project, "--target", "claude-code", "--target", "codex")
    _setup(cli_run, project, "--eject", "--target", "claude-code", "--target", "codex")
    assert sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()) == []


def test_an_unreadable_settings_file_fails_the_run_before_anything_is_written(cli_run: CliRun, project: Path) -> None:
    (project / ".mcp.json").write_text("{ \"mcpServers\": ")
    code, out = _setup(cli_run, project, "--target", "claude-code", "--target", "codex")
    assert code == 1 and out["error"]["code"] == "invalid_input" and ".mcp.json" in out["error"]["message"]
    assert sorted(p.name for p in project.rglob("*")) == [".mcp.json"]  # no skill, no settings, no AGENTS.md


def test_someone_elses_server_named_mnemon_is_left_alone(cli_run: CliRun, project: Path) -> None:
    theirs = {"mcpServers": {"mnemon": {"command": "node", "args": ["my-memory.js"]}}}
    (project / ".mcp.json").write_text(json.dumps(theirs))
    code, out = _setup(cli_run, project, "--target", "claude-code", "--shared")
    assert code == 1 and out["error"]["code"] == "conflict"
    assert json.loads((project / ".mcp.json").read_text()) == theirs and not (project / ".claude").exists()
    code, out = _setup(cli_run, project, "--target", "claude-code", "--no-mcp", "--shared")
    assert code == 0 and json.loads((project / ".mcp.json").read_text()) == theirs
    _setup(cli_run, project, "--eject", "--target", "claude-code")
    assert json.loads((project / ".mcp.json").read_text()) == theirs


def test_codex_reads_the_server_setup_wrote_and_keeps_its_own(cli_run: CliRun, project: Path) -> None:
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    own = 'model = "o4"\n\n[mcp_servers.docs]\ncommand = "docs-server"\n'
    config.write_text(own)
    code, _ = _setup(cli_run, project, "--target", "codex", "--shared")
    parsed = tomllib.loads(config.read_text())
    assert code == 0 and parsed["model"] == "o4" and set(parsed["mcp_servers"]) == {"docs", "mnemon"}
    assert parsed["mcp_servers"]["mnemon"] == {"command": "mnemon", "args": ["mcp", "serve"]}
    _setup(cli_run, project, "--eject", "--target", "codex")
    assert config.read_text() == own

    config.write_text(own + '\n[mcp_servers.mnemon]\ncommand = "mnemon"\nargs = ["mcp", "serve"]\n')
    code, out = _setup(cli_run, project, "--target", "codex", "--shared")
    assert code == 0 and "left as it is" in out["hosts"][0]["manual"][0]["note"]
    assert tomllib.loads(config.read_text())["mcp_servers"]["mnemon"] == {"command": "mnemon",
                                                                          "args": ["mcp", "serve"]}


def test_dry_run_reports_what_the_run_does_and_writes_nothing(cli_run: CliRun, project: Path) -> None:
    code, planned = _setup(cli_run, project, "--target", "claude-code", "--target", "codex", "--dry-run")
    assert code == 0 and planned["dry_run"] is True and list(project.iterdir()) == []
    code, done = _setup(cli_run, project, "--target", "claude-code", "--target", "codex")
    assert [[(c["path"], c["action"]) for c in h["changes"]] for h in planned["hosts"]] == \
        [[(c["path"], c["action"]) for c in h["changes"]] for h in done["hosts"]]


def test_user_wide_setup_and_the_home_folder_as_project(cli_run: CliRun, project: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path(os.environ["HOME"])
    home.mkdir()
    code, out = cli_run(["setup", "--global", "--target", "claude-code", "--target", "hermes"])
    assert code == 0 and out["scope"] == "user" and out["project"] is None
    assert (home / ".claude" / "skills" / "mnemon" / "SKILL.md").exists()
    assert "hooks" in json.loads((home / ".claude" / "settings.json").read_text())
    assert (home / ".hermes" / "skills" / "mnemon" / "SKILL.md").exists()
    manual = {h["host"]: h["manual"] for h in out["hosts"]}
    assert manual["claude-code"][0]["run"].startswith("claude mcp add --scope user mnemon -- ")
    assert "mcp_servers:" in manual["hermes"][0]["add"]
    assert not (home / ".mcp.json").exists()  # Claude Code's own state file is `claude mcp add`'s to write
    code, out = cli_run(["setup", "--project", str(home), "--target", "claude-code"])
    assert out["scope"] == "user" and out["changed_files"] == 0 and out["notes"]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-config"))
    assert cli_run(["setup", "--global", "--target", "claude-code"])[0] == 0
    assert (tmp_path / "claude-config" / "settings.json").exists()


def test_refusals(cli_run: CliRun, project: Path) -> None:
    code, out = cli_run(["--db", "postgresql://ana:s3cret@db.internal/mem", "setup", "--project", str(project),
                         "--target", "codex"])
    assert code == 1 and out["error"]["code"] == "invalid_input" and "s3cret" not in json.dumps(out)
    code, out = _setup(cli_run, project)  # nothing installed in this home
    assert code == 1 and "no agent host found" in out["error"]["message"]
    assert _setup(cli_run, project, "--target", "cursor")[1]["error"]["code"] == "usage"
    assert _setup(cli_run, project, "--global", "--target", "codex")[1]["error"]["code"] == "invalid_input"
    assert _setup(cli_run, project, "--eject", "--no-mcp", "--target", "codex")[1]["error"]["code"] == "invalid_input"
    assert list(project.iterdir()) == []


def test_a_host_found_on_this_machine_is_the_default(cli_run: CliRun, project: Path) -> None:
    (Path(os.environ["HOME"]) / ".codex").mkdir(parents=True)
    code, out = _setup(cli_run, project)
    assert code == 0 and [h["host"] for h in out["hosts"]] == ["codex"]


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                 max_size=3), max_leaves=8)
_HOOK = st.fixed_dictionaries({"type": st.just("command"), "command": st.text(max_size=20)})
_GROUPS = st.lists(st.fixed_dictionaries({"hooks": st.lists(_HOOK, max_size=3)},
                                         optional={"matcher": st.text(max_size=5)}), max_size=3)
_SETTINGS = st.dictionaries(st.text(max_size=8).filter(lambda k: k != "hooks"), _JSON, max_size=4).flatmap(
    lambda rest: st.one_of(st.just(rest), st.dictionaries(
        st.sampled_from(["SessionStart", "UserPromptSubmit", "Stop", "PreCompact"]), _GROUPS, max_size=3).map(
        lambda table: {**rest, "hooks": table})))


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_SETTINGS)
def test_install_then_eject_gives_back_any_settings_object(original: dict[str, Any]) -> None:
    commands = Commands(("/usr/bin/python3", "-m", "mnemon", "--db", "/x/m.db"), ("--db", "/x/m.db"))
    installed = hosts._claude_hooks(original, commands, install=True)
    assert hosts._claude_hooks(installed, commands, install=True) == installed
    ours = [h for g in installed["hooks"].values() for grp in g for h in grp["hooks"] if hosts._is_ours(h)]
    assert len(ours) == 2
    assert hosts._claude_hooks(installed, commands, install=False) == _without_empty_tables_setup_fills(original)
    assert hosts._claude_hooks(original, commands, install=False) == original  # nothing of ours: untouched


def _without_empty_tables_setup_fills(settings: dict[str, Any]) -> dict[str, Any]:
    """An empty `hooks` table, or an empty list of an event setup adds to, cannot be told apart once mnemon's hooks
    are in it from one setup created: eject removes it. Anything with content is given back as it was."""
    table = settings.get("hooks")
    if table is None:
        return settings
    table = {e: g for e, g in table.items() if g or e not in hosts.HOOK_EVENTS}
    return {**{k: v for k, v in settings.items() if k != "hooks"}, **({"hooks": table} if table else {})}


def test_the_user_wide_mcp_step_is_one_claude_mcp_can_run(cli_run: CliRun, project: Path) -> None:
    # `claude mcp add --scope user` refuses a name its ~/.claude.json already holds ("MCP server mnemon already
    # exists in user config", exit 1): a second setup, with another store, must say to remove it first
    home = Path(os.environ["HOME"])
    home.mkdir()
    code, out = cli_run(["setup", "--global", "--target", "claude-code"])
    add = out["hosts"][0]["manual"][0]["run"]
    argv = shlex.split(add)[shlex.split(add).index("--") + 1:]
    state = {"numStartups": 3, "mcpServers": {"mnemon": {"type": "stdio", "command": argv[0], "args": argv[1:],
                                                         "env": {}}}}
    (home / ".claude.json").write_text(json.dumps(state))
    code, out = cli_run(["setup", "--global", "--target", "claude-code"])
    assert code == 0 and out["hosts"][0]["manual"] == []  # added already, as this run would add it

    code, out = cli_run(["--db", str(home / "other.db"), "setup", "--global", "--target", "claude-code"])
    run = out["hosts"][0]["manual"][0]["run"]
    assert run.startswith("claude mcp remove --scope user mnemon && claude mcp add --scope user mnemon -- ")
    assert str(home / "other.db") in run

    state["mcpServers"] = {"mnemon": {"type": "stdio", "command": "node", "args": ["my-memory.js"]}}
    (home / ".claude.json").write_text(json.dumps(state))
    code, out = cli_run(["setup", "--global", "--target", "claude-code"])
    assert "run" not in out["hosts"][0]["manual"][0] and "left as it is" in out["hosts"][0]["manual"][0]["note"]
    code, out = cli_run(["setup", "--global", "--eject", "--target", "claude-code"])
    assert code == 0 and out["hosts"][0]["manual"] == []  # someone else's server: not ours to remove

    (home / ".claude.json").write_text(json.dumps({"numStartups": 3}))
    assert cli_run(["setup", "--global", "--eject", "--target", "claude-code"])[1]["hosts"][0]["manual"] == []
    (home / ".claude.json").write_text("{ not json")  # unreadable: the step is given as before
    assert cli_run(["setup", "--global", "--target", "claude-code"])[1]["hosts"][0]["manual"][0]["run"] == add


def test_codex_is_told_to_trust_the_project_whose_config_setup_wrote(cli_run: CliRun, project: Path) -> None:
    # codex 0.171 reads a project's .codex/config.toml only when ~/.codex/config.toml trusts the project
    # (`codex mcp list` said "No MCP servers configured yet" until then)
    code, out = _setup(cli_run, project, "--target", "codex", "--shared")
    trust = [m for m in out["hosts"][0]["manual"] if m["what"] == "project trust"]
    user_config = Path(os.environ["HOME"]) / ".codex" / "config.toml"
    assert code == 0 and len(trust) == 1 and trust[0]["file"] == str(user_config)
    user_config.parent.mkdir(parents=True)
    user_config.write_text(f'model = "o4"\n\n{trust[0]["add"]}\n')  # as the note says
    code, out = _setup(cli_run, project, "--target", "codex", "--shared")
    assert code == 0 and out["hosts"][0]["manual"] == [] and out["changed_files"] == 0
    assert _setup(cli_run, project, "--target", "codex", "--no-mcp", "--shared")[1]["hosts"][0]["manual"] == []
    user_config.write_text(user_config.read_text().replace('"trusted"', '"untrusted"'))  # codex asked, user said no
    (note,) = _setup(cli_run, project, "--target", "codex", "--shared")[1]["hosts"][0]["manual"]
    assert "add" not in note and 'set trust_level = "trusted"' in note["note"]  # a second table breaks the file
    (project / ".git").mkdir()  # a folder of a repository codex trusts as a whole
    sub = project / "service"
    sub.mkdir()
    user_config.write_text(f'[projects."{project.resolve()}"]\ntrust_level = "trusted"\n')
    assert cli_run(["setup", "--project", str(sub), "--target", "codex", "--shared"])[1]["hosts"][0]["manual"] == []


def test_setup_again_keeps_what_the_user_gave_mnemons_own_entries(cli_run: CliRun, project: Path) -> None:
    _setup(cli_run, project, "--target", "claude-code", "--shared")  # (the shared files; the personal ones alike)
    mcp_path, settings_path = project / ".mcp.json", project / ".claude" / "settings.json"
    mcp = json.loads(mcp_path.read_text())
    mcp["mcpServers"]["mnemon"]["env"] = {"MNEMON_DAEMON": "off"}
    mcp["mcpServers"]["docs"] = {"command": "docs-server"}
    mcp_path.write_text(json.dumps(mcp))
    settings = json.loads(settings_path.read_text())
    start = settings["hooks"]["SessionStart"][0]
    start["matcher"], start["hooks"][0]["timeout"] = "startup|compact", 45
    settings["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "echo mine"}]})
    settings_path.write_text(json.dumps(settings))

    code, out = cli_run(["--store", "other", "setup", "--project", str(project), "--target", "claude-code",
                         "--shared"])
    assert code == 0
    server = json.loads(mcp_path.read_text())["mcpServers"]
    assert list(server) == ["mnemon", "docs"] and server["mnemon"]["env"] == {"MNEMON_DAEMON": "off"}
    assert server["mnemon"]["args"][:2] == ["--store", "other"]
    groups = json.loads(settings_path.read_text())["hooks"]["SessionStart"]
    assert [g.get("matcher") for g in groups] == ["startup|compact", None]  # in its place, as the user left it
    assert groups[0]["hooks"][0]["timeout"] == 45 and "--store other" in groups[0]["hooks"][0]["command"]
    cli_run(["--store", "other", "setup", "--project", str(project), "--target", "claude-code", "--eject"])
    assert json.loads(mcp_path.read_text()) == {"mcpServers": {"docs": {"command": "docs-server"}}}
    assert json.loads(settings_path.read_text())["hooks"] == {"SessionStart": [groups[1]]}


def test_codex_setup_again_keeps_what_the_user_added_to_mnemons_table(cli_run: CliRun, project: Path) -> None:
    config = project / ".codex" / "config.toml"
    _setup(cli_run, project, "--target", "codex", "--shared")
    text = config.read_text()
    config.write_text(text.replace("\n# <<< mnemon", '\nstartup_timeout_sec = 30\n\n[mcp_servers.mnemon.env]\n'
                                   'MNEMON_DAEMON = "off"\n# <<< mnemon'))
    code, _ = cli_run(["--store", "other", "setup", "--project", str(project), "--target", "codex", "--shared"])
    table = tomllib.loads(config.read_text())["mcp_servers"]["mnemon"]
    assert code == 0 and table["args"][:2] == ["--store", "other"]
    assert table["startup_timeout_sec"] == 30 and table["env"] == {"MNEMON_DAEMON": "off"}
    config.write_text(config.read_text().replace('args = [', 'args = [\n  "--x",\n  '))  # args over lines: not kept
    code, _ = cli_run(["--store", "other", "setup", "--project", str(project), "--target", "codex", "--shared"])
    assert code == 0 and tomllib.loads(config.read_text())["mcp_servers"]["mnemon"]["args"][0] == "--store"


def test_the_next_step_names_what_is_left_to_do_by_hand(cli_run: CliRun, project: Path) -> None:
    # a project's .mcp.json server waits for Claude Code's approval ("Pending approval" in `claude mcp list`)
    code, out = _setup(cli_run, project, "--target", "claude-code", "--shared")
    manual = out["hosts"][0]["manual"]
    assert [m["what"] for m in manual] == ["mcp server approval"] and "/mcp" in manual[0]["note"]
    assert out["next"].endswith("then see the 1 step under hosts[].manual")
    code, again = _setup(cli_run, project, "--target", "claude-code", "--shared")
    assert again["changed_files"] == 0 and "nothing changed; then see the 1 step" in again["next"]
    assert _setup(cli_run, project, "--target", "claude-code", "--no-mcp", "--shared")[1]["hosts"][0]["manual"] == []


def test_eject_takes_a_skill_written_for_another_store_and_the_folders_setup_made(cli_run: CliRun,
                                                                                  project: Path) -> None:
    (project / "src").mkdir()
    assert cli_run(["--store", "work", "setup", "--project", str(project), "--target", "claude-code",
                    "--target", "codex"])[0] == 0
    code, out = _setup(cli_run, project, "--eject")  # no --store: the skill names another store than this call's
    assert code == 0 and not any("backup" in c for h in out["hosts"] for c in h["changes"])
    assert sorted(p.name for p in project.rglob("*")) == ["src"]  # no skills/, .claude/ or .codex/ left empty


def test_eject_keeps_a_backup_of_a_skill_someone_edited(cli_run: CliRun, project: Path) -> None:
    _setup(cli_run, project, "--target", "claude-code")
    skill = project / ".claude" / "skills" / "mnemon" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nAlso: tag memories with the ticket number.\n")
    code, out = _setup(cli_run, project, "--eject", "--target", "claude-code")
    kept = skill.with_name("SKILL.md.mnemon-backup")
    assert code == 0 and not skill.exists() and kept.read_text().endswith("the ticket number.\n")
