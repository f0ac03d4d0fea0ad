"""A command a reply suggests acts on the store the user chose: `mnemon --store v status` answered an `unfinished`
item whose `next` was `mnemon embed --all`, which run as printed embedded the DEFAULT store (and `--db PATH`,
`--config FILE` alike). Every suggested command carries the global options that chose the store when they were given
(paths absolute, a database URL's password masked); the MCP and HTTP servers name their store as the CLI would."""
from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

SRC = Path(__file__).resolve().parents[2] / "src"
Run = Callable[..., tuple[int, Any]]


def _without_vector(cli_run: Run, options: list[str], text: str = "The harbour crane was fixed on Monday") -> str:
    code, out = cli_run([*options, "--embed", "none", "remember", text])
    assert code == 0, out
    return str(out["id"])


def _run_as_printed(cli_run: Run, line: str) -> tuple[int, Any]:
    words = shlex.split(line)
    assert words[0] == "mnemon"
    return cli_run(words[1:])


def _unfinished(cli_run: Run, options: list[str]) -> list[dict[str, Any]]:
    code, out = cli_run([*options, "status"])
    assert code == 0, out
    return list(out["unfinished"])


def test_status_next_names_the_store_and_run_as_printed_finishes_it(cli_run: Run, home: Path) -> None:
    _without_vector(cli_run, ["--store", "v"])
    [item] = _unfinished(cli_run, ["--store", "v"])
    assert item["next"] == "mnemon --store v embed --all"
    assert "`mnemon --store v embed --all`" in item["message"]
    code, out = _run_as_printed(cli_run, item["next"])
    assert code == 0, out
    assert _unfinished(cli_run, ["--store", "v"]) == []
    assert not (home / "data" / "default" / "mnemon.db").exists()  # the default store was never touched


def test_a_db_path_is_carried_absolute_and_quoted(cli_run: Run, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my stores").mkdir()
    _without_vector(cli_run, ["--db", "my stores/m.db"])
    [item] = _unfinished(cli_run, ["--db", "my stores/m.db"])
    assert item["next"] == shlex.join(["mnemon", "--db", str(tmp_path / "my stores" / "m.db"), "embed", "--all"])
    monkeypatch.chdir(tmp_path / "my stores")  # pasted in another folder, it still finds the store
    assert _run_as_printed(cli_run, item["next"])[0] == 0
    monkeypatch.chdir(tmp_path)
    assert _unfinished(cli_run, ["--db", "my stores/m.db"]) == []


def test_a_config_file_is_carried(cli_run: Run, tmp_path: Path) -> None:
    config = tmp_path / "work.json"
    config.write_text(json.dumps({"db": str(tmp_path / "work.db")}), encoding="utf-8")
    _without_vector(cli_run, ["--config", config])
    [item] = _unfinished(cli_run, ["--config", config])
    assert item["next"] == shlex.join(["mnemon", "--config", str(config), "embed", "--all"])


def test_the_default_store_gets_the_command_alone(cli_run: Run) -> None:
    _without_vector(cli_run, [])
    [item] = _unfinished(cli_run, [])
    assert item["next"] == "mnemon embed --all"


def test_a_forgotten_memory_names_the_undo_on_its_store(cli_run: Run) -> None:
    memory = _without_vector(cli_run, ["--store", "v"])
    assert cli_run(["--store", "v", "forget", memory])[0] == 0
    code, out = cli_run(["--store", "v", "show", memory])
    assert code != 0
    undo = f"mnemon --store v forget --undo {memory}"
    assert f"`{undo}`" in out["error"]["message"]
    assert _run_as_printed(cli_run, undo)[0] == 0
    assert cli_run(["--store", "v", "show", memory])[0] == 0


def test_doctor_advises_init_for_the_store_it_checked(cli_run: Run) -> None:
    _without_vector(cli_run, ["--store", "v"])
    code, out = cli_run(["--store", "v", "doctor"])
    assert code != 0
    problems = out["error"]["details"]["problems"]
    assert any("`mnemon --store v init --vault DIR`" in p for p in problems), problems
    assert out["error"]["details"]["store"]["unfinished"][0]["next"] == "mnemon --store v embed --all"


def test_gc_actions_name_the_store(cli_run: Run) -> None:
    _without_vector(cli_run, ["--store", "v"])
    code, out = cli_run(["--store", "v", "gc"])
    assert code == 0, out
    assert out["actions"] == {"purge": "mnemon --store v forget <id>", "keep": "mnemon --store v gc --keep <id>"}


@given(user=st.from_regex(r"[a-z]{1,8}", fullmatch=True), secret=st.from_regex(r"[A-Za-z0-9]{4,16}", fullmatch=True))
def test_a_database_url_is_carried_without_its_password(user: str, secret: str) -> None:
    from mnemon.app.config import choosing_options

    url = f"postgresql://{user}:{secret}@db.internal:5432/memory"
    options = choosing_options({"db": url})
    assert options == ["--db", f"postgresql://{user}:***@db.internal:5432/memory"]


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
                HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), MNEMON_DAEMON="off")


def test_the_servers_name_their_store_as_the_command_line_does(tmp_path: Path) -> None:
    """A vault row's undo is refused with the command that brings it back, over MCP and HTTP alike."""
    base, env = [sys.executable, "-m", "mnemon", "--store", "v"], _env(tmp_path)
    subprocess.run([*base, "remember", "The harbour crane was fixed"], env=env, check=True, capture_output=True,
                   timeout=60)
    args = {"id": "vault:Notes.md:3", "undo": True}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "forget", "arguments": args}}
    proc = subprocess.run([*base, "mcp", "serve"], input=json.dumps(call) + "\n", env=env, capture_output=True,
                          text=True, timeout=60)
    over_mcp = json.loads(proc.stdout)["result"]["structuredContent"]["error"]["message"]
    assert "`mnemon --store v ingest`" in over_mcp
    server = subprocess.Popen([*base, "serve", "--port", "0", "--allow-writes"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = json.loads(server.stdout.readline())["api"].rstrip("/")  # type: ignore[union-attr]
        req = urllib.request.Request(f"{url}/forget", data=json.dumps(args).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=30)
            raise AssertionError("the undo of a vault row was accepted")
        except urllib.error.HTTPError as refused:
            over_http = json.loads(refused.read())["error"]["message"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    assert over_http == over_mcp


def test_the_provider_flag_is_carried_with_the_store(cli_run: Run) -> None:
    """`--embed` chose which vectors count as missing: the suggested embed must make those."""
    _without_vector(cli_run, ["--store", "v"])
    code, out = cli_run(["--store", "v", "--embed", "hash", "status"])
    assert code == 0, out
    assert out["unfinished"][0]["next"] == "mnemon --store v --embed hash embed --all"
