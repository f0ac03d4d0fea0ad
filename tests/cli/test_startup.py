"""Start-up cost a user notices: `mnemon remember` and `mnemon recall` are one process each, so every module they
import is paid on every call. These tests pin what the two commands must NOT load (numpy for a write, the
world-model/vault/context commands, bulk import, …) and that the lazily registered commands are all still there."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest

import mnemon
from mnemon.interfaces.cli.main import COMMAND_MODULES, cli, register_all

SRC = Path(mnemon.__file__).resolve().parents[1]

# runs one command, then reports on stderr every imported module, whether the CJK-only regexes were ever compiled
# and the OpenBLAS thread setting the process ended with
_RUNNER = """
import json, os, sys
from mnemon.interfaces.cli.main import main
code = main(sys.argv[1:])
from mnemon.core import text
cjk = {"text": text._CJK_RUN._compiled is not None}
if "mnemon.ports.embed.offline" in sys.modules:
    cjk["offline"] = sys.modules["mnemon.ports.embed.offline"]._TOKEN._compiled is not None
sys.stderr.write(json.dumps({"code": code, "modules": sorted(sys.modules), "cjk_compiled": cjk,
                             "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""

# never needed by `remember` or `recall`: other commands' modules, bulk transfer, store management, note editing
NOT_FOR_EITHER = (
    "mnemon.interfaces.cli.world_cmds", "mnemon.interfaces.cli.context_cmds", "mnemon.interfaces.cli.vault_cmds",
    "mnemon.app.world.facade", "mnemon.app.world.state", "mnemon.app.vault", "mnemon.app.thoughts",
    "mnemon.app.context", "mnemon.app.notes", "mnemon.app.transfer", "mnemon.app.stores", "mnemon.render",
    "mnemon.ports.embed.local", "mnemon.ports.embed.transport", "shutil", "difflib", "tempfile", "random",
    "mnemon.core.vault", "yaml",  # the Markdown parser and its YAML front matter: vault commands only
)
NOT_FOR_REMEMBER = (*NOT_FOR_EITHER, "numpy", "mnemon.app.recall", "mnemon.app.recall_graph", "mnemon.core.intent",
                    "mnemon.ports.graph_index")
# numpy.ma: numpy's set routines (`unique`, `union1d`, `isin`'s sort path) import the masked arrays, ~10 ms
NOT_FOR_RECALL = (*NOT_FOR_EITHER, "mnemon.app.remember", "mnemon.app.curation", "mnemon.core.graph_rules",
                  "mnemon.core.diff", "mnemon.core.validation", "numpy.ma")


def _run(tmp_path: Path, *args: str, stdin: str | None = None, **extra_env: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_") and k != "OPENBLAS_NUM_THREADS"}
    env.update(extra_env)
    env.update(MNEMON_HOME=str(tmp_path / "home"), MNEMON_EMBED_PROVIDER="none", MNEMON_MAX_INSIGHTS="0",
               PYTHONPATH=str(SRC))
    proc = subprocess.run([sys.executable, "-c", _RUNNER, "--db", str(tmp_path / "m.db"), *args],
                          capture_output=True, text=True, env=env, timeout=120, input=stdin)
    report = json.loads(proc.stderr)
    assert report["code"] == 0, proc.stdout
    report["printed"] = json.loads(proc.stdout)  # the command's own one JSON document
    assert report["printed"]
    return report


def _loaded(report: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in report["modules"] if any(m == n or m.startswith(n + ".") for n in names))


def test_remember_and_recall_load_only_what_they_use(tmp_path: Path) -> None:
    wrote = _run(tmp_path, "remember", "Alice moved the session cache to Redis because of latency")
    assert _loaded(wrote, NOT_FOR_REMEMBER) == []
    assert "mnemon.interfaces.cli.commands" in wrote["modules"]
    assert wrote["cjk_compiled"] == {"text": False, "offline": False}  # ASCII text never compiles the CJK classes

    for text in ("Bob added a Redis replica for the session cache", "Alice and Bob load-tested the session cache"):
        _run(tmp_path, "remember", text)  # linked memories: the recall walks the graph
    found = _run(tmp_path, "recall", "--explain", "why did Alice move the session cache")
    assert _loaded(found, NOT_FOR_RECALL) == []
    assert "mnemon.app.recall" in found["modules"]
    assert [s["visited"] for s in found["printed"]["trace"] if s["stage"] == "beam"][0] > 0
    assert found["blas_threads"] == "1"  # no spin-waiting OpenBLAS pool for one query


def test_the_prompt_hook_loads_what_a_recall_does_and_not_what_setup_writes_with(tmp_path: Path) -> None:
    # it runs on every message a user sends: the note editor's module (~0.3 s) came with setup's file writing
    _run(tmp_path, "remember", "Alice moved the session cache to Redis because of latency")
    hooked = _run(tmp_path, "hook", "claude-code", "prompt",
                  stdin=json.dumps({"prompt": "where is the session cache now?"}))
    assert "Redis" in hooked["printed"]["hookSpecificOutput"]["additionalContext"]
    assert _loaded(hooked, NOT_FOR_RECALL) == []
    assert _loaded(hooked, ("mnemon.app.integrations.setup", "mnemon.app.integrations.edits",
                            "mnemon.app.integrations.hosts", "tomllib")) == []


def test_only_a_process_run_as_the_program_skips_the_collection_at_exit(tmp_path: Path, cli_run: Any) -> None:
    # `mnemon …` as a program: the collector stays off to the end and what is left alive is frozen, so neither a
    # first pass after the command (~4 ms) nor the teardown's (~15 ms) scans it
    runner = ("import gc, json, sys\nfrom mnemon.interfaces.cli.main import main\ncode = main()\n"
              "sys.stderr.write(json.dumps([gc.isenabled(), gc.get_freeze_count()]))\nsys.exit(code)")
    env = dict(os.environ, MNEMON_HOME=str(tmp_path / "home"), MNEMON_EMBED_PROVIDER="none", PYTHONPATH=str(SRC))
    proc = subprocess.run([sys.executable, "-c", runner, "--db", str(tmp_path / "m.db"), "remember", "Dana paged"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and json.loads(proc.stdout)["id"]
    collector_on, frozen = json.loads(proc.stderr)
    assert not collector_on and frozen > 0
    # called in-process with its arguments (tests, `mneme`): nothing is frozen, the caller's garbage stays collectable
    assert cli_run(["--db", str(tmp_path / "m.db"), "status"])[0] == 0
    assert gc.get_freeze_count() == 0


def test_the_program_starts_without_the_collector_and_a_long_running_command_gets_it_back(tmp_path: Path) -> None:
    env = dict(os.environ, MNEMON_HOME=str(tmp_path / "home"), MNEMON_EMBED_PROVIDER="none", PYTHONPATH=str(SRC))
    report = ("import atexit, gc, json, sys\n"
              "atexit.register(lambda: sys.stderr.write(json.dumps(gc.isenabled())))\n"
              "from mnemon.__main__ import run\nsys.exit(run())")
    # the home's store: a read on a --db path that does not exist yet is refused (tests/cli/test_missing_db.py)
    one_shot = subprocess.run([sys.executable, "-c", report, "status"], capture_output=True, text=True, env=env,
                              timeout=120)
    assert one_shot.returncode == 0 and json.loads(one_shot.stderr) is False
    bulk = tmp_path / "bulk.json"
    bulk.write_text(json.dumps({"schema_version": "1", "insights": [{"content": "Dana paged the on-call"}]}))
    long_running = subprocess.run([sys.executable, "-c", report, "--db", str(tmp_path / "m.db"), "import", str(bulk)],
                                  capture_output=True, text=True, env=env, timeout=120)
    assert long_running.returncode == 0 and json.loads(long_running.stdout)["imported"] == 1
    assert json.loads(long_running.stderr) is True


def test_a_blas_thread_count_the_user_set_is_kept(tmp_path: Path) -> None:
    _run(tmp_path, "remember", "Bob tuned the rate limiter")
    assert _run(tmp_path, "recall", "rate limiter", OPENBLAS_NUM_THREADS="3")["blas_threads"] == "3"


def test_cjk_text_still_compiles_and_splits(tmp_path: Path) -> None:
    wrote = _run(tmp_path, "remember", "我们把会话缓存迁移到 Redis")
    assert wrote["cjk_compiled"]["text"] is True


def test_command_table_names_every_registered_command() -> None:
    register_all()
    declared_in = {name: cmd.callback.__module__.rsplit(".", 1)[1] for name, cmd in cli.commands.items()}
    assert declared_in == COMMAND_MODULES


def test_help_lists_every_command(cli_raw: Any) -> None:
    code, out, _ = cli_raw(["--help"])
    assert code == 0
    listed = {line.split()[0] for line in out.split("Commands:", 1)[1].splitlines() if line.strip()}
    register_all()
    hidden = {name for name, cmd in cli.commands.items() if cmd.hidden}  # another name for a listed one (viz)
    assert hidden == {"viz"} and listed == set(COMMAND_MODULES) - hidden


@pytest.mark.parametrize("name", ["state", "ingest", "retrieve", "note"])
def test_a_lazily_registered_command_resolves_with_its_help(name: str) -> None:
    with click.Context(cli) as ctx:
        command = cli.get_command(ctx, name)
    assert command is not None and command.name == name
    assert command.get_short_help_str()


def test_a_one_shot_command_runs_without_the_cyclic_collector_and_restores_it(
        cli_run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.app.memory import Mnemon

    seen: list[bool] = []
    monkeypatch.setattr(Mnemon, "log", lambda self, **kw: seen.append(gc.isenabled()) or {"entries": []})
    assert gc.isenabled()
    code, out = cli_run(["log"])
    assert code == 0 and out == {"entries": []}
    assert seen == [False]
    assert gc.isenabled()  # switched back on for whoever called `main` in-process


def test_a_command_missing_from_the_table_is_still_found(tmp_path: Path) -> None:
    script = ("import sys\nfrom mnemon.interfaces.cli import main as cli_main\n"
              "del cli_main.COMMAND_MODULES['state']\nsys.exit(cli_main.main(['state', 'list']))")  # the home's store
    env = dict(os.environ, MNEMON_HOME=str(tmp_path / "home"), MNEMON_EMBED_PROVIDER="none", PYTHONPATH=str(SRC))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "error" not in json.loads(proc.stdout)
