"""MCP and HTTP answer `retrieve`, `surface` and `agent_preflight` with the payload the CLI prints for the same
arguments: without `hints`, the config file's hints apply on all three (the CLI used them, the servers did not, so
the same prompt ranked differently and `hints` came back empty)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
                HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), MNEMON_DAEMON="off")


@pytest.fixture
def configured(tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "lease.md").write_text("# Lease\n- [ ] Waiting for the landlord about the lease renewal\n"
                                    "- Invoice from the plumber is due\n", encoding="utf-8")
    base = [sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db")]
    env = _env(tmp_path)
    for args in (["init", "--vault", str(vault), "--hints", "invoice,plumber"], ["ingest", "--vault", str(vault)]):
        subprocess.run([*base, *args], env=env, check=True, capture_output=True, timeout=60)
    return base, env


def _cli(base: list[str], env: dict[str, str], *args: str) -> Any:
    proc = subprocess.run([*base, *args], env=env, capture_output=True, text=True, timeout=60)
    return json.loads(proc.stdout)


CALLS = [("retrieve", {"prompt": "what is waiting"}, ["retrieve", "--prompt", "what is waiting"]),
         ("agent_preflight", {"prompt": "what is waiting"}, ["agent", "preflight", "--prompt", "what is waiting"]),
         ("surface", {"prompt": "what is waiting"}, ["surface", "--prompt", "what is waiting"])]


def _hints_of(name: str, doc: dict[str, Any]) -> Any:
    return {"retrieve": lambda d: d["hints"], "agent_preflight": lambda d: d["context"]["hints"],
            # surface states no hints: its cards' ranking and reasons show them
            "surface": lambda d: [(t["memory"], t["score"], t["why_now"]) for t in d["thoughts"]]}[name](doc)


def test_mcp_applies_the_configured_hints_as_the_cli_does(configured: tuple[list[str], dict[str, str]]) -> None:
    base, env = configured
    lines = "".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                "params": {"name": name, "arguments": args}}) + "\n"
                    for i, (name, args, _) in enumerate(CALLS))
    proc = subprocess.run([*base, "mcp", "serve"], input=lines, env=env, capture_output=True, text=True, timeout=60)
    replies = [json.loads(line)["result"]["structuredContent"] for line in proc.stdout.splitlines()]
    for (name, _, cli_args), reply in zip(CALLS, replies, strict=True):
        expected = _hints_of(name, _cli(base, env, *cli_args))
        assert expected, f"the CLI's {name} used no configured hints"
        assert _hints_of(name, reply) == expected, name
    explicit = {"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                "params": {"name": "retrieve", "arguments": {"prompt": "what is waiting", "hints": "landlord"}}}
    proc = subprocess.run([*base, "mcp", "serve"], input=json.dumps(explicit) + "\n", env=env, capture_output=True,
                          text=True, timeout=60)
    given = json.loads(proc.stdout)["result"]["structuredContent"]["hints"]
    assert given == _cli(base, env, "retrieve", "--prompt", "what is waiting", "--hints", "landlord")["hints"]


def test_http_applies_the_configured_hints_as_the_cli_does(configured: tuple[list[str], dict[str, str]]) -> None:
    base, env = configured
    proc = subprocess.Popen([*base, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        url = json.loads(proc.stdout.readline())["url"].rstrip("/")  # type: ignore[union-attr]
        for name, args, cli_args in CALLS:
            req = urllib.request.Request(f"{url}/api/{name}", data=json.dumps(args).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as resp:
                served = json.loads(resp.read())
            assert _hints_of(name, served) == _hints_of(name, _cli(base, env, *cli_args)), name
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
